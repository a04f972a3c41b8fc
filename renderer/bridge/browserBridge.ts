// KioskBridge over `kiosk serve`'s HTTP/WebSocket API (for a browser, or Electron pointed at a
// server). The wire format is derived from the contract's tables (runtime/kiosk/bridge.ts),
// relative to `baseUrl` (the server root):
//   <verb> api/<path>             each call at its KIOSK_METHODS route (kioskHttpRequest), the
//                                 arguments in the path and (POST) the last one as the JSON body
//   WS   api/<push>               each push (KIOSK_PUSHES), one JSON event per message; the progress
//                                 socket is api/progress?client=ID and carries this page's own
//                                 sessions only (its asks send the header x-kiosk-client: ID; ID
//                                 is random per bridge)
//   POST api/operator/<method>    the operator/technician calls (operatorBridge.ts)
// Every response and event is validated with the contract's zod schemas; failures reject with BridgeError.
import type { z } from "zod";
import {
  KIOSK_METHOD_NAMES,
  KIOSK_METHODS,
  KIOSK_PUSH_NAMES,
  KIOSK_PUSHES,
  kioskHttpRequest,
  subscriptionName,
  type KioskArgs,
  type KioskBridge,
  type KioskMethod,
  type KioskPush,
} from "../../runtime/kiosk/bridge.ts";
import { BridgeError, kindForStatus } from "./errors.ts";
import { createHttpOperatorBridge } from "./operatorBridge.ts";

/** The subset of the DOM WebSocket the bridge uses (so tests can pass a fake). */
export interface WebSocketLike {
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: unknown) => void) | null;
  onerror: ((event: unknown) => void) | null;
  close(): void;
}
export type WebSocketFactory = (url: string) => WebSocketLike;

export interface BrowserBridgeOptions {
  fetch?: typeof fetch;
  webSocket?: WebSocketFactory;
  /** Per-request time limit (ms); `ask` gets `askTimeoutMs` since the assistant may take a while. */
  timeoutMs?: number;
  askTimeoutMs?: number;
  purchaseTimeoutMs?: number;
  /** First reconnect delay of the progress socket (doubles up to 10 s). */
  reconnectDelayMs?: number;
  setTimeout?: (fn: () => void, ms: number) => unknown;
  clearTimeout?: (handle: unknown) => void;
  /** Called with each pushed message that does not match its push's schema (it is dropped). */
  onInvalidMessage?: (data: unknown, error: string) => void;
  /** This page's progress client id (default: random); the server sends it its own sessions' progress only. */
  clientId?: string;
}

const MAX_RECONNECT_MS = 10_000;

function rootUrl(baseUrl: string): string {
  return baseUrl.endsWith("/") ? baseUrl : `${baseUrl}/`;
}

/** A push's socket URL: the HTTP base with a ws/wss scheme (and, for progress, this page's client id). */
export function pushSocketUrl(baseUrl: string, push: KioskPush, clientId?: string): string {
  const url = new URL(`api/${push}`, rootUrl(baseUrl));
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  if (clientId !== undefined) url.searchParams.set("client", clientId);
  return url.toString();
}

/** The progress socket's URL (with this page's client id). */
export function progressSocketUrl(baseUrl: string, clientId?: string): string {
  return pushSocketUrl(baseUrl, "progress", clientId);
}

/** A random progress client id (node/server.ts accepts 16–64 of [A-Za-z0-9_-]). */
export function newProgressClientId(): string {
  return globalThis.crypto.randomUUID().replace(/-/g, "");
}

function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.join(".") || "(root)"}: ${issue.message}`)
    .join("; ");
}

export function createBrowserBridge(baseUrl: string, options: BrowserBridgeOptions = {}): KioskBridge {
  const root = rootUrl(baseUrl);
  const doFetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const setTimer = options.setTimeout ?? ((fn, ms) => globalThis.setTimeout(fn, ms));
  const clearTimer = options.clearTimeout ?? ((handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>));
  const openSocket: WebSocketFactory =
    options.webSocket ?? ((url) => new globalThis.WebSocket(url) as unknown as WebSocketLike);
  const timeoutMs = options.timeoutMs ?? 10_000;
  const clientId = options.clientId ?? newProgressClientId();

  async function send(method: "GET" | "POST", path: string, body: unknown, limitMs: number): Promise<Response> {
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimer(() => {
      timedOut = true;
      controller.abort();
    }, limitMs);
    try {
      const init: RequestInit = { method, signal: controller.signal, headers: { accept: "application/json" } };
      if (body !== undefined) {
        init.body = JSON.stringify(body);
        init.headers = { accept: "application/json", "content-type": "application/json", "x-kiosk-client": clientId };
      }
      const response = await doFetch(new URL(path, root).toString(), init);
      if (!response.ok) {
        let detail = response.statusText;
        try {
          const payload = (await response.json()) as { error?: unknown; message?: unknown };
          detail = String(payload.error ?? payload.message ?? detail);
        } catch {
          // no JSON error body
        }
        throw new BridgeError(kindForStatus(response.status), `${method} /${path}: HTTP ${response.status} ${detail}`, response.status);
      }
      return response;
    } catch (error) {
      if (error instanceof BridgeError) throw error;
      if (timedOut) throw new BridgeError("timeout", `${method} /${path}: no answer within ${limitMs} ms`, undefined, { cause: error });
      throw new BridgeError("network", `${method} /${path}: ${error instanceof Error ? error.message : String(error)}`, undefined, { cause: error });
    } finally {
      clearTimer(timer);
    }
  }

  /** Calls that may take long get their own limit: the assistant's answer, the payment terminal. */
  const limits: Partial<Record<KioskMethod, number>> = { ask: options.askTimeoutMs ?? 60_000, purchase: options.purchaseTimeoutMs ?? 90_000 };

  async function call<M extends KioskMethod>(method: M, args: KioskArgs<M>): Promise<unknown> {
    const { verb, path, body } = kioskHttpRequest(method, args);
    const where = `api/${path}`;
    const response = await send(verb, where, body, limits[method] ?? timeoutMs);
    let payload: unknown;
    try {
      payload = await response.json();
    } catch (error) {
      throw new BridgeError("invalid_response", `${verb} /${where}: response is not JSON`, response.status, { cause: error });
    }
    const parsed = (KIOSK_METHODS[method].result as z.ZodType).safeParse(payload);
    if (!parsed.success) {
      throw new BridgeError("invalid_response", `${verb} /${where}: ${describeIssues(parsed.error)}`, response.status, { cause: parsed.error });
    }
    return parsed.data;
  }

  // --- push sockets: each opened for its first listener, closed with its last, reconnecting meanwhile.
  function pushChannel(push: KioskPush): (listener: (event: unknown) => void) => () => void {
    const listeners = new Set<(event: unknown) => void>();
    const schema = KIOSK_PUSHES[push].event as z.ZodType;
    let socket: WebSocketLike | null = null;
    let reconnectTimer: unknown = null;
    let reconnectDelay = options.reconnectDelayMs ?? 500;

    function connect(): void {
      const ws = openSocket(pushSocketUrl(baseUrl, push, push === "progress" ? clientId : undefined));
      socket = ws;
      ws.onopen = () => {
        reconnectDelay = options.reconnectDelayMs ?? 500;
      };
      ws.onmessage = (message) => {
        let data: unknown;
        try {
          data = typeof message.data === "string" ? JSON.parse(message.data) : message.data;
        } catch {
          options.onInvalidMessage?.(message.data, "not JSON");
          return;
        }
        const parsed = schema.safeParse(data);
        if (!parsed.success) {
          options.onInvalidMessage?.(data, describeIssues(parsed.error));
          return;
        }
        for (const listener of [...listeners]) listener(parsed.data);
      };
      ws.onerror = () => {
        // onclose follows and schedules the reconnect
      };
      ws.onclose = () => {
        if (socket !== ws) return;
        socket = null;
        if (listeners.size === 0) return;
        reconnectTimer = setTimer(() => {
          reconnectTimer = null;
          if (listeners.size > 0 && socket === null) connect();
        }, reconnectDelay);
        reconnectDelay = Math.min(reconnectDelay * 2, MAX_RECONNECT_MS);
      };
    }

    function disconnect(): void {
      if (reconnectTimer !== null) {
        clearTimer(reconnectTimer);
        reconnectTimer = null;
      }
      const ws = socket;
      socket = null;
      ws?.close();
    }

    return (listener) => {
      listeners.add(listener);
      if (socket === null && reconnectTimer === null) connect();
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0) disconnect();
      };
    };
  }

  const calls = Object.fromEntries(KIOSK_METHOD_NAMES.map((method) => [method, (...args: unknown[]) => call(method, args as KioskArgs<typeof method>)]));
  const pushes = Object.fromEntries(KIOSK_PUSH_NAMES.map((push) => [subscriptionName(push), pushChannel(push)]));
  return {
    ...(calls as unknown as KioskBridge),
    ...(pushes as unknown as KioskBridge),
    operator: createHttpOperatorBridge(root, { fetch: doFetch, clientId }),
  };
}
