// The kiosk service: live passenger sessions over the same engine the bench uses. The UI sends
// kiosk events (station selected, passengers changed, payment method, free text); the service
// builds the prompt from the active framebook, runs the policy and streams progress. If the primary
// policy (a model) fails, times out or produces no valid state, the session is answered by the
// deterministic fallback policy, so the kiosk keeps selling tickets.
import type { DataPack } from "../../tools/data/datapack.ts";
import type { Disruption, KioskEvent, SystemContext, SystemId } from "../../tools/data/schemas.ts";
import type { SystemData } from "../../tools/data/system.ts";
import { framebookPolicyChange } from "../framebook/validate.ts";
import { buildSystemPrompt, eventsToUserMessage, toolDefinitions } from "../prompt/index.ts";
import type { Policy, SessionSetup } from "../session/policy.ts";
import type { SessionRecord } from "../session/record.ts";
import { KioskSession, type SessionEvent } from "../session/session.ts";

export const DEFAULT_KIOSK_DEADLINE_MS = 20_000;

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
  clock?: () => Date;
  newSessionId?: () => string;
}

export interface LiveSessionResult {
  sessionId: string;
  record: SessionRecord;
  /** The primary policy failed and the deterministic fallback answered. */
  assistantUnavailable: boolean;
  /** When the fallback answered: how the primary's run ended (e.g. "policy_error" for a crash). */
  primaryFailure?: { policy: string; termination: SessionRecord["kiosk"]["termination"]; error: string | null };
}

interface LiveSession {
  system: SystemId;
  setup: SessionSetup;
  turns: KioskEvent[][];
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
    const live: LiveSession = { system: request.system, setup, turns: [request.events] };
    this.sessions.set(sessionId, live);
    return this.answer(live, onEvent, signal);
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
  ): Promise<LiveSessionResult> {
    const live = this.sessions.get(sessionId);
    if (!live) throw new Error(`Unknown or finished kiosk session '${sessionId}'`);
    live.turns.push(events);
    return this.answer(live, onEvent, signal);
  }

  /** Forget a session (reset / idle timeout): nothing about the passenger is kept. */
  end(sessionId: string): boolean {
    return this.sessions.delete(sessionId);
  }

  get activeSessions(): number {
    return this.sessions.size;
  }

  private async answer(live: LiveSession, onEvent?: (e: SessionEvent) => void, signal?: AbortSignal): Promise<LiveSessionResult> {
    const primary = this.options.primary(live.system);
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

  private run(live: LiveSession, policy: Policy, onEvent?: (e: SessionEvent) => void, signal?: AbortSignal): Promise<SessionRecord> {
    // Every answer replays the whole passenger conversation as scripted turns, so each policy
    // sees the same history (and a fallback run starts clean).
    const profile = this.options.pack.promptProfile();
    const session = new KioskSession({
      setup: { ...live.setup, scriptedTurns: live.turns },
      policy,
      userMessage: (events) => eventsToUserMessage(events, profile),
      firstTurn: live.turns[0] ?? [],
      deadlineMs: this.options.deadlineMs ?? DEFAULT_KIOSK_DEADLINE_MS,
      ...(onEvent ? { onEvent } : {}),
      ...(signal ? { signal } : {}),
    });
    return session.execute();
  }
}
