import { describe, expect, it, vi } from "vitest";
import type { ProgressEvent } from "../../runtime/kiosk/bridge.ts";
import { askResult, readyState } from "../test/fixtures.ts";
import { createBrowserBridge, progressSocketUrl, pushSocketUrl, type WebSocketLike } from "./browserBridge.ts";
import { DEMO_MARTA } from "./demoSystems.ts";
import { BridgeError } from "./errors.ts";
import { chooseBridge } from "./selectBridge.ts";
import { createFakeBridge } from "./fakeBridge.ts";
import { isKioskBridge, validatingBridge } from "./validatingBridge.ts";

interface Call {
  url: string;
  method: string;
  body: unknown;
}

function fakeFetch(routes: Record<string, (call: Call) => Response | Promise<Response>>) {
  const calls: Call[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    const call = { url, method: init?.method ?? "GET", body: init?.body ? JSON.parse(String(init.body)) : undefined };
    calls.push(call);
    const route = routes[`${call.method} ${new URL(url).pathname}`];
    if (!route) return new Response("not found", { status: 404 });
    return route(call);
  });
  return { fetch: fetch as unknown as typeof globalThis.fetch, calls };
}

const STATE = { assistant: "rule", benchRunning: false, message: null, model: null, salesAvailable: true, framebookVersions: { marta: "fb-1" } } as const;

const json = (value: unknown, status = 200): Response =>
  new Response(JSON.stringify(value), { status, headers: { "content-type": "application/json" } });

async function rejection(promise: Promise<unknown>): Promise<BridgeError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(BridgeError);
    return error as BridgeError;
  }
  throw new Error("expected a rejection");
}

describe("createBrowserBridge: HTTP", () => {
  it("implements every call on the agreed paths and validates the answers", async () => {
    const result = askResult(readyState());
    const ticket = {
      ticketId: "T-1", system: "marta", issuedAt: "2026-03-09T14:00:00Z", origin: "M-AP", destination: "M-MT", originId: "M-AP", destinationId: "M-MT",
      riders: { adults: 1 }, total: 2.5, currency: "USD", paymentMethod: "contactless",
    };
    const { fetch, calls } = fakeFetch({
      "GET /kiosk/api/systems": () => json([{ id: "marta", orgName: "MARTA", fullName: "Metropolitan Atlanta Rapid Transit Authority" }]),
      "GET /kiosk/api/systems/marta": () => json(DEMO_MARTA),
      "POST /kiosk/api/ask": () => json(result),
      "POST /kiosk/api/purchase": () => json({ ok: true, ticket }),
      "POST /kiosk/api/sessions/s%201/end": () => json(null),
      "GET /kiosk/api/status": () => json(STATE),
    });
    const bridge = createBrowserBridge("http://127.0.0.1:8787/kiosk", { fetch });
    expect(await bridge.listSystems()).toHaveLength(1);
    expect((await bridge.systemView("marta")).stations.length).toBe(DEMO_MARTA.stations.length);
    const request = { system: "marta" as const, events: [{ type: "freetext_input" as const, text: "hi" }] };
    expect(await bridge.ask(request)).toEqual(result);
    expect(await bridge.purchase({ sessionId: "s-1", paymentMethod: "contactless" })).toEqual({ ok: true, ticket });
    expect(await bridge.endSession("s 1")).toBeNull();
    expect(await bridge.status()).toEqual(STATE);
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual([
      "GET http://127.0.0.1:8787/kiosk/api/systems",
      "GET http://127.0.0.1:8787/kiosk/api/systems/marta",
      "POST http://127.0.0.1:8787/kiosk/api/ask",
      "POST http://127.0.0.1:8787/kiosk/api/purchase",
      "POST http://127.0.0.1:8787/kiosk/api/sessions/s%201/end",
      "GET http://127.0.0.1:8787/kiosk/api/status",
    ]);
    expect(calls[2]?.body).toEqual(request);
    expect(calls[3]?.body).toEqual({ sessionId: "s-1", paymentMethod: "contactless" });
  });

  it("rejects malformed responses as invalid_response", async () => {
    const bad = askResult(readyState());
    (bad.state.kiosk_action as { action: string }).action = "dispense_cash";
    const { fetch } = fakeFetch({
      "POST /api/ask": () => json(bad),
      "GET /api/systems": () => json([{ id: "Atlantis City", orgName: "x", fullName: "y" }]),
      "GET /api/status": () => new Response("<html>oops</html>", { status: 200 }),
      "POST /api/purchase": () => json({ ok: true }),
      "GET /api/systems/marta": () => json({ ...DEMO_MARTA, stations: [{ id: "x" }] }),
    });
    const bridge = createBrowserBridge("http://localhost:1", { fetch });
    const ask = await rejection(bridge.ask({ system: "marta", events: [{ type: "freetext_input", text: "x" }] }));
    expect(ask.kind).toBe("invalid_response");
    expect(ask.message).toContain("state.kiosk_action.action");
    expect((await rejection(bridge.listSystems())).kind).toBe("invalid_response");
    expect((await rejection(bridge.status())).kind).toBe("invalid_response");
    expect((await rejection(bridge.purchase({ sessionId: "s", paymentMethod: "m" }))).kind).toBe("invalid_response");
    expect((await rejection(bridge.systemView("marta"))).kind).toBe("invalid_response");
  });

  it("maps HTTP errors, network failures and time-outs to failure kinds", async () => {
    const { fetch } = fakeFetch({
      "GET /api/status": () => json({ error: "bench run in progress" }, 503),
      "GET /api/systems": () => json({ error: "boom" }, 500),
      "POST /api/ask": () => json({ error: "unknown session" }, 404),
      "POST /api/sessions/gone/end": () => json({ error: "unknown session" }, 404),
    });
    const bridge = createBrowserBridge("http://localhost:1/", { fetch });
    const status = await rejection(bridge.status());
    expect([status.kind, status.status]).toEqual(["unavailable", 503]);
    expect(status.message).toContain("bench run in progress");
    expect((await rejection(bridge.listSystems())).kind).toBe("server");
    expect((await rejection(bridge.ask({ system: "marta", sessionId: "x", events: [{ type: "freetext_input", text: "x" }] }))).kind).toBe("rejected");
    expect((await rejection(bridge.endSession("gone"))).kind).toBe("rejected");

    const offline = createBrowserBridge("http://localhost:1/", { fetch: (() => Promise.reject(new TypeError("Failed to fetch"))) as typeof globalThis.fetch });
    expect((await rejection(offline.status())).kind).toBe("network");

    let fire: (() => void) | undefined;
    const hanging = createBrowserBridge("http://localhost:1/", {
      fetch: ((_url: unknown, init?: RequestInit) =>
        new Promise((_, reject) => init?.signal?.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError"))))) as typeof globalThis.fetch,
      setTimeout: (fn) => {
        fire = fn;
        return 1;
      },
      clearTimeout: () => {},
    });
    const pending = rejection(hanging.status());
    fire?.();
    expect((await pending).kind).toBe("timeout");
  });
});

class FakeSocket implements WebSocketLike {
  onopen: ((event: unknown) => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose: ((event: unknown) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  closed = false;
  constructor(readonly url: string) {}
  close(): void {
    this.closed = true;
    this.onclose?.({});
  }
  push(data: unknown): void {
    this.onmessage?.({ data: typeof data === "string" ? data : JSON.stringify(data) });
  }
}

describe("createBrowserBridge: progress WebSocket", () => {
  it("derives ws:// and wss:// URLs from the base URL", () => {
    expect(progressSocketUrl("http://127.0.0.1:8787")).toBe("ws://127.0.0.1:8787/api/progress");
    expect(progressSocketUrl("https://kiosk.example/sub/")).toBe("wss://kiosk.example/sub/api/progress");
    expect(progressSocketUrl("http://127.0.0.1:8787", "client0123456789ab")).toBe("ws://127.0.0.1:8787/api/progress?client=client0123456789ab");
  });

  it("names its progress client on the socket and on every ask, so the server sends it its own sessions only", async () => {
    const urls: string[] = [];
    const headers: Record<string, string>[] = [];
    const bridge = createBrowserBridge("http://127.0.0.1:8787", {
      fetch: (async (_url: string, init: RequestInit) => {
        headers.push(init.headers as Record<string, string>);
        return new Response("{}", { status: 500 });
      }) as unknown as typeof fetch,
      webSocket: (url) => {
        urls.push(url);
        return new FakeSocket(url);
      },
    });
    bridge.onProgress(() => undefined);
    await bridge.ask({ system: "marta", events: [{ type: "freetext_input", text: "hi" }] }).catch(() => undefined);
    const id = new URL(urls[0]!).searchParams.get("client");
    expect(id).toMatch(/^[A-Za-z0-9_-]{16,64}$/);
    expect(headers[0]?.["x-kiosk-client"]).toBe(id);
    // Operator calls carry it too: wrong PINs typed at this page lock out this page only.
    await bridge.operator!.login({ operator: "Ada", pin: "1234" }).catch(() => undefined);
    expect(headers[1]?.["x-kiosk-client"]).toBe(id);
  });

  it("opens one socket for its listeners, validates messages, reconnects, closes with the last listener", () => {
    const sockets: FakeSocket[] = [];
    const timers: (() => void)[] = [];
    const invalid = vi.fn();
    const bridge = createBrowserBridge("http://127.0.0.1:8787", {
      fetch: vi.fn() as unknown as typeof fetch,
      webSocket: (url) => {
        const socket = new FakeSocket(url);
        sockets.push(socket);
        return socket;
      },
      setTimeout: (fn) => timers.push(fn),
      clearTimeout: () => {},
      onInvalidMessage: invalid,
      clientId: "client0123456789ab",
    });
    const a: ProgressEvent[] = [];
    const b: ProgressEvent[] = [];
    const offA = bridge.onProgress((event) => a.push(event));
    const offB = bridge.onProgress((event) => b.push(event));
    expect(sockets).toHaveLength(1);
    expect(sockets[0]?.url).toBe("ws://127.0.0.1:8787/api/progress?client=client0123456789ab");

    const started: ProgressEvent = { type: "tool_started", sessionId: "s", name: "route_planner" };
    sockets[0]?.push(started);
    sockets[0]?.push({ type: "tool_started", sessionId: "s" });
    sockets[0]?.push("{not json");
    expect(a).toEqual([started]);
    expect(b).toEqual([started]);
    expect(invalid).toHaveBeenCalledTimes(2);

    // The server goes away: one reconnect is scheduled, the new socket delivers again.
    sockets[0]?.onclose?.({});
    expect(timers).toHaveLength(1);
    timers[0]?.();
    expect(sockets).toHaveLength(2);
    const finished: ProgressEvent = { type: "tool_finished", sessionId: "s", name: "route_planner", ok: true };
    sockets[1]?.push(finished);
    expect(a).toEqual([started, finished]);

    offA();
    expect(sockets[1]?.closed).toBe(false);
    offB();
    expect(sockets[1]?.closed).toBe(true);
    expect(timers).toHaveLength(1);
  });
});

describe("createBrowserBridge: the kiosk's state WebSocket", () => {
  it("opens /api/state for onState listeners and delivers the validated states", () => {
    const sockets: FakeSocket[] = [];
    const invalid = vi.fn();
    const bridge = createBrowserBridge("http://127.0.0.1:8787", {
      fetch: vi.fn() as unknown as typeof fetch,
      webSocket: (url) => {
        const socket = new FakeSocket(url);
        sockets.push(socket);
        return socket;
      },
      onInvalidMessage: invalid,
    });
    const states: unknown[] = [];
    const off = bridge.onState((state) => states.push(state));
    expect(sockets.map((s) => s.url)).toEqual([pushSocketUrl("http://127.0.0.1:8787", "state")]);
    expect(sockets[0]?.url).toBe("ws://127.0.0.1:8787/api/state");
    sockets[0]?.push({ ...STATE, benchRunning: true });
    sockets[0]?.push({ assistant: "sentient" });
    expect(states).toEqual([{ ...STATE, benchRunning: true }]);
    expect(invalid).toHaveBeenCalledTimes(1);
    off();
    expect(sockets[0]?.closed).toBe(true);
  });
});

describe("bridge selection and the preload wrapper", () => {
  it("picks window.kiosk when present, else fake in dev or the browser bridge", () => {
    const preload = createFakeBridge();
    expect(chooseBridge({ preload, search: "", baseUrl: "file:///app/index.html", dev: false })).toEqual({ kind: "preload" });
    expect(chooseBridge({ preload: { ask: 1 }, search: "", baseUrl: "http://h:1/index.html", dev: false })).toEqual({ kind: "browser", baseUrl: "http://h:1/" });
    expect(chooseBridge({ preload: undefined, search: "", baseUrl: "http://localhost:5173/", dev: true })).toEqual({ kind: "fake" });
    expect(chooseBridge({ preload: undefined, search: "?bridge=fake", baseUrl: "http://h:1/", dev: false })).toEqual({ kind: "browser", baseUrl: "http://h:1/", ignored: "fake" });
    expect(chooseBridge({ preload: undefined, search: "?server=http://127.0.0.1:9000", baseUrl: "http://localhost:5173/", dev: true })).toEqual({ kind: "browser", baseUrl: "http://127.0.0.1:9000" });
    expect(isKioskBridge(null)).toBe(false);
  });

  it("validates what the preload answers and types its failures", async () => {
    const inner = createFakeBridge();
    inner.status = async () => ({ assistant: "sentient" }) as never;
    inner.listSystems = () => Promise.reject({ kind: "network", message: "No handler registered for 'kiosk:listSystems'" });
    inner.purchase = () => Promise.reject({ kind: "rejected", message: "invalid request: sessionId" });
    inner.ask = () => Promise.reject(new Error("boom"));
    const bridge = validatingBridge(inner);
    expect((await rejection(bridge.status())).kind).toBe("invalid_response");
    const ipc = await rejection(bridge.listSystems());
    expect([ipc.kind, ipc.message]).toEqual(["network", "listSystems: No handler registered for 'kiosk:listSystems'"]);
    expect((await rejection(bridge.purchase({ sessionId: "s", paymentMethod: "m" }))).kind).toBe("rejected");
    expect((await rejection(bridge.ask({ system: "marta", events: [{ type: "freetext_input", text: "x" }] }))).kind).toBe("server");
    const view = await bridge.systemView("marta");
    expect(view.id).toBe("marta");
    const seen: ProgressEvent[] = [];
    const off = bridge.onProgress((event) => seen.push(event));
    inner.emitProgress({ type: "state_submitted", sessionId: "s", accepted: true });
    inner.emitProgress({ type: "bogus" } as never);
    off();
    expect(seen).toEqual([{ type: "state_submitted", sessionId: "s", accepted: true }]);
  });
});
