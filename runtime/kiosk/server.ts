// `kiosk serve`: the KioskBridge over HTTP + WebSocket (Node `http` and `ws`), and the built
// renderer as static files. Wire format (the renderer's browser bridge implements the other side):
//   GET  /api/systems               → SystemSummary[]
//   GET  /api/systems/:id           → SystemView
//   POST /api/ask                     AskRequest → AskResult
//   POST /api/purchase                PurchaseRequest → PurchaseResult
//   POST /api/sessions/:id/end      → 204
//   GET  /api/status                → KioskStatus
//   GET  /api/tickets/:id           → TicketLookupResult (an issued ticket, fetched again)
//   WS   /api/progress?client=ID    ← ProgressEvent JSON, one per message, of the sessions this
//                                     client (header x-kiosk-client: ID on its asks) started only
//   POST /api/operator/<method>        operator/technician tools (OPERATOR_METHODS: request → result;
//                                     401 without a live operator session, 409 conflict, 503 none)
//   GET  /*                         → renderer/dist (index.html for unknown paths without an extension)
// Every request body is validated with the bridge's zod schemas (400 naming the bad field); errors
// are JSON `{error, field?, issues?}`. Bound to localhost by default, with a Host check against DNS
// rebinding (also when bound to 0.0.0.0: IP literals and --allowed-host names only), a same-origin
// check on POST and WebSocket, a limit on progress sockets, no source maps, and the kiosk's
// security headers. A malformed request is a 4xx for that request only (http-guards.ts).
import { AsyncLocalStorage } from "node:async_hooks";
import { createReadStream, existsSync, statSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import path from "node:path";
import { WebSocketServer, type WebSocket } from "ws";
import type { z } from "zod";
import { SystemIdSchema } from "../../tools/data/schemas.ts";
import { callOperator, OperatorError, parseOperatorRequest, type OperatorBackend } from "../operator/console.ts";
import { KioskRequestError, KioskUnavailableError } from "./app.ts";
import {
  decodeSegment,
  hostAllowed as hostIsAllowed,
  isSourceMap,
  MAX_PROGRESS_SOCKETS,
  MAX_PROGRESS_SOCKETS_PER_CLIENT,
  PROGRESS_CLIENT_HEADER,
  progressClientOf,
  rawHttpError,
  requestPathname,
  requestQuery,
} from "./http-guards.ts";
import { KioskLimitError } from "./limits.ts";
import {
  AskRequestSchema,
  OPERATOR_FAILURE_STATUS,
  OPERATOR_METHODS,
  PurchaseRequestSchema,
  type OperatorMethod,
  type AskRequest,
  type AskResult,
  type KioskStatus,
  type ProgressEvent,
  type PurchaseRequest,
  type PurchaseResult,
  type SystemSummary,
  type SystemView,
  type TicketLookupResult,
} from "./bridge.ts";
import { SECURITY_HEADERS } from "./csp.ts";
import { contentTypeOf } from "./content-types.ts";

/** What the server needs from the kiosk runtime (KioskApp implements it). */
export interface KioskBackend {
  listSystems(): SystemSummary[] | Promise<SystemSummary[]>;
  systemView(id: SystemView["id"]): SystemView | Promise<SystemView>;
  ask(request: AskRequest, signal?: AbortSignal): Promise<AskResult>;
  purchase(request: PurchaseRequest): Promise<PurchaseResult>;
  endSession(sessionId: string): void | Promise<void>;
  status(): KioskStatus | Promise<KioskStatus>;
  onProgress(listener: (event: ProgressEvent) => void): () => void;
  /** An issued ticket by id (absent: GET /api/tickets/:id answers 404). */
  ticket?(ticketId: string): TicketLookupResult | Promise<TicketLookupResult>;
}

export const RENDERER_BUILD_COMMAND = "npx vite build --config renderer/vite.config.ts";
export const MAX_BODY_BYTES = 64 * 1024;
/** Operator requests carry whole framebooks (MAX_FRAMEBOOK_CHARS). */
export const MAX_OPERATOR_BODY_BYTES = 512 * 1024;
const SESSION_ID_MAX = 100;

export interface KioskServerOptions {
  backend: KioskBackend;
  /** The PIN-protected operator/technician tools; absent: /api/operator/* answers 404. */
  operator?: OperatorBackend;
  /** The built renderer (renderer/dist); null serves the API only. */
  staticDir: string | null;
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** Host names (besides loopback names and IP literals) a non-loopback server answers to. */
  allowedHosts?: readonly string[];
  log?: (message: string) => void;
}

export interface RunningKioskServer {
  url: string;
  port: number;
  host: string;
  server: Server;
  /** Open /api/progress WebSockets. */
  progressClients(): number;
  close(): Promise<void>;
}

/** The renderer build is missing: what to tell the operator. */
export class RendererNotBuiltError extends Error {
  override name = "RendererNotBuiltError";
  constructor(readonly dir: string) {
    super(`the kiosk screen is not built: ${path.join(dir, "index.html")} does not exist. Build it first with: ${RENDERER_BUILD_COMMAND}`);
  }
}

export function checkRendererBuilt(dir: string): void {
  if (!existsSync(path.join(dir, "index.html"))) throw new RendererNotBuiltError(dir);
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}


function zodFailure(error: z.ZodError): HttpError {
  const issues = error.issues.slice(0, 10).map((i) => ({ field: i.path.map(String).join(".") || "(body)", message: i.message }));
  const first = issues[0] ?? { field: "(body)", message: "invalid" };
  return new HttpError(400, `invalid request: ${first.field}: ${first.message}`, { field: first.field, issues });
}

async function readJson(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<unknown> {
  const type = (req.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
  if (type !== "application/json") throw new HttpError(415, "expected a JSON body (content-type: application/json)");
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new HttpError(413, `request body larger than ${limit} bytes`);
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString("utf8");
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new HttpError(400, "request body is not valid JSON", { field: "(body)" });
  }
}

function validate<T>(schema: z.ZodType<T>, value: unknown): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw zodFailure(parsed.error);
  return parsed.data;
}

function applySecurityHeaders(res: ServerResponse): void {
  for (const [k, v] of Object.entries(SECURITY_HEADERS)) res.setHeader(k, v);
}

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  const body = JSON.stringify(value);
  res.writeHead(status, { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store", "Content-Length": Buffer.byteLength(body) });
  res.end(body);
}

function mapError(err: unknown): HttpError {
  if (err instanceof HttpError) return err;
  if (err instanceof KioskRequestError) {
    return new HttpError(err.code === "wrong_system" ? 409 : 404, err.message, { code: err.code });
  }
  if (err instanceof KioskUnavailableError) return new HttpError(503, err.message);
  if (err instanceof KioskLimitError) return new HttpError(err.code === "kiosk_busy" ? 503 : 413, err.message, { code: err.code });
  if (err instanceof OperatorError) return new HttpError(OPERATOR_FAILURE_STATUS[err.code], err.message, { code: err.code });
  return new HttpError(500, "internal error");
}

export async function startKioskServer(options: KioskServerOptions): Promise<RunningKioskServer> {
  const host = options.host ?? "127.0.0.1";
  const log = options.log ?? ((m: string) => console.error(`kiosk serve: ${m}`));
  const { backend } = options;
  const staticRoot = options.staticDir ? path.resolve(options.staticDir) : null;

  /** DNS-rebinding guard (http-guards.ts): names that cannot be rebound only. */
  function hostAllowed(req: IncomingMessage): boolean {
    return hostIsAllowed(req.headers.host, host, options.allowedHosts ?? []);
  }
  /** Which progress client made the request being answered (progress events go to it alone). */
  const asker = new AsyncLocalStorage<string>();

  /** Browsers send Origin on cross-origin requests and WebSockets: it must be this server. */
  function originAllowed(req: IncomingMessage): boolean {
    const origin = req.headers.origin;
    if (origin === undefined) return true;
    try {
      const o = new URL(origin);
      return o.host === req.headers.host && (o.protocol === "http:" || o.protocol === "https:");
    } catch {
      return false;
    }
  }

  async function api(req: IncomingMessage, res: ServerResponse, pathname: string): Promise<void> {
    const method = req.method ?? "GET";
    const parts = pathname.split("/").filter(Boolean).slice(1); // after "api"
    const route = `${method} ${parts[0] ?? ""}`;
    if (method === "POST" && !originAllowed(req)) throw new HttpError(403, "cross-origin request refused");
    if (route === "GET systems" && parts.length === 1) return sendJson(res, 200, await backend.listSystems());
    if (route === "GET systems" && parts.length === 2) {
      const raw = decodeSegment(parts[1]!);
      if (raw === null) throw new HttpError(400, "bad percent-encoding in the system id", { field: "id" });
      const id = SystemIdSchema.safeParse(raw);
      if (!id.success) throw new HttpError(404, `unknown system '${raw.slice(0, 40)}'`, { field: "id" });
      return sendJson(res, 200, await backend.systemView(id.data));
    }
    if (route === "GET tickets" && parts.length === 2) {
      const id = decodeSegment(parts[1]!);
      if (id === null || id.length === 0 || id.length > SESSION_ID_MAX) throw new HttpError(400, "invalid ticket id", { field: "id" });
      if (!backend.ticket) throw new HttpError(404, "this kiosk cannot look tickets up");
      return sendJson(res, 200, await backend.ticket(id));
    }
    if (route === "POST ask" && parts.length === 1) {
      const request = validate(AskRequestSchema, await readJson(req));
      const abort = new AbortController();
      const onClose = (): void => {
        if (!res.writableFinished) abort.abort();
      };
      res.on("close", onClose);
      const client = progressClientOf(req.headers[PROGRESS_CLIENT_HEADER]) ?? "";
      try {
        return sendJson(res, 200, await asker.run(client, () => backend.ask(request, abort.signal)));
      } finally {
        res.off("close", onClose);
      }
    }
    if (route === "POST purchase" && parts.length === 1) {
      const request = validate(PurchaseRequestSchema, await readJson(req));
      return sendJson(res, 200, await backend.purchase(request));
    }
    if (route === "POST sessions" && parts.length === 3 && parts[2] === "end") {
      const id = decodeSegment(parts[1]!);
      if (id === null || id.length === 0 || id.length > SESSION_ID_MAX) throw new HttpError(400, "invalid session id", { field: "id" });
      sessionOwners.delete(id);
      await backend.endSession(id);
      res.writeHead(204, { "Cache-Control": "no-store" });
      res.end();
      return;
    }
    if (route === "GET status" && parts.length === 1) return sendJson(res, 200, await backend.status());
    if (parts[0] === "operator" && parts.length === 2) return operatorCall(req, res, method, parts[1]!);
    const known = ["systems", "ask", "purchase", "sessions", "status", "progress", "operator", "tickets"].includes(parts[0] ?? "");
    throw new HttpError(known ? 405 : 404, known ? `method ${method} not allowed here` : `no such endpoint ${pathname}`);
  }

  async function operatorCall(req: IncomingMessage, res: ServerResponse, method: string, name: string): Promise<void> {
    const operator = options.operator;
    if (!operator) throw new HttpError(404, "this kiosk has no operator tools");
    if (!Object.hasOwn(OPERATOR_METHODS, name)) throw new HttpError(404, `no such operator call '${name}'`);
    if (method !== "POST") throw new HttpError(405, `method ${method} not allowed here (operator calls are POST)`);
    const parsed = parseOperatorRequest(name as OperatorMethod, await readJson(req, MAX_OPERATOR_BODY_BYTES));
    if (!parsed.ok) throw zodFailure(parsed.error);
    return sendJson(res, 200, await callOperator(operator, name as OperatorMethod, parsed.request));
  }

  function serveStatic(req: IncomingMessage, res: ServerResponse, pathname: string): void {
    if (req.method !== "GET" && req.method !== "HEAD") throw new HttpError(405, "method not allowed");
    if (!staticRoot) throw new HttpError(404, "this server has no kiosk screen (API only)");
    const relative = decodeSegment(pathname);
    if (relative === null || relative.includes("\0")) throw new HttpError(400, "bad path");
    if (isSourceMap(relative)) throw new HttpError(404, "not found");
    let file = path.resolve(staticRoot, `.${path.posix.normalize(relative)}`);
    if (file !== staticRoot && !file.startsWith(staticRoot + path.sep)) throw new HttpError(404, "not found");
    if (existsSync(file) && statSync(file).isDirectory()) file = path.join(file, "index.html");
    if (!existsSync(file) || !statSync(file).isFile()) {
      // Client-side routes (no extension) get the app; missing assets are 404.
      if (path.extname(relative) !== "") throw new HttpError(404, "not found");
      file = path.join(staticRoot, "index.html");
      if (!existsSync(file)) throw new RendererNotBuiltError(staticRoot);
    }
    const type = contentTypeOf(file);
    const immutable = /\/assets\//.test(file.replaceAll(path.sep, "/"));
    res.writeHead(200, {
      "Content-Type": type,
      "Content-Length": statSync(file).size,
      "Cache-Control": immutable ? "public, max-age=31536000, immutable" : "no-cache",
    });
    if (req.method === "HEAD") {
      res.end();
      return;
    }
    createReadStream(file).pipe(res);
  }

  const server = createServer((req, res) => {
    applySecurityHeaders(res);
    const handle = async (): Promise<void> => {
      if (!hostAllowed(req)) throw new HttpError(421, "unexpected Host header");
      const pathname = requestPathname(req.url);
      if (pathname === null) throw new HttpError(400, "bad request target");
      if (pathname === "/api" || pathname.startsWith("/api/")) await api(req, res, pathname);
      else serveStatic(req, res, pathname);
    };
    handle().catch((err: unknown) => {
      const failure = err instanceof RendererNotBuiltError ? new HttpError(503, err.message) : mapError(err);
      if (failure.status === 500) log(`internal error on ${req.method} ${req.url}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      if (res.headersSent) {
        res.destroy();
        return;
      }
      sendJson(res, failure.status, { error: failure.message, ...failure.extra });
    });
  });

  const sockets = new WebSocketServer({ noServer: true, maxPayload: 1024 });
  const clients = new Map<WebSocket, string>();
  /** Session id → the progress client whose ask started it (bounded; ended sessions dropped). */
  const sessionOwners = new Map<string, string>();
  const refuseUpgrade = (socket: Duplex, status: 400 | 403 | 503, reason: string): void => {
    try {
      socket.end(rawHttpError(status, reason));
    } finally {
      socket.destroy();
    }
  };
  server.on("upgrade", (req, socket, head) => {
    try {
      const pathname = requestPathname(req.url);
      if (pathname === null) return refuseUpgrade(socket, 400, "bad request target");
      if (pathname !== "/api/progress" || !hostAllowed(req) || !originAllowed(req)) return refuseUpgrade(socket, 403, "forbidden");
      const client = progressClientOf(requestQuery(req.url, "client"));
      if (client === null) return refuseUpgrade(socket, 400, "the progress socket needs ?client=<16-64 letters, digits, - or _>");
      const mine = [...clients.values()].filter((c) => c === client).length;
      if (clients.size >= MAX_PROGRESS_SOCKETS || mine >= MAX_PROGRESS_SOCKETS_PER_CLIENT) return refuseUpgrade(socket, 503, "too many progress sockets");
      sockets.handleUpgrade(req, socket, head, (ws) => {
        clients.set(ws, client);
        ws.on("close", () => clients.delete(ws));
        ws.on("error", () => clients.delete(ws));
        // The progress channel is one-way; anything a client sends is ignored.
      });
    } catch (err) {
      log(`bad upgrade request refused: ${(err as Error).message}`);
      refuseUpgrade(socket, 400, "bad request");
    }
  });
  const unsubscribe = backend.onProgress((event) => {
    // Only the client whose ask the event belongs to hears it: no other session's progress or id.
    const owner = asker.getStore() || sessionOwners.get(event.sessionId);
    if (!owner) return;
    if (!sessionOwners.has(event.sessionId)) {
      if (sessionOwners.size >= 1000) sessionOwners.delete(sessionOwners.keys().next().value as string);
      sessionOwners.set(event.sessionId, owner);
    }
    const message = JSON.stringify(event);
    for (const [ws, client] of clients) if (client === owner && ws.readyState === ws.OPEN) ws.send(message);
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 8787, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const boundPort = (server.address() as AddressInfo).port;
  const urlHost = host.includes(":") ? `[${host}]` : host === "0.0.0.0" ? "127.0.0.1" : host;
  return {
    url: `http://${urlHost}:${boundPort}/`,
    port: boundPort,
    host,
    server,
    progressClients: () => clients.size,
    close: async () => {
      unsubscribe();
      for (const ws of clients.keys()) ws.terminate();
      sockets.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
