// The kiosk service: live passenger sessions over the same engine the bench uses. The UI sends
// kiosk events (station selected, passengers changed, payment method, free text); the service
// builds the prompt from the active framebook, runs the policy and streams progress. If the primary
// policy (a model) fails, times out or produces no valid state, the session is answered by the
// deterministic fallback policy, so the kiosk keeps selling tickets.
import type { DataPack } from "../../tools/data/datapack.ts";
import type { Disruption, KioskEvent, PromptProfile, SystemContext, SystemId } from "../../tools/data/schemas.ts";
import type { SystemData } from "../../tools/data/system.ts";
import { framebookPolicyChange } from "../framebook/validate.ts";
import { buildSystemPrompt, eventsToUserMessage, toolDefinitions } from "../prompt/index.ts";
import type { AssistantState } from "../contract/index.ts";
import type { RouteDecision } from "../policies/hybrid.ts";
import type { Policy, SessionSetup } from "../session/policy.ts";
import type { SessionRecord } from "../session/record.ts";
import { KioskSession, type SessionEvent } from "../session/session.ts";

export const DEFAULT_KIOSK_DEADLINE_MS = 20_000;
/** How long a passenger waits for the model to confirm or correct the deterministic answer. */
export const DEFAULT_MODEL_DEADLINE_MS = 20_000;

type Banner = NonNullable<AssistantState["advisory_banners"]>[number];

function withBanner(record: SessionRecord, banner: Banner): SessionRecord {
  const state = { ...record.kiosk.state, advisory_banners: [...(record.kiosk.state.advisory_banners ?? []), banner] };
  return { ...record, kiosk: { ...record.kiosk, state } };
}

/**
 * The user message for the model. Events are validated at the kiosk's boundary (IPC, HTTP); one
 * that still cannot be rendered must not take the passenger's session down with it.
 */
function safeUserMessage(events: readonly KioskEvent[], profile: PromptProfile): string {
  try {
    return eventsToUserMessage(events, profile);
  } catch {
    return events
      .map((e) => (e.type === "freetext_input" && typeof e.text === "string" ? e.text : ""))
      .filter(Boolean)
      .join("\n");
  }
}

/** What differs between the provisional and the final answer, in passenger words (null: same). */
export function describeChange(system: SystemData, before: AssistantState, after: AssistantState): string | null {
  const notes: string[] = [];
  const money = (v: unknown): string => (typeof v === "number" ? `${system.framebook.currency_symbol}${v.toFixed(2)}` : "—");
  if (before.outcome !== after.outcome || before.kiosk_action.action !== after.kiosk_action.action) {
    notes.push(after.kiosk_action.action === "prompt_purchase" ? "The assistant confirmed this trip can be bought." : "After checking, the assistant changed what this kiosk can do for this trip.");
  }
  const stops = (s: AssistantState): string => (s.route?.stops ?? []).map((x) => x.station_id).join(",");
  if (stops(before) !== stops(after) && after.route) notes.push("The route changed.");
  const totalBefore = before.fare_quote?.total;
  const totalAfter = after.fare_quote?.total;
  if (totalBefore !== totalAfter && totalAfter !== undefined) notes.push(`The fare changed from ${money(totalBefore)} to ${money(totalAfter)}.`);
  return notes.length > 0 ? notes.join(" ") : null;
}

const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

/** Local wall-clock time as the benchmark writes it (no zone): 2026-03-09T14:00:00. */
export function localIsoMinute(date: Date): string {
  const pad = (n: number): string => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

export interface LiveConditions {
  now: Date;
  disruptions: readonly Disruption[];
  accessibilityMode: boolean;
  policyChange?: { policy_id?: string; text: string } | null;
}

/** The system context of a live session: the kiosk always knows the time of day. */
export function liveContext(system: SystemData, conditions: LiveConditions): SystemContext {
  const currentTime = localIsoMinute(conditions.now);
  const context: SystemContext = {
    current_time: currentTime,
    active_disruptions: [...conditions.disruptions],
    framebook: system.id,
    temporal_context: { current_time: currentTime, day_of_week: WEEKDAYS[conditions.now.getDay()] ?? "" },
  };
  if (conditions.accessibilityMode) context.accessibility_mode = true;
  // An explicit announcement wins; otherwise the fare policies the operator put in the framebook.
  const policyChange = conditions.policyChange ?? framebookPolicyChange(system.framebook);
  if (policyChange) context.policy_change = policyChange;
  return context;
}

export interface KioskServiceOptions {
  pack: DataPack;
  /** The policy that answers passengers (a model, or `rule`). */
  primary: (system: SystemId) => Policy;
  /** The deterministic policy used when the primary fails. */
  fallback: Policy;
  /** The system data sessions use (lets operators swap framebooks without a restart). */
  systemData?: (system: SystemId) => SystemData;
  conditions?: (system: SystemId) => Omit<LiveConditions, "accessibilityMode">;
  deadlineMs?: number;
  /**
   * Route each request (hybrid kiosk): structured requests are answered by `fallback` (rule) alone;
   * the others get the rule answer at once (provisional) and the primary's answer within
   * `modelDeadlineMs`, else the rule answer stands with an explanatory banner.
   */
  router?: (system: SystemData, context: SystemContext, turns: readonly (readonly KioskEvent[])[]) => RouteDecision;
  modelDeadlineMs?: number;
  clock?: () => Date;
  newSessionId?: () => string;
}

/** How a hybrid answer came about (set only when the service routes between rule and model). */
export interface HybridCheck {
  /** Which path answered: rule alone, the model after the provisional rule answer, or rule after the model failed. */
  decidedBy: "rule" | "model" | "rule-fallback";
  /** The router's decision table row. */
  reason: RouteDecision["reason"];
  /** The model's answer differs from the provisional one the passenger already saw. */
  changed: boolean;
  /** What changed, in words, for the passenger ("The fare changed from $2.50 to $1.25."). */
  note: string | null;
}

export interface LiveSessionResult {
  sessionId: string;
  record: SessionRecord;
  hybrid?: HybridCheck;
  /** The primary policy failed and the deterministic fallback answered. */
  assistantUnavailable: boolean;
  /** When the fallback answered: how the primary's run ended (e.g. "policy_error" for a crash). */
  primaryFailure?: { policy: string; termination: SessionRecord["kiosk"]["termination"]; error: string | null };
}

interface LiveSession {
  system: SystemId;
  setup: SessionSetup;
  turns: KioskEvent[][];
  /** One open engine session per policy that has answered, and how many turns it has seen. */
  sessions: Map<string, { session: KioskSession; turnsAnswered: number; usable: boolean }>;
}

let sessionCounter = 0;

export class KioskService {
  private readonly sessions = new Map<string, LiveSession>();

  constructor(private readonly options: KioskServiceOptions) {}

  private system(id: SystemId): SystemData {
    return this.options.systemData?.(id) ?? this.options.pack.system(id);
  }

  private newId(): string {
    return this.options.newSessionId?.() ?? `kiosk-${Date.now().toString(36)}-${(++sessionCounter).toString(36)}`;
  }

  /** Start a passenger session with its first request. */
  async start(
    request: { system: SystemId; events: KioskEvent[]; accessibilityMode?: boolean; sessionId?: string },
    onEvent?: (event: SessionEvent) => void,
    signal?: AbortSignal,
    onProvisional?: (record: SessionRecord) => void,
  ): Promise<LiveSessionResult> {
    const system = this.system(request.system);
    const now = (this.options.clock ?? (() => new Date()))();
    const conditions = this.options.conditions?.(request.system) ?? { now, disruptions: [] };
    const context = liveContext(system, { ...conditions, accessibilityMode: request.accessibilityMode ?? false });
    const sessionId = request.sessionId ?? this.newId();
    if (this.sessions.has(sessionId)) throw new Error(`Kiosk session '${sessionId}' already exists`);
    const setup: SessionSetup = {
      sessionId,
      system,
      context,
      systemPrompt: buildSystemPrompt(system, context, this.options.pack.promptProfile()),
      tools: toolDefinitions(this.options.pack),
    };
    const live: LiveSession = { system: request.system, setup, turns: [request.events], sessions: new Map() };
    this.sessions.set(sessionId, live);
    return this.answer(live, onEvent, signal, onProvisional);
  }

  /**
   * A follow-up in the same passenger session (e.g. passengers changed after the result): the
   * policy re-plans over everything said so far.
   */
  async continue(
    sessionId: string,
    events: KioskEvent[],
    onEvent?: (event: SessionEvent) => void,
    signal?: AbortSignal,
    onProvisional?: (record: SessionRecord) => void,
  ): Promise<LiveSessionResult> {
    const live = this.sessions.get(sessionId);
    if (!live) throw new Error(`Unknown or finished kiosk session '${sessionId}'`);
    live.turns.push(events);
    return this.answer(live, onEvent, signal, onProvisional);
  }

  /** Forget a session (reset / idle timeout): nothing about the passenger is kept. */
  end(sessionId: string): boolean {
    const live = this.sessions.get(sessionId);
    for (const open of live?.sessions.values() ?? []) void open.session.close();
    return this.sessions.delete(sessionId);
  }

  get activeSessions(): number {
    return this.sessions.size;
  }

  private async answer(
    live: LiveSession,
    onEvent?: (e: SessionEvent) => void,
    signal?: AbortSignal,
    onProvisional?: (record: SessionRecord) => void,
  ): Promise<LiveSessionResult> {
    const primary = this.options.primary(live.system);
    if (this.options.router && primary.id !== this.options.fallback.id) return this.answerHybrid(live, primary, onEvent, signal, onProvisional);
    const record = await this.run(live, primary, onEvent, signal);
    if (!record.kiosk.fallback || primary.id === this.options.fallback.id || signal?.aborted) {
      return { sessionId: live.setup.sessionId, record, assistantUnavailable: false };
    }
    const rescued = await this.run(live, this.options.fallback, onEvent, signal);
    return {
      sessionId: live.setup.sessionId,
      record: rescued,
      assistantUnavailable: true,
      primaryFailure: { policy: record.kiosk.policy, termination: record.kiosk.termination, error: record.error },
    };
  }

  /** Hybrid: the deterministic answer first (shown as provisional), then the model's check. */
  private async answerHybrid(
    live: LiveSession,
    primary: Policy,
    onEvent?: (e: SessionEvent) => void,
    signal?: AbortSignal,
    onProvisional?: (record: SessionRecord) => void,
  ): Promise<LiveSessionResult> {
    const sessionId = live.setup.sessionId;
    const decision = (this.options.router as NonNullable<KioskServiceOptions["router"]>)(live.setup.system, live.setup.context, live.turns);
    const provisional = await this.run(live, this.options.fallback, decision.path === "rule" ? onEvent : undefined, signal);
    if (decision.path === "rule" || signal?.aborted) {
      return { sessionId, record: provisional, assistantUnavailable: false, hybrid: { decidedBy: "rule", reason: decision.reason, changed: false, note: null } };
    }
    onProvisional?.(provisional);
    const modelRecord = await this.run(live, primary, onEvent, signal, this.options.modelDeadlineMs ?? DEFAULT_MODEL_DEADLINE_MS);
    if (modelRecord.kiosk.fallback) {
      const timedOut = modelRecord.kiosk.termination === "deadline";
      const record = withBanner(provisional, {
        severity: "info",
        title: timedOut ? "Standard answer" : "Assistant unavailable",
        body: timedOut
          ? "The assistant could not double-check this request in time, so the kiosk's standard answer is shown."
          : "The assistant could not check this request, so the kiosk's standard answer is shown.",
      });
      return {
        sessionId,
        record,
        assistantUnavailable: !timedOut,
        primaryFailure: { policy: modelRecord.kiosk.policy, termination: modelRecord.kiosk.termination, error: modelRecord.error },
        hybrid: { decidedBy: "rule-fallback", reason: decision.reason, changed: false, note: null },
      };
    }
    const note = describeChange(live.setup.system, provisional.kiosk.state, modelRecord.kiosk.state);
    return { sessionId, record: modelRecord, assistantUnavailable: false, hybrid: { decidedBy: "model", reason: decision.reason, changed: note !== null, note } };
  }

  /**
   * Answer with `policy`. A policy that answered the previous turn continues its own conversation
   * (one more user turn, a fresh round budget); a policy joining later (a fallback) or one whose
   * last answer failed starts clean from everything the passenger said, as one turn.
   */
  private async run(live: LiveSession, policy: Policy, onEvent?: (e: SessionEvent) => void, signal?: AbortSignal, deadlineMs?: number): Promise<SessionRecord> {
    const open = live.sessions.get(policy.id);
    if (open && open.usable && open.turnsAnswered === live.turns.length - 1) {
      open.session.listen(onEvent);
      const record = await open.session.continueWith(live.turns[live.turns.length - 1] ?? [], signal);
      open.turnsAnswered = live.turns.length;
      open.usable = !record.kiosk.fallback;
      return record;
    }
    await open?.session.close();
    const profile = this.options.pack.promptProfile();
    const session = new KioskSession({
      setup: live.setup,
      policy,
      userMessage: (events) => safeUserMessage(events, profile),
      firstTurn: live.turns.flat(),
      deadlineMs: deadlineMs ?? this.options.deadlineMs ?? DEFAULT_KIOSK_DEADLINE_MS,
      ...(onEvent ? { onEvent } : {}),
    });
    const record = await session.answer(signal);
    live.sessions.set(policy.id, { session, turnsAnswered: live.turns.length, usable: !record.kiosk.fallback });
    return record;
  }
}
