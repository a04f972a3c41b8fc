// The kiosk service: live passenger sessions. The screen sends kiosk events (station selected,
// passengers changed, payment method, free text); the service builds the session's prompt from the
// active framebook and the live conditions (the kiosk always knows the time of day), and answers
// each turn through the answer pipeline (runtime/answer/pipeline.ts) — the same code the bench's
// hybrid runs — so a model that fails, times out or produces no valid state leaves the kiosk selling
// with the deterministic policy.
import type { DataPack } from "../../tools/data/datapack.ts";
import type { Disruption, KioskEvent, SystemContext, SystemId } from "../../tools/data/schemas.ts";
import type { SystemData } from "../../tools/data/system.ts";
import type { AnswerConversation, AnswerHooks, AnswerPipeline, Answer } from "../answer/pipeline.ts";
import { framebookPolicyChange } from "../framebook/validate.ts";
import { buildSystemPrompt, clockFreeLength, toolDefinitions } from "../prompt/index.ts";
import type { PassengerLocale, SessionSetup } from "../session/policy.ts";

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

/** The start of `now`'s minute: live system prompts state the time to the minute. */
export function floorToMinute(now: Date): Date {
  const t = new Date(now.getTime());
  t.setSeconds(0, 0);
  return t;
}

/**
 * The context a live session's system prompt is rendered from: the session's own, with the time
 * the prompt states. The session itself (tools, the rule policy, the interlock) keeps the exact time.
 */
export function statedAt(context: SystemContext, stated: Date): SystemContext {
  const time = localIsoMinute(stated);
  return { ...context, current_time: time, temporal_context: { ...context.temporal_context, current_time: time, day_of_week: WEEKDAYS[stated.getDay()] ?? "" } };
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
  const policyChange = conditions.policyChange ?? framebookPolicyChange(system.framebook, currentTime);
  if (policyChange) context.policy_change = policyChange;
  return context;
}

export interface KioskServiceOptions {
  pack: DataPack;
  /** How every turn is answered (the deterministic policy, the model, the router, the breaker). */
  pipeline: AnswerPipeline;
  /** The system data sessions use (lets operators swap framebooks without a restart). */
  systemData?: (system: SystemId) => SystemData;
  /** The live conditions of a new session; `language` is the passenger's (alerts carry text per language). */
  conditions?: (system: SystemId, language?: string) => Omit<LiveConditions, "accessibilityMode">;
  clock?: () => Date;
  /**
   * The time a new session's system prompt states (default: the start of the minute). Sessions
   * that state the same time share the whole system turn, which the model may have prefilled.
   */
  promptTime?: (now: Date) => Date;
  newSessionId?: () => string;
}

/** One answered turn of a live session. */
export interface LiveAnswer extends Answer {
  sessionId: string;
}

let sessionCounter = 0;

export class KioskService {
  private readonly sessions = new Map<string, AnswerConversation>();

  constructor(private readonly options: KioskServiceOptions) {}

  get pipeline(): AnswerPipeline {
    return this.options.pipeline;
  }

  private system(id: SystemId): SystemData {
    return this.options.systemData?.(id) ?? this.options.pack.system(id);
  }

  private newId(): string {
    return this.options.newSessionId?.() ?? `kiosk-${Date.now().toString(36)}-${(++sessionCounter).toString(36)}`;
  }

  /**
   * The setup of a new live session: the active framebook, the live conditions, the prompt (stating
   * `stated`, else the prompt time of now).
   */
  setupFor(request: { system: SystemId; accessibilityMode?: boolean; sessionId?: string; language?: string; passenger?: PassengerLocale; stated?: Date }): SessionSetup {
    const system = this.system(request.system);
    const now = (this.options.clock ?? (() => new Date()))();
    const conditions = this.options.conditions?.(request.system, request.language) ?? { now, disruptions: [] };
    const context = liveContext(system, { ...conditions, accessibilityMode: request.accessibilityMode ?? false });
    const profile = this.options.pack.promptProfile();
    const stated = statedAt(context, request.stated ?? (this.options.promptTime ?? floorToMinute)(conditions.now));
    return {
      sessionId: request.sessionId ?? this.newId(),
      system,
      context,
      systemPrompt: buildSystemPrompt(system, stated, profile),
      systemPromptClockAt: clockFreeLength(system, stated, profile),
      tools: toolDefinitions(this.options.pack),
      ...(request.passenger ? { passenger: request.passenger } : {}),
    };
  }

  /** Start a passenger session with its first request. */
  async start(
    request: { system: SystemId; events: KioskEvent[]; accessibilityMode?: boolean; sessionId?: string; language?: string; passenger?: PassengerLocale },
    hooks: AnswerHooks = {},
  ): Promise<LiveAnswer> {
    const setup = this.setupFor(request);
    if (this.sessions.has(setup.sessionId)) throw new Error(`Kiosk session '${setup.sessionId}' already exists`);
    const conversation = this.options.pipeline.open(setup);
    this.sessions.set(setup.sessionId, conversation);
    return { sessionId: setup.sessionId, ...(await conversation.answer(request.events, hooks)) };
  }

  /**
   * A follow-up in the same passenger session (e.g. passengers changed after the result): the
   * policy re-plans over everything said so far.
   */
  async continue(sessionId: string, events: KioskEvent[], hooks: AnswerHooks = {}): Promise<LiveAnswer> {
    const conversation = this.sessions.get(sessionId);
    if (!conversation) throw new Error(`Unknown or finished kiosk session '${sessionId}'`);
    return { sessionId, ...(await conversation.answer(events, hooks)) };
  }

  /** Forget a session (reset / idle timeout): nothing about the passenger is kept. */
  end(sessionId: string): boolean {
    const conversation = this.sessions.get(sessionId);
    void conversation?.close();
    return this.sessions.delete(sessionId);
  }

  get activeSessions(): number {
    return this.sessions.size;
  }
}
