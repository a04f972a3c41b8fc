// The passenger flow of the kiosk screen, apart from any component:
//   attract → session (journey → working → result → payment → ticket) → resetting → attract.
// A parallel `idle` region watches the passenger: no activity for `idleTimeout` opens a warning
// with a countdown of `idleWarning`, after which the session is ended (bridge.endSession) and every
// passenger datum is wiped. Timers are named delays read from the machine's input, so tests drive
// them with xstate's SimulatedClock and deployments can tune them.
import { and, assign, fromCallback, fromPromise, not, raise, setup, stateIn, type SnapshotFrom } from "xstate";
import type {
  AskRequest,
  AskResult,
  KioskBridge,
  KioskStatus,
  ProgressEvent,
  PurchaseRequest,
  PurchaseResult,
  Ticket,
} from "../../runtime/kiosk/bridge.ts";
import { toBridgeFailure, type BridgeFailure } from "../bridge/errors.ts";

export interface KioskTiming {
  /** No activity for this long opens the idle warning. */
  idleTimeoutMs: number;
  /** How long the warning counts down before the session is reset. */
  idleWarningMs: number;
  /** "More time" (WCAG 2.2.1) multiplies the idle timeout by this for the rest of the session. */
  moreTimeFactor: number;
  /** Countdown display granularity. */
  countdownTickMs: number;
  /** The assistant has this long to answer before the screen gives up. */
  askTimeoutMs: number;
  /** Reset waits this long at most for the runtime to end the session. */
  endSessionTimeoutMs: number;
  /** How often the attract screen re-checks the kiosk status (a fallback: the kiosk pushes its state). */
  statusPollMs: number;
}

export const DEFAULT_TIMING: KioskTiming = {
  idleTimeoutMs: 60_000,
  idleWarningMs: 30_000,
  moreTimeFactor: 5,
  countdownTickMs: 1_000,
  askTimeoutMs: 90_000,
  endSessionTimeoutMs: 5_000,
  statusPollMs: 30_000,
};

/** An ask as the screen composes it; the machine adds the session id for follow-ups. */
export type AskDraft = Omit<AskRequest, "sessionId">;

export interface ProgressStep {
  name: string;
  status: "running" | "done" | "failed";
}

export interface Turn {
  request: AskDraft;
  answer: AskResult | null;
}

export type PurchaseFailure =
  | { reason: Extract<PurchaseResult, { ok: false }>["reason"]; message: string }
  | { reason: "bridge"; failure: BridgeFailure };

export interface KioskContext {
  bridge: KioskBridge;
  timing: KioskTiming;
  status: KioskStatus | null;
  statusFailure: BridgeFailure | null;
  sessionId: string | null;
  pending: AskDraft | null;
  turns: Turn[];
  result: AskResult | null;
  /** Hybrid kiosks: the deterministic answer shown while the assistant checks it (not purchasable). */
  provisional: AskResult | null;
  steps: ProgressStep[];
  /** The runtime session the progress events of a first ask belong to (learned from the first one). */
  progressSession: string | null;
  answerSubmitted: boolean;
  failure: BridgeFailure | null;
  paymentMethod: string | null;
  /**
   * One id per purchase attempt (kept across Retry): if the answer to a purchase was lost, the
   * retry asks about the same purchase and gets the ticket already issued, never a second sale.
   */
  purchaseRequestId: string | null;
  ticket: Ticket | null;
  purchaseFailure: PurchaseFailure | null;
  countdownMs: number;
  /** The passenger asked for more time: the idle timeout is `moreTimeFactor` times longer. */
  moreTime: boolean;
}

export type KioskEvent =
  | { type: "START" }
  | { type: "ACTIVITY" }
  | { type: "ASK"; request: AskDraft }
  | { type: "PROGRESS"; event: ProgressEvent }
  | { type: "EDIT" }
  | { type: "PURCHASE" }
  | { type: "PAY"; paymentMethod: string }
  | { type: "RETRY" }
  | { type: "DONE" }
  | { type: "START_OVER" }
  | { type: "CONTINUE" }
  /** More time, on request (a key or the warning's button): longer idle timeout for this session. */
  | { type: "MORE_TIME" }
  | { type: "IDLE.PAUSE" }
  | { type: "IDLE.RESUME" }
  /** Check the kiosk status now (e.g. the operator tools closed: a bench run may have started or ended). */
  | { type: "REFRESH_STATUS" }
  /** The kiosk pushed its state (a bench run, a framebook change, the model going down or coming back). */
  | { type: "STATUS"; status: KioskStatus };

export interface KioskInput {
  bridge: KioskBridge;
  timing?: Partial<KioskTiming>;
}

function sessionData(): Omit<KioskContext, "bridge" | "timing" | "status" | "statusFailure"> {
  return {
    sessionId: null,
    pending: null,
    turns: [],
    result: null,
    provisional: null,
    steps: [],
    progressSession: null,
    answerSubmitted: false,
    failure: null,
    paymentMethod: null,
    purchaseRequestId: null,
    ticket: null,
    purchaseFailure: null,
    countdownMs: 0,
    moreTime: false,
  };
}

const USER_EVENTS = ["ACTIVITY", "ASK", "EDIT", "PURCHASE", "PAY", "RETRY"] as const;

export const kioskMachine = setup({
  types: {
    context: {} as KioskContext,
    events: {} as KioskEvent,
    input: {} as KioskInput,
  },
  actors: {
    checkStatus: fromPromise<KioskStatus, { bridge: KioskBridge }>(({ input }) => input.bridge.status()),
    ask: fromPromise<AskResult, { bridge: KioskBridge; request: AskRequest }>(async ({ input, signal }) => {
      const result = await input.bridge.ask(input.request);
      // Abandoned (start over) before the first answer came: the runtime still opened a session.
      if (signal.aborted && !input.request.sessionId) input.bridge.endSession(result.sessionId).catch(() => undefined);
      return result;
    }),
    progress: fromCallback<KioskEvent, { bridge: KioskBridge }>(({ input, sendBack }) =>
      input.bridge.onProgress((event) => sendBack({ type: "PROGRESS", event })),
    ),
    /** The kiosk's state as it is pushed, for as long as the screen runs. */
    kioskState: fromCallback<KioskEvent, { bridge: KioskBridge }>(({ input, sendBack }) =>
      input.bridge.onState((status) => sendBack({ type: "STATUS", status })),
    ),
    purchase: fromPromise<PurchaseResult, { bridge: KioskBridge; request: PurchaseRequest }>(({ input }) =>
      input.bridge.purchase(input.request),
    ),
    endSession: fromPromise<void, { bridge: KioskBridge; sessionId: string | null }>(async ({ input }) => {
      if (input.sessionId) await input.bridge.endSession(input.sessionId);
    }),
  },
  actions: {
    beginAsk: assign(({ context, event }) => {
      if (event.type !== "ASK") return {};
      return {
        pending: event.request,
        turns: [...context.turns, { request: event.request, answer: null }],
        steps: [],
        provisional: null,
        progressSession: context.sessionId,
        answerSubmitted: false,
        failure: null,
      };
    }),
    recordProgress: assign(({ context, event }) => {
      if (event.type !== "PROGRESS") return {};
      const progress = event.event;
      if (context.progressSession !== null && progress.sessionId !== context.progressSession) return {};
      const progressSession = progress.sessionId;
      if (progress.type === "tool_started") {
        return { progressSession, steps: [...context.steps, { name: progress.name, status: "running" as const }] };
      }
      if (progress.type === "tool_finished") {
        const steps = [...context.steps];
        const index = steps.findLastIndex((step) => step.name === progress.name && step.status === "running");
        const status = progress.ok ? ("done" as const) : ("failed" as const);
        if (index >= 0) steps[index] = { name: progress.name, status };
        else steps.push({ name: progress.name, status });
        return { progressSession, steps };
      }
      if (progress.type === "provisional") return { progressSession, provisional: progress.result };
      return { progressSession, answerSubmitted: progress.accepted || context.answerSubmitted };
    }),
    storeResult: assign(({ context }, result: AskResult) => ({
      sessionId: result.sessionId,
      result,
      provisional: null,
      pending: null,
      turns: context.turns.map((turn, index) => (index === context.turns.length - 1 ? { ...turn, answer: result } : turn)),
    })),
    storeAskFailure: assign((_, failure: BridgeFailure) => ({ failure, pending: null })),
    choosePaymentMethod: assign(({ event }) => (event.type === "PAY" ? { paymentMethod: event.paymentMethod, purchaseFailure: null } : {})),
    newPurchaseAttempt: assign(() => ({ purchaseRequestId: globalThis.crypto.randomUUID().replace(/-/g, "") })),
    storeTicket: assign((_, ticket: Ticket) => ({ ticket, purchaseFailure: null })),
    storePurchaseFailure: assign((_, purchaseFailure: PurchaseFailure) => ({ purchaseFailure })),
    startCountdown: assign(({ context }) => ({ countdownMs: context.timing.idleWarningMs })),
    tickCountdown: assign(({ context }) => ({ countdownMs: Math.max(0, context.countdownMs - context.timing.countdownTickMs) })),
    giveMoreTime: assign({ moreTime: true }),
    pauseIdle: raise({ type: "IDLE.PAUSE" }),
    resumeIdle: raise({ type: "IDLE.RESUME" }),
    wipeSession: assign(() => sessionData()),
    /** Wipes what the screen keeps outside the machine (journey draft, preferences); provided by the app. */
    wipeView: () => {},
  },
  guards: {
    inService: ({ context }) => !context.status?.benchRunning,
    hasEvents: ({ event }) => event.type === "ASK" && event.request.events.length > 0,
    isPurchasable: ({ context }) => context.result?.purchasable === true && context.sessionId !== null,
    hasPaymentMethod: ({ event }) => event.type === "PAY" && event.paymentMethod.length > 0,
    purchaseSucceeded: (_, result: PurchaseResult) => result.ok,
    paying: stateIn("#kiosk.session.flow.payment.processing"),
  },
  delays: {
    idleTimeout: ({ context }) => context.timing.idleTimeoutMs * (context.moreTime ? context.timing.moreTimeFactor : 1),
    idleWarning: ({ context }) => context.timing.idleWarningMs,
    countdownTick: ({ context }) => context.timing.countdownTickMs,
    askTimeout: ({ context }) => context.timing.askTimeoutMs,
    endSessionTimeout: ({ context }) => context.timing.endSessionTimeoutMs,
    // Out of service for a technician test: look again soon, to serve passengers as soon as it ends.
    statusPoll: ({ context }) => (context.status?.benchRunning ? Math.min(5_000, context.timing.statusPollMs) : context.timing.statusPollMs),
  },
}).createMachine({
  id: "kiosk",
  context: ({ input }) => ({
    bridge: input.bridge,
    timing: { ...DEFAULT_TIMING, ...input.timing },
    status: null,
    statusFailure: null,
    ...sessionData(),
  }),
  initial: "attract",
  // Pushed, not polled: the screen knows the kiosk's state at once (the attract poll stays as a fallback).
  invoke: { src: "kioskState", input: ({ context }) => ({ bridge: context.bridge }) },
  on: { STATUS: { actions: assign({ status: ({ event }) => event.status, statusFailure: null }) } },
  states: {
    attract: {
      invoke: {
        src: "checkStatus",
        input: ({ context }) => ({ bridge: context.bridge }),
        onDone: { actions: assign({ status: ({ event }) => event.output, statusFailure: null }) },
        onError: { actions: assign({ statusFailure: ({ event }) => toBridgeFailure(event.error) }) },
      },
      after: { statusPoll: { target: "attract", reenter: true } },
      on: { START: { guard: "inService", target: "session" }, REFRESH_STATUS: { target: "attract", reenter: true } },
    },
    session: {
      type: "parallel",
      on: { START_OVER: { guard: not("paying"), target: "resetting" } },
      states: {
        flow: {
          initial: "journey",
          states: {
            journey: {
              // Out of service (a technician test started meanwhile): no request is sent; the screen says why.
              on: { ASK: { guard: and(["hasEvents", "inService"]), target: "working", actions: "beginAsk" } },
            },
            working: {
              entry: "pauseIdle",
              exit: "resumeIdle",
              invoke: [
                {
                  src: "ask",
                  input: ({ context }) => ({
                    bridge: context.bridge,
                    request: context.sessionId
                      ? { ...context.pending!, sessionId: context.sessionId }
                      : { ...context.pending! },
                  }),
                  onDone: { target: "result", actions: { type: "storeResult", params: ({ event }) => event.output } },
                  onError: {
                    target: "journey",
                    actions: { type: "storeAskFailure", params: ({ event }) => toBridgeFailure(event.error) },
                  },
                },
                { src: "progress", input: ({ context }) => ({ bridge: context.bridge }) },
              ],
              after: {
                askTimeout: {
                  target: "journey",
                  actions: { type: "storeAskFailure", params: { kind: "timeout", message: "the assistant did not answer in time" } },
                },
              },
              on: { PROGRESS: { actions: "recordProgress" } },
            },
            result: {
              on: {
                EDIT: { target: "journey" },
                // A tap on one of the assistant's choices answers its question in the same session.
                ASK: { guard: and(["hasEvents", "inService"]), target: "working", actions: "beginAsk" },
                PURCHASE: { guard: "isPurchasable", target: "payment", actions: "newPurchaseAttempt" },
              },
            },
            payment: {
              initial: "confirm",
              states: {
                confirm: {
                  on: {
                    PAY: { guard: "hasPaymentMethod", target: "processing", actions: "choosePaymentMethod" },
                    EDIT: { target: "#kiosk.session.flow.journey" },
                  },
                },
                processing: {
                  entry: "pauseIdle",
                  exit: "resumeIdle",
                  invoke: {
                    src: "purchase",
                    input: ({ context }) => ({
                      bridge: context.bridge,
                      request: {
                        sessionId: context.sessionId!,
                        paymentMethod: context.paymentMethod!,
                        ...(context.purchaseRequestId ? { requestId: context.purchaseRequestId } : {}),
                        ...(context.result?.confirmation ? { confirmation: context.result.confirmation.id } : {}),
                      },
                    }),
                    onDone: [
                      {
                        guard: { type: "purchaseSucceeded", params: ({ event }) => event.output },
                        target: "#kiosk.session.flow.ticket",
                        actions: {
                          type: "storeTicket",
                          params: ({ event }) => (event.output as Extract<PurchaseResult, { ok: true }>).ticket,
                        },
                      },
                      {
                        target: "failed",
                        actions: {
                          type: "storePurchaseFailure",
                          params: ({ event }) => {
                            const failed = event.output as Extract<PurchaseResult, { ok: false }>;
                            return { reason: failed.reason, message: failed.message };
                          },
                        },
                      },
                    ],
                    onError: {
                      target: "failed",
                      actions: {
                        type: "storePurchaseFailure",
                        params: ({ event }) => ({ reason: "bridge" as const, failure: toBridgeFailure(event.error) }),
                      },
                    },
                  },
                },
                failed: {
                  on: {
                    RETRY: { target: "confirm" },
                    EDIT: { target: "#kiosk.session.flow.journey" },
                  },
                },
              },
            },
            ticket: {
              on: { DONE: { target: "#kiosk.resetting" } },
            },
          },
        },
        idle: {
          initial: "active",
          states: {
            active: {
              after: { idleTimeout: { target: "warning" } },
              on: {
                ...Object.fromEntries(USER_EVENTS.map((type) => [type, { target: "active", reenter: true }])),
                MORE_TIME: { target: "active", reenter: true, actions: "giveMoreTime" },
                "IDLE.PAUSE": { target: "paused" },
              },
            },
            warning: {
              entry: "startCountdown",
              initial: "counting",
              states: {
                counting: {
                  after: { countdownTick: { target: "counting", reenter: true, actions: "tickCountdown" } },
                },
              },
              after: { idleWarning: { target: "#kiosk.resetting" } },
              on: {
                ...Object.fromEntries(USER_EVENTS.map((type) => [type, { target: "active" }])),
                CONTINUE: { target: "active" },
                MORE_TIME: { target: "active", actions: "giveMoreTime" },
                "IDLE.PAUSE": { target: "paused" },
              },
            },
            paused: {
              on: { "IDLE.RESUME": { target: "active" } },
            },
          },
        },
      },
    },
    resetting: {
      invoke: {
        src: "endSession",
        input: ({ context }) => ({ bridge: context.bridge, sessionId: context.sessionId }),
        onDone: { target: "attract" },
        onError: { target: "attract" },
      },
      after: { endSessionTimeout: { target: "attract" } },
      exit: ["wipeSession", "wipeView"],
    },
  },
});

export type KioskMachine = typeof kioskMachine;

/** The flow screen a snapshot shows (for the screen switch and tests). */
export type KioskScreen = "attract" | "journey" | "working" | "result" | "payment" | "ticket" | "resetting";

export function screenOf(snapshot: SnapshotFrom<KioskMachine>): KioskScreen {
  if (snapshot.matches("attract")) return "attract";
  if (snapshot.matches("resetting")) return "resetting";
  for (const screen of ["journey", "working", "result", "payment", "ticket"] as const) {
    if (snapshot.matches({ session: { flow: screen } })) return screen;
  }
  return "attract";
}
