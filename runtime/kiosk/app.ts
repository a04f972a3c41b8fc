// KioskApp: the kiosk's runtime behind the KioskBridge — live passenger sessions (KioskService),
// the system views the screen draws, the purchase safety interlock, payment, the sales ledger and
// the assistant's health. No Electron and no HTTP here: the Electron main process (ipc.ts) and
// `kiosk serve` (server.ts) are thin, validating adapters over this class, so the runtime can move
// into an Electron utilityProcess unchanged.
//
// Node-free: the ledger, the system extras (files) and the HTTP server are adapters in node/.
//
// Model crash → fallback: when the primary policy (a language model) throws — e.g. its process
// died — the deterministic fallback policy answers that request (KioskService), the assistant is
// marked unavailable for `primaryRetryMs`, and meanwhile every request goes straight to the
// fallback. Ticket sales continue throughout; the status says "unavailable".
import type { DataPack } from "../../tools/data/datapack.ts";
import type { Disruption, KioskEvent, SystemId } from "../../tools/data/schemas.ts";
import type { SystemData } from "../../tools/data/system.ts";
import { sha256hex12 } from "../../tools/py/text.ts";
import type { FramebookStore } from "../framebook/store.ts";
import { framebookPolicyChange } from "../framebook/validate.ts";
import { rulePolicy } from "../policies/rule/index.ts";
import type { Policy } from "../session/policy.ts";
import type { SessionRecord } from "../session/record.ts";
import type { SessionEvent } from "../session/session.ts";
import type {
  AskRequest,
  AskResult,
  KioskStatus,
  ProgressEvent,
  PurchaseRequest,
  PurchaseResult,
  SystemSummary,
  SystemView,
  Ticket,
} from "./bridge.ts";
import { checkInterlock, type InterlockVerdict } from "./interlock.ts";
import type { SystemExtrasSource } from "./extras.ts";
import type { SalesLedger, SessionLogEntry } from "./sales.ts";
import type { PaymentTerminal } from "./payment.ts";
import { KioskService, type KioskServiceOptions, type LiveSessionResult } from "./service.ts";
import { buildSystemView, framebookVersion, systemSummary } from "./view.ts";

export const DEFAULT_PRIMARY_RETRY_MS = 60_000;
export const MAX_LIVE_SESSIONS = 200;

/** A request the kiosk cannot serve as asked (→ HTTP 404/409, IPC rejection). */
export class KioskRequestError extends Error {
  override name = "KioskRequestError";
  constructor(
    message: string,
    readonly code: "unknown_session" | "wrong_system" | "unknown_system",
  ) {
    super(message);
  }
}

/** The kiosk is not serving passengers right now (technician bench run) (→ HTTP 503). */
export class KioskUnavailableError extends Error {
  override name = "KioskUnavailableError";
}

/** Missed model deadlines in a row after which the model is treated as unavailable for a while. */
export const MAX_CONSECUTIVE_MODEL_TIMEOUTS = 3;

export interface PrimaryPolicy {
  /** "model" for a language model (its failures make the assistant "unavailable"), "rule" otherwise. */
  kind: "model" | "rule";
  policy: (system: SystemId) => Policy;
  /**
   * An operator swapped a framebook (FramebookStore.onChange): drop whatever the policy caches per
   * system prompt. The in-process llm engine needs nothing here — its KV prefix cache compares the
   * prompt's own tokens, and the framebook is part of the system prompt, so a changed framebook
   * never reuses a stale prefix.
   */
  onFramebookChange?: (system: SystemId, version: string) => void;
}

export interface LiveConditionsInput {
  disruptions: readonly Disruption[];
  /** Wall-clock time of the session (default: the app clock). */
  now?: Date;
}

export interface KioskAppOptions {
  pack: DataPack;
  /** Station coordinates, operator local names and attribution (node/pack-extras.ts: packExtras). */
  extras: SystemExtrasSource;
  /**
   * Operator framebooks: every new passenger session reads its system data through the store, so
   * an applied framebook takes effect for the next session without a restart; a session in
   * progress keeps the system data it started with.
   */
  framebooks?: FramebookStore;
  /** The policy answering passengers; default: the deterministic `rule` policy. */
  primary?: PrimaryPolicy;
  /** The deterministic policy used when the primary fails; default: `rule`. */
  fallback?: Policy;
  /** null: the ledger could not be opened — information works, sales are refused. */
  ledger: SalesLedger | null;
  /** Why the ledger is missing (shown in the status). */
  ledgerProblem?: string;
  payment: PaymentTerminal;
  conditions?: (system: SystemId) => LiveConditionsInput;
  deadlineMs?: number;
  /**
   * Hybrid kiosk: route each request (see runtime/policies/hybrid.ts). Requests that need judgement
   * get the deterministic answer at once (a "provisional" progress event) and the model's check
   * within `modelDeadlineMs`.
   */
  router?: KioskServiceOptions["router"];
  modelDeadlineMs?: number;
  primaryRetryMs?: number;
  clock?: () => Date;
  /** Monotonic milliseconds. */
  now?: () => number;
  newSessionId?: () => string;
  newTicketId?: () => string;
  /** Where operational problems go (ledger write failures, crashes). Default: console.error. */
  log?: (message: string) => void;
}

interface AppSession {
  system: SystemId;
  /** The system data (framebook) the session started with. */
  data: SystemData;
  turns: KioskEvent[][];
  last?: {
    record: SessionRecord;
    verdict: InterlockVerdict;
    disruptions: readonly Disruption[];
  };
  sold: boolean;
  purchasing: boolean;
}

function randomId(prefix: string): string {
  return `${prefix}-${globalThis.crypto.randomUUID().replace(/-/g, "").slice(0, 16)}`;
}

/** Problem codes without their details (for the audit log). */
function problemCodes(problems: readonly string[]): string[] {
  return problems.map((p) => p.split(":")[0]!.trim());
}

export class KioskApp {
  private readonly service: KioskService;
  private readonly fallback: Policy;
  private readonly primary: PrimaryPolicy;
  private readonly sessions = new Map<string, AppSession>();
  private readonly listeners = new Set<(event: ProgressEvent) => void>();
  private readonly views = new Map<SystemId, { data: SystemData; view: SystemView }>();
  private primaryDownUntil: number | null = null;
  private consecutiveTimeouts = 0;
  private primaryDownReason: string | null = null;
  private benchRunning = false;
  private readonly clock: () => Date;
  private readonly now: () => number;
  private readonly log: (message: string) => void;

  constructor(private readonly options: KioskAppOptions) {
    this.fallback = options.fallback ?? rulePolicy;
    this.primary = options.primary ?? { kind: "rule", policy: () => this.fallback };
    this.clock = options.clock ?? (() => new Date());
    this.now = options.now ?? (() => performance.now());
    this.log = options.log ?? ((m) => console.error(`kiosk: ${m}`));
    this.service = new KioskService({
      pack: options.pack,
      primary: (system) => (this.primaryIsDown() ? this.fallback : this.primary.policy(system)),
      fallback: this.fallback,
      conditions: (system) => this.conditionsFor(system),
      systemData: (system) => this.system(system),
      clock: this.clock,
      ...(options.deadlineMs !== undefined ? { deadlineMs: options.deadlineMs } : {}),
      ...(options.router ? { router: options.router } : {}),
      ...(options.modelDeadlineMs !== undefined ? { modelDeadlineMs: options.modelDeadlineMs } : {}),
    });
    options.framebooks?.onChange((system, version) => {
      this.views.delete(system);
      this.primary.onFramebookChange?.(system, version);
      this.log(`framebook ${version} is active for ${system}: new passenger sessions use it`);
    });
  }

  private conditionsFor(system: SystemId): { now: Date; disruptions: Disruption[] } {
    const c = this.options.conditions?.(system);
    return { now: c?.now ?? this.clock(), disruptions: [...(c?.disruptions ?? [])] };
  }

  private system(id: SystemId): SystemData {
    return this.options.framebooks?.systemData(id) ?? this.options.pack.system(id);
  }

  // ---------------------------------------------------------------------------------------------
  // Systems

  listSystems(): SystemSummary[] {
    return this.options.pack.systemIds.map((id) => systemSummary(this.system(id)));
  }

  systemView(id: SystemId): SystemView {
    if (!this.options.pack.systemIds.includes(id)) throw new KioskRequestError(`Unknown system '${id}'`, "unknown_system");
    const system = this.system(id);
    // The store hands out one SystemData per framebook version: a new object means a new framebook.
    const cached = this.views.get(id);
    if (cached && cached.data === system) return cached.view;
    const { extras } = this.options;
    const view = buildSystemView(system, { geo: extras.geo(system), operatorNames: extras.operatorNames(system), attribution: extras.attribution(system) });
    this.views.set(id, { data: system, view });
    return view;
  }

  /** Load and check every system's data and operator files now (fail at start-up, not mid-sale). */
  preload(): void {
    for (const id of this.options.pack.systemIds) this.systemView(id);
  }

  // ---------------------------------------------------------------------------------------------
  // Progress

  onProgress(listener: (event: ProgressEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(event: ProgressEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        // A broken listener (a closed socket) must not break the passenger's session.
      }
    }
  }

  private progress(sessionId: string): (event: SessionEvent) => void {
    return (e) => {
      if (e.type === "tool_started") this.emit({ type: "tool_started", sessionId, name: e.name });
      else if (e.type === "tool_finished") this.emit({ type: "tool_finished", sessionId, name: e.name, ok: e.ok });
      else if (e.type === "state_submitted") this.emit({ type: "state_submitted", sessionId, accepted: e.accepted });
    };
  }

  // ---------------------------------------------------------------------------------------------
  // Assistant health

  private primaryIsDown(): boolean {
    if (this.primaryDownUntil === null) return false;
    if (this.clock().getTime() >= this.primaryDownUntil) {
      this.primaryDownUntil = null;
      this.primaryDownReason = null;
      return false;
    }
    return true;
  }

  /**
   * The primary (model) crashed — called by the session path on a thrown policy error and by the
   * host when the model process exits. Passengers are answered by the fallback until the retry time.
   */
  primaryCrashed(reason: string): void {
    if (this.primary.kind !== "model") return;
    this.primaryDownUntil = this.clock().getTime() + (this.options.primaryRetryMs ?? DEFAULT_PRIMARY_RETRY_MS);
    this.primaryDownReason = reason;
    this.log(`assistant unavailable (${reason}); answering with ${this.fallback.id}`);
  }

  /** The model process is back (host hook): try the primary again from the next request. */
  primaryRestored(): void {
    this.primaryDownUntil = null;
    this.primaryDownReason = null;
  }

  setBenchRunning(running: boolean): void {
    this.benchRunning = running;
  }

  status(): KioskStatus {
    const salesProblem = this.options.ledger ? null : `Ticket sales unavailable: ${this.options.ledgerProblem ?? "no ledger"}`;
    if (this.benchRunning) return { assistant: this.primary.kind, benchRunning: true, message: "A technician test is running. Please wait." };
    if (this.primary.kind === "model" && this.primaryIsDown()) {
      return { assistant: "unavailable", benchRunning: false, message: salesProblem ?? "Assistant unavailable — the standard kiosk is answering." };
    }
    return { assistant: this.primary.kind, benchRunning: false, message: salesProblem };
  }

  // ---------------------------------------------------------------------------------------------
  // Asking

  async ask(request: AskRequest, signal?: AbortSignal): Promise<AskResult> {
    if (this.benchRunning) throw new KioskUnavailableError("The kiosk is running a technician test; passengers are served again shortly.");
    const t0 = this.now();
    const events = request.events as KioskEvent[];
    const wasDown = this.primary.kind === "model" && this.primaryIsDown();
    let sessionId: string;
    let session: AppSession;
    let result: LiveSessionResult;
    if (request.sessionId !== undefined) {
      sessionId = request.sessionId;
      const existing = this.sessions.get(sessionId);
      if (!existing) throw new KioskRequestError(`Unknown or finished session '${sessionId}'`, "unknown_session");
      if (existing.system !== request.system) throw new KioskRequestError(`Session '${sessionId}' belongs to ${existing.system}, not ${request.system}`, "wrong_system");
      session = existing;
      session.turns.push(events);
      result = await this.service.continue(sessionId, events, this.progress(sessionId), signal, this.provisional(sessionId, session, t0));
    } else {
      sessionId = this.options.newSessionId?.() ?? randomId("s");
      session = { system: request.system, data: this.system(request.system), turns: [events], sold: false, purchasing: false };
      this.sessions.set(sessionId, session);
      this.evictOldSessions();
      try {
        result = await this.service.start(
          { system: request.system, events, sessionId, ...(request.accessibilityMode !== undefined ? { accessibilityMode: request.accessibilityMode } : {}) },
          this.progress(sessionId),
          signal,
          this.provisional(sessionId, session, t0),
        );
      } catch (err) {
        this.sessions.delete(sessionId);
        this.service.end(sessionId);
        throw err;
      }
    }
    const failure = result.primaryFailure;
    if (failure?.termination === "policy_error") this.primaryCrashed(failure.error ?? "policy error");
    // A timeout, an exhausted round or token budget, an answer without a valid state: the passenger
    // got the fallback's answer, and the operator sees why in the log.
    else if (failure) this.log(`assistant answer replaced by ${this.fallback.id} for session ${sessionId}: ${failure.termination}${failure.error ? ` (${failure.error.slice(0, 300)})` : ""}`);
    // A model that keeps missing its deadline makes every passenger wait it out: after a few in a
    // row it is treated as down (the standard kiosk answers at once) until the retry time.
    if (failure?.termination === "deadline") {
      this.consecutiveTimeouts++;
      if (this.consecutiveTimeouts >= MAX_CONSECUTIVE_MODEL_TIMEOUTS) {
        this.primaryCrashed(`the model missed its deadline ${this.consecutiveTimeouts} times in a row`);
        this.consecutiveTimeouts = 0;
      }
    } else if (!failure) {
      this.consecutiveTimeouts = 0;
    }

    const record = result.record;
    const { answer: base, verdict, disruptions } = this.toAskResult(sessionId, session, record, t0);
    if (verdict.offered && !verdict.ok) this.log(`purchase interlock refused session ${sessionId}: ${verdict.problems.join("; ")}`);
    session.last = { record, verdict, disruptions };
    session.sold = false;
    const answer: AskResult = {
      ...base,
      assistantUnavailable: result.assistantUnavailable || wasDown,
      ...(result.hybrid ? { check: result.hybrid } : {}),
    };
    this.audit({
      sessionId,
      system: request.system,
      event: "answer",
      turn: session.turns.length,
      outcome: record.kiosk.state.outcome,
      action: record.kiosk.state.kiosk_action.action,
      reasonCode: record.kiosk.state.kiosk_action.reason_code,
      policy: record.kiosk.policy,
      fallback: record.kiosk.fallback,
      assistantUnavailable: answer.assistantUnavailable,
      termination: record.kiosk.termination,
      purchasable: verdict.ok,
      problems: problemCodes(verdict.problems),
      elapsedMs: answer.elapsedMs,
      rounds: record.api_rounds,
      toolCalls: record.tool_calls_made.length,
    });
    return answer;
  }

  /** The screen's view of a record: the state, and whether the interlock lets it be bought. */
  private toAskResult(sessionId: string, session: AppSession, record: SessionRecord, t0: number): { answer: AskResult; verdict: InterlockVerdict; disruptions: Disruption[] } {
    const disruptions = [...this.conditionsFor(session.system).disruptions];
    const verdict = checkInterlock({
      system: session.data,
      state: record.kiosk.state,
      turns: session.turns,
      disruptions,
      toolCalls: record.tool_calls_made,
      policyText: framebookPolicyChange(session.data.framebook)?.text ?? null,
    });
    const answer: AskResult = {
      sessionId,
      state: record.kiosk.state,
      fallback: record.kiosk.fallback,
      assistantUnavailable: false,
      purchasable: verdict.ok,
      steps: record.tool_calls_made.map((t) => ({ name: t.name, ok: t.error === null, ms: t.ms ?? 0 })),
      elapsedMs: Math.round(this.now() - t0),
      policy: record.kiosk.policy,
      ...(verdict.offered ? { interlock: { ok: verdict.ok, problems: verdict.problems } } : {}),
    };
    return { answer, verdict, disruptions };
  }

  /**
   * Hybrid: the deterministic answer goes to the screen at once, marked provisional and not yet
   * purchasable (the assistant is still checking it).
   */
  private provisional(sessionId: string, session: AppSession, t0: number): (record: SessionRecord) => void {
    return (record) => {
      const { answer } = this.toAskResult(sessionId, session, record, t0);
      this.emit({ type: "provisional", sessionId, result: { ...answer, purchasable: false } });
    };
  }

  private evictOldSessions(): void {
    while (this.sessions.size > MAX_LIVE_SESSIONS) {
      const oldest = this.sessions.keys().next().value as string;
      this.endSession(oldest);
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Buying

  async purchase(request: PurchaseRequest): Promise<PurchaseResult> {
    const session = this.sessions.get(request.sessionId);
    if (!session || !session.last) {
      return { ok: false, reason: "unknown_session", message: "This request has ended. Please start again." };
    }
    const refuse = (message: string, problems: string[] = []): PurchaseResult => {
      this.audit({ sessionId: request.sessionId, system: session.system, event: "purchase_refused", problems: problemCodes(problems) });
      return { ok: false, reason: "not_purchasable", message };
    };
    if (session.sold) return refuse("A ticket has already been issued for this request.", ["already_sold"]);
    if (session.purchasing) return refuse("A payment for this request is already in progress.", ["purchase_in_progress"]);
    if (!this.options.ledger) {
      return { ok: false, reason: "ledger_unavailable", message: "Ticket sales are unavailable right now. Nothing was charged. Please ask staff for help." };
    }
    const { record, disruptions } = session.last;
    const system = session.data;
    // Re-check with the payment method actually chosen (its fare may differ from the quote's).
    const verdict = checkInterlock({
      system,
      state: record.kiosk.state,
      turns: session.turns,
      disruptions,
      toolCalls: record.tool_calls_made,
      paymentMethod: request.paymentMethod,
      policyText: framebookPolicyChange(system.framebook)?.text ?? null,
    });
    if (!verdict.offered) return refuse("This answer does not offer a ticket.", ["not_offered"]);
    if (!verdict.ok) {
      this.log(`purchase interlock refused session ${request.sessionId}: ${verdict.problems.join("; ")}`);
      const fareDiffers = verdict.problems.some((p) => p.startsWith("fare_mismatch"));
      return refuse(
        fareDiffers
          ? "The fare for this payment method differs from the quote. Please ask again with this payment method."
          : "This ticket cannot be sold: the kiosk could not confirm the route and fare. Please ask staff for help.",
        verdict.problems,
      );
    }
    const state = record.kiosk.state;
    const route = state.route!;
    const quote = state.fare_quote!;
    const riders = verdict.riders!;
    session.purchasing = true;
    try {
      const ticketId = this.options.newTicketId?.() ?? randomId("T").toUpperCase();
      const authorization = await this.options.payment.authorize({
        amount: quote.total,
        currency: quote.currency,
        method: request.paymentMethod,
        reference: ticketId,
      });
      if (!authorization.approved) {
        this.audit({ sessionId: request.sessionId, system: session.system, event: "payment_declined" });
        return { ok: false, reason: "payment_declined", message: `Payment declined: ${authorization.reason}. Nothing was charged.` };
      }
      const stops = route.stops.map((s) => s.station_id);
      const originId = stops[0]!;
      const destinationId = stops[stops.length - 1]!;
      const issuedAt = this.clock().toISOString();
      const ticket: Ticket = {
        ticketId,
        system: session.system,
        issuedAt,
        origin: system.stationById(originId)?.name ?? originId,
        destination: system.stationById(destinationId)?.name ?? destinationId,
        riders: { ...riders },
        total: quote.total,
        currency: quote.currency,
        paymentMethod: request.paymentMethod,
      };
      try {
        this.options.ledger.recordSale({
          ticketId,
          issuedAt,
          system: session.system,
          sessionId: request.sessionId,
          originId,
          originName: ticket.origin,
          destinationId,
          destinationName: ticket.destination,
          stops,
          riders: { ...riders },
          total: quote.total,
          currency: quote.currency,
          paymentMethod: request.paymentMethod,
          paymentTerminal: this.options.payment.id,
          authorizationId: authorization.authorizationId,
          stateJson: JSON.stringify(state),
          transcriptId: `tr-${sha256hex12(JSON.stringify(record.messages))}`,
          framebookVersion: framebookVersion(system),
          policy: record.kiosk.policy,
        });
      } catch (err) {
        this.log(`ledger write failed, sale voided: ${(err as Error).message}`);
        await this.safely(() => this.options.payment.void(authorization.authorizationId), "void after ledger failure");
        this.audit({ sessionId: request.sessionId, system: session.system, event: "sale_failed", problems: ["ledger_unavailable"] });
        return {
          ok: false,
          reason: "ledger_unavailable",
          message: "The ticket could not be recorded, so it was not issued and your payment was cancelled. Please ask staff for help.",
        };
      }
      try {
        await this.options.payment.capture(authorization.authorizationId);
      } catch (err) {
        this.log(`capture failed for ${ticketId}: ${(err as Error).message}`);
        await this.safely(() => this.options.payment.void(authorization.authorizationId), "void after capture failure");
        await this.safely(async () => this.options.ledger?.voidSale(ticketId, "capture_failed", this.clock().toISOString()), "void sale in ledger");
        this.audit({ sessionId: request.sessionId, system: session.system, event: "payment_declined", ticketId });
        return { ok: false, reason: "payment_declined", message: "The payment could not be completed. Nothing was charged." };
      }
      session.sold = true;
      this.audit({ sessionId: request.sessionId, system: session.system, event: "sale", ticketId, policy: record.kiosk.policy });
      return { ok: true, ticket };
    } finally {
      session.purchasing = false;
    }
  }

  private async safely(action: () => Promise<void>, what: string): Promise<void> {
    try {
      await action();
    } catch (err) {
      this.log(`${what} failed: ${(err as Error).message}`);
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Ending

  /** End a passenger session (an unknown or already ended one is fine: nothing to forget). */
  endSession(sessionId: string): null {
    const session = this.sessions.get(sessionId);
    this.service.end(sessionId);
    if (!session) return null;
    this.sessions.delete(sessionId);
    this.audit({ sessionId, system: session.system, event: "end", turn: session.turns.length });
    return null;
  }

  get activeSessions(): number {
    return this.sessions.size;
  }

  private audit(entry: Omit<SessionLogEntry, "at">): void {
    if (!this.options.ledger) return;
    try {
      this.options.ledger.logSession({ at: this.clock().toISOString(), ...entry });
    } catch (err) {
      // The audit log is best-effort; sales themselves never are.
      this.log((err as Error).message);
    }
  }
}
