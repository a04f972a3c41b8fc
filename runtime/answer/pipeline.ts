// The answer pipeline: how the kiosk answers a passenger's turn — and, through the very same code,
// how `kiosk bench run --policy hybrid` answers a benchmark case — from the router to the interlock:
//
//   rule    the deterministic policy answers everything;
//   model   the model answers every request; when it fails (error, deadline, no valid state) the
//           deterministic policy answers instead and the passenger is told the assistant is unavailable;
//   hybrid  the router (decideRoute) sends structured requests to the deterministic policy alone;
//           the others get its answer at once (the provisional answer, "checking…", not
//           purchasable) and the model's check within the model deadline — else the provisional
//           answer stands, with a banner saying why.
//
// The model's circuit breaker (ModelBreaker) skips the model while it is crashed, keeps missing its
// deadline, or its process is down. Every answer ends with the purchase interlock's verdict: the
// kiosk's own check of route and fare, whoever answered.
import type { Disruption, KioskEvent, PromptProfile, SystemId } from "../../tools/data/schemas.ts";
import type { SystemData } from "../../tools/data/system.ts";
import type { AssistantState } from "../contract/index.ts";
import type { InterlockVerdict, LocalTime } from "../kiosk/interlock.ts";
import type { StationNames } from "../kiosk/interlock/stations.ts";
import { decideRoute, type RouteDecision } from "../policies/hybrid.ts";
import { eventsToUserMessage } from "../prompt/index.ts";
import type { Policy, SessionSetup } from "../session/policy.ts";
import type { SessionRecord, TerminationReason } from "../session/record.ts";
import { KioskSession, type SessionEvent } from "../session/session.ts";
import { ModelBreaker } from "./breaker.ts";
import { interlockOf } from "./verdict.ts";

export const DEFAULT_KIOSK_DEADLINE_MS = 20_000;
/** How long a passenger waits for the model to confirm or correct the deterministic answer. */
export const DEFAULT_MODEL_DEADLINE_MS = 20_000;

/** Who produced the answer shown: the deterministic policy, the model, or the deterministic policy because the model could not. */
export type DecidedBy = "rule" | "model" | "rule-fallback";

export type Router = (system: SystemData, context: SessionSetup["context"], turns: readonly (readonly KioskEvent[])[]) => RouteDecision;

/** The model side of a kiosk: who answers with it, and how. */
export interface ModelAssistant {
  /** `model`: the model answers every request; `hybrid`: the router decides, the model checks. */
  mode: "model" | "hybrid";
  /** The model policy for a system (the llm policy over the model process, in production). */
  policy: (system: SystemId) => Policy;
  /** Hybrid: the router (default decideRoute). */
  router?: Router;
  /** Hybrid: how long the model may take to check an answer (default 20 s). */
  modelDeadlineMs?: number;
  /**
   * An operator swapped a framebook: drop whatever the policy caches per system prompt. The llm
   * engine needs nothing here — its KV prefix cache compares the prompt's own tokens, and the
   * framebook is part of the system prompt, so a changed framebook never reuses a stale prefix.
   */
  onFramebookChange?: (system: SystemId, version: string) => void;
}

export interface AnswerPipelineOptions {
  /** The deterministic policy: answers alone, provisionally, and whenever the model cannot. */
  rule: Policy;
  /** The model; absent or null: every answer is the deterministic policy's. */
  assistant?: ModelAssistant | null;
  /** Renders a turn's events as the user message (the data pack's prompt profile). */
  profile: PromptProfile;
  breaker?: ModelBreaker;
  /** Wall-clock budget of one answer by the deterministic policy, or by the model in `model` mode. */
  deadlineMs?: number;
  /** Where operational problems go (model failures). */
  log?: (message: string) => void;
  /** Monotonic milliseconds. */
  now?: () => number;
}

export interface AnswerHooks {
  onEvent?: (event: SessionEvent) => void;
  /** Hybrid: the provisional answer, as soon as it is there (before the model's check). */
  onProvisional?: (provisional: ProvisionalAnswer) => void;
  signal?: AbortSignal;
  /** The live disruptions the interlock checks against (default: the session's context). */
  disruptions?: readonly Disruption[];
  /** The kiosk's local time now, which the interlock judges service hours at (default: the session's context's). */
  now?: LocalTime;
  /** Local-language station names (the screen's), so the interlock finds stations typed in them. */
  stationNames?: StationNames;
}

export interface ProvisionalAnswer {
  record: SessionRecord;
  verdict: InterlockVerdict;
}

export interface Answer {
  /** The record whose state the passenger sees. */
  record: SessionRecord;
  decidedBy: DecidedBy;
  /** Hybrid: the router's decision. */
  route: RouteDecision | null;
  /** Hybrid: the model's answer differs from the provisional one the passenger already saw … */
  changed: boolean;
  /** … and what changed, in passenger words ("The fare changed from $2.50 to $1.25."). */
  note: string | null;
  /** The model was needed but could not answer (crashed, down, or skipped by the breaker). */
  assistantUnavailable: boolean;
  /** How the model's run ended when it did not answer. */
  modelFailure?: { policy: string; termination: TerminationReason; error: string | null };
  /** The purchase interlock on the state shown (with the disruptions it was checked against). */
  verdict: InterlockVerdict;
  disruptions: readonly Disruption[];
  elapsedMs: number;
}

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

/**
 * What differs between the provisional and the final answer, in passenger words (null: same).
 * `purchasable`: the purchase interlock allows the final answer's sale — only then may the note say
 * the trip can be bought (the screen shows it beside the buy button or the refusal).
 */
export function describeChange(system: SystemData, before: AssistantState, after: AssistantState, purchasable: boolean): string | null {
  const notes: string[] = [];
  const money = (v: unknown): string => (typeof v === "number" ? `${system.framebook.currency_symbol}${v.toFixed(2)}` : "—");
  if (before.outcome !== after.outcome || before.kiosk_action.action !== after.kiosk_action.action) {
    if (after.kiosk_action.action !== "prompt_purchase") notes.push("After checking, the assistant changed what this kiosk can do for this trip.");
    else notes.push(purchasable ? "The assistant confirmed this trip can be bought." : "This kiosk cannot sell this trip.");
  }
  const stops = (s: AssistantState): string => (s.route?.stops ?? []).map((x) => x.station_id).join(",");
  if (stops(before) !== stops(after) && after.route) notes.push("The route changed.");
  const totalBefore = before.fare_quote?.total;
  const totalAfter = after.fare_quote?.total;
  if (totalBefore !== totalAfter && totalAfter !== undefined) notes.push(`The fare changed from ${money(totalBefore)} to ${money(totalAfter)}.`);
  return notes.length > 0 ? notes.join(" ") : null;
}

export class AnswerPipeline {
  readonly breaker: ModelBreaker;
  private readonly log: (message: string) => void;
  readonly now: () => number;

  constructor(readonly options: AnswerPipelineOptions) {
    this.breaker = options.breaker ?? new ModelBreaker();
    this.log = options.log ?? ((m) => console.error(`kiosk: ${m}`));
    this.now = options.now ?? (() => performance.now());
  }

  /** "rule" without a model, else the model's mode. */
  get mode(): "rule" | ModelAssistant["mode"] {
    return this.options.assistant?.mode ?? "rule";
  }

  /**
   * A conversation: a live passenger session, or a benchmark case whose turns are given one at a
   * time as a passenger would (scripted turns are never read ahead).
   */
  open(setup: SessionSetup): AnswerConversation {
    const { scriptedTurns: _scripted, ...live } = setup;
    return new AnswerConversation(this, live);
  }

  /** @internal The conversation reports how the model did (the breaker's bookkeeping, the log). */
  modelOutcome(sessionId: string, failure: Answer["modelFailure"] | undefined): void {
    if (!failure) {
      this.breaker.succeeded();
      return;
    }
    if (failure.termination === "policy_error") {
      this.breaker.crashed(failure.error ?? "policy error");
      this.log(`assistant unavailable (${failure.error ?? "policy error"}); answering with ${this.options.rule.id}`);
      return;
    }
    // A timeout, an exhausted round or token budget, an answer without a valid state: the passenger
    // got the deterministic answer, and the operator sees why in the log.
    this.log(`assistant answer replaced by ${this.options.rule.id} for session ${sessionId}: ${failure.termination}${failure.error ? ` (${failure.error.slice(0, 300)})` : ""}`);
    // A model that keeps missing its deadline makes every passenger wait it out: after a few in a
    // row it is treated as down (the standard kiosk answers at once) until the retry time.
    if (failure.termination === "deadline" && this.breaker.timedOut()) {
      this.log(`assistant unavailable (${this.breaker.current.reason ?? "deadlines"}); answering with ${this.options.rule.id}`);
    }
  }
}

interface OpenSession {
  session: KioskSession;
  turnsAnswered: number;
  usable: boolean;
}

export class AnswerConversation {
  readonly turns: KioskEvent[][] = [];
  /** One open engine session per policy that has answered, and how many turns it has seen. */
  private readonly sessions = new Map<string, OpenSession>();

  constructor(
    private readonly pipeline: AnswerPipeline,
    readonly setup: SessionSetup,
  ) {}

  /** Answer the passenger's next turn. */
  async answer(events: readonly KioskEvent[], hooks: AnswerHooks = {}): Promise<Answer> {
    const t0 = this.pipeline.now();
    this.turns.push([...events]);
    const { assistant, rule } = this.pipeline.options;
    const disruptions = hooks.disruptions ?? this.setup.context.active_disruptions;
    const finish = (partial: Omit<Answer, "verdict" | "disruptions" | "elapsedMs">, verdict = this.verdict(partial.record, disruptions, hooks)): Answer => ({
      ...partial,
      verdict,
      disruptions,
      elapsedMs: this.pipeline.now() - t0,
    });

    if (!assistant) {
      const record = await this.run(rule, hooks.onEvent, hooks.signal);
      return finish({ record, decidedBy: "rule", route: null, changed: false, note: null, assistantUnavailable: false });
    }
    const route = assistant.mode === "hybrid" ? (assistant.router ?? decideRoute)(this.setup.system, this.setup.context, this.turns) : null;
    const needsModel = route === null || route.path === "model";

    // The model is out (crashed, down, missing deadlines): the standard answer, at once.
    if (needsModel && this.pipeline.breaker.isOpen) {
      const record = await this.run(rule, hooks.onEvent, hooks.signal);
      return finish({ record, decidedBy: "rule-fallback", route, changed: false, note: null, assistantUnavailable: true });
    }

    if (route === null) {
      // `model` mode: the model answers; the deterministic policy steps in when it cannot.
      const modelRecord = await this.run(assistant.policy(this.setup.system.id), hooks.onEvent, hooks.signal);
      if (!modelRecord.kiosk.fallback || hooks.signal?.aborted) {
        if (!hooks.signal?.aborted) this.pipeline.modelOutcome(this.setup.sessionId, undefined);
        return finish({ record: modelRecord, decidedBy: "model", route, changed: false, note: null, assistantUnavailable: false });
      }
      const modelFailure = failureOf(modelRecord);
      this.pipeline.modelOutcome(this.setup.sessionId, modelFailure);
      const record = await this.run(rule, hooks.onEvent, hooks.signal);
      return finish({ record, decidedBy: "rule-fallback", route, changed: false, note: null, assistantUnavailable: true, modelFailure });
    }

    // Hybrid: the deterministic answer first (the whole answer on the rule path, provisional otherwise).
    const provisional = await this.run(rule, route.path === "rule" ? hooks.onEvent : undefined, hooks.signal);
    if (route.path === "rule" || hooks.signal?.aborted) {
      return finish({ record: provisional, decidedBy: "rule", route, changed: false, note: null, assistantUnavailable: false });
    }
    hooks.onProvisional?.({ record: provisional, verdict: this.verdict(provisional, disruptions, hooks) });
    const modelDeadlineMs = assistant.modelDeadlineMs ?? DEFAULT_MODEL_DEADLINE_MS;
    const modelRecord = await this.run(assistant.policy(this.setup.system.id), hooks.onEvent, hooks.signal, modelDeadlineMs);
    if (hooks.signal?.aborted) return finish({ record: modelRecord, decidedBy: "model", route, changed: false, note: null, assistantUnavailable: false });
    if (modelRecord.kiosk.fallback) {
      const modelFailure = failureOf(modelRecord);
      this.pipeline.modelOutcome(this.setup.sessionId, modelFailure);
      const timedOut = modelRecord.kiosk.termination === "deadline";
      const record = withBanner(provisional, {
        severity: "info",
        title: timedOut ? "Standard answer" : "Assistant unavailable",
        body: timedOut
          ? "The assistant could not double-check this request in time, so the kiosk's standard answer is shown."
          : "The assistant could not check this request, so the kiosk's standard answer is shown.",
      });
      return finish({ record, decidedBy: "rule-fallback", route, changed: false, note: null, assistantUnavailable: !timedOut, modelFailure });
    }
    this.pipeline.modelOutcome(this.setup.sessionId, undefined);
    // The note speaks of the final state as the interlock judges it, the verdict the screen shows.
    const verdict = this.verdict(modelRecord, disruptions, hooks);
    const note = describeChange(this.setup.system, provisional.kiosk.state, modelRecord.kiosk.state, verdict.ok);
    return finish({ record: modelRecord, decidedBy: "model", route, changed: note !== null, note, assistantUnavailable: false }, verdict);
  }

  /** Forget the conversation (reset, idle timeout, end of a case): release the policies' sessions. */
  async close(): Promise<void> {
    const open = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.all(open.map((o) => o.session.close()));
  }

  /** The kiosk's own check of the state shown: whether the buy button may be enabled. */
  private verdict(record: SessionRecord, disruptions: readonly Disruption[], hooks: Pick<AnswerHooks, "now" | "stationNames">): InterlockVerdict {
    return interlockOf({ setup: this.setup, turns: this.turns, record, disruptions, ...(hooks.now ? { now: hooks.now } : {}), ...(hooks.stationNames ? { stationNames: hooks.stationNames } : {}) });
  }

  /**
   * Answer with `policy`. A policy that answered the previous turn continues its own conversation
   * (one more user turn, a fresh round budget); a policy joining later (a fallback) or one whose
   * last answer failed starts clean from everything the passenger said, as one turn.
   */
  private async run(policy: Policy, onEvent?: (e: SessionEvent) => void, signal?: AbortSignal, deadlineMs?: number): Promise<SessionRecord> {
    const open = this.sessions.get(policy.id);
    if (open && open.usable && open.turnsAnswered === this.turns.length - 1) {
      open.session.listen(onEvent);
      const record = await open.session.continueWith(this.turns[this.turns.length - 1] ?? [], signal);
      open.turnsAnswered = this.turns.length;
      open.usable = !record.kiosk.fallback;
      return record;
    }
    await open?.session.close();
    const { profile } = this.pipeline.options;
    const session = new KioskSession({
      setup: this.setup,
      policy,
      userMessage: (events) => safeUserMessage(events, profile),
      firstTurn: this.turns.flat(),
      deadlineMs: deadlineMs ?? this.pipeline.options.deadlineMs ?? DEFAULT_KIOSK_DEADLINE_MS,
      ...(onEvent ? { onEvent } : {}),
    });
    const record = await session.answer(signal);
    this.sessions.set(policy.id, { session, turnsAnswered: this.turns.length, usable: !record.kiosk.fallback });
    return record;
  }
}

function failureOf(record: SessionRecord): NonNullable<Answer["modelFailure"]> {
  return { policy: record.kiosk.policy, termination: record.kiosk.termination, error: record.error };
}
