// The hybrid router: answer plain journeys instantly with the deterministic policy and spend model
// time only where judgement changes the answer. It looks only at what the kiosk knows (the
// passenger's events and the live context); the reason for each decision is recorded. Pure: the
// answer pipeline (runtime/answer/pipeline.ts) calls it for the kiosk and for `bench run --policy hybrid`.
import type { KioskEvent, SystemContext } from "../../tools/data/schemas.ts";
import type { SystemData } from "../../tools/data/system.ts";
import { clockTime, serviceStatus } from "./rule/hours.ts";

export type HybridPath = "rule" | "model";

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
 * | row | condition (known at the kiosk)                                   | path  |
 * |-----|-------------------------------------------------------------------|-------|
 * | 1   | any free-text input                                               | model |
 * | 2   | an active disruption, or a disruption alert event                 | model |
 * | 3   | an operator policy change in force                                | model |
 * | 4   | accessibility mode                                                | model |
 * | 5   | a temporal context outside service hours or near closing          | model |
 * | 6   | a knowledge-base question flagged by the context                  | model |
 * | 7   | otherwise: stations, passengers, payment method only              | rule  |
 */
export function decideRoute(system: SystemData, context: SystemContext, turns: readonly (readonly KioskEvent[])[]): RouteDecision {
  const events = turns.flat();
  if (events.some((e) => e.type === "freetext_input" && e.text.trim() !== "")) {
    return { path: "model", reason: "free_text", detail: "the passenger typed a request" };
  }
  if (context.active_disruptions.length > 0 || events.some((e) => e.type === "disruption_update")) {
    return { path: "model", reason: "active_disruption", detail: `${context.active_disruptions.length} active disruption(s)` };
  }
  if (context.policy_change) return { path: "model", reason: "policy_change", detail: "an operator policy change is in force" };
  if (context.accessibility_mode) return { path: "model", reason: "accessibility", detail: "accessibility mode is on" };
  const temporal = context.temporal_context;
  if (temporal) {
    const at = clockTime(temporal.current_time, temporal.day_of_week);
    const status = at ? serviceStatus(system.framebook, at) : undefined;
    if (status && (!status.open || (status.minutesToClose ?? Infinity) <= LAST_TRAIN_WINDOW_MIN)) {
      return { path: "model", reason: "service_hours_boundary", detail: status.open ? `${status.minutesToClose} min before closing` : "outside service hours" };
    }
  }
  if (context.knowledge_query) return { path: "model", reason: "knowledge_query", detail: "a policy question" };
  return { path: "rule", reason: "structured_request", detail: "structured selections only" };
}
