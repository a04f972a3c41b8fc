// `kiosk backoffice serve`: the fleet's back office (issue 18) — kiosks replicate their sales,
// voids and session lines to it (`kiosk serve --backoffice URL --kiosk-id ID`); it keeps them in
// PostgreSQL, exactly once per record, and creates or updates its schema on start.
import type { Command } from "commander";
import { BackOfficeStore, redact } from "../host/backoffice/store.ts";
import { startBackOfficeServer, type RunningBackOffice } from "../host/backoffice/server.ts";
import { commandDescription } from "./commands.ts";
import { UsageError } from "./context.ts";
import { FLEET_TOKEN_ENV, fleetToken } from "./fleet-token.ts";
import { PublicationStore } from "../host/backoffice/publications.ts";
import { registerPublicationCommands } from "./publications.ts";

export const BACKOFFICE_DB_ENV = "KIOSK_BACKOFFICE_DB";

export interface BackOfficeServeOptions {
  db: string;
  token: string;
  host?: string;
  port?: number;
  log?: (message: string) => void;
}

/** Open the database (migrating it) and start the ingestion endpoint; close() stops both. */
export async function startBackOffice(options: BackOfficeServeOptions): Promise<RunningBackOffice & { store: BackOfficeStore }> {
  const store = await BackOfficeStore.open(options.db);
  try {
    const server = await startBackOfficeServer({ store, publications: new PublicationStore(store.pool), token: options.token, ...(options.host ? { host: options.host } : {}), ...(options.port !== undefined ? { port: options.port } : {}), ...(options.log ? { log: options.log } : {}) });
    return {
      ...server,
      store,
      close: async () => {
        await server.close();
        await store.close();
      },
    };
  } catch (err) {
    await store.close();
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "EADDRINUSE") throw new UsageError(`port ${options.port ?? 8790} is already in use (choose another with --port)`);
    throw err;
  }
}

interface ServeCommandOptions {
  db?: string;
  port: string;
  host: string;
  tokenFile?: string;
}

export function registerBackOfficeCommands(program: Command): void {
  const backoffice = program.command("backoffice").description(commandDescription("backoffice"));
  registerPublicationCommands(backoffice, (flag) => {
    const db = flag ?? process.env[BACKOFFICE_DB_ENV];
    if (!db) throw new UsageError(`no database: give --db postgres://… or set $${BACKOFFICE_DB_ENV}`);
    return db;
  });
  backoffice
    .command("serve")
    .description("receive the fleet's replicated records over HTTP (POST /v1/records) into PostgreSQL")
    .option("--db <url>", `PostgreSQL connection string, e.g. postgres://kiosk@db.example/fleet (else $${BACKOFFICE_DB_ENV})`)
    .option("--port <n>", "TCP port", "8790")
    .option("--host <addr>", "address to listen on (0.0.0.0 to accept kiosks on the network)", "127.0.0.1")
    .option("--token-file <file>", `file holding the fleet token every kiosk sends (else $${FLEET_TOKEN_ENV})`)
    .action(async (opts: ServeCommandOptions) => {
      const db = opts.db ?? process.env[BACKOFFICE_DB_ENV];
      if (!db) throw new UsageError(`no database: give --db postgres://… or set $${BACKOFFICE_DB_ENV}`);
      const port = Number(opts.port);
      if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port: not a port number: '${opts.port}'`);
      const token = fleetToken(opts.tokenFile);
      let running: Awaited<ReturnType<typeof startBackOffice>>;
      try {
        running = await startBackOffice({ db, token, host: opts.host, port });
      } catch (err) {
        if (err instanceof UsageError) throw err;
        throw new UsageError((err as Error).message);
      }
      process.stderr.write(`kiosk backoffice: ${running.url} (database ${redact(db)}, schema version ${await running.store.schemaVersion()})\n`);
      const stop = (): void => {
        void running.close().then(() => process.exit(0));
      };
      process.once("SIGINT", stop);
      process.once("SIGTERM", stop);
    });
}
