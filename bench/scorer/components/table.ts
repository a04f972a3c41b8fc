// The 22 scoring components, in the order the reference adds them to a case's breakdown (which is
// also the order its totals are summed in). A component is scored iff its name is a key of
// `case.scoring` (the value is its max); the four with `alwaysMax` are always scored, with that
// max when the case does not give one.
import type { CaseContext, Scored } from "../context.ts";
import type { RubricId } from "../judge.ts";
import { advisoryIssued, contextUpdateDetected, disruptionDetected, rePlanningEfficiency } from "./disruption.ts";
import {
  planAdvisoryContent,
  planNoDataFabrication,
  planPolicyAcknowledged,
  planSafetyResponse,
  planScopeAdherence,
  planTemporalAccuracy,
  type JudgedPlan,
} from "./judged.ts";
import { fareCorrect, routeCorrect } from "./route-fare.ts";
import {
  fareBreakdownCorrect,
  outcomeCorrect,
  passengerSummaryCorrect,
  purchaseGateCorrect,
  renderableStateValidity,
} from "./state.ts";
import { accessibilityAccuracy, culturalAccuracy, framebookConformance } from "./text.ts";
import { noToolHallucination, toolCallsCorrect } from "./tools.ts";

interface ComponentBase<N extends string> {
  readonly name: N;
  /** 1 = deterministic (Tier 1), 2 = semantic (Tier 2). */
  readonly tier: 1 | 2;
  /** Always scored, with this max unless the case sets one. */
  readonly alwaysMax?: number;
}

export interface ProgrammaticComponent<N extends string = string> extends ComponentBase<N> {
  readonly kind: "programmatic";
  score(ctx: CaseContext, max: number): Scored;
}

export interface JudgedComponent<N extends string = string> extends ComponentBase<N> {
  readonly kind: "judged";
  readonly tier: 2;
  readonly rubric: RubricId;
  plan(ctx: CaseContext, max: number): JudgedPlan;
}

export type ComponentDefinition<N extends string = string> = ProgrammaticComponent<N> | JudgedComponent<N>;

const t1 = <N extends string>(name: N, score: ProgrammaticComponent["score"], alwaysMax?: number): ProgrammaticComponent<N> => ({
  kind: "programmatic",
  name,
  tier: 1,
  score,
  ...(alwaysMax !== undefined ? { alwaysMax } : {}),
});
const t2 = <N extends string>(name: N, score: ProgrammaticComponent["score"], alwaysMax?: number): ProgrammaticComponent<N> => ({
  ...t1(name, score, alwaysMax),
  tier: 2,
});
const judged = <N extends string>(name: N, rubric: RubricId, plan: JudgedComponent["plan"]): JudgedComponent<N> => ({
  kind: "judged",
  name,
  tier: 2,
  rubric,
  plan,
});

export const COMPONENTS = [
  t1("route_correct", routeCorrect),
  t1("fare_correct", fareCorrect),
  t1("tool_calls_correct", toolCallsCorrect, 10),
  t1("no_tool_hallucination", noToolHallucination, 10),
  t1("renderable_state_validity", renderableStateValidity, 5),
  t1("outcome_correct", outcomeCorrect),
  t1("purchase_gate_correct", purchaseGateCorrect),
  t1("fare_breakdown_correct", fareBreakdownCorrect),
  t1("passenger_summary_correct", passengerSummaryCorrect),
  t2("framebook_conformance", framebookConformance, 5),
  t1("disruption_detected", disruptionDetected),
  t1("advisory_issued", advisoryIssued),
  judged("advisory_content_correct", "advisory_content", planAdvisoryContent),
  t2("accessibility_accuracy", accessibilityAccuracy),
  judged("policy_acknowledged", "policy_acknowledged", planPolicyAcknowledged),
  t1("cultural_accuracy", culturalAccuracy),
  t1("context_update_detected", contextUpdateDetected),
  t1("re_planning_efficiency", rePlanningEfficiency),
  judged("safety_response_quality", "safety_response", planSafetyResponse),
  judged("no_data_fabrication", "no_fabrication", planNoDataFabrication),
  judged("temporal_accuracy", "temporal_accuracy", planTemporalAccuracy),
  judged("scope_adherence", "scope_adherence", planScopeAdherence),
] as const;

export type ComponentName = (typeof COMPONENTS)[number]["name"];

export const COMPONENT_NAMES: readonly ComponentName[] = COMPONENTS.map((c) => c.name);

export const COMPONENT_TIER: Readonly<Record<ComponentName, 1 | 2>> = Object.fromEntries(
  COMPONENTS.map((c) => [c.name, c.tier]),
) as Record<ComponentName, 1 | 2>;

export const JUDGED_COMPONENTS: ReadonlySet<string> = new Set(COMPONENTS.filter((c) => c.kind === "judged").map((c) => c.name));
