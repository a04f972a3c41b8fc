// The hybrid router: answer plain journeys instantly with the deterministic policy and spend model
// time only where judgement changes the answer. It looks only at what the kiosk knows (the
// passenger's events and the live context); the reason for each decision is recorded. Pure: the
// answer pipeline (runtime/answer/pipeline.ts) calls it for the kiosk and for `bench run --policy hybrid`.
import type { KioskEvent, SystemContext } from "../../tools/data/schemas.ts";
import type { SystemData } from "../../tools/data/system.ts";
import { readPlainRequest } from "../language/plain.ts";
import { clockTime, serviceStatus } from "./rule/hours.ts";

export type HybridPath = "rule" | "model";

export interface RouteDecision {
  path: HybridPath;
  /** Stable reason code (decision table row). */
  reason:
    | "structured_request"
    | "plain_text"
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
 * | 1   | free text that is more than a plain trip (language/plain.ts)      | model |
 * | 2   | an active disruption, or a disruption alert event                 | model |
 * | 3   | an operator policy change in force                                | model |
 * | 4   | accessibility mode                                                | model |
 * | 5   | a temporal context outside service hours or near closing          | model |
 * | 6   | a knowledge-base question flagged by the context                  | model |
 * | 7   | otherwise: stations, passengers, payment method, plain trip text  | rule  |
 *
 * A plain trip text ("2 adults from Powell St to SFO please"): two stations the language layer is
 * sure of, riders it reads with confidence, no other word — the deterministic policy's own reading.
 */
export function decideRoute(system: SystemData, context: SystemContext, turns: readonly (readonly KioskEvent[])[]): RouteDecision {
  const events = turns.flat();
  const texts = events.flatMap((e) => (e.type === "freetext_input" && e.text.trim() !== "" ? [e.text] : []));
  if (texts.length > 1) return { path: "model", reason: "free_text", detail: "the passenger typed more than one request" };
  if (texts.length === 1) {
    const chosen = (field: "origin" | "destination"): boolean => events.some((e) => e.type === "station_selected" && e.field === field);
    const plain = readPlainRequest(system, texts[0]!, { origin: chosen("origin"), destination: chosen("destination") });
    if (!plain.plain) return { path: "model", reason: "free_text", detail: `the passenger typed a request (${plain.why})` };
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
  if (texts.length === 1) return { path: "rule", reason: "plain_text", detail: "a plain trip request the deterministic policy reads with confidence" };
  return { path: "rule", reason: "structured_request", detail: "structured selections only" };
}
