import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import type { IpcMainInvokeEvent } from "electron";
import { FramebookStore } from "../runtime/framebook/store.ts";
import { OPERATOR_METHOD_NAMES, type OperatorMethod } from "../runtime/kiosk/bridge.ts";
import { testPack } from "../runtime/kiosk/testing.ts";
import { OperatorConsole } from "../runtime/operator/console.ts";
import { hashPin, PinGate } from "../runtime/operator/pin.ts";
import { OPERATOR_CHANNELS, type IpcOperatorEnvelope } from "./channels.ts";
import { registerOperatorIpc } from "./ipc.ts";

type Handler = (event: IpcMainInvokeEvent, ...args: unknown[]) => Promise<IpcOperatorEnvelope>;

const dir = mkdtempSync(path.join(tmpdir(), "kiosk-ipc-operator-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const PIN_HASH = await hashPin("864213", { N: 1024, r: 8, p: 1 });

function setup() {
  const handlers = new Map<string, Handler>();
  const ipcMain = {
    handle: vi.fn((channel: string, handler: Handler) => handlers.set(channel, handler)),
    removeHandler: vi.fn((channel: string) => handlers.delete(channel)),
  };
  const operator = new OperatorConsole({ framebooks: new FramebookStore(testPack(), dir), pin: new PinGate({ hash: PIN_HASH }), systems: testPack().systemIds, log: () => undefined });
  const logs: string[] = [];
  const unregister = registerOperatorIpc(ipcMain, operator, { log: (m) => logs.push(m) });
  const appEvent = { senderFrame: { url: "kiosk://app/index.html", parent: null } } as unknown as IpcMainInvokeEvent;
  const invoke = (method: OperatorMethod, args: unknown[], event = appEvent): Promise<IpcOperatorEnvelope> => handlers.get(OPERATOR_CHANNELS[method])!(event, ...args);
  return { handlers, ipcMain, operator, logs, unregister, invoke };
}

describe("operator IPC (main side)", () => {
  it("registers one channel per operator method and answers with envelopes", async () => {
    const { handlers, invoke, unregister, ipcMain } = setup();
    expect(Object.keys(OPERATOR_CHANNELS).sort()).toEqual([...OPERATOR_METHOD_NAMES].sort());
    expect([...handlers.keys()].sort()).toEqual(Object.values(OPERATOR_CHANNELS).sort());
    const login = await invoke("login", [{ operator: "Ifeoma", pin: "864213" }]);
    expect(login).toMatchObject({ ok: true, value: { ok: true, operator: "Ifeoma" } });
    const token = (login as { value: { token: string } }).value.token;
    expect(await invoke("framebookStatus", [{ token, system: "doha" }])).toMatchObject({ ok: true, value: { system: "doha", source: "data-pack" } });
    // No bench in this runtime: unavailable, with its code.
    expect(await invoke("technicianInfo", [{ token }])).toEqual({ ok: false, error: { kind: "unavailable", code: "unavailable", message: "This kiosk has no on-device bench." } });
    expect(await invoke("logout", [{ token }])).toEqual({ ok: true, value: { ok: true } });
    expect(await invoke("benchStatus", [{ token }])).toMatchObject({ ok: false, error: { kind: "rejected", code: "unauthorized" } });
    unregister();
    expect(ipcMain.removeHandler).toHaveBeenCalledTimes(OPERATOR_METHOD_NAMES.length);
  });

  it("validates every payload with the contract's schema before the console sees it", async () => {
    const { invoke, operator } = setup();
    const spies = OPERATOR_METHOD_NAMES.map((m) => vi.spyOn(operator, m));
    const token = "k".repeat(43);
    const bad: [OperatorMethod, unknown[], RegExp][] = [
      ["login", [], /exactly one argument/],
      ["login", [{ operator: "A", pin: "1" }, "extra"], /exactly one argument/],
      ["login", [{ operator: "A", pin: "12x4" }], /pin/],
      ["login", ["1234"], /\(request\)/],
      ["logout", [{}], /token/],
      ["clearPinLockout", [{ token, source: "" }], /source/],
      ["framebookStatus", [{ token, system: "Gotham City" }], /system/],
      ["checkFramebook", [{ token, system: "marta", text: 7 }], /text/],
      ["applyFramebook", [{ token, system: "marta" }], /text/],
      ["rollbackFramebook", [{ token, system: "marta", force: true }], /request|force/],
      ["technicianInfo", [null], /\(request\)/],
      ["startBench", [{ token, policy: "rule", selection: { kind: "category", category: "L" } }], /selection\.category/],
      ["benchStatus", [{ token: "../../etc" }], /token/],
      ["stopBench", [{ token, now: true }], /request|now/],
      ["benchReport", [{ token, runId: 1.5 }], /runId/],
      ["exportBench", [{ token, runId: 1, format: "summary", system: "Atlantis!" }], /system/],
      ["latencyProbe", [{}], /token/],
      ["listAlerts", [{ token, system: "Gotham City" }], /system/],
      ["saveAlert", [{ token, alert: {}, mode: "replace" }], /mode/],
      ["endAlert", [{ token, id: "tube", reason: "" }], /reason/],
      ["previewAlert", [{ token }], /alert/],
      ["auditSessions", [{ token, filter: { fallback: 1 } }], /filter\.fallback/],
      ["auditTimeline", [{ token, sessionId: 7 }], /sessionId/],
    ];
    expect(new Set(bad.map(([m]) => m))).toEqual(new Set(OPERATOR_METHOD_NAMES));
    for (const [method, args, message] of bad) {
      const answer = await invoke(method, args);
      expect(answer, `${method} ${JSON.stringify(args)}`).toMatchObject({ ok: false, error: { kind: "rejected", code: "rejected" } });
      expect((answer as { error: { message: string } }).error.message, method).toMatch(message);
    }
    for (const spy of spies) expect(spy).not.toHaveBeenCalled();
  });

  it("refuses calls from anything but the app's main frame", async () => {
    const { invoke, logs } = setup();
    const foreign = [
      { senderFrame: { url: "https://evil.example/", parent: null } },
      { senderFrame: { url: "kiosk://app/index.html", parent: {} } },
      { senderFrame: null },
    ] as unknown as IpcMainInvokeEvent[];
    for (const event of foreign) {
      expect(await invoke("login", [{ operator: "A", pin: "864213" }], event)).toMatchObject({ ok: false, error: { code: "unauthorized", message: "untrusted sender" } });
    }
    expect(logs.filter((l) => l.startsWith("refused operator login"))).toHaveLength(3);
  });
});
