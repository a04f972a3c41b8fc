import { describe, expect, it, vi } from "vitest";
import { createActor, SimulatedClock } from "xstate";
import type { AskRequest, AskResult, KioskBridge, PurchaseResult } from "../../runtime/kiosk/bridge.ts";
import { BridgeError } from "../bridge/errors.ts";
import { createFakeBridge } from "../bridge/fakeBridge.ts";
import { askResult, deferred, flush, readyState } from "../test/fixtures.ts";
import { DEFAULT_TIMING, kioskMachine, screenOf, type AskDraft, type KioskTiming } from "./kioskMachine.ts";

const DRAFT: AskDraft = {
  system: "marta",
  events: [
    { type: "station_selected", field: "origin", value: "Airport", station_id: "M-AP" },
    { type: "station_selected", field: "destination", value: "Midtown", station_id: "M-MT" },
    { type: "passenger_count_changed", adults: 1 },
  ],
};

function start(bridge: KioskBridge = createFakeBridge(), timing?: Partial<KioskTiming>) {
  const clock = new SimulatedClock();
  const wipeView = vi.fn();
  const machine = kioskMachine.provide({ actions: { wipeView } });
  const actor = createActor(machine, { clock, input: timing ? { bridge, timing } : { bridge } });
  actor.start();
  const screen = () => screenOf(actor.getSnapshot());
  const idle = () => actor.getSnapshot().matches({ session: { idle: "active" } })
    ? "active"
    : actor.getSnapshot().matches({ session: { idle: "warning" } })
      ? "warning"
      : actor.getSnapshot().matches({ session: { idle: "paused" } }) ? "paused" : "none";
  return { actor, clock, wipeView, screen, idle, context: () => actor.getSnapshot().context };
}

async function toResult(k: ReturnType<typeof start>): Promise<void> {
  k.actor.send({ type: "START" });
  k.actor.send({ type: "ASK", request: DRAFT });
  await flush();
  expect(k.screen()).toBe("result");
}

describe("kioskMachine: attract", () => {
  it("starts on the attract screen, checks the kiosk status and re-checks it periodically", async () => {
    const bridge = createFakeBridge();
    const status = vi.spyOn(bridge, "status");
    const k = start(bridge);
    expect(k.screen()).toBe("attract");
    await flush();
    expect(k.context().status).toMatchObject({ assistant: "model", benchRunning: false, message: null, salesAvailable: true });
    expect(status).toHaveBeenCalledTimes(1);
    k.clock.increment(DEFAULT_TIMING.statusPollMs);
    await flush();
    expect(status).toHaveBeenCalledTimes(2);
  });

  it("records a status failure and still lets a passenger start", async () => {
    const k = start(createFakeBridge({ failures: { status: "network" } }));
    await flush();
    expect(k.context().statusFailure?.kind).toBe("network");
    k.actor.send({ type: "START" });
    expect(k.screen()).toBe("journey");
  });

  it("refuses passengers while a bench run is in progress", async () => {
    const k = start(createFakeBridge({ status: { assistant: "model", benchRunning: true, message: "Technician run" } }));
    await flush();
    k.actor.send({ type: "START" });
    expect(k.screen()).toBe("attract");
  });

  it("learns the kiosk's pushed state at once, without waiting for the poll: a bench run starting and ending", async () => {
    const bridge = createFakeBridge();
    const status = vi.spyOn(bridge, "status");
    const k = start(bridge);
    await flush();
    const polls = status.mock.calls.length;
    bridge.setStatus({ benchRunning: true, message: "A technician test is running. Please wait." });
    expect(k.context().status).toMatchObject({ benchRunning: true });
    k.actor.send({ type: "START" });
    expect(k.screen()).toBe("attract");
    bridge.setStatus({ benchRunning: false, message: null });
    k.actor.send({ type: "START" });
    expect(k.screen()).toBe("journey");
    // No poll was needed for either change.
    expect(status.mock.calls.length).toBe(polls);
  });

  it("sends no ask while the kiosk is out of service (a bench run started during the journey)", async () => {
    const bridge = createFakeBridge();
    const k = start(bridge);
    await flush();
    k.actor.send({ type: "START" });
    bridge.setStatus({ benchRunning: true });
    k.actor.send({ type: "ASK", request: DRAFT });
    await flush();
    expect(k.screen()).toBe("journey");
    expect(bridge.calls.ask).toHaveLength(0);
  });

  it("START opens the journey screen with the idle timer running", () => {
    const k = start();
    k.actor.send({ type: "START" });
    expect(k.screen()).toBe("journey");
    expect(k.idle()).toBe("active");
  });
});

describe("kioskMachine: asking the assistant", () => {
  it("ignores an ask without events", () => {
    const k = start();
    k.actor.send({ type: "START" });
    k.actor.send({ type: "ASK", request: { system: "marta", events: [] } });
    expect(k.screen()).toBe("journey");
  });

  it("journey → working → result, recording progress steps of its own session only", async () => {
    const answer = deferred<AskResult>();
    const bridge = createFakeBridge({ answer: () => answer.promise });
    const k = start(bridge);
    k.actor.send({ type: "START" });
    k.actor.send({ type: "ASK", request: DRAFT });
    expect(k.screen()).toBe("working");
    expect(k.idle()).toBe("paused");
    expect(bridge.calls.ask[0]).toEqual(DRAFT);

    bridge.emitProgress({ type: "tool_started", sessionId: "s-1", name: "route_planner" });
    bridge.emitProgress({ type: "tool_started", sessionId: "other", name: "knowledge_base" });
    bridge.emitProgress({ type: "tool_finished", sessionId: "s-1", name: "route_planner", ok: true });
    bridge.emitProgress({ type: "tool_started", sessionId: "s-1", name: "fare_calculator" });
    bridge.emitProgress({ type: "tool_finished", sessionId: "s-1", name: "fare_calculator", ok: false });
    bridge.emitProgress({ type: "state_submitted", sessionId: "s-1", accepted: true });
    expect(k.context().steps).toEqual([
      { name: "route_planner", status: "done" },
      { name: "fare_calculator", status: "failed" },
    ]);
    expect(k.context().answerSubmitted).toBe(true);

    answer.resolve(askResult(readyState()));
    await flush();
    expect(k.screen()).toBe("result");
    expect(k.idle()).toBe("active");
    expect(k.context().sessionId).toBe("s-1");
    expect(k.context().result?.purchasable).toBe(true);
    expect(k.context().turns).toHaveLength(1);
    expect(k.context().turns[0]?.answer?.sessionId).toBe("s-1");
  });

  it("a hybrid kiosk's provisional answer is kept while working and replaced by the final one", async () => {
    const answer = deferred<AskResult>();
    const bridge = createFakeBridge({ answer: () => answer.promise });
    const k = start(bridge);
    k.actor.send({ type: "START" });
    k.actor.send({ type: "ASK", request: DRAFT });
    const provisional = { ...askResult(readyState()), purchasable: false };
    bridge.emitProgress({ type: "provisional", sessionId: "s-1", result: provisional });
    expect(k.screen()).toBe("working");
    expect(k.context().provisional).toEqual(provisional);
    answer.resolve({ ...askResult(readyState()), check: { decidedBy: "model", reason: "free_text", changed: false, note: null } });
    await flush();
    expect(k.screen()).toBe("result");
    expect(k.context().provisional).toBeNull();
    expect(k.context().result?.purchasable).toBe(true);
  });

  it("a failed ask returns to the journey with a typed failure", async () => {
    const k = start(createFakeBridge({ failures: { ask: "unavailable" } }));
    k.actor.send({ type: "START" });
    k.actor.send({ type: "ASK", request: DRAFT });
    await flush();
    expect(k.screen()).toBe("journey");
    expect(k.context().failure?.kind).toBe("unavailable");
    expect(k.idle()).toBe("active");
  });

  it("gives up after askTimeout when the assistant never answers", () => {
    const k = start(createFakeBridge({ answer: () => new Promise(() => {}) }));
    k.actor.send({ type: "START" });
    k.actor.send({ type: "ASK", request: DRAFT });
    k.clock.increment(DEFAULT_TIMING.askTimeoutMs - 1);
    expect(k.screen()).toBe("working");
    k.clock.increment(1);
    expect(k.screen()).toBe("journey");
    expect(k.context().failure?.kind).toBe("timeout");
  });

  it("EDIT goes back to the journey; the next ask continues the same session", async () => {
    const bridge = createFakeBridge({ answer: (request) => askResult(readyState(), { sessionId: request.sessionId }) });
    const k = start(bridge);
    await toResult(k);
    const sessionId = k.context().sessionId;
    k.actor.send({ type: "EDIT" });
    expect(k.screen()).toBe("journey");
    const followUp: AskDraft = { system: "marta", events: [{ type: "freetext_input", text: "and back?" }] };
    k.actor.send({ type: "ASK", request: followUp });
    await flush();
    expect((bridge.calls.ask[1] as AskRequest).sessionId).toBe(sessionId);
    expect(k.context().turns).toHaveLength(2);
  });

  it("a tapped choice on the result screen asks again in the same session, without going back to the journey", async () => {
    const bridge = createFakeBridge({ answer: (request) => askResult(readyState(), { sessionId: request.sessionId }) });
    const k = start(bridge);
    await toResult(k);
    const sessionId = k.context().sessionId;
    const choice: AskDraft = { system: "marta", events: [{ type: "station_selected", field: "destination", value: "Midtown", station_id: "M-MT" }] };
    k.actor.send({ type: "ASK", request: choice });
    expect(k.screen()).toBe("working");
    await flush();
    expect(k.screen()).toBe("result");
    expect(bridge.calls.ask[1]).toMatchObject({ sessionId, events: choice.events });
  });
});

describe("kioskMachine: payment and ticket", () => {
  it("does not start a purchase for a result that is not purchasable", async () => {
    const state = readyState({ kiosk_action: { action: "block_purchase", reason_code: "no_service" }, outcome: "service_unavailable" });
    const k = start(createFakeBridge({ answer: () => askResult(state) }));
    await toResult(k);
    k.actor.send({ type: "PURCHASE" });
    expect(k.screen()).toBe("result");
  });

  it("result → payment → ticket → done resets, ends the session and wipes everything", async () => {
    const bridge = createFakeBridge({ systems: undefined });
    const k = start(bridge);
    await toResult(k);
    k.actor.send({ type: "PURCHASE" });
    expect(k.actor.getSnapshot().matches({ session: { flow: { payment: "confirm" } } })).toBe(true);
    k.actor.send({ type: "PAY", paymentMethod: "" });
    expect(k.actor.getSnapshot().matches({ session: { flow: { payment: "confirm" } } })).toBe(true);
    k.actor.send({ type: "PAY", paymentMethod: "breeze_card" });
    expect(k.actor.getSnapshot().matches({ session: { flow: { payment: "processing" } } })).toBe(true);
    expect(k.idle()).toBe("paused");
    // No start over while the payment terminal is busy.
    k.actor.send({ type: "START_OVER" });
    expect(k.screen()).toBe("payment");
    await flush();
    expect(k.screen()).toBe("ticket");
    expect(k.context().ticket?.paymentMethod).toBe("breeze_card");
    expect(bridge.calls.purchase).toEqual([{ sessionId: "fake-1", paymentMethod: "breeze_card", requestId: expect.stringMatching(/^[A-Za-z0-9_-]{8,64}$/), confirmation: "demo-fake-1" }]);

    k.actor.send({ type: "DONE" });
    expect(k.screen()).toBe("resetting");
    await flush();
    expect(k.screen()).toBe("attract");
    expect(bridge.calls.endSession).toEqual(["fake-1"]);
    expect(k.wipeView).toHaveBeenCalledTimes(1);
    const context = k.context();
    expect([context.sessionId, context.result, context.ticket, context.paymentMethod]).toEqual([null, null, null, null]);
    expect(context.turns).toEqual([]);
  });

  it("a declined payment shows the failure, RETRY returns to confirm and EDIT to the journey", async () => {
    const declined: PurchaseResult = { ok: false, reason: "payment_declined", message: "Card declined" };
    const k = start(createFakeBridge({ purchase: () => declined }));
    await toResult(k);
    k.actor.send({ type: "PURCHASE" });
    k.actor.send({ type: "PAY", paymentMethod: "contactless" });
    await flush();
    expect(k.actor.getSnapshot().matches({ session: { flow: { payment: "failed" } } })).toBe(true);
    expect(k.context().purchaseFailure).toEqual({ reason: "payment_declined", message: "Card declined" });
    expect(k.context().ticket).toBeNull();
    k.actor.send({ type: "RETRY" });
    expect(k.actor.getSnapshot().matches({ session: { flow: { payment: "confirm" } } })).toBe(true);
    k.actor.send({ type: "EDIT" });
    expect(k.screen()).toBe("journey");
  });

  it("a bridge error during purchase is a typed failure, not a ticket", async () => {
    const k = start(createFakeBridge({ failures: { purchase: "network" } }));
    await toResult(k);
    k.actor.send({ type: "PURCHASE" });
    k.actor.send({ type: "PAY", paymentMethod: "contactless" });
    await flush();
    expect(k.context().purchaseFailure).toMatchObject({ reason: "bridge", failure: { kind: "network" } });
    k.actor.send({ type: "EDIT" });
    expect(k.screen()).toBe("journey");
  });

  it("a retry after a lost purchase answer asks about the same purchase (same request id); a new purchase gets a new one (issue 13, finding 9)", async () => {
    const bridge = createFakeBridge({ failures: { purchase: "network" } });
    const k = start(bridge);
    await toResult(k);
    k.actor.send({ type: "PURCHASE" });
    k.actor.send({ type: "PAY", paymentMethod: "contactless" });
    await flush();
    expect(k.context().purchaseFailure).toMatchObject({ reason: "bridge" });
    bridge.setFailure("purchase", null);
    k.actor.send({ type: "RETRY" });
    k.actor.send({ type: "PAY", paymentMethod: "contactless" });
    await flush();
    expect(k.screen()).toBe("ticket");
    const ids = bridge.calls.purchase.map((r) => r.requestId);
    expect(ids).toHaveLength(2);
    expect(ids[0]).toBeDefined();
    expect(ids[1]).toBe(ids[0]);
  });
});

describe("kioskMachine: idle warning and reset", () => {
  it("warns after 60 s without activity, counts down 30 s, then resets and wipes", async () => {
    const bridge = createFakeBridge();
    const k = start(bridge);
    await toResult(k);
    k.clock.increment(59_999);
    expect(k.idle()).toBe("active");
    k.clock.increment(1);
    expect(k.idle()).toBe("warning");
    expect(k.context().countdownMs).toBe(30_000);
    k.clock.increment(1_000);
    expect(k.context().countdownMs).toBe(29_000);
    // SimulatedClock fires each timer once per increment: step through the countdown second by second.
    for (let second = 0; second < 28; second++) k.clock.increment(1_000);
    expect(k.context().countdownMs).toBe(1_000);
    expect(k.screen()).toBe("result");
    k.clock.increment(1_000);
    expect(k.screen()).toBe("resetting");
    await flush();
    expect(k.screen()).toBe("attract");
    expect(bridge.calls.endSession).toEqual(["fake-1"]);
    expect(k.context().result).toBeNull();
    expect(k.wipeView).toHaveBeenCalledTimes(1);
  });

  it("activity re-enters the idle state and restarts the timer", () => {
    const k = start();
    k.actor.send({ type: "START" });
    k.clock.increment(59_000);
    k.actor.send({ type: "ACTIVITY" });
    k.clock.increment(59_000);
    expect(k.idle()).toBe("active");
    k.clock.increment(1_000);
    expect(k.idle()).toBe("warning");
  });

  it("activity or CONTINUE during the warning returns to the session", () => {
    const k = start();
    k.actor.send({ type: "START" });
    k.clock.increment(60_000);
    expect(k.idle()).toBe("warning");
    k.actor.send({ type: "CONTINUE" });
    expect(k.idle()).toBe("active");
    k.clock.increment(60_000);
    k.actor.send({ type: "ACTIVITY" });
    expect(k.idle()).toBe("active");
    k.clock.increment(30_000);
    expect(k.screen()).toBe("journey");
  });

  it("MORE_TIME (WCAG 2.2.1) extends the warning and waits five times longer for the rest of the session", async () => {
    const bridge = createFakeBridge();
    const k = start(bridge);
    k.actor.send({ type: "START" });
    k.clock.increment(60_000);
    expect(k.idle()).toBe("warning");
    k.actor.send({ type: "MORE_TIME" });
    expect(k.idle()).toBe("active");
    expect(k.context().moreTime).toBe(true);
    k.clock.increment(299_999);
    expect(k.idle()).toBe("active");
    k.clock.increment(1);
    expect(k.idle()).toBe("warning");
    // Activity keeps the longer timeout; a new session starts with the standard one.
    k.actor.send({ type: "ACTIVITY" });
    k.clock.increment(120_000);
    expect(k.idle()).toBe("active");
    k.actor.send({ type: "START_OVER" });
    await flush();
    expect(k.screen()).toBe("attract");
    k.actor.send({ type: "START" });
    expect(k.context().moreTime).toBe(false);
    k.clock.increment(60_000);
    expect(k.idle()).toBe("warning");
  });

  it("the idle timer is paused while the assistant works", async () => {
    const answer = deferred<AskResult>();
    const k = start(createFakeBridge({ answer: () => answer.promise }));
    k.actor.send({ type: "START" });
    k.actor.send({ type: "ASK", request: DRAFT });
    k.clock.increment(85_000);
    expect(k.screen()).toBe("working");
    expect(k.idle()).toBe("paused");
    answer.resolve(askResult(readyState()));
    await flush();
    expect(k.idle()).toBe("active");
    k.clock.increment(59_999);
    expect(k.idle()).toBe("active");
  });

  it("delays are configurable through the input", () => {
    const k = start(createFakeBridge(), { idleTimeoutMs: 10_000, idleWarningMs: 5_000 });
    k.actor.send({ type: "START" });
    k.clock.increment(10_000);
    expect(k.idle()).toBe("warning");
    expect(k.context().countdownMs).toBe(5_000);
    k.clock.increment(5_000);
    expect(k.screen()).toBe("resetting");
  });

  it("does not wait forever for the runtime to end the session", async () => {
    const bridge = createFakeBridge();
    bridge.endSession = () => new Promise(() => {});
    const k = start(bridge);
    await toResult(k);
    k.actor.send({ type: "START_OVER" });
    expect(k.screen()).toBe("resetting");
    k.clock.increment(DEFAULT_TIMING.endSessionTimeoutMs);
    expect(k.screen()).toBe("attract");
    expect(k.context().sessionId).toBeNull();
  });

  it("returns to attract when ending the session fails", async () => {
    const bridge = createFakeBridge();
    const k = start(bridge);
    await toResult(k);
    bridge.setFailure("endSession", "network");
    k.actor.send({ type: "START_OVER" });
    await flush();
    expect(k.screen()).toBe("attract");
  });
});

describe("kioskMachine: start over", () => {
  it.each(["journey", "result", "payment", "paymentFailed", "ticket"] as const)("is available from %s", async (where) => {
    const bridge = createFakeBridge(where === "paymentFailed" ? { failures: { purchase: "server" } } : {});
    const k = start(bridge);
    k.actor.send({ type: "START" });
    if (where !== "journey") {
      k.actor.send({ type: "ASK", request: DRAFT });
      await flush();
    }
    if (where === "payment" || where === "paymentFailed" || where === "ticket") k.actor.send({ type: "PURCHASE" });
    if (where === "paymentFailed" || where === "ticket") {
      k.actor.send({ type: "PAY", paymentMethod: "contactless" });
      await flush();
    }
    k.actor.send({ type: "START_OVER" });
    expect(k.screen()).toBe("resetting");
    await flush();
    expect(k.screen()).toBe("attract");
  });

  it("during the first ask, ends the runtime session the abandoned answer opened", async () => {
    const answer = deferred<AskResult>();
    const bridge = createFakeBridge({ answer: () => answer.promise });
    const endSession = vi.spyOn(bridge, "endSession");
    const k = start(bridge);
    k.actor.send({ type: "START" });
    k.actor.send({ type: "ASK", request: DRAFT });
    k.actor.send({ type: "START_OVER" });
    await flush();
    expect(k.screen()).toBe("attract");
    answer.resolve(askResult(readyState(), { sessionId: "late-1" }));
    await flush();
    expect(endSession).toHaveBeenCalledWith("late-1");
    expect(k.context().result).toBeNull();
  });

  it("maps thrown non-bridge errors to a server failure", async () => {
    const bridge = createFakeBridge();
    bridge.ask = () => Promise.reject(new Error("boom"));
    const k = start(bridge);
    k.actor.send({ type: "START" });
    k.actor.send({ type: "ASK", request: DRAFT });
    await flush();
    expect(k.context().failure).toEqual({ kind: "server", message: "boom" });
    expect(new BridgeError("network", "x").toFailure()).toEqual({ kind: "network", message: "x" });
  });
});
