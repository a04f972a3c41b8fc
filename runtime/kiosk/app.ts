// KioskApp: the kiosk's runtime behind the KioskBridge — live passenger sessions (KioskService over
// the answer pipeline), the system views the screen draws, the purchase safety interlock, payment,
// the sales ledger and the assistant's health. No Electron and no HTTP here: the Electron main
// process (electron/ipc.ts) and `kiosk serve` (node/server.ts) are thin, validating adapters over
// this class; the host (host/) assembles it.
//
// Node-free: the ledger, the system extras (files) and the HTTP server are adapters in node/.
//
// Model crash → rule: when the model fails with an error — e.g. its process died — the
// deterministic policy answers that request, the model's breaker opens for `modelRetryMs` (or until
// the model process is back), and meanwhile every request goes straight to the deterministic
// policy. Ticket sales continue throughout; the status says "unavailable".
//
// The interlock's verdict on each answer comes from the pipeline (which checks it at the kiosk's
// time now, with the screen's local station names); the app adds what only it knows — whether
// the ledger can record a sale (sales_unavailable) — and the confirmation summary. A purchase is
// re-checked here, at the time of payment, with the payment method chosen.
import type { DataPack } from "../../tools/data/datapack.ts";
import type { Disruption, KioskEvent, SystemId } from "../../tools/data/schemas.ts";
import type { SystemData } from "../../tools/data/system.ts";
import { sha256hex12 } from "../../tools/py/text.ts";
import { ModelBreaker } from "../answer/breaker.ts";
import type { KioskSessionEvent } from "../audit/events.ts";
import type { AuditPurchase } from "../audit/model.ts";
import { AnswerPipeline, type Answer, type AnswerHooks, type ModelAssistant, type ProvisionalAnswer } from "../answer/pipeline.ts";
import type { FramebookStore } from "../framebook/store.ts";
import { framebookPolicyChange } from "../framebook/validate.ts";
import { clarificationOf } from "../contract/clarification.ts";
import { rulePolicy } from "../policies/rule/index.ts";
import { registerLanguageData } from "../language/index.ts";
import type { LocalizedNames, PassengerLocale, Policy, SessionSetup } from "../session/policy.ts";
import type { SessionRecord } from "../session/record.ts";
import type { SessionEvent } from "../session/session.ts";
import type {
  AskRequest,
  AskResult,
  ClosedTrip,
  KioskStatus,
  ModelProcessView,
  PassengerLanguage,
  ProgressEvent,
  InterlockCode,
  PurchaseConfirmation,
  PurchaseRequest,
  PurchaseResult,
  ReplicationView,
  SpeakRequest,
  SpeechResult,
  SpeechStatus,
  SystemSummary,
  SystemView,
  Ticket,
  TicketLookupResult,
} from "./bridge.ts";
import { PassengerLanguageSchema } from "./bridge.ts";
import { checkInterlock, type InterlockVerdict } from "./interlock.ts";
import { closedTripOf } from "./closed-trip.ts";
import type { SystemExtrasSource } from "./extras.ts";
import type { StationNames } from "./interlock/stations.ts";
import {
  checkSessionRoom,
  eventBytes,
  evictionVictim,
  holdsQuote,
  KioskLimitError,
  LOCAL_CLIENT,
  MAX_LIVE_SESSIONS,
  MAX_UNPAID_PER_CLIENT,
  UNPAID_SESSION_TTL_MS,
} from "./limits.ts";
import { confirmationOf, ticketOfSale } from "./purchase-facts.ts";
import type { SalesLedger, SessionLogEntry } from "./sales.ts";
import type { PaymentTerminal } from "./payment.ts";
import { KioskService, localIsoMinute } from "./service.ts";
import { buildSystemView, framebookVersion, systemSummary } from "./view.ts";

export { KioskLimitError, MAX_LIVE_SESSIONS };
/** After a failed ledger write, sales stay off until a health check passes, at most this often. */
export const LEDGER_RECHECK_MS = 30_000;

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

/** The passenger model's process health, as the host reports it (models/worker/supervisor.ts). */
export interface ModelHealth {
  view(): ModelProcessView;
  /** Every change of the process's state; returns an unsubscribe function. */
  onChange(listener: () => void): () => void;
}

export interface LiveConditionsInput {
  disruptions: readonly Disruption[];
  /** Wall-clock time of the session (default: the app clock). */
  now?: Date;
}

export interface KioskAppOptions {
  pack: DataPack;
  /** Station coordinates, line drawings, operator local names and attribution (node/pack-extras.ts: packExtras). */
  extras: SystemExtrasSource;
  /**
   * Operator framebooks: every new passenger session reads its system data through the store, so
   * an applied framebook takes effect for the next session without a restart; a session in
   * progress keeps the system data it started with.
   */
  framebooks?: FramebookStore;
  /** The deterministic policy: answers alone without a model, provisionally and whenever the model cannot. Default `rule`. */
  rule?: Policy;
  /** A language model answering passengers (`model` mode) or checking the answers that need judgement (`hybrid`). */
  assistant?: ModelAssistant;
  /** The model's circuit breaker (the host shares it with the model process's supervisor). */
  breaker?: ModelBreaker;
  /** How long a crashed or repeatedly late model is left out (default 60 s; with `breaker`, its own). */
  modelRetryMs?: number;
  /** The model process's health (shown in the status, pushed with the kiosk's state). */
  modelHealth?: ModelHealth;
  /** null: the ledger could not be opened — information works, sales are refused. */
  ledger: SalesLedger | null;
  /** Why the ledger is missing (shown in the status). */
  ledgerProblem?: string;
  /** Replication of the ledger to the fleet's back office (shown in the status), when configured. */
  replication?: { status(): ReplicationView };
  payment: PaymentTerminal;
  /** The live conditions of a system; `language` is the passenger's screen language (alert text is picked by it). */
  conditions?: (system: SystemId, language?: string) => LiveConditionsInput;
  /** Time limit of one answer by the deterministic policy (and by the model in `model` mode). */
  deadlineMs?: number;
  clock?: () => Date;
  /** The time a new session's system prompt states (default: the start of the minute; the prompt warmer's). */
  promptTime?: (now: Date) => Date;
  /** The headset output's label pattern the screen uses in headset mode (config: --headset-pattern). */
  headsetPattern?: string;
  /** The platform speech engine that renders headset readings (runtime/speech/service.ts); absent: headset mode cannot speak. */
  speech?: { status(): SpeechStatus | null; onChange(listener: () => void): () => void; speak(request: SpeakRequest): Promise<SpeechResult> };
  /** How long an unpaid purchasable answer is held and can be bought (default UNPAID_SESSION_TTL_MS, 3 minutes). */
  unpaidSessionMs?: number;
  /** Unpaid purchasable sessions one client may hold; its next ends its oldest (default MAX_UNPAID_PER_CLIENT). */
  maxUnpaidPerClient?: number;
  /** Monotonic milliseconds. */
  now?: () => number;
  newSessionId?: () => string;
  newTicketId?: () => string;
  /** Where operational problems go (ledger write failures, crashes). Default: console.error. */
  log?: (message: string) => void;
  /** Every answered turn, purchase attempt and session end, for the session audit (host/session-audit.ts). */
  onSession?: (event: KioskSessionEvent) => void;
}

interface AppSession {
  system: SystemId;
  /** Who started it (`kiosk serve`: the remote address and screen; Electron: the screen): unpaid sessions count against it. */
  client: string;
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
  accessibilityMode: boolean;
  /** The screen language of the latest request (the service alerts' text is shown in it). */
  language: string | undefined;
  /** JSON bytes of every turn's events (limits.ts). */
  bytes: number;
  /** Monotonic ms of the last request (eviction is by idle time). */
  lastActiveMs: number;
  /** Asks in progress. */
  asking: number;
  /** What the passenger confirms before paying (when the last answer is purchasable). */
  confirmation?: PurchaseConfirmation;
  /** Monotonic ms the purchasable answer was given: it can be bought for unpaidSessionMs after. */
  quotedAtMs?: number;
  /** Purchases by the screen's request id: a retry gets the same outcome. */
  purchases: Map<string, Promise<PurchaseResult>>;
  /** The payment method of the latest purchase attempt (for the session audit). */
  paymentMethod?: string;
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
  private readonly pipeline: AnswerPipeline;
  private readonly sessions = new Map<string, AppSession>();
  private readonly listeners = new Set<(event: ProgressEvent) => void>();
  private readonly stateListeners = new Set<(state: KioskStatus) => void>();
  private lastState = "";
  private readonly versions = new WeakMap<SystemData, string>();
  private readonly views = new Map<SystemId, { data: SystemData; view: SystemView }>();
  private benchRunning = false;
  /** The network of the last passenger session (the screen's current one). */
  private lastSystem: SystemId | undefined;
  /** A ledger write failed: sales are off until a health check passes. */
  private ledgerFailure: { problem: string; atMs: number } | null = null;
  private readonly clock: () => Date;
  private readonly now: () => number;
  private readonly log: (message: string) => void;
  private readonly unpaidSessionMs: number;
  private readonly maxUnpaidPerClient: number;

  constructor(private readonly options: KioskAppOptions) {
    this.clock = options.clock ?? (() => new Date());
    this.now = options.now ?? (() => performance.now());
    this.log = options.log ?? ((m) => console.error(`kiosk: ${m}`));
    this.unpaidSessionMs = options.unpaidSessionMs ?? UNPAID_SESSION_TTL_MS;
    this.maxUnpaidPerClient = options.maxUnpaidPerClient ?? MAX_UNPAID_PER_CLIENT;
    const breaker = options.breaker ?? new ModelBreaker({ ...(options.modelRetryMs !== undefined ? { retryMs: options.modelRetryMs } : {}), now: () => this.clock().getTime() });
    this.pipeline = new AnswerPipeline({
      rule: options.rule ?? rulePolicy,
      assistant: options.assistant ?? null,
      profile: options.pack.promptProfile(),
      breaker,
      ...(options.deadlineMs !== undefined ? { deadlineMs: options.deadlineMs } : {}),
      log: this.log,
      now: this.now,
    });
    this.service = new KioskService({
      pack: options.pack,
      pipeline: this.pipeline,
      conditions: (system, language) => this.conditionsFor(system, language),
      systemData: (system) => this.system(system),
      clock: this.clock,
      ...(options.promptTime ? { promptTime: options.promptTime } : {}),
    });
    options.framebooks?.onChange((system, version) => {
      this.views.delete(system);
      options.assistant?.onFramebookChange?.(system, version);
      this.log(`framebook ${version} is active for ${system}: new passenger sessions use it`);
      this.publishState();
    });
    // What changes the kiosk's state: the model's breaker, its process, a bench run, a framebook.
    breaker.onChange(() => this.publishState());
    options.modelHealth?.onChange(() => this.publishState());
    // The speech engines are probed in the background: the screen learns its voices when that is done.
    options.speech?.onChange(() => this.publishState());
  }

  /** The model's circuit breaker (open: the deterministic policy answers). */
  get breaker(): ModelBreaker {
    return this.pipeline.breaker;
  }

  private conditionsFor(system: SystemId, language?: string): { now: Date; disruptions: Disruption[] } {
    const c = this.options.conditions?.(system, language);
    return { now: c?.now ?? this.clock(), disruptions: [...(c?.disruptions ?? [])] };
  }

  private system(id: SystemId): SystemData {
    // Any well-formed id passes the contract's schemas; whether this kiosk runs it is known only here.
    if (!this.options.pack.systemIds.includes(id)) throw new KioskRequestError(`Unknown system '${id}'`, "unknown_system");
    return this.options.framebooks?.systemData(id) ?? this.options.pack.system(id);
  }

  // ---------------------------------------------------------------------------------------------
  // Systems

  listSystems(): SystemSummary[] {
    const { pack } = this.options;
    // Marked so the technician screen offers generated cases for the imported ones (the pack's have their own).
    return pack.systemIds.map((id) => ({ ...systemSummary(this.system(id)), imported: pack.isImported(id) }));
  }

  systemView(id: SystemId): SystemView {
    const system = this.system(id);
    // The store hands out one SystemData per framebook version: a new object means a new framebook.
    const cached = this.views.get(id);
    if (cached && cached.data === system) return cached.view;
    const { extras } = this.options;
    const operatorNames = extras.operatorNames(system);
    const lineShapes = extras.lineShapes?.(system);
    const view = buildSystemView(system, { geo: extras.geo(system), ...(lineShapes ? { lineShapes } : {}), operatorNames, attribution: extras.attribution(system) });
    this.views.set(id, { data: system, view });
    // The passenger-language layer reads typed station names in the screen's local names too
    // (bench mode registers them from the default operator folder in caseSetup).
    registerLanguageData(system.id, {
      localNames: new Map(view.stations.filter((s) => s.localNames.length > 0).map((s) => [s.id, s.localNames])),
      aliases: operatorNames?.aliases ?? new Map(),
      landmarks: operatorNames?.landmarks ?? new Map(),
    });
    return view;
  }

  private readonly localNames = new WeakMap<SystemView, Map<string, string[]>>();

  /**
   * The screen's local-language station names (the interlock finds stations typed in them), when
   * the passenger typed anything outside ASCII (building a system's view the first time is not free).
   */
  private stationNames(id: SystemId, turns: readonly (readonly KioskEvent[])[]): StationNames | undefined {
    if (!turns.some((t) => t.some((e) => e.type === "freetext_input" && typeof e.text === "string" && /[^ -~\s]/.test(e.text)))) return undefined;
    const view = this.systemView(id);
    let names = this.localNames.get(view);
    if (!names) this.localNames.set(view, (names = new Map(view.stations.map((s) => [s.id, s.localNames]))));
    return names;
  }

  /**
   * The passenger's language and the screen's names in each language, so deterministic answers are
   * worded like the screen (bench mode has none and keeps the benchmark's English).
   */
  private passengerLocale(id: SystemId, language: PassengerLanguage | undefined): PassengerLocale {
    const view = this.systemView(id);
    let names = this.localizedNames.get(view);
    if (!names) {
      const by = (items: readonly { id: string; localized?: Record<string, string> }[]): LocalizedNames => new Map(items.flatMap((i) => (i.localized ? [[i.id, i.localized] as const] : [])));
      const payments = view.paymentMethods.map((m) => ({ ...m, id: m.label }));
      this.localizedNames.set(view, (names = { stationNames: by(view.stations), lineNames: by(view.lines), paymentNames: by(payments) }));
    }
    return { ...names, ...(language ? { language } : {}) };
  }

  private readonly localizedNames = new WeakMap<SystemView, Omit<PassengerLocale, "language">>();

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

  /** The model failed with an error (e.g. its process died): the deterministic policy answers until the retry time. */
  modelCrashed(reason: string): void {
    if (!this.options.assistant) return;
    this.pipeline.breaker.crashed(reason);
    this.log(`assistant unavailable (${reason}); answering with ${this.pipeline.options.rule.id}`);
  }

  /** The model is back (the host's model process is serving again): try it from the next request. */
  modelRestored(): void {
    this.pipeline.breaker.reset();
  }

  setBenchRunning(running: boolean): void {
    this.benchRunning = running;
    this.publishState();
  }

  /**
   * Why tickets cannot be sold now (null: they can): no ledger, a damaged one, or a failed write
   * not yet followed by a passing health check.
   */
  salesProblem(): string | null {
    const ledger = this.options.ledger;
    if (!ledger) return this.options.ledgerProblem ?? "no sales ledger";
    if (this.ledgerFailure && this.now() - this.ledgerFailure.atMs >= LEDGER_RECHECK_MS) {
      const health = ledger.health?.();
      if (health?.ok) {
        this.log("the ledger passed its health check again: ticket sales resume");
        this.ledgerFailure = null;
        // The screen learns that sales are back (after this check's caller has its answer).
        queueMicrotask(() => this.publishState());
      } else this.ledgerFailure = { problem: health?.problem ?? this.ledgerFailure.problem, atMs: this.now() };
    }
    return this.ledgerFailure?.problem ?? null;
  }

  /** The kiosk's state (also pushed to every onState listener when it changes). */
  status(): KioskStatus {
    const problem = this.salesProblem();
    const speech = this.options.speech?.status() ?? null;
    const salesProblem = problem === null ? null : `Ticket sales unavailable: ${problem}`;
    const assistant = !this.options.assistant ? "rule" : this.pipeline.breaker.isOpen ? "unavailable" : "model";
    const message = this.benchRunning
      ? "A technician test is running. Please wait."
      : assistant === "unavailable"
        ? (salesProblem ?? "Assistant unavailable — the standard kiosk is answering.")
        : salesProblem;
    return {
      assistant,
      benchRunning: this.benchRunning,
      message,
      model: this.options.modelHealth?.view() ?? null,
      salesAvailable: problem === null,
      framebookVersions: Object.fromEntries(this.options.pack.systemIds.map((id) => [id, this.versionOf(this.system(id))])),
      ...(this.options.headsetPattern ? { headsetPattern: this.options.headsetPattern } : {}),
      ...(this.options.replication ? { replication: this.options.replication.status() } : {}),
      ...(speech ? { speech } : {}),
    };
  }

  /** Words rendered to audio for headset mode, or why they cannot be (the screen then says so; nothing goes to the loudspeaker). */
  async speak(request: SpeakRequest): Promise<SpeechResult> {
    if (!this.options.speech) return { spoken: false, reason: "no_engine", message: "this kiosk has no speech engine" };
    return this.options.speech.speak(request);
  }

  /** Every change of the kiosk's state, pushed to the screen; returns an unsubscribe function. */
  onState(listener: (state: KioskStatus) => void): () => void {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  }

  private publishState(): void {
    const state = this.status();
    const key = JSON.stringify(state);
    if (key === this.lastState) return;
    this.lastState = key;
    for (const listener of this.stateListeners) {
      try {
        listener(state);
      } catch {
        // A closed socket must not stop the others from learning the news.
      }
    }
  }

  /** The framebook version the screen's system view carries (one hash per framebook). */
  private versionOf(system: SystemData): string {
    let version = this.versions.get(system);
    if (version === undefined) this.versions.set(system, (version = framebookVersion(system)));
    return version;
  }

  // ---------------------------------------------------------------------------------------------
  // Asking

  /** `client`: who asks (the adapters pass it; unpaid sessions count against it). */
  async ask(request: AskRequest, signal?: AbortSignal, client: string = LOCAL_CLIENT): Promise<AskResult> {
    if (this.benchRunning) throw new KioskUnavailableError("The kiosk is running a technician test; passengers are served again shortly.");
    const t0 = this.now();
    const askedAt = localIsoMinute(this.conditionsFor(request.system).now);
    const events = request.events as KioskEvent[];
    let sessionId: string;
    let session: AppSession;
    let answer: Answer;
    const hooks = (id: string, s: AppSession): AnswerHooks => {
      const conditions = this.conditionsFor(s.system, s.language);
      const stationNames = this.stationNames(s.system, s.turns);
      return {
        onEvent: this.progress(id),
        onProvisional: this.provisional(id, s, t0),
        disruptions: conditions.disruptions,
        now: { iso: localIsoMinute(conditions.now) },
        ...(stationNames ? { stationNames } : {}),
        ...(signal ? { signal } : {}),
      };
    };
    if (request.sessionId !== undefined) {
      sessionId = request.sessionId;
      const existing = this.sessions.get(sessionId);
      if (!existing) throw new KioskRequestError(`Unknown or finished session '${sessionId}'`, "unknown_session");
      if (existing.system !== request.system) throw new KioskRequestError(`Session '${sessionId}' belongs to ${existing.system}, not ${request.system}`, "wrong_system");
      checkSessionRoom(existing.turns.length, existing.bytes, events);
      session = existing;
      session.turns.push(events);
      session.language = request.language ?? session.language;
      session.bytes += eventBytes(events);
      session.lastActiveMs = this.now();
      session.asking++;
      try {
        answer = await this.service.continue(sessionId, events, hooks(sessionId, session));
      } finally {
        session.asking--;
      }
    } else {
      sessionId = this.options.newSessionId?.() ?? randomId("s");
      this.makeRoom();
      session = {
        system: request.system,
        client,
        data: this.system(request.system),
        turns: [events],
        sold: false,
        purchasing: false,
        accessibilityMode: request.accessibilityMode === true,
        language: request.language,
        bytes: eventBytes(events),
        lastActiveMs: this.now(),
        asking: 1,
        purchases: new Map(),
      };
      this.sessions.set(sessionId, session);
      this.lastSystem = request.system;
      try {
        answer = await this.service.start(
          {
            system: request.system,
            events,
            sessionId,
            passenger: this.passengerLocale(request.system, request.language),
            ...(request.accessibilityMode !== undefined ? { accessibilityMode: request.accessibilityMode } : {}),
            ...(request.language ? { language: request.language } : {}),
          },
          hooks(sessionId, session),
        );
      } catch (err) {
        this.sessions.delete(sessionId);
        this.service.end(sessionId);
        throw err;
      } finally {
        session.asking--;
      }
    }

    const { record, verdict, disruptions } = answer;
    if (verdict.offered && !verdict.ok) this.log(`purchase interlock refused session ${sessionId}: ${verdict.problems.join("; ")}`);
    session.last = { record, verdict, disruptions };
    session.sold = false;
    const shown = this.toAskResult(sessionId, session, record, verdict, t0);
    session.confirmation = shown.confirmation;
    session.quotedAtMs = shown.confirmation ? this.now() : undefined;
    if (shown.confirmation) this.capUnpaid(session.client, sessionId);
    const result: AskResult = {
      ...shown,
      assistantUnavailable: answer.assistantUnavailable,
      ...(answer.route ? { check: { decidedBy: answer.decidedBy, reason: answer.route.reason, changed: answer.changed, note: answer.note } } : {}),
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
      assistantUnavailable: result.assistantUnavailable,
      termination: record.kiosk.termination,
      purchasable: result.purchasable,
      // The block codes the screen explains (sales_unavailable included), for the operator log.
      problems: result.interlock?.codes ?? [],
      elapsedMs: result.elapsedMs,
      rounds: record.api_rounds,
      toolCalls: record.tool_calls_made.length,
    });
    this.observe({
      type: "turn",
      session: { sessionId, system: request.system, language: request.language, accessibilityMode: request.accessibilityMode },
      turn: {
        at: this.clock(),
        events,
        now: askedAt,
        disruptions,
        framebookVersion: this.versionOf(session.data),
        record,
        verdict,
        hybrid: answer.route ? { decidedBy: answer.decidedBy, note: answer.note } : undefined,
        assistantUnavailable: answer.assistantUnavailable,
        elapsedMs: result.elapsedMs,
      },
    });
    return result;
  }

  /**
   * The screen's view of a record: the state, whether it can be bought — the interlock passed and
   * the ledger can record the sale — and, when it can, the summary the passenger confirms.
   */
  private toAskResult(sessionId: string, session: AppSession, record: SessionRecord, verdict: InterlockVerdict, t0: number): AskResult {
    // No ticket can be sold without a working ledger: say so before the passenger tries to pay.
    const sales = verdict.offered ? this.salesProblem() : null;
    const problems = sales === null ? verdict.problems : [...verdict.problems, `sales_unavailable: ${sales}`];
    const codes: InterlockCode[] = sales === null ? verdict.codes : [...verdict.codes, "sales_unavailable"];
    const purchasable = verdict.ok && sales === null;
    const clarification = clarificationOf(record.tool_calls_made);
    const closedTrip = this.closedTrip(session, record);
    return {
      sessionId,
      state: record.kiosk.state,
      fallback: record.kiosk.fallback,
      assistantUnavailable: false,
      purchasable,
      steps: record.tool_calls_made.map((t) => ({ name: t.name, ok: t.error === null, ms: t.ms ?? 0 })),
      elapsedMs: Math.round(this.now() - t0),
      policy: record.kiosk.policy,
      ...(verdict.offered ? { interlock: { ok: purchasable, problems, codes } } : {}),
      ...(purchasable ? { confirmation: confirmationOf(session.data, sessionId, session.turns.length, record.kiosk.state, verdict) } : {}),
      ...(clarification ? { clarification } : {}),
      ...(closedTrip ? { closedTrip } : {}),
    };
  }

  /** A trip to, from or through a closed station, in the screen's language (closed-trip.ts). */
  private closedTrip(session: AppSession, record: SessionRecord): ClosedTrip | undefined {
    const conditions = this.conditionsFor(session.system, session.language);
    const language = PassengerLanguageSchema.safeParse(session.language).data;
    const locale = this.passengerLocale(session.system, language);
    return closedTripOf({
      system: session.data,
      state: record.kiosk.state,
      turns: session.turns,
      disruptions: conditions.disruptions,
      now: localIsoMinute(conditions.now),
      language,
      stationName: (id) => (language ? locale.stationNames.get(id)?.[language] : undefined) ?? session.data.stationById(id)?.name ?? id,
      policyText: framebookPolicyChange(session.data.framebook, localIsoMinute(conditions.now))?.text ?? null,
    });
  }

  /**
   * Hybrid: the deterministic answer goes to the screen at once, marked provisional and not yet
   * purchasable (the assistant is still checking it).
   */
  private provisional(sessionId: string, session: AppSession, t0: number): (provisional: ProvisionalAnswer) => void {
    return ({ record, verdict }) => {
      const { confirmation: _unconfirmed, ...shown } = this.toAskResult(sessionId, session, record, verdict, t0);
      this.emit({ type: "provisional", sessionId, result: { ...shown, purchasable: false } });
    };
  }

  /** When the session's unpaid purchasable answer was quoted (null: none, or it was bought). */
  private quotedAt(s: AppSession): number | null {
    return !s.sold && s.confirmation !== undefined && s.quotedAtMs !== undefined ? s.quotedAtMs : null;
  }

  /** Unpaid purchasable sessions still held (all clients, or one). */
  unpaidSessions(client?: string): number {
    let n = 0;
    for (const s of this.sessions.values()) if ((client === undefined || s.client === client) && holdsQuote(this.quotedAt(s), this.now(), this.unpaidSessionMs)) n++;
    return n;
  }

  /**
   * A client over its cap of unpaid purchasable sessions loses its oldest (never one paying or
   * answering): asking without paying cannot hold the kiosk's sessions, only the client's own few.
   */
  private capUnpaid(client: string, keep: string): void {
    const held = [...this.sessions]
      .filter(([, s]) => s.client === client && holdsQuote(this.quotedAt(s), this.now(), this.unpaidSessionMs))
      .sort(([, a], [, b]) => (a.quotedAtMs ?? 0) - (b.quotedAtMs ?? 0));
    let over = held.length - this.maxUnpaidPerClient;
    for (const [id, s] of held) {
      if (over <= 0) break;
      if (id === keep || s.purchasing || s.asking > 0) continue;
      this.log(`client ${client} holds more than ${this.maxUnpaidPerClient} unpaid purchasable sessions: ended its oldest, ${id}`);
      this.endSession(id);
      over--;
    }
  }

  /**
   * Room for one more session: evict the one idle longest without a fresh quote, else the oldest
   * quote of the client holding the most; never one paying or answering (all busy: refused).
   */
  private makeRoom(): void {
    while (this.sessions.size >= MAX_LIVE_SESSIONS) {
      const candidates = [...this.sessions].map(([id, s]) => ({
        id,
        client: s.client,
        lastActiveMs: s.lastActiveMs,
        busy: s.purchasing || s.asking > 0,
        quotedAtMs: this.quotedAt(s),
      }));
      const victim = evictionVictim(candidates, this.now(), this.unpaidSessionMs);
      if (victim === null) throw new KioskLimitError("The kiosk is busy serving other passengers. Please try again in a moment.", "kiosk_busy");
      this.endSession(victim);
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Buying

  async purchase(request: PurchaseRequest): Promise<PurchaseResult> {
    const session = this.sessions.get(request.sessionId);
    const requestId = request.requestId;
    // A retry of a purchase whose answer was lost: the same outcome, never a second sale.
    if (requestId !== undefined) {
      const pending = session?.purchases.get(requestId);
      if (pending) return pending;
      const row = this.options.ledger?.saleByRequest?.(request.sessionId, requestId);
      if (row && row.voided_at === null) return { ok: true, ticket: ticketOfSale(row) };
    }
    if (!session || !session.last) {
      return { ok: false, reason: "unknown_session", message: "This request has ended. Please start again." };
    }
    const attempt = this.purchaseOnce(request, session);
    if (requestId !== undefined) {
      session.purchases.set(requestId, attempt);
      // Only a sale is final; a declined or refused attempt may be tried again with the same id.
      void attempt.then((r) => {
        if (!r.ok) session.purchases.delete(requestId);
      });
    }
    return attempt;
  }

  /** An issued ticket, fetched again from the ledger (the screen lost the answer, a receipt reprint). */
  ticket(ticketId: string): TicketLookupResult {
    const row = this.options.ledger?.saleById?.(ticketId);
    return row ? { found: true, ticket: ticketOfSale(row), voided: row.voided_at !== null } : { found: false };
  }

  private async purchaseOnce(request: PurchaseRequest, session: AppSession): Promise<PurchaseResult> {
    if (!session.last) return { ok: false, reason: "unknown_session", message: "This request has ended. Please start again." };
    session.lastActiveMs = this.now();
    session.paymentMethod = request.paymentMethod;
    const refuse = (message: string, problems: string[] = []): PurchaseResult => {
      this.audit({ sessionId: request.sessionId, system: session.system, event: "purchase_refused", problems: problemCodes(problems) });
      return { ok: false, reason: "not_purchasable", message };
    };
    if (session.sold) return refuse("A ticket has already been issued for this request.", ["already_sold"]);
    if (session.purchasing) return refuse("A payment for this request is already in progress.", ["purchase_in_progress"]);
    // A quote held past its time is never sold: the fare and route are asked for again.
    if (this.quotedAt(session) !== null && !holdsQuote(this.quotedAt(session), this.now(), this.unpaidSessionMs)) {
      this.audit({ sessionId: request.sessionId, system: session.system, event: "purchase_refused", problems: ["quote_expired"] });
      this.endSession(request.sessionId);
      const minutes = Math.round(this.unpaidSessionMs / 6_000) / 10;
      return { ok: false, reason: "unknown_session", message: `This quote expired after ${minutes} minutes unpaid. Nothing was charged. Please start again for a current fare.` };
    }
    const salesProblem = this.salesProblem();
    if (!this.options.ledger || salesProblem !== null) {
      return { ok: false, reason: "ledger_unavailable", message: "Ticket sales are unavailable right now. Nothing was charged. Please ask staff for help." };
    }
    // The passenger confirmed a summary: it must be the one of the answer being sold.
    if (request.confirmation !== undefined && request.confirmation !== session.confirmation?.id) {
      return refuse("The trip changed after you confirmed it. Please check the summary and confirm again.", ["confirmation_changed"]);
    }
    const { record, disruptions } = session.last;
    const system = session.data;
    // Re-check now, with the payment method actually chosen (its fare may differ from the quote's),
    // at the time of payment and under the conditions of both the answer and now.
    const current = this.conditionsFor(session.system, session.language);
    const stationNames = this.stationNames(session.system, session.turns);
    const verdict = checkInterlock({
      system,
      state: record.kiosk.state,
      turns: session.turns,
      disruptions: [...disruptions, ...current.disruptions],
      toolCalls: record.tool_calls_made,
      paymentMethod: request.paymentMethod,
      policyText: framebookPolicyChange(system.framebook, localIsoMinute(current.now))?.text ?? null,
      now: { iso: localIsoMinute(current.now) },
      accessibilityMode: session.accessibilityMode,
      ...(stationNames ? { stationNames } : {}),
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
        originId,
        destinationId,
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
          ...(request.requestId !== undefined ? { requestId: request.requestId } : {}),
        });
      } catch (err) {
        this.log(`ledger write failed, sale voided: ${(err as Error).message}`);
        // Every further sale would void too: off until the ledger passes a health check again.
        this.ledgerFailure = { problem: `the ledger could not record a sale (${(err as Error).message.slice(0, 200)})`, atMs: this.now() };
        this.publishState();
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

  /** No passenger session is open and no technician bench runs: background model work may run. */
  get idle(): boolean {
    return this.sessions.size === 0 && !this.benchRunning;
  }

  /** The setup the next passenger session would get on the current network, its prompt stating `stated`. */
  nextSessionSetup(stated: Date): SessionSetup {
    return this.service.setupFor({ system: this.lastSystem ?? (this.options.pack.systemIds[0] as SystemId), stated });
  }

  private audit(entry: Omit<SessionLogEntry, "at">): void {
    this.observeLogged(entry);
    if (!this.options.ledger) return;
    try {
      this.options.ledger.logSession({ at: this.clock().toISOString(), ...entry });
    } catch (err) {
      // The audit log is best-effort; sales themselves never are.
      this.log((err as Error).message);
    }
  }

  /** The session audit learns of purchases and ends from the same entries the ledger's log gets. */
  private observeLogged(entry: Omit<SessionLogEntry, "at">): void {
    const at = this.clock();
    if (entry.event === "end") return this.observe({ type: "end", sessionId: entry.sessionId, at });
    const results: Partial<Record<SessionLogEntry["event"], AuditPurchase["result"]>> = { sale: "sold", purchase_refused: "refused", payment_declined: "declined", sale_failed: "failed" };
    const result = results[entry.event];
    if (!result) return;
    const session = this.sessions.get(entry.sessionId);
    const quote = result === "sold" ? session?.last?.record.kiosk.state.fare_quote : undefined;
    this.observe({
      type: "purchase",
      sessionId: entry.sessionId,
      purchase: { at: at.toISOString(), result, paymentMethod: session?.paymentMethod ?? "", problems: entry.problems ?? [], ticketId: entry.ticketId ?? null, total: quote?.total ?? null, currency: quote?.currency ?? null },
    });
  }

  private observe(event: KioskSessionEvent): void {
    try {
      this.options.onSession?.(event);
    } catch (err) {
      // The session audit is best-effort: it never stops a passenger's answer or sale.
      this.log(`session audit: ${(err as Error).message}`);
    }
  }
}
