// KioskSession: the ReAct loop that serves the passenger kiosk, the bench and the latency probe.
// It follows the reference runner's loop (CONTRACT §8) — round budget, multi-turn injection after
// an accepted submission, empty-round retries, the reshaped response — and adds what a kiosk needs:
// a wall-clock deadline, abort, streamed progress events and a safe fallback terminal state.
import { pyJsonDumps, stripPyFloats } from "../../tools/py/json.ts";
import { parseModelJson } from "../model/json.ts";
import { pyTruthy } from "../../tools/py/text.ts";
import { compiledSchema } from "../../tools/util/compiled-schema.ts";
import type { KioskEvent } from "../../tools/data/schemas.ts";
import { AssistantStateSchema, type AssistantState, type FieldError } from "../contract/index.ts";
import { TOOL_RESULT_FLOAT_KEYS } from "../../tools/tools/index.ts";
import { ToolDispatcher, SUBMIT_TOOL, type DispatcherOptions } from "./dispatch.ts";
import { fallbackState } from "./fallback.ts";
import {
  PolicyStepSchema,
  type ChatMessage,
  type Policy,
  type PolicyRun,
  type PolicyStep,
  type SessionSetup,
  type ToolCallRecord,
} from "./policy.ts";
import type { RoundRecord, ScoredResponse, SessionRecord, TerminationReason } from "./record.ts";

export const DEFAULT_MAX_ROUNDS = 20;
const MAX_CONSECUTIVE_EMPTY = 2;
/** Numbers that deterministic policies copy from tool results: Python floats in the reference. */
const SUBMISSION_FLOAT_KEYS: ReadonlySet<string> = new Set([
  ...TOOL_RESULT_FLOAT_KEYS,
  "unit_fare",
]);

export type SessionEvent =
  | { type: "round_started"; round: number }
  | { type: "tool_started"; name: string; arguments: unknown }
  | { type: "tool_finished"; name: string; ok: boolean; ms: number; error?: string }
  | { type: "state_submitted"; accepted: boolean; errors: FieldError[] }
  | { type: "turn_injected"; turn: number; message: string }
  | { type: "error"; message: string }
  | { type: "finished"; termination: TerminationReason; fallback: boolean; state: AssistantState };

export interface SessionOptions {
  setup: SessionSetup;
  policy: Policy;
  /** Renders a user turn's events as the user message (the prompt profile's format). */
  userMessage: (events: readonly KioskEvent[]) => string;
  /** The first user turn. Later scripted turns come from `setup.scriptedTurns`. */
  firstTurn: readonly KioskEvent[];
  maxRounds?: number;
  /** Wall-clock budget of a run in ms (kiosk default applies; the bench may leave it unset). */
  deadlineMs?: number;
  signal?: AbortSignal;
  onEvent?: (event: SessionEvent) => void;
  lineOrder?: "python-hash-13" | "sorted";
  responseId?: () => string;
  /** Monotonic milliseconds (injectable for tests). */
  now?: () => number;
  /** Wall-clock time for the record's start stamp. */
  wallClock?: () => Date;
  timers?: { setTimeout: typeof setTimeout; clearTimeout: typeof clearTimeout };
}

class DeadlineError extends Error {}
class AbortedError extends Error {}
class MalformedArgumentsError extends Error {}

/** What ended a session whose signal aborted. */
type AbortReason = (signal: AbortSignal) => unknown;
/** The caller's signal (no deadline): the session was aborted, whatever the caller's reason. */
const callerAborted: AbortReason = () => new AbortedError("session aborted");
/** The session's own signal: the reason it was given (aborted by the caller, or its deadline). */
const ownAbortReason: AbortReason = (signal) => (signal.reason instanceof Error ? signal.reason : new AbortedError("aborted"));

/** Reference reshaping of submitted arguments into the scored response (raw, not coerced). */
function reshape(submitted: Record<string, unknown>): ScoredResponse {
  const get = (key: string, fallback: unknown): unknown => (key in submitted ? submitted[key] : fallback);
  return {
    outcome: get("outcome", ""),
    kiosk_action: get("kiosk_action", {}),
    reasoning: get("reasoning", ""),
    ui_updates: {
      route: get("route", null),
      fare_quote: get("fare_quote", null),
      advisory_banners: get("advisory_banners", []),
      assistant_message: get("assistant_message", ""),
    },
  };
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

export class KioskSession {
  readonly messages: ChatMessage[] = [];
  readonly toolCalls: ToolCallRecord[] = [];
  private readonly turns: KioskEvent[][] = [];
  private readonly pendingTurns: KioskEvent[][];
  private readonly dispatcher: ToolDispatcher;
  private readonly rounds: RoundRecord[] = [];
  private readonly now: () => number;
  private readonly timers: { setTimeout: typeof setTimeout; clearTimeout: typeof clearTimeout };
  private run: PolicyRun | undefined;
  private apiRounds = 0;
  private inputTokens = 0;
  private outputTokens = 0;
  private firstTtftMs = 0;
  private emptyRounds = 0;
  private truncated = false;
  private rejected = 0;
  private readonly startedAt: Date;
  private startMs: number;
  private deadlineAt: number | undefined;

  constructor(private readonly options: SessionOptions) {
    this.now = options.now ?? (() => performance.now());
    this.timers = options.timers ?? { setTimeout, clearTimeout };
    this.startedAt = (options.wallClock ?? (() => new Date()))();
    this.startMs = this.now();
    const { setup } = options;
    this.pendingTurns = (setup.scriptedTurns ?? []).slice(1).map((t) => [...t]);
    const context = setup.context;
    const currentTime =
      options.policy.toolContext === "bare"
        ? null
        : (context.temporal_context?.current_time || context.current_time || null);
    const dispatcherOptions: DispatcherOptions = { currentTime, now: this.now };
    if (options.lineOrder) dispatcherOptions.lineOrder = options.lineOrder;
    if (options.responseId) dispatcherOptions.responseId = options.responseId;
    if (options.policy.toolContext === "bare") dispatcherOptions.recordedErrorLimit = 200;
    this.dispatcher = new ToolDispatcher(setup.system, dispatcherOptions);
    this.dispatcher.setDisruptions(context.active_disruptions);
    this.messages.push({ role: "system", content: setup.systemPrompt });
    this.pushUserTurn(options.firstTurn);
  }

  private listener: ((event: SessionEvent) => void) | undefined = undefined;

  /** Send progress events to this listener from now on (a live session's next answer). */
  listen(onEvent: ((event: SessionEvent) => void) | undefined): void {
    this.listener = onEvent;
  }

  private emit(event: SessionEvent): void {
    try {
      (this.listener ?? this.options.onEvent)?.(event);
    } catch {
      // A broken progress listener must never break a passenger's session.
    }
  }

  private pushUserTurn(events: readonly KioskEvent[]): string {
    const content = this.options.userMessage(events);
    this.turns.push([...events]);
    this.messages.push({ role: "user", content });
    return content;
  }

  private injectNextTurn(): boolean {
    const next = this.pendingTurns.shift();
    if (!next) return false;
    const message = this.pushUserTurn(next);
    this.emit({ type: "turn_injected", turn: this.turns.length - 1, message });
    return true;
  }

  /** Run the session until it submits a final state, fails, or runs out of budget or time. */
  async execute(): Promise<SessionRecord> {
    try {
      return await this.answer(this.options.signal);
    } finally {
      await this.close();
    }
  }

  /**
   * Answer the conversation so far and keep the session open for follow-ups (a live passenger
   * session). Each answer has its own round budget and deadline.
   */
  async answer(signal?: AbortSignal): Promise<SessionRecord> {
    this.startMs = this.now();
    // Wall-clock time the answer is due, told to the policy (a model may size its thinking to it).
    this.deadlineAt = this.options.deadlineMs !== undefined ? Date.now() + this.options.deadlineMs : undefined;
    // Without a deadline the caller's signal serves as the session's own, its abort read as this
    // session's: a controller of its own and a listener on the caller's cost ≈ 25 µs an answer,
    // which a bench run pays for every case.
    if (signal !== undefined && this.options.deadlineMs === undefined) return await this.loop(signal, callerAborted);
    const abort = new AbortController();
    const onOuterAbort = (): void => abort.abort(new AbortedError("session aborted"));
    if (signal?.aborted) onOuterAbort();
    signal?.addEventListener("abort", onOuterAbort, { once: true });
    const deadline =
      this.options.deadlineMs !== undefined
        ? this.timers.setTimeout(
            () => abort.abort(new DeadlineError(`deadline of ${this.options.deadlineMs} ms exceeded`)),
            this.options.deadlineMs,
          )
        : undefined;
    try {
      return await this.loop(abort.signal, ownAbortReason);
    } finally {
      if (deadline !== undefined) this.timers.clearTimeout(deadline);
      signal?.removeEventListener("abort", onOuterAbort);
    }
  }

  /** A follow-up from the passenger: one more user turn, then a fresh answer. */
  continueWith(events: readonly KioskEvent[], signal?: AbortSignal): Promise<SessionRecord> {
    const message = this.pushUserTurn(events);
    this.emit({ type: "turn_injected", turn: this.turns.length - 1, message });
    return this.answer(signal);
  }

  /** Release the policy's per-session resources (e.g. a model context sequence). */
  async close(): Promise<void> {
    await this.disposeRun();
    this.run = undefined;
  }

  private async disposeRun(): Promise<void> {
    try {
      await this.run?.dispose?.();
    } catch {
      // Disposal problems are not the passenger's problem.
    }
  }

  private async nextStep(signal: AbortSignal, aborted: Promise<never>): Promise<PolicyStep> {
    const run = (this.run ??= await this.options.policy.start(this.options.setup));
    const pending = run.next({ turns: this.turns, messages: this.messages, toolCalls: this.toolCalls, signal, ...(this.deadlineAt !== undefined ? { deadlineAt: this.deadlineAt } : {}) });
    const raw: unknown = await Promise.race([pending, aborted]);
    if (run.typedSteps) return raw as PolicyStep;
    const parsed = PolicyStepSchema.safeParse(raw);
    if (!parsed.success) {
      throw new Error(`policy ${this.options.policy.id} returned an invalid step: ${parsed.error.issues[0]?.message ?? "?"}`);
    }
    return parsed.data;
  }

  private async loop(signal: AbortSignal, reasonOf: AbortReason): Promise<SessionRecord> {
    // One promise that rejects when the session is aborted, raced against every policy step.
    let fail = (): void => undefined;
    const aborted = new Promise<never>((_, reject) => {
      fail = (): void => reject(reasonOf(signal));
      if (signal.aborted) fail();
      else signal.addEventListener("abort", fail, { once: true });
    });
    aborted.catch(() => undefined);
    const maxRounds = this.options.maxRounds ?? DEFAULT_MAX_ROUNDS;
    const lastSubmissionWins = this.options.policy.responseFrom === "last-submission";
    let lastSubmission: { args: Record<string, unknown>; rawText: string } | undefined;
    let consecutiveEmpty = 0;
    try {
      for (let round = 0; round < maxRounds; round++) {
        if (signal.aborted) throw reasonOf(signal);
        this.emit({ type: "round_started", round });
        const roundStart = this.now();
        const step = await this.nextStep(signal, aborted);
        this.apiRounds++;
        const usage = step.type === "done" ? undefined : step.usage;
        if (usage) {
          this.inputTokens += usage.promptTokens;
          this.outputTokens += usage.completionTokens;
          if (this.apiRounds === 1 && usage.ttftMs !== undefined) this.firstTtftMs = usage.ttftMs;
        }
        // Optional fields set after the literal, not spread into it: the compiled CLI's spread
        // helper copies by property descriptors (scripts/build-node.ts), on every round.
        const roundRecord: RoundRecord = {
          index: round,
          startedMs: roundStart - this.startMs,
          ms: 0,
          step: step.type,
          toolNames: step.type === "tool_calls" ? step.calls.map((c) => c.name) : [],
        };
        if (usage) roundRecord.usage = usage;
        this.rounds.push(roundRecord);

        if (step.type === "done") {
          roundRecord.ms = this.now() - roundStart;
          if (lastSubmissionWins && lastSubmission) return this.finish("policy_done", lastSubmission, null);
          return this.finish("policy_done", undefined, "policy ended without an accepted submission");
        }

        if (step.type === "tool_calls") {
          const accepted = this.executeCalls(step, (args, rawText) => (lastSubmission = { args, rawText }));
          roundRecord.ms = this.now() - roundStart;
          if (accepted) {
            if (this.injectNextTurn()) continue;
            return this.finish("submitted", accepted, null, step.reasoning ?? "");
          }
          continue;
        }

        // A text reply.
        roundRecord.ms = this.now() - roundStart;
        const content = step.content;
        const reasoning = step.reasoning ?? "";
        if (this.pendingTurns.length > 0 && (content.trim() !== "" || reasoning !== "")) {
          this.messages.push({ role: "assistant", content, reasoning_content: step.reasoning ?? null });
          this.injectNextTurn();
          continue;
        }
        if (content.trim() === "" && reasoning === "") {
          this.emptyRounds++;
          consecutiveEmpty++;
          if (step.finishReason === "length") {
            this.truncated = true;
            return this.finish(
              "truncated",
              undefined,
              `truncated: finish_reason=length on round ${this.apiRounds} (completion_tokens=${usage?.completionTokens ?? 0} ≈ max_tokens cap)`,
            );
          }
          if (consecutiveEmpty >= MAX_CONSECUTIVE_EMPTY) {
            return this.finish(
              "empty_responses",
              undefined,
              `empty-response retry exhausted: ${consecutiveEmpty} consecutive empty rounds (finish_reason=${JSON.stringify(step.finishReason ?? "")})`,
            );
          }
          continue;
        }
        consecutiveEmpty = 0;
        return this.finishWithText(content, reasoning);
      }
      if (lastSubmissionWins && lastSubmission) return this.finish("policy_done", lastSubmission, null);
      return this.finish("round_budget_exhausted", undefined, `Exhausted ${maxRounds} tool call rounds`);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      const termination: TerminationReason =
        err instanceof DeadlineError
          ? "deadline"
          : err instanceof AbortedError
            ? "aborted"
            : err instanceof MalformedArgumentsError
              ? "malformed_tool_arguments"
              : "policy_error";
      this.emit({ type: "error", message });
      return this.finish(termination, undefined, message);
    } finally {
      // The caller's signal outlives the session.
      signal.removeEventListener("abort", fail);
    }
  }

  /** Executes a batch of calls; returns the accepted submission's arguments, if any. */
  private executeCalls(
    step: Extract<PolicyStep, { type: "tool_calls" }>,
    onSubmission: (args: Record<string, unknown>, rawText: string) => void,
  ): { args: Record<string, unknown>; rawText: string } | undefined {
    const callIds = step.calls.map((c, i) => c.id ?? `call_${this.toolCalls.length + i}`);
    this.messages.push({
      role: "assistant",
      content: step.content ?? null,
      reasoning_content: step.reasoning ?? null,
      tool_calls: step.calls.map((c, i) => ({
        id: callIds[i] as string,
        type: "function",
        function: { name: c.name, arguments: typeof c.arguments === "string" ? c.arguments : pyJsonDumps(c.arguments) },
      })),
    });
    let accepted: { args: Record<string, unknown>; rawText: string } | undefined;
    step.calls.forEach((call, i) => {
      // Like the reference, unparseable arguments end the whole case (the session falls back).
      let args: unknown;
      let pyArgs: unknown;
      if (typeof call.arguments === "string") {
        try {
          // Python's json.loads keeps the last of repeated keys; so do we.
          pyArgs = parseModelJson(call.arguments);
          args = stripPyFloats(pyArgs);
        } catch (err) {
          throw new MalformedArgumentsError(
            `malformed JSON arguments for ${call.name}: ${err instanceof Error ? err.message : String(err)}`,
          );
        }
      } else {
        args = call.arguments;
        pyArgs = undefined;
      }
      this.emit({ type: "tool_started", name: call.name, arguments: args });
      const outcome = this.dispatcher.dispatch(call.name, args);
      this.toolCalls.push(outcome.record);
      const ms = outcome.record.ms ?? 0;
      this.emit(
        outcome.record.error === null
          ? { type: "tool_finished", name: call.name, ok: true, ms }
          : { type: "tool_finished", name: call.name, ok: false, ms, error: outcome.record.error },
      );
      this.messages.push({ role: "tool", tool_call_id: callIds[i] as string, content: outcome.content });
      if (call.name === SUBMIT_TOOL && isPlainObject(args)) {
        const rawText =
          pyArgs !== undefined ? pyJsonDumps(pyArgs) : pyJsonDumps(args, { floatKeys: SUBMISSION_FLOAT_KEYS });
        onSubmission(args, rawText);
        const submission = outcome.submission ?? { accepted: false, errors: [] };
        if (!submission.accepted) this.rejected++;
        this.emit({ type: "state_submitted", accepted: submission.accepted, errors: submission.errors });
        if (submission.accepted) accepted = { args, rawText };
      }
    });
    return accepted;
  }

  private policyInfo(): Record<string, unknown> | undefined {
    try {
      return this.run?.describe?.();
    } catch {
      return undefined;
    }
  }

  private finishWithText(content: string, reasoning: string): SessionRecord {
    let response: unknown;
    try {
      response = JSON.parse(content) as unknown;
    } catch {
      response = null;
    }
    return this.build("text_reply", response, content, reasoning, null, undefined);
  }

  private finish(
    termination: TerminationReason,
    submission: { args: Record<string, unknown>; rawText: string } | undefined,
    error: string | null,
    reasoning = "",
  ): SessionRecord {
    if (submission) return this.build(termination, reshape(submission.args), submission.rawText, reasoning, error, submission.args);
    return this.build(termination, null, "", "", error, undefined);
  }

  private build(
    termination: TerminationReason,
    response: unknown,
    rawContent: string,
    reasoning: string,
    error: string | null,
    submission: Record<string, unknown> | undefined,
  ): SessionRecord {
    // A submission that cannot be rendered is only told apart here (the fallback state is shown), so
    // a yes/no check comes first: collecting the issues of a failed parse costs ~30× a passing one.
    const stateSchema = compiledSchema(AssistantStateSchema);
    const renderable = submission && stateSchema.validate(submission) ? stateSchema.safeParse(submission) : undefined;
    const useFallback = !renderable?.success || error !== null || !pyTruthy(submission);
    const state: AssistantState = useFallback ? fallbackState(this.options.setup.system, error) : (renderable.data as AssistantState);
    const policy = this.options.policy.id;
    const rejectedSubmissions = this.rejected;
    const startedAt = this.startedAt.toISOString();
    const policyInfo = this.policyInfo();
    // Written out for each case rather than spread in (see the round record above).
    const kiosk: SessionRecord["kiosk"] = policyInfo
      ? { policy, termination, state, fallback: useFallback, rejectedSubmissions, policyInfo, rounds: this.rounds, startedAt }
      : { policy, termination, state, fallback: useFallback, rejectedSubmissions, rounds: this.rounds, startedAt };
    const record: SessionRecord = {
      case_id: this.options.setup.sessionId,
      response,
      tool_calls_made: this.toolCalls,
      raw_content: rawContent,
      reasoning_content: reasoning,
      messages: this.messages,
      ttft_ms: Math.round(this.firstTtftMs * 10) / 10,
      e2e_ms: Math.round((this.now() - this.startMs) * 10) / 10,
      input_tokens: this.inputTokens,
      output_tokens: this.outputTokens,
      api_rounds: this.apiRounds,
      error,
      empty_rounds: this.emptyRounds,
      truncated: this.truncated,
      kiosk,
    };
    this.emit({ type: "finished", termination, fallback: useFallback, state });
    return record;
  }
}

/** Convenience: run one session to completion. */
export function runSession(options: SessionOptions): Promise<SessionRecord> {
  return new KioskSession(options).execute();
}
