// `kiosk backoffice serve`: the fleet's back office (issue 18) — kiosks replicate their sales,
// voids and session lines to it (`kiosk serve --backoffice URL --kiosk-id ID`); it keeps them in
// PostgreSQL, exactly once per record, and creates or updates its schema on start.
import type { Command } from "commander";
import { BackOfficeStore, redact } from "../host/backoffice/store.ts";
import { startBackOfficeServer, type RunningBackOffice } from "../host/backoffice/server.ts";
import { commandDescription } from "./commands.ts";
import { dataPack, UsageError, type GlobalOptions } from "./context.ts";
import type { DataPack } from "../tools/data/datapack.ts";
import { saleBoundsFromPack } from "../host/backoffice/plausible.ts";
import { FLEET_TOKEN_ENV, fleetToken } from "./fleet-token.ts";
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { KioskIdSchema } from "../runtime/fleet/protocol.ts";
import { hashKioskToken, hashPassword, kioskAuthorizer, newKioskToken } from "../host/backoffice/auth.ts";
import { PublicationStore } from "../host/backoffice/publications.ts";
import { registerPublicationCommands } from "./publications.ts";

export const BACKOFFICE_DB_ENV = "KIOSK_BACKOFFICE_DB";

export interface BackOfficeServeOptions {
  db: string;
  /** The fleet's systems: a replicated sale must be in its system's currency and within its sale bounds. */
  pack: DataPack;
  /** The fleet's shared token (optional: per-kiosk tokens from `add-kiosk` are preferred). */
  token: string | null;
  /** Seconds of silence after which a kiosk is shown stale (default 120). */
  staleAfterS?: number;
  /** The time zone "sales today" is counted in (default UTC). */
  timeZone?: string;
  clock?: () => Date;
  host?: string;
  port?: number;
  /** Host names the login and fleet page answer to besides IP addresses (bound elsewhere than loopback). */
  allowedHosts?: readonly string[];
  /** Served over HTTPS by a TLS reverse proxy: session cookies are `Secure`. */
  secureCookies?: boolean;
  log?: (message: string) => void;
}

/** Open the database (migrating it) and start the ingestion endpoint; close() stops both. */
export async function startBackOffice(options: BackOfficeServeOptions): Promise<RunningBackOffice & { store: BackOfficeStore }> {
  const store = await BackOfficeStore.open(options.db);
  try {
    // A kiosk's own token (for that kiosk only), else — deprecated — the fleet token for kiosks without one.
    const log = options.log ?? ((m: string) => console.error(`backoffice: ${m}`));
    const warned = new Set<string>();
    if (options.token !== null) log("the shared fleet token is deprecated: it is accepted only for kiosk ids without a token of their own (give each kiosk one with 'kiosk backoffice add-kiosk')");
    const authorize = kioskAuthorizer(store, options.token, (kioskId) => {
      if (warned.has(kioskId) || warned.size >= 1000) return;
      warned.add(kioskId);
      log(`kiosk ${kioskId} uses the deprecated shared fleet token`);
    });
    const pages = { store, ...(options.secureCookies ? { secureCookies: true } : {}), ...(options.staleAfterS !== undefined ? { staleAfterS: options.staleAfterS } : {}), ...(options.timeZone ? { timeZone: options.timeZone } : {}), ...(options.clock ? { clock: options.clock } : {}) };
    const server = await startBackOfficeServer({
      store,
      saleBounds: saleBoundsFromPack(options.pack),
      token: authorize,
      heartbeats: store,
      pages,
      publications: new PublicationStore(store.pool),
      ...(options.host ? { host: options.host } : {}),
      ...(options.allowedHosts ? { allowedHosts: options.allowedHosts } : {}),
      ...(options.port !== undefined ? { port: options.port } : {}),
      ...(options.log ? { log: options.log } : {}),
    });
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

interface ServeCommandOptions extends GlobalOptions {
  db?: string;
  port: string;
  host: string;
  tokenFile?: string;
  staleAfter: string;
  timeZone: string;
  allowedHost?: string[];
  secureCookies?: boolean;
}

async function withStore<T>(db: string | undefined, work: (store: BackOfficeStore) => Promise<T>): Promise<T> {
  const url = db ?? process.env[BACKOFFICE_DB_ENV];
  if (!url) throw new UsageError(`no database: give --db postgres://… or set $${BACKOFFICE_DB_ENV}`);
  let store: BackOfficeStore;
  try {
    store = await BackOfficeStore.open(url);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}

/** The password from --password-file (first line), else read twice from the terminal / stdin. */
async function readPassword(file: string | undefined): Promise<string> {
  let password: string;
  if (file) {
    password = readFileSync(file, "utf8").split(/\r?\n/)[0] ?? "";
  } else {
    const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: process.stdin.isTTY });
    const lines = rl[Symbol.asyncIterator]();
    const ask = async (prompt: string): Promise<string> => {
      process.stderr.write(prompt);
      const next = await lines.next();
      return next.done ? "" : String(next.value);
    };
    const first = await ask("password: ");
    const second = await ask("again: ");
    rl.close();
    if (first !== second) throw new UsageError("the two passwords differ");
    password = first;
  }
  if (password.length < 10) throw new UsageError("the password is too short (at least 10 characters)");
  return password;
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
    .option("--token-file <file>", `optional: a fleet token every kiosk may send (else $${FLEET_TOKEN_ENV}); per-kiosk tokens (add-kiosk) are preferred`)
    .option("--stale-after <seconds>", "mark a kiosk stale after this many seconds without a heartbeat", "120")
    .option("--time-zone <tz>", "the time zone 'sales today' is counted in", "UTC")
    .option("--allowed-host <name...>", "with --host 0.0.0.0: host names the login and fleet page answer to besides IP addresses (DNS-rebinding guard)")
    .option("--secure-cookies", "the back office is reached over HTTPS through a TLS reverse proxy: session cookies are sent over HTTPS only")
    .action(async (_o: unknown, cmd: Command) => {
      const opts = cmd.optsWithGlobals<ServeCommandOptions>();
      const db = opts.db ?? process.env[BACKOFFICE_DB_ENV];
      if (!db) throw new UsageError(`no database: give --db postgres://… or set $${BACKOFFICE_DB_ENV}`);
      const port = Number(opts.port);
      if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port: not a port number: '${opts.port}'`);
      // The fleet token is optional now: without one, only kiosks added with add-kiosk may send.
      const token = opts.tokenFile || process.env[FLEET_TOKEN_ENV] ? fleetToken(opts.tokenFile) : null;
      const staleAfterS = Number(opts.staleAfter);
      if (!(staleAfterS > 0)) throw new UsageError(`--stale-after: not a positive number of seconds: '${opts.staleAfter}'`);
      try {
        new Intl.DateTimeFormat("en", { timeZone: opts.timeZone });
      } catch {
        throw new UsageError(`--time-zone: not a time zone: '${opts.timeZone}' (e.g. UTC, Europe/Paris)`);
      }
      let running: Awaited<ReturnType<typeof startBackOffice>>;
      try {
        running = await startBackOffice({
          db,
          pack: dataPack(opts),
          token,
          host: opts.host,
          port,
          staleAfterS,
          timeZone: opts.timeZone,
          ...(opts.allowedHost ? { allowedHosts: opts.allowedHost } : {}),
          ...(opts.secureCookies ? { secureCookies: true } : {}),
        });
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
  backoffice
    .command("add-user <name>")
    .description("create or reset a user of the back-office page (password read twice from the terminal, or --password-file)")
    .option("--db <url>", `PostgreSQL connection string (else $${BACKOFFICE_DB_ENV})`)
    .option("--password-file <file>", "read the password from this file's first line")
    .action(async (name: string, opts: { db?: string; passwordFile?: string }) => {
      if (!/^[A-Za-z0-9._@-]{1,64}$/.test(name)) throw new UsageError(`user name '${name}': 1–64 letters, digits, '.', '_', '@' or '-'`);
      const password = await readPassword(opts.passwordFile);
      await withStore(opts.db, (store) => store.setUser(name, hashPassword(password)));
      process.stderr.write(`user ${name} saved\n`);
    });
  backoffice
    .command("add-kiosk <id>")
    .description("issue a kiosk its own token (printed once; only its hash is stored); replaces an earlier one")
    .option("--db <url>", `PostgreSQL connection string (else $${BACKOFFICE_DB_ENV})`)
    .action(async (id: string, opts: { db?: string }) => {
      const kioskId = KioskIdSchema.safeParse(id);
      if (!kioskId.success) throw new UsageError(`kiosk id '${id}': ${kioskId.error.issues[0]?.message ?? "invalid"}`);
      const token = newKioskToken();
      await withStore(opts.db, (store) => store.setKioskToken(kioskId.data, hashKioskToken(token)));
      process.stdout.write(`${token}\n`);
      process.stderr.write(`kiosk ${kioskId.data}: token above (shown once; put it in the kiosk's --fleet-token-file)\n`);
    });
  backoffice
    .command("revoke-kiosk <id>")
    .description("revoke a kiosk's own token (its requests are refused with 403 from now on)")
    .option("--db <url>", `PostgreSQL connection string (else $${BACKOFFICE_DB_ENV})`)
    .action(async (id: string, opts: { db?: string }) => {
      const revoked = await withStore(opts.db, (store) => store.revokeKioskToken(id));
      if (!revoked) throw new UsageError(`kiosk ${id} has no token to revoke`);
      process.stderr.write(`kiosk ${id}: token revoked\n`);
    });
}
