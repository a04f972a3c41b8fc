import { beforeEach, describe, expect, it, vi } from "vitest";
import { KIOSK_METHOD_NAMES, KIOSK_PUSH_NAMES, OPERATOR_METHOD_NAMES, subscriptionName } from "../runtime/kiosk/bridge.ts";
import { INVOKE_CHANNELS, OPERATOR_CHANNELS, PROGRESS_CHANNEL, PUSH_CHANNELS } from "./channels.ts";

const exposed: Record<string, unknown> = {};
const listeners = new Map<string, (event: unknown, payload: unknown) => void>();
const invoke = vi.fn();

vi.mock("electron", () => ({
  contextBridge: { exposeInMainWorld: (key: string, api: unknown) => (exposed[key] = api) },
  ipcRenderer: {
    invoke: (...args: unknown[]) => invoke(...args),
    on: (channel: string, l: (event: unknown, payload: unknown) => void) => listeners.set(channel, l),
    removeListener: (channel: string) => listeners.delete(channel),
  },
}));

await import("./preload.ts");
const kiosk = exposed.kiosk as Record<string, (...args: unknown[]) => unknown>;

beforeEach(() => invoke.mockReset());

describe("preload: window.kiosk", () => {
  it("exposes exactly the KioskBridge methods under `kiosk` and nothing else", () => {
    expect(Object.keys(exposed)).toEqual(["kiosk"]);
    expect(Object.keys(kiosk).sort()).toEqual(["ask", "endSession", "listSystems", "onProgress", "onState", "operator", "purchase", "speak", "status", "systemView", "ticket"]);
    // Exactly the contract's table: its calls and one subscription per push.
    expect(Object.keys(kiosk).filter((k) => k !== "operator").sort()).toEqual([...KIOSK_METHOD_NAMES, ...KIOSK_PUSH_NAMES.map(subscriptionName)].sort());
    const { operator, ...methods } = kiosk;
    expect(Object.values(methods).every((v) => typeof v === "function")).toBe(true);
    // The operator calls: exactly the contract's methods, each a function.
    const ops = operator as unknown as Record<string, unknown>;
    expect(Object.keys(ops).sort()).toEqual([...OPERATOR_METHOD_NAMES].sort());
    expect(Object.values(ops).every((v) => typeof v === "function")).toBe(true);
  });

  it("forwards each operator call with its one request argument and passes failure codes on", async () => {
    const ops = kiosk.operator as unknown as Record<string, (request: unknown) => Promise<unknown>>;
    invoke.mockResolvedValue({ ok: true, value: { ok: true } });
    for (const method of OPERATOR_METHOD_NAMES) {
      expect(await ops[method]!({ token: "t" })).toEqual({ ok: true });
      expect(invoke).toHaveBeenLastCalledWith(OPERATOR_CHANNELS[method], { token: "t" });
    }
    invoke.mockResolvedValueOnce({ ok: false, error: { kind: "rejected", message: "The operator session has ended.", code: "unauthorized" } });
    await expect(ops.benchStatus!({ token: "t" })).rejects.toEqual({ kind: "rejected", code: "unauthorized", message: "The operator session has ended." });
    invoke.mockRejectedValueOnce(new Error("No handler"));
    await expect(ops.login!({})).rejects.toEqual({ kind: "network", code: "failed", message: "No handler" });
  });

  it("forwards each method to ipcRenderer.invoke on its fixed channel and unwraps the envelope", async () => {
    invoke.mockResolvedValue({ ok: true, value: "answer" });
    const request = { system: "marta", events: [{ type: "freetext_input", text: "hi" }] };
    const calls: [string, unknown[]][] = [
      ["listSystems", []],
      ["systemView", ["marta"]],
      ["ask", [request]],
      ["purchase", [{ sessionId: "s", paymentMethod: "contactless" }]],
      ["endSession", ["s"]],
      ["status", []],
    ];
    for (const [method, args] of calls) {
      expect(await kiosk[method]!(...args)).toBe("answer");
      expect(invoke).toHaveBeenLastCalledWith(INVOKE_CHANNELS[method as keyof typeof INVOKE_CHANNELS], ...args);
    }
  });

  it("rejects with {kind, message} for refused calls and for a broken IPC", async () => {
    invoke.mockResolvedValueOnce({ ok: false, error: { kind: "rejected", message: "invalid request: events: Required" } });
    await expect(kiosk.ask!({})).rejects.toEqual({ kind: "rejected", message: "invalid request: events: Required" });
    invoke.mockRejectedValueOnce(new Error("No handler registered for 'kiosk:status'"));
    await expect(kiosk.status!()).rejects.toEqual({ kind: "network", message: "No handler registered for 'kiosk:status'" });
    invoke.mockResolvedValueOnce(undefined);
    await expect(kiosk.status!()).rejects.toMatchObject({ kind: "server" });
  });

  it("delivers the kiosk's state: the present one first (from status), then every push", async () => {
    const state = { assistant: "model", benchRunning: false, message: null, model: null, salesAvailable: true, framebookVersions: {} };
    invoke.mockResolvedValue({ ok: true, value: state });
    const got: unknown[] = [];
    const off = kiosk.onState!((e: unknown) => got.push(e)) as () => void;
    expect(invoke).toHaveBeenCalledWith(INVOKE_CHANNELS.status);
    await new Promise((r) => setTimeout(r, 0));
    listeners.get(PUSH_CHANNELS.state)!({}, { ...state, benchRunning: true });
    expect(got).toEqual([state, { ...state, benchRunning: true }]);
    off();
    expect(listeners.has(PUSH_CHANNELS.state)).toBe(false);
  });

  it("delivers progress events and unsubscribes", () => {
    const got: unknown[] = [];
    const off = kiosk.onProgress!((e: unknown) => got.push(e)) as () => void;
    listeners.get(PROGRESS_CHANNEL)!({}, { type: "tool_started", sessionId: "s", name: "route_planner" });
    expect(got).toEqual([{ type: "tool_started", sessionId: "s", name: "route_planner" }]);
    off();
    expect(listeners.has(PROGRESS_CHANNEL)).toBe(false);
    expect(() => kiosk.onProgress!("not a function")).toThrow(TypeError);
  });
});
