// `kiosk serve`: the KioskBridge over HTTP + WebSocket (Node `http` and `ws`), and the built
// renderer as static files. Wire format (the renderer's browser bridge implements the other side),
// derived from the contract's tables (runtime/kiosk/bridge.ts):
//   <verb> /api/<path>                 each passenger call, at its KIOSK_METHODS route (e.g. GET
//                                      /api/systems/:system, POST /api/ask with the AskRequest as
//                                      the JSON body, GET /api/tickets/:ticketId) → its result as JSON
//   WS   /api/<push>                   each push (KIOSK_PUSHES), one JSON event per message; the
//                                      progress push needs ?client=ID and carries only the sessions
//                                      this client (header x-kiosk-client: ID on its asks) started
//   POST /api/operator/<method>        operator/technician tools (OPERATOR_METHODS: request → result;
//                                      401 without a live operator session, 409 conflict, 503 none)
//   GET  /*                            renderer/dist (index.html for unknown paths without an extension)
// Every argument is validated with the bridge's zod schemas (400 naming the bad field); errors
// are JSON `{error, field?, issues?}`. Bound to localhost by default, with a Host check against DNS
// rebinding (also when bound to 0.0.0.0: IP literals and --allowed-host names only), a same-origin
// check on POST and WebSocket, a limit on progress sockets, no source maps, and the kiosk's
// security headers. A malformed request is a 4xx for that request only (http-guards.ts). Asks and
// operator logins carry their source (requestSource: the remote address, plus the page's client id
// on loopback): a source's unpaid sessions and wrong PINs hold back that source, not the others.
import { AsyncLocalStorage } from "node:async_hooks";
import { createReadStream, existsSync, statSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import path from "node:path";
import { WebSocketServer, type WebSocket } from "ws";
import type { z } from "zod";
import { callOperator, OperatorError, parseOperatorRequest, type OperatorBackend } from "../../operator/console.ts";
import { KioskRequestError, KioskUnavailableError } from "../app.ts";
import {
  KIOSK_METHODS,
  KIOSK_PUSH_NAMES,
  pushCurrent,
  matchKioskRoute,
  subscriptionName,
  type KioskPush,
  OPERATOR_FAILURE_STATUS,
  OPERATOR_METHODS,
  type OperatorMethod,
} from "../bridge.ts";
import { invokeKiosk, parseKioskArgs, type KioskBackend } from "../dispatch.ts";
import { SECURITY_HEADERS } from "../csp.ts";
import { KioskLimitError } from "../limits.ts";
import { contentTypeOf } from "./content-types.ts";
import { BodyRefusedError, closeIfBodyUnread, readJsonBody } from "./json-body.ts";
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
  requestSource,
} from "./http-guards.ts";

export const RENDERER_BUILD_COMMAND = "npx vite build --config renderer/vite.config.ts";
export const MAX_BODY_BYTES = 64 * 1024;
/** Operator requests carry whole framebooks (MAX_FRAMEBOOK_CHARS). */
export const MAX_OPERATOR_BODY_BYTES = 512 * 1024;

export interface KioskServerOptions {
  backend: KioskBackend;
  /** The PIN-protected operator/technician tools; absent: /api/operator/* answers 404. */
  operator?: OperatorBackend;
  /** `GET /metrics`: the kiosk's health in the Prometheus text format; absent: 404. */
  metrics?: { contentType: string; text(): Promise<string> };
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
  /** Open WebSockets of a push (/api/progress, …). */
  pushClients(push: KioskPush): number;
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

/**
 * A call's arguments failed their schema: 400 naming the field — a path parameter by its name, a
 * body field by its path in the body ("(body)" for the body itself).
 */
function argumentFailure(error: z.ZodError, routePath: string, bodyIndex: number): HttpError {
  const params = routePath.split("/").filter((segment) => segment.startsWith(":")).map((segment) => segment.slice(1));
  const issues = error.issues.slice(0, 10).map((issue) => {
    const [index, ...rest] = issue.path;
    const field = typeof index !== "number" ? "(body)" : index === bodyIndex ? rest.map(String).join(".") || "(body)" : (params[index] ?? "(path)");
    return { field, message: issue.message };
  });
  const first = issues[0] ?? { field: "(body)", message: "invalid" };
  return new HttpError(400, `invalid request: ${first.field}: ${first.message}`, { field: first.field, issues });
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
  if (err instanceof BodyRefusedError) return new HttpError(err.status, err.message, err.field ? { field: err.field } : {});
  if (err instanceof KioskRequestError) {
    // A system this kiosk does not run is a bad request field, as a malformed id is.
    if (err.code === "unknown_system") return new HttpError(400, `invalid request: system: ${err.message}`, { field: "system", code: err.code });
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
    if (method === "POST" && !originAllowed(req)) throw new HttpError(403, "cross-origin request refused");
    if (parts[0] === "operator" && parts.length === 2) return operatorCall(req, res, method, parts[1]!);
    const route = matchKioskRoute(method, parts);
    if (route === null || route === "wrong_verb") {
      const known = route === "wrong_verb" || parts[0] === "operator" || (parts.length === 1 && (KIOSK_PUSH_NAMES as string[]).includes(parts[0]!));
      throw new HttpError(known ? 405 : 404, known ? `method ${method} not allowed here` : `no such endpoint ${pathname}`);
    }
    const args: unknown[] = route.pathArgs.map((segment) => {
      const decoded = decodeSegment(segment);
      if (decoded === null) throw new HttpError(400, "bad percent-encoding in the path");
      return decoded;
    });
    if (route.body) args.push(await readJsonBody(req, MAX_BODY_BYTES));
    const parsed = parseKioskArgs(route.method, args);
    if (!parsed.ok) throw argumentFailure(parsed.error, KIOSK_METHODS[route.method].http.path, route.body ? args.length - 1 : -1);
    if (route.method === "endSession") sessionOwners.delete(String(parsed.args[0]));
    // A passenger who leaves (connection closed) aborts the answer being prepared for them.
    const abort = new AbortController();
    const onClose = (): void => {
      if (!res.writableFinished) abort.abort();
    };
    res.on("close", onClose);
    // Progress events of this call go to the client that made it (its x-kiosk-client header) alone.
    const client = progressClientOf(req.headers[PROGRESS_CLIENT_HEADER]) ?? "";
    try {
      const source = requestSource(req.socket.remoteAddress, req.headers[PROGRESS_CLIENT_HEADER]);
      return sendJson(res, 200, await asker.run(client, () => invokeKiosk(backend, route.method, parsed.args, abort.signal, source)));
    } finally {
      res.off("close", onClose);
    }
  }

  async function operatorCall(req: IncomingMessage, res: ServerResponse, method: string, name: string): Promise<void> {
    const operator = options.operator;
    if (!operator) throw new HttpError(404, "this kiosk has no operator tools");
    if (!Object.hasOwn(OPERATOR_METHODS, name)) throw new HttpError(404, `no such operator call '${name}'`);
    if (method !== "POST") throw new HttpError(405, `method ${method} not allowed here (operator calls are POST)`);
    const parsed = parseOperatorRequest(name as OperatorMethod, await readJsonBody(req, MAX_OPERATOR_BODY_BYTES));
    if (!parsed.ok) throw zodFailure(parsed.error);
    const source = requestSource(req.socket.remoteAddress, req.headers[PROGRESS_CLIENT_HEADER]);
    return sendJson(res, 200, await callOperator(operator, name as OperatorMethod, parsed.request, source));
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

  async function serveMetrics(req: IncomingMessage, res: ServerResponse, metrics: NonNullable<KioskServerOptions["metrics"]>): Promise<void> {
    if (req.method !== "GET" && req.method !== "HEAD") throw new HttpError(405, "use GET for /metrics");
    const body = await metrics.text();
    res.writeHead(200, { "Content-Type": metrics.contentType, "Content-Length": Buffer.byteLength(body), "Cache-Control": "no-store" });
    res.end(req.method === "HEAD" ? undefined : body);
  }

  const server = createServer((req, res) => {
    applySecurityHeaders(res);
    const handle = async (): Promise<void> => {
      if (!hostAllowed(req)) throw new HttpError(421, "unexpected Host header");
      const pathname = requestPathname(req.url);
      if (pathname === null) throw new HttpError(400, "bad request target");
      if (pathname === "/api" || pathname.startsWith("/api/")) await api(req, res, pathname);
      else if (pathname === "/metrics" && options.metrics) await serveMetrics(req, res, options.metrics);
      else serveStatic(req, res, pathname);
    };
    handle().catch((err: unknown) => {
      const failure = err instanceof RendererNotBuiltError ? new HttpError(503, err.message) : mapError(err);
      if (failure.status === 500) log(`internal error on ${req.method} ${req.url}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      if (res.headersSent) {
        res.destroy();
        return;
      }
      closeIfBodyUnread(req, res);
      sendJson(res, failure.status, { error: failure.message, ...failure.extra });
    });
  });

  // One one-way WebSocket per push (KIOSK_PUSHES): /api/progress, … Anything a client sends is ignored.
  const sockets = new WebSocketServer({ noServer: true, maxPayload: 1024 });
  const clients = new Map<KioskPush, Map<WebSocket, string>>(KIOSK_PUSH_NAMES.map((push) => [push, new Map()]));
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
      const push = KIOSK_PUSH_NAMES.find((name) => pathname === `/api/${name}`);
      if (!push || !hostAllowed(req) || !originAllowed(req)) return refuseUpgrade(socket, 403, "forbidden");
      // Progress is per client (a session's progress reaches the page that asked, no other); the
      // kiosk state is the same for everyone.
      const client = push === "progress" ? progressClientOf(requestQuery(req.url, "client")) : "";
      if (client === null) return refuseUpgrade(socket, 400, "the progress socket needs ?client=<16-64 letters, digits, - or _>");
      const open = [...clients.values()].reduce((n, m) => n + m.size, 0);
      const mine = client === "" ? 0 : [...clients.get(push)!.values()].filter((c) => c === client).length;
      if (open >= MAX_PROGRESS_SOCKETS || mine >= MAX_PROGRESS_SOCKETS_PER_CLIENT) return refuseUpgrade(socket, 503, "too many sockets");
      sockets.handleUpgrade(req, socket, head, (ws) => {
        const set = clients.get(push)!;
        set.set(ws, client);
        ws.on("close", () => set.delete(ws));
        ws.on("error", () => set.delete(ws));
        void sendCurrent(push, ws);
      });
    } catch (err) {
      log(`bad upgrade request refused: ${(err as Error).message}`);
      refuseUpgrade(socket, 400, "bad request");
    }
  });

  /** A push with a current value (the kiosk state) starts every new socket with it. */
  async function sendCurrent(push: KioskPush, ws: WebSocket): Promise<void> {
    const current = pushCurrent(push);
    if (!current) return;
    try {
      const value = await invokeKiosk(backend, current, [] as never);
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(value));
    } catch (err) {
      log(`cannot send the current ${push} to a new socket: ${(err as Error).message}`);
    }
  }

  /** Only the client whose ask a progress event belongs to hears it: no other session's progress or id. */
  function progressOwner(sessionId: string): string | undefined {
    const owner = asker.getStore() || sessionOwners.get(sessionId);
    if (owner && !sessionOwners.has(sessionId)) {
      if (sessionOwners.size >= 1000) sessionOwners.delete(sessionOwners.keys().next().value as string);
      sessionOwners.set(sessionId, owner);
    }
    return owner;
  }

  const unsubscribes = KIOSK_PUSH_NAMES.map((push) =>
    backend[subscriptionName(push)]((event: unknown) => {
      const owner = push === "progress" ? progressOwner((event as { sessionId: string }).sessionId) : "";
      if (owner === undefined) return;
      const message = JSON.stringify(event);
      for (const [ws, client] of clients.get(push)!) if ((push !== "progress" || client === owner) && ws.readyState === ws.OPEN) ws.send(message);
    }),
  );

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
    pushClients: (push) => clients.get(push)?.size ?? 0,
    close: async () => {
      for (const unsubscribe of unsubscribes) unsubscribe();
      for (const set of clients.values()) for (const ws of set.keys()) ws.terminate();
      sockets.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
