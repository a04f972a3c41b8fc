// The back office's HTTP ingestion endpoint (issue 18): kiosks POST batches of outbox records
// (runtime/fleet/protocol.ts) with the fleet token; a valid batch is stored in one transaction and
// answered with the keys now held, so the kiosk may mark them sent. A body that is too large, not
// JSON or fails the schema is a 4xx naming the fields, and nothing of it is stored.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { timingSafeEqual } from "node:crypto";
import { HEARTBEAT_PATH, HeartbeatSchema, INGEST_PATH, MAX_BATCH_BYTES, MAX_HEARTBEAT_BYTES, RecordBatchEnvelopeSchema, describeIssues, type RecordRefusal } from "../../runtime/fleet/protocol.ts";
import { fleetPages, isPagePath, type FleetPagesOptions } from "./pages.ts";
import { RecordsRefusedError, type BackOfficeStore } from "./store.ts";
import { screenRecords, type FleetSaleBounds } from "./plausible.ts";
import { publicationRoute, type PublicationStore } from "./publications.ts";
import { BodyRefusedError, closeIfBodyUnread, readJsonBody } from "../../runtime/kiosk/node/json-body.ts";
import { hostAllowed } from "../../runtime/kiosk/node/http-guards.ts";

export interface BackOfficeServerOptions {
  /** Where batches go (a BackOfficeStore; the validation tests stand a fake in). */
  store: Pick<BackOfficeStore, "ingest" | "schemaVersion">;
  /** Each system's currency and sale bounds: a record no kiosk of the fleet could make is refused. */
  saleBounds: FleetSaleBounds;
  /**
   * Who may send: the fleet's shared token (every kiosk sends it), or a function deciding per
   * kiosk id and token (a token per kiosk).
   */
  token: string | ((kioskId: string, token: string) => boolean | Promise<boolean>);
  /** Where heartbeats go (POST /v1/heartbeat); absent: that endpoint answers 404. */
  heartbeats?: Pick<BackOfficeStore, "recordHeartbeat">;
  /** The fleet page and its login (GET /, /login, /v1/kiosks); absent: not served. */
  pages?: FleetPagesOptions;
  /** Signed distribution (publications.ts); absent: the back office publishes nothing. */
  publications?: Pick<PublicationStore, "pending" | "recordResult" | "report">;
  host?: string;
  /**
   * Bound elsewhere than loopback: the host names the pages answer to besides IP addresses (the
   * DNS-rebinding guard of the login and fleet page; kiosks' bearer-token calls are not affected).
   */
  allowedHosts?: readonly string[];
  port?: number;
  log?: (message: string) => void;
}

export interface RunningBackOffice {
  url: string;
  port: number;
  close(): Promise<void>;
}

class HttpFailure extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly fields: string[] = [],
    readonly refused: RecordRefusal[] = [],
  ) {
    super(message);
  }
}

function refusal(refused: RecordRefusal[]): HttpFailure {
  const first = refused[0]!;
  return new HttpFailure(400, `${refused.length} record(s) no kiosk could have made, e.g. ${first.key}: ${first.reason}; nothing of the batch was stored`, [], refused);
}

function sameToken(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

function readBody(req: IncomingMessage): Promise<unknown> {
  return readJsonBody(req, MAX_BATCH_BYTES);
}

function answer(res: ServerResponse, status: number, value: unknown): void {
  const body = JSON.stringify(value);
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", "content-length": Buffer.byteLength(body) });
  res.end(body);
}

export async function startBackOfficeServer(options: BackOfficeServerOptions): Promise<RunningBackOffice> {
  const log = options.log ?? ((m: string) => console.error(`backoffice: ${m}`));
  const authorized = typeof options.token === "string" ? ((fleet: string) => (_kiosk: string, given: string) => sameToken(fleet, given))(options.token) : options.token;

  const ingest = async (req: IncomingMessage): Promise<unknown> => {
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1] ?? null;
    if (bearer === null) throw new HttpFailure(401, "missing Authorization: Bearer <fleet token>");
    const parsed = RecordBatchEnvelopeSchema.safeParse(await readBody(req));
    if (!parsed.success) {
      const issues = describeIssues(parsed.error).slice(0, 20);
      throw new HttpFailure(400, `invalid batch: ${issues.join("; ")}`, parsed.error.issues.slice(0, 20).map((i) => i.path.join(".") || "(body)"));
    }
    if (!(await authorized(parsed.data.kioskId, bearer))) throw new HttpFailure(403, `kiosk ${parsed.data.kioskId}: wrong token`);
    const screened = screenRecords(parsed.data.records, options.saleBounds);
    if (screened.refused.length > 0) throw refusal(screened.refused);
    try {
      return await options.store.ingest({ ...parsed.data, records: screened.records });
    } catch (err) {
      if (err instanceof RecordsRefusedError) throw refusal(err.refused);
      throw err;
    }
  };
  const pages = options.pages ? fleetPages(options.pages) : null;
  const heartbeat = async (req: IncomingMessage): Promise<unknown> => {
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1] ?? null;
    if (bearer === null) throw new HttpFailure(401, "missing Authorization: Bearer <token>");
    const parsed = HeartbeatSchema.safeParse(await readJsonBody(req, MAX_HEARTBEAT_BYTES));
    if (!parsed.success) throw new HttpFailure(400, `invalid heartbeat: ${describeIssues(parsed.error).slice(0, 20).join("; ")}`, parsed.error.issues.slice(0, 20).map((i) => i.path.join(".") || "(body)"));
    if (!(await authorized(parsed.data.kioskId, bearer))) throw new HttpFailure(403, `kiosk ${parsed.data.kioskId}: wrong token`);
    await options.heartbeats!.recordHeartbeat(parsed.data, (options.pages?.clock ?? (() => new Date()))());
    return { ok: true };
  };

  const server: Server = createServer((req, res) => {
    const pathname = (req.url ?? "/").split("?")[0];
    const handle = async (): Promise<void> => {
      if (pathname === INGEST_PATH && req.method === "POST") return answer(res, 200, await ingest(req));
      if (pathname === HEARTBEAT_PATH && req.method === "POST" && options.heartbeats) return answer(res, 200, await heartbeat(req));
      const published = options.publications
        ? await publicationRoute(req, new URL(req.url ?? "/", "http://backoffice"), { store: options.publications, authorized, readBody, fail: (status, message, fields) => new HttpFailure(status, message, fields) })
        : null;
      if (published) return answer(res, published.status, published.body);
      if (pages && isPagePath(pathname ?? "/") && !hostAllowed(req.headers.host, options.host ?? "127.0.0.1", options.allowedHosts)) throw new HttpFailure(421, "unexpected Host header");
      if (pages && (await pages.handle(req, res, pathname ?? "/"))) return;
      if (pathname === "/v1/health" && req.method === "GET") return answer(res, 200, { ok: true, schemaVersion: await options.store.schemaVersion() });
      throw new HttpFailure(404, `no ${req.method ?? ""} ${pathname ?? ""} here`);
    };
    handle().catch((caught: unknown) => {
      if (res.headersSent) return res.destroy();
      closeIfBodyUnread(req, res);
      const err = caught instanceof BodyRefusedError ? new HttpFailure(caught.status, caught.message, caught.field ? [caught.field] : []) : caught;
      if (err instanceof HttpFailure) {
        return answer(res, err.status, { error: err.message, ...(err.fields.length > 0 ? { fields: err.fields } : {}), ...(err.refused.length > 0 ? { refused: err.refused } : {}) });
      }
      log(`ingestion failed: ${(err as Error).message}`);
      answer(res, 503, { error: "the back office cannot store records right now; retry later" });
    });
  });
  // A request (headers and body) that trickles in is cut off: one slow client cannot hold a socket for long.
  server.requestTimeout = 30_000;
  server.headersTimeout = 10_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 8790, options.host ?? "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host ?? "127.0.0.1";
  return {
    url: `http://${host.includes(":") ? `[${host}]` : host}:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
