import { describe, expect, it, vi } from "vitest";
import type { IpcMainInvokeEvent } from "electron";
import { AskResultSchema, type ProgressEvent } from "../runtime/kiosk/bridge.ts";
import { askFromCase, testApp } from "../runtime/kiosk/testing.ts";
import { INVOKE_CHANNELS, PROGRESS_CHANNEL, PUSH_CHANNELS, type IpcEnvelope } from "./channels.ts";
import { forwardPushes, registerKioskIpc } from "./ipc.ts";

type Handler = (event: IpcMainInvokeEvent, ...args: unknown[]) => Promise<IpcEnvelope>;

function setup() {
  const handlers = new Map<string, Handler>();
  const ipcMain = {
    handle: vi.fn((channel: string, handler: Handler) => handlers.set(channel, handler)),
    removeHandler: vi.fn((channel: string) => handlers.delete(channel)),
  };
  const { app, ledger } = testApp();
  const logs: string[] = [];
  const unregister = registerKioskIpc(ipcMain, app, { log: (m) => logs.push(m) });
  const appEvent = { senderFrame: { url: "kiosk://app/index.html", parent: null } } as unknown as IpcMainInvokeEvent;
  const invoke = (method: keyof typeof INVOKE_CHANNELS, args: unknown[], event = appEvent): Promise<IpcEnvelope> =>
    handlers.get(INVOKE_CHANNELS[method])!(event, ...args);
  return { handlers, ipcMain, app, ledger, logs, unregister, invoke };
}

describe("IPC bridge (main side)", () => {
  it("registers exactly the bridge channels and answers each with an envelope", async () => {
    const { handlers, invoke, unregister, ipcMain, app } = setup();
    expect([...handlers.keys()].sort()).toEqual(Object.values(INVOKE_CHANNELS).sort());
    expect(await invoke("listSystems", [])).toMatchObject({ ok: true, value: expect.arrayContaining([expect.objectContaining({ id: "marta" })]) });
    expect(await invoke("systemView", ["doha"])).toMatchObject({ ok: true, value: { id: "doha" } });
    const asked = await invoke("ask", [askFromCase("MARTA-A-001")]);
    expect(asked.ok).toBe(true);
    const answer = AskResultSchema.parse((asked as { value: unknown }).value);
    const sold = await invoke("purchase", [{ sessionId: answer.sessionId, paymentMethod: "breeze_card" }]);
    expect(sold).toMatchObject({ ok: true, value: { ok: true } });
    // The ticket can be fetched again over IPC (issue 13, finding 9: the screen lost the answer).
    const ticket = (sold as { value: { ticket: { ticketId: string } } }).value.ticket;
    expect(await invoke("ticket", [ticket.ticketId])).toEqual({ ok: true, value: { found: true, ticket, voided: false } });
    expect(await invoke("ticket", ["T-NOT-ISSUED"])).toEqual({ ok: true, value: { found: false } });
    expect(await invoke("endSession", [answer.sessionId])).toEqual({ ok: true, value: null });
    expect(await invoke("status", [])).toEqual({ ok: true, value: app.status() });
    unregister();
    expect(ipcMain.removeHandler).toHaveBeenCalledTimes(Object.keys(INVOKE_CHANNELS).length);
  });

  it("rejects malformed payloads without touching the runtime (and without throwing)", async () => {
    const { invoke, app } = setup();
    const ask = vi.spyOn(app, "ask");
    const purchase = vi.spyOn(app, "purchase");
    const bad: [keyof typeof INVOKE_CHANNELS, unknown[], RegExp][] = [
      ["ask", [], /arguments: Too small/],
      ["ask", [null], /argument 0/],
      ["ask", [{ system: "marta" }], /events/],
      ["ask", [{ system: "Atlantis!", events: [{ type: "freetext_input", text: "x" }] }], /system/],
      ["ask", [{ system: "marta", events: [{ type: "freetext_input", text: 42 }] }], /events\.0\.text/],
      ["ask", [{ system: "marta", events: Array(51).fill({ type: "freetext_input", text: "x" }) }], /events/],
      ["ask", [askFromCase("MARTA-A-001"), "extra"], /arguments|argument/],
      ["purchase", [{ sessionId: "s" }], /paymentMethod/],
      ["purchase", ["s", "contactless"], /argument/],
      ["systemView", ["../../etc"], /argument 0/],
      ["systemView", [], /argument 0|arguments/],
      ["endSession", [""], /argument 0/],
      ["endSession", [{ toString: "x" }], /argument 0/],
      ["listSystems", ["unexpected"], /argument|arguments/],
    ];
    for (const [method, args, message] of bad) {
      const result = await invoke(method, args);
      expect(result, `${method} ${JSON.stringify(args)}`).toMatchObject({ ok: false, error: { kind: "rejected" } });
      expect((result as { error: { message: string } }).error.message).toMatch(message);
    }
    expect(ask).not.toHaveBeenCalled();
    expect(purchase).not.toHaveBeenCalled();
  });

  it("refuses calls from any frame but the app's main frame", async () => {
    const { invoke, logs } = setup();
    const foreign = [
      { senderFrame: { url: "https://evil.example/", parent: null } },
      { senderFrame: { url: "kiosk://app/index.html", parent: {} } },
      { senderFrame: null },
    ] as unknown as IpcMainInvokeEvent[];
    for (const event of foreign) expect(await invoke("status", [], event)).toEqual({ ok: false, error: { kind: "rejected", message: "untrusted sender" } });
    expect(logs.filter((l) => l.includes("untrusted"))).toHaveLength(3);
  });

  it("maps runtime errors to kinds: unknown session → rejected, bench run → unavailable, crash → server", async () => {
    const { invoke, app, logs } = setup();
    expect(await invoke("ask", [{ system: "marta", sessionId: "gone", events: [{ type: "freetext_input", text: "x" }] }])).toMatchObject({
      ok: false,
      error: { kind: "rejected", message: /Unknown or finished session/ },
    });
    app.setBenchRunning(true);
    expect(await invoke("ask", [askFromCase("MARTA-A-001")])).toMatchObject({ ok: false, error: { kind: "unavailable" } });
    app.setBenchRunning(false);
    vi.spyOn(app, "status").mockImplementation(() => {
      throw new Error("secret internal detail");
    });
    const crashed = await invoke("status", []);
    expect(crashed).toEqual({ ok: false, error: { kind: "server", message: "The kiosk service failed. Please try again." } });
    expect(logs.join("\n")).toMatch(/secret internal detail/);
  });

  it("a session past its limits is rejected with the passenger's message, not a server failure (issue 13, finding 6)", async () => {
    const { invoke } = setup();
    const first = (await invoke("ask", [{ system: "marta", events: [{ type: "freetext_input", text: "x".repeat(40_000) }] }])) as { ok: true; value: { sessionId: string } };
    const over = await invoke("ask", [{ system: "marta", sessionId: first.value.sessionId, events: [{ type: "freetext_input", text: "x".repeat(40_000) }] }]);
    expect(over).toMatchObject({ ok: false, error: { kind: "rejected", message: expect.stringMatching(/start again/) } });
  });

  it("forwards the kiosk's state to the window on its channel as it changes", () => {
    const { app } = setup();
    const contents = { send: vi.fn(), isDestroyed: vi.fn(() => false) };
    const stop = forwardPushes(app, contents);
    app.setBenchRunning(true);
    expect(contents.send).toHaveBeenLastCalledWith(PUSH_CHANNELS.state, expect.objectContaining({ benchRunning: true, message: "A technician test is running. Please wait." }));
    stop();
    app.setBenchRunning(false);
    expect(contents.send).toHaveBeenCalledTimes(1);
  });

  it("forwards progress events to the window, validated", async () => {
    const { app } = setup();
    const contents = { send: vi.fn(), isDestroyed: vi.fn(() => false) };
    const stop = forwardPushes(app, contents);
    await app.ask(askFromCase("MARTA-A-001"));
    const sent = contents.send.mock.calls.map((c) => c as [string, ProgressEvent]);
    expect(sent.length).toBeGreaterThan(2);
    expect(sent.every(([channel]) => channel === PROGRESS_CHANNEL)).toBe(true);
    expect(sent.at(-1)![1]).toMatchObject({ type: "state_submitted", accepted: true });
    stop();
    contents.send.mockClear();
    await app.ask(askFromCase("MARTA-A-001"));
    expect(contents.send).not.toHaveBeenCalled();
  });
});
