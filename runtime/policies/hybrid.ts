// Policy `hybrid`: answer plain journeys instantly with the deterministic policy and spend model
// time only where judgement changes the answer. The router looks only at what the kiosk knows (the
// passenger's events and the live context); the reason for each decision is recorded. A model
// session that fails, stalls, runs long or ends without a state is finished by `rule` instead.
import type { KioskEvent, SystemContext } from "../../tools/data/schemas.ts";
import type { SystemData } from "../../tools/data/system.ts";
import type { Policy, PolicyInput, PolicyRun, PolicyStep, SessionSetup } from "../session/policy.ts";
import { clockTime, serviceStatus } from "./rule/hours.ts";

export type HybridPath = "rule" | "llm";

export interface RouteDecision {
  path: HybridPath;
  /** Stable reason code (decision table row). */
  reason:
    | "structured_request"
    | "free_text"
    | "active_disruption"
    | "policy_change"
    | "accessibility"
    | "service_hours_boundary"
    | "knowledge_query";
  detail: string;
}

/** Minutes before closing from which the time of day needs judgement (last-train advice). */
export const LAST_TRAIN_WINDOW_MIN = 60;

/**
 * The decision table, first matching row wins:
 *
 * | row | condition (known at the kiosk)                                   | path |
 * |-----|-------------------------------------------------------------------|------|
 * | 1   | any free-text input                                               | llm  |
 * | 2   | an active disruption, or a disruption alert event                 | llm  |
 * | 3   | an operator policy change in force                                | llm  |
 * | 4   | accessibility mode                                                | llm  |
 * | 5   | a temporal context outside service hours or near closing          | llm  |
 * | 6   | a knowledge-base question flagged by the context                  | llm  |
 * | 7   | otherwise: stations, passengers, payment method only              | rule |
 */
export function decideRoute(system: SystemData, context: SystemContext, turns: readonly (readonly KioskEvent[])[]): RouteDecision {
  const events = turns.flat();
  if (events.some((e) => e.type === "freetext_input" && e.text.trim() !== "")) {
    return { path: "llm", reason: "free_text", detail: "the passenger typed a request" };
  }
  if (context.active_disruptions.length > 0 || events.some((e) => e.type === "disruption_update")) {
    return { path: "llm", reason: "active_disruption", detail: `${context.active_disruptions.length} active disruption(s)` };
  }
  if (context.policy_change) return { path: "llm", reason: "policy_change", detail: "an operator policy change is in force" };
  if (context.accessibility_mode) return { path: "llm", reason: "accessibility", detail: "accessibility mode is on" };
  const temporal = context.temporal_context;
  if (temporal) {
    const at = clockTime(temporal.current_time, temporal.day_of_week);
    const status = at ? serviceStatus(system.framebook, at) : undefined;
    if (status && (!status.open || (status.minutesToClose ?? Infinity) <= LAST_TRAIN_WINDOW_MIN)) {
      return { path: "llm", reason: "service_hours_boundary", detail: status.open ? `${status.minutesToClose} min before closing` : "outside service hours" };
    }
  }
  if (context.knowledge_query) return { path: "llm", reason: "knowledge_query", detail: "a policy question" };
  return { path: "rule", reason: "structured_request", detail: "structured selections only" };
}

export interface HybridOptions {
  rule: Policy;
  model: Policy;
  /** Wall-clock budget of the model per session, after which `rule` answers (default 20 s). */
  modelDeadlineMs?: number;
  /** Model rounds after which `rule` takes over, leaving it rounds to finish (default 14 of 20). */
  maxModelRounds?: number;
  id?: string;
}

class ModelTimeout extends Error {}

export class HybridPolicy implements Policy {
  readonly id: string;
  constructor(private readonly options: HybridOptions) {
    this.id = options.id ?? "hybrid";
  }

  start(setup: SessionSetup): PolicyRun {
    const { rule, model } = this.options;
    const deadlineMs = this.options.modelDeadlineMs ?? 20_000;
    const maxModelRounds = this.options.maxModelRounds ?? 14;
    let decision: RouteDecision | undefined;
    let current: PolicyRun | undefined;
    let currentPath: HybridPath | "rule-fallback" = "rule";
    let fallbackReason: string | undefined;
    let modelRounds = 0;
    let modelStarted = 0;
    let turnsSeen = 0;

    const switchToRule = async (reason: string): Promise<void> => {
      fallbackReason = reason;
      await current?.dispose?.();
      current = await rule.start(setup);
      currentPath = "rule-fallback";
    };

    /** Ask the model for one step; at the deadline its generation is aborted, not left running. */
    const withDeadline = async (run: PolicyRun, input: PolicyInput, remainingMs: number): Promise<PolicyStep> => {
      const controller = new AbortController();
      const forwardAbort = (): void => controller.abort(input.signal.reason);
      if (input.signal.aborted) forwardAbort();
      else input.signal.addEventListener("abort", forwardAbort, { once: true });
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          const error = new ModelTimeout(`model deadline of ${deadlineMs} ms exceeded`);
          controller.abort(error);
          reject(error);
        }, Math.max(0, remainingMs));
      });
      try {
        return await Promise.race([run.next({ ...input, signal: controller.signal, deadlineAt: Date.now() + Math.max(0, remainingMs) }), timeout]);
      } finally {
        clearTimeout(timer);
        input.signal.removeEventListener("abort", forwardAbort);
      }
    };

    return {
      next: async (input: PolicyInput): Promise<PolicyStep> => {
        if (!decision || (input.turns.length > turnsSeen && currentPath === "rule")) {
          const next = decideRoute(setup.system, setup.context, input.turns);
          if (!decision || (next.path === "llm" && decision.path === "rule")) {
            decision = next;
            await current?.dispose?.();
            current = await (next.path === "llm" ? model : rule).start(setup);
            currentPath = next.path;
            if (next.path === "llm") modelStarted = Date.now();
          }
        }
        turnsSeen = input.turns.length;
        const run = current as PolicyRun;
        if (currentPath !== "llm") return run.next(input);

        if (modelRounds >= maxModelRounds) {
          await switchToRule(`model used ${modelRounds} rounds without a final state`);
          return (current as PolicyRun).next(input);
        }
        modelRounds++;
        try {
          const step = await withDeadline(run, input, deadlineMs - (Date.now() - modelStarted));
          // A model that ends with text instead of a kiosk state is finished by the rule policy.
          if (step.type === "message" && input.turns.length >= (setup.scriptedTurns?.length ?? 1)) {
            await switchToRule("model ended without submitting a kiosk state");
            return (current as PolicyRun).next(input);
          }
          return step;
        } catch (err) {
          if (input.signal.aborted) throw err;
          await switchToRule(err instanceof Error ? err.message : String(err));
          return (current as PolicyRun).next(input);
        }
      },
      dispose: async () => {
        await current?.dispose?.();
      },
      describe: () => ({
        router: decision ? { path: decision.path, reason: decision.reason, detail: decision.detail } : undefined,
        answeredBy: currentPath,
        ...(fallbackReason ? { fallbackReason } : {}),
        modelRounds,
      }),
    };
  }
}
