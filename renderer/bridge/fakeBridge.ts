// An in-memory KioskBridge for tests and the dev entry: demo systems, the demo policy (or a
// scripted answer), progress events, a simulated payment terminal and a record of every call.
import type {
  AskRequest,
  AskResult,
  KioskBridge,
  KioskMethod,
  KioskStatus,
  ProgressEvent,
  PurchaseRequest,
  PurchaseResult,
  SystemView,
  Ticket,
} from "../../runtime/kiosk/bridge.ts";
import { demoAnswer, foldEvents } from "./demoPolicy.ts";
import { DEMO_SYSTEMS } from "./demoSystems.ts";
import { BridgeError, type BridgeFailureKind } from "./errors.ts";

type Operation = KioskMethod;

export interface FakeBridgeOptions {
  systems?: readonly SystemView[];
  /** Replaces the demo policy: the answer to each ask (sessionId already chosen). */
  answer?: (request: AskRequest & { sessionId: string }, turn: number) => AskResult | Promise<AskResult>;
  /** Replaces the simulated payment terminal. */
  purchase?: (request: PurchaseRequest) => PurchaseResult | Promise<PurchaseResult>;
  /** The kiosk's state (merged into a serving kiosk's: model answering, sales open). */
  status?: Partial<KioskStatus>;
  /** Pause between progress events (ms); 0 keeps everything in microtasks (tests). */
  stepDelayMs?: number;
  /** Make an operation fail with this kind (a BridgeError). */
  failures?: Partial<Record<Operation, BridgeFailureKind>>;
  now?: () => Date;
}

export interface FakeBridge extends KioskBridge {
  readonly calls: {
    ask: AskRequest[];
    purchase: PurchaseRequest[];
    endSession: string[];
    systemView: string[];
  };
  /** Push a progress event to the listeners (as the runtime would). */
  emitProgress(event: ProgressEvent): void;
  /** Change the kiosk's state and push it to the listeners (a bench run starting, the model going down). */
  setStatus(patch: Partial<KioskStatus>): void;
  readonly activeSessions: ReadonlySet<string>;
  setFailure(operation: Operation, kind: BridgeFailureKind | null): void;
}

interface FakeSession {
  system: SystemView;
  turns: AskRequest["events"][];
  last: AskResult | null;
}

export function createFakeBridge(options: FakeBridgeOptions = {}): FakeBridge {
  const systems = options.systems ?? DEMO_SYSTEMS;
  const listeners = new Set<(event: ProgressEvent) => void>();
  const stateListeners = new Set<(state: KioskStatus) => void>();
  let status: KioskStatus = { assistant: "model", benchRunning: false, message: null, model: null, salesAvailable: true, framebookVersions: {}, ...options.status };
  const sessions = new Map<string, FakeSession>();
  const failures = new Map<Operation, BridgeFailureKind>(Object.entries(options.failures ?? {}) as [Operation, BridgeFailureKind][]);
  const calls: FakeBridge["calls"] = { ask: [], purchase: [], endSession: [], systemView: [] };
  const active = new Set<string>();
  /** Tickets issued, by id (a lookup finds them again, as the kiosk's ledger does). */
  const issued = new Map<string, Ticket>();
  let counter = 0;
  const now = options.now ?? (() => new Date());
  const pause = (): Promise<void> =>
    options.stepDelayMs ? new Promise((resolve) => setTimeout(resolve, options.stepDelayMs)) : Promise.resolve();
  const emit = (event: ProgressEvent): void => {
    for (const listener of [...listeners]) listener(event);
  };
  const check = (operation: Operation): void => {
    const kind = failures.get(operation);
    if (kind) throw new BridgeError(kind, `fake bridge: ${operation} fails with ${kind}`);
  };
  const systemById = (id: string): SystemView => {
    const view = systems.find((system) => system.id === id);
    if (!view) throw new BridgeError("rejected", `fake bridge: unknown system ${id}`, 404);
    return view;
  };

  async function answer(request: AskRequest & { sessionId: string }, session: FakeSession): Promise<AskResult> {
    if (options.answer) return options.answer(request, session.turns.length);
    const started = Date.now();
    const demo = demoAnswer(session.system, foldEvents(session.turns));
    const steps = [];
    for (const name of demo.tools) {
      emit({ type: "tool_started", sessionId: request.sessionId, name });
      await pause();
      emit({ type: "tool_finished", sessionId: request.sessionId, name, ok: true });
      steps.push({ name, ok: true, ms: options.stepDelayMs ?? 0 });
    }
    emit({ type: "state_submitted", sessionId: request.sessionId, accepted: true });
    await pause();
    const { outcome, kiosk_action: action } = demo.state;
    const purchasable = outcome === "route_and_fare_ready" && action.action === "prompt_purchase";
    const route = demo.state.route;
    const quote = demo.state.fare_quote;
    const summary = quote?.passenger_summary;
    return {
      sessionId: request.sessionId,
      state: demo.state,
      fallback: false,
      assistantUnavailable: demo.assistantUnavailable,
      purchasable,
      // As the kiosk's interlock would: the summary the passenger confirms before paying.
      ...(purchasable && route && quote
        ? {
            confirmation: {
              id: `demo-${request.sessionId}`,
              from: route.stops[0]?.station_name ?? route.origin,
              to: route.stops[route.stops.length - 1]?.station_name ?? route.destination,
              fromId: route.stops[0]?.station_id ?? route.origin,
              toId: route.stops[route.stops.length - 1]?.station_id ?? route.destination,
              riders: { adults: summary?.adults ?? 1, children: summary?.children ?? 0, seniors: summary?.seniors ?? 0, disabled: summary?.disabled ?? 0 },
              total: quote.total,
              currency: quote.currency,
            },
          }
        : {}),
      steps,
      elapsedMs: Date.now() - started,
      policy: demo.assistantUnavailable ? "rule" : "demo",
    };
  }

  const bridge: FakeBridge = {
    calls,
    activeSessions: active,
    emitProgress: emit,
    setStatus(patch) {
      status = { ...status, ...patch };
      for (const listener of [...stateListeners]) listener(status);
    },
    setFailure(operation, kind) {
      if (kind) failures.set(operation, kind);
      else failures.delete(operation);
    },
    async listSystems() {
      check("listSystems");
      return systems.map(({ id, orgName, fullName }) => ({ id, orgName, fullName }));
    },
    async systemView(system) {
      calls.systemView.push(system);
      check("systemView");
      return systemById(system);
    },
    async ask(request) {
      calls.ask.push(request);
      check("ask");
      let sessionId = request.sessionId;
      let session = sessionId ? sessions.get(sessionId) : undefined;
      if (sessionId && !session) throw new BridgeError("rejected", `fake bridge: unknown session ${sessionId}`, 404);
      if (!session || !sessionId) {
        sessionId = `fake-${++counter}`;
        session = { system: systemById(request.system), turns: [], last: null };
        sessions.set(sessionId, session);
        active.add(sessionId);
      }
      session.turns.push(request.events);
      const result = await answer({ ...request, sessionId }, session);
      session.last = result;
      return result;
    },
    onProgress(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async purchase(request) {
      calls.purchase.push(request);
      check("purchase");
      if (options.purchase) return options.purchase(request);
      const session = sessions.get(request.sessionId);
      if (!session) return { ok: false, reason: "unknown_session", message: "Unknown session" };
      const last = session.last;
      if (!last?.purchasable || !last.state.fare_quote || !last.state.route) {
        return { ok: false, reason: "not_purchasable", message: "This answer cannot be purchased" };
      }
      await pause();
      if (session.turns.flat().some((event) => event.type === "freetext_input" && /decline/i.test(event.text))) {
        return { ok: false, reason: "payment_declined", message: "The payment terminal declined the card" };
      }
      const quote = last.state.fare_quote;
      const ticket: Ticket = {
        ticketId: `TKT-${request.sessionId.toUpperCase()}-${String(++counter).padStart(4, "0")}`,
        system: session.system.id,
        issuedAt: now().toISOString(),
        origin: last.state.route.origin,
        destination: last.state.route.destination,
        originId: last.state.route.stops[0]?.station_id ?? last.state.route.origin,
        destinationId: last.state.route.stops.at(-1)?.station_id ?? last.state.route.destination,
        riders: Object.fromEntries((quote.line_items ?? []).map((item) => [item.rider_type, item.count])),
        total: quote.total,
        currency: quote.currency,
        paymentMethod: request.paymentMethod,
      };
      issued.set(ticket.ticketId, ticket);
      return { ok: true, ticket };
    },
    async ticket(ticketId) {
      check("ticket");
      const ticket = issued.get(ticketId);
      return ticket ? { found: true, ticket, voided: false } : { found: false };
    },
    async speak() {
      return { spoken: false, reason: "no_engine", message: "the demo kiosk has no speech engine" };
    },
    async endSession(sessionId) {
      calls.endSession.push(sessionId);
      check("endSession");
      sessions.delete(sessionId);
      active.delete(sessionId);
      return null;
    },
    async status() {
      check("status");
      return status;
    },
    onState(listener) {
      stateListeners.add(listener);
      // A new subscriber learns the present state first, as from the kiosk.
      queueMicrotask(() => stateListeners.has(listener) && listener(status));
      return () => stateListeners.delete(listener);
    },
  };
  return bridge;
}
