import { describe, expect, it, vi } from "vitest";
import { OPERATOR_METHOD_NAMES, type OperatorBridge } from "../../runtime/kiosk/bridge.ts";
import { createBrowserBridge } from "./browserBridge.ts";
import { createHttpOperatorBridge, operatorCodeForStatus, OperatorBridgeError, validatingOperatorBridge } from "./operatorBridge.ts";
import { validatingBridge } from "./validatingBridge.ts";

const TOKEN = "t".repeat(43);
const json = (body: unknown, status = 200): Response => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

describe("operator bridge over kiosk serve", () => {
  it("POSTs each call to api/operator/<method> with the request and validates the answer", async () => {
    const seen: { url: string; method: string; body: unknown }[] = [];
    const fetch = vi.fn(async (url: string | URL | Request, init?: RequestInit) => {
      seen.push({ url: String(url), method: init?.method ?? "GET", body: JSON.parse(String(init?.body)) });
      return json({ ok: true, token: TOKEN, operator: "Ada", idleTimeoutMs: 600000 });
    });
    const bridge = createHttpOperatorBridge("http://kiosk.test/sub/", { fetch: fetch as typeof globalThis.fetch });
    expect(Object.keys(bridge).sort()).toEqual([...OPERATOR_METHOD_NAMES].sort());
    expect(await bridge.login({ operator: "Ada", pin: "1234" })).toEqual({ ok: true, token: TOKEN, operator: "Ada", idleTimeoutMs: 600000 });
    expect(seen).toEqual([{ url: "http://kiosk.test/sub/api/operator/login", method: "POST", body: { operator: "Ada", pin: "1234" } }]);
  });

  it("turns HTTP failures into codes and refuses answers that break the contract", async () => {
    const answers = [json({ error: "no session", code: "unauthorized" }, 401), json({ error: "busy" }, 409), json({ error: "bad", field: "runId" }, 400), json({ error: "down" }, 503), json({ error: "x" }, 500), json({ runId: "one", html: 5 })];
    const fetch = vi.fn(async () => answers.shift()!);
    const bridge = createHttpOperatorBridge("http://kiosk.test/", { fetch: fetch as typeof globalThis.fetch });
    for (const code of ["unauthorized", "conflict", "rejected", "unavailable", "failed", "failed"]) {
      const error = await bridge.benchReport({ token: TOKEN, runId: 1 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(OperatorBridgeError);
      expect((error as OperatorBridgeError).code).toBe(code);
    }
    const offline = createHttpOperatorBridge("http://kiosk.test/", { fetch: (async () => Promise.reject(new TypeError("Failed to fetch"))) as typeof globalThis.fetch });
    await expect(offline.benchStatus({ token: TOKEN })).rejects.toMatchObject({ code: "unavailable" });
    expect([401, 409, 400, 404, 413, 503, 423, 500, 502].map(operatorCodeForStatus)).toEqual(["unauthorized", "conflict", "rejected", "rejected", "rejected", "unavailable", "unavailable", "failed", "unavailable"]);
  });

  it("is part of the browser bridge", () => {
    expect(Object.keys(createBrowserBridge("http://kiosk.test/").operator ?? {}).sort()).toEqual([...OPERATOR_METHOD_NAMES].sort());
  });
});

describe("operator bridge around the Electron preload", () => {
  it("validates answers and maps the preload's {kind, code, message} rejections", async () => {
    const inner = {
      login: async () => ({ ok: true, token: TOKEN, operator: "Ada", idleTimeoutMs: 1 }),
      benchStatus: async () => ({ job: null, runs: "none" }),
      logout: async () => Promise.reject({ kind: "rejected", code: "unauthorized", message: "ended" }),
      technicianInfo: async () => Promise.reject({ kind: "network", message: "No handler" }),
    } as unknown as OperatorBridge;
    const bridge = validatingOperatorBridge(inner);
    expect(await bridge.login({ operator: "Ada", pin: "1234" })).toMatchObject({ ok: true });
    await expect(bridge.benchStatus({ token: TOKEN })).rejects.toMatchObject({ code: "failed", message: expect.stringMatching(/runs/) });
    await expect(bridge.logout({ token: TOKEN })).rejects.toMatchObject({ code: "unauthorized", message: "logout: ended" });
    await expect(bridge.technicianInfo({ token: TOKEN })).rejects.toMatchObject({ code: "unavailable" });
    await expect(bridge.latencyProbe({ token: TOKEN })).rejects.toMatchObject({ code: "unavailable", message: expect.stringMatching(/not offered/) });
  });

  it("wraps the preload's operator object only when it has one", () => {
    const base = { listSystems: vi.fn(), systemView: vi.fn(), ask: vi.fn(), onProgress: vi.fn(), onState: vi.fn(), purchase: vi.fn(), endSession: vi.fn(), status: vi.fn(), ticket: vi.fn(), speak: vi.fn() };
    expect(validatingBridge(base).operator).toBeUndefined();
    expect(Object.keys(validatingBridge({ ...base, operator: {} as OperatorBridge }).operator ?? {})).toHaveLength(OPERATOR_METHOD_NAMES.length);
  });
});
