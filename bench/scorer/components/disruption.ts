// Disruptions and re-planning: disruption_detected, advisory_issued, context_update_detected,
// re_planning_efficiency (CONTRACT §9.3).
import { pyTruthy } from "../../../tools/py/index.ts";
import { bannersOf, type CaseContext, type Scored } from "../context.ts";
import { dget, isDict, pyStr } from "../pyvalues.ts";
import type { ScorableCall } from "../record.ts";
import { listAt } from "./shared.ts";
import { names, scored } from "../reasons.ts";

function lowered(values: readonly unknown[]): string[] {
  return values.map((k) => pyStr(k).toLowerCase());
}

export function disruptionDetected(ctx: CaseContext): Scored {
  if (ctx.rec.calls.some((c) => c.name === "disruption_feed")) return scored(15, "disruption_feed_checked");
  if (ctx.rec.hasResponse) {
    const pd = ctx.gtDict("post_disruption");
    const keywords = lowered(listAt(ctx, pd, "advisory_must_mention", "ground_truth.post_disruption"));
    const text = ctx.dumpLower;
    if (keywords.some((kw) => text.includes(kw))) {
      return scored(8, "disruption_only_mentioned");
    }
  }
  return scored(0, "disruption_unnoticed");
}

export function advisoryIssued(ctx: CaseContext): Scored {
  if (!ctx.rec.hasResponse) return scored(0, "no_response");
  if (!pyTruthy(dget(ctx.ui, "advisory_banners", []))) return scored(0, "advisory_missing");
  const expected = pyStr(dget(ctx.gtDict("post_disruption"), "advisory_severity", "warning")).toLowerCase();
  const severities: string[] = [];
  for (const b of bannersOf(ctx.ui, (m) => ctx.flag(m))) {
    const severity = dget(b, "severity", "");
    if (typeof severity === "string") severities.push(severity.toLowerCase());
    else ctx.flag(`an advisory banner's severity is not a string: ${pyStr(severity)}`);
  }
  if (severities.includes(expected)) return scored(10, "advisory_right_severity", { severity: expected });
  return scored(5, "advisory_wrong_severity", { severities, expected });
}

function accepted(ctx: CaseContext, call: ScorableCall): boolean {
  if (call.name !== "submit_assistant_state") return false;
  const result = call.result;
  if (!pyTruthy(result)) return false;
  if (!isDict(result)) {
    ctx.flag("a submit_assistant_state result is not an object (not accepted)");
    return false;
  }
  return pyTruthy(dget(result, "accepted", null));
}

export function contextUpdateDetected(ctx: CaseContext): Scored {
  const calls = ctx.rec.calls;
  if (calls.length === 0) return scored(0, "no_tool_calls");
  const acceptedAt = calls.flatMap((c, i) => (accepted(ctx, c) ? [i] : []));
  if (acceptedAt.length <= 1) return scored(0, "update_single_submission");
  const first = acceptedAt[0] as number;
  const last = acceptedAt[acceptedAt.length - 1] as number;
  const between = calls.slice(first + 1, last).filter((c) => c.name === "route_planner" || c.name === "fare_calculator");
  if (between.length > 0) return scored(5, "update_replanned", { tools: names(new Set(between.map((c) => c.name))) });
  return scored(2, "update_resubmitted_only");
}

const RESTRICTION_KEYS = ["station_restrictions", "segment_closures", "line_closures"];

function countNamed(calls: readonly ScorableCall[], name: string): number {
  return calls.reduce((n, c) => (c.name === name ? n + 1 : n), 0);
}

export function rePlanningEfficiency(ctx: CaseContext): Scored {
  const calls = ctx.rec.calls;
  if (ctx.idCategory === "C") {
    const pd = ctx.gtDict("post_disruption");
    const needsReroute = dget(pd, "alternative_route", null) !== null && !pyTruthy(dget(pd, "route_still_valid", true));
    if (!needsReroute) return scored(5, "reroute_not_needed");
    const planner = calls.filter((c) => c.name === "route_planner");
    const restricted = planner.some((c) => RESTRICTION_KEYS.some((k) => pyTruthy(dget(c.args, k, null))));
    if (planner.length >= 2 && restricted) return scored(5, "reroute_with_restrictions");
    if (planner.length >= 2) return scored(3, "reroute_without_restrictions");
    return scored(0, "reroute_missing", { plannerCalls: planner.length });
  }

  // Multi-turn: classify turns 1..n-1 as route changes or fare-only changes.
  let routeChanges = 0;
  let fareOnly = 0;
  for (const turn of listAt(ctx, ctx.caseDict, "multi_turn_events", "case").slice(1)) {
    const types = new Set(Array.isArray(turn) ? turn.map((e) => (isDict(e) ? e["type"] : undefined)) : []);
    if (types.has("station_selected")) routeChanges++;
    else if (types.has("passenger_count_changed") || types.has("payment_method_selected")) fareOnly++;
  }
  const rp = countNamed(calls, "route_planner");
  if (routeChanges === 0 && fareOnly === 0) {
    return rp > 0 ? scored(10, "replan_unchanged_planned") : scored(0, "replan_unchanged_unplanned");
  }
  const fc = countNamed(calls, "fare_calculator");
  const expectedRoute = 1 + routeChanges;
  const routeOk = rp >= expectedRoute;
  const recalcs = Math.max(0, rp - expectedRoute) + (fc > 0 ? Math.max(0, fc - 1) : 0);
  const fareOk = fareOnly === 0 || recalcs >= fareOnly;
  if (routeOk && fareOk) return scored(10, "replan_followed", { routeCalls: rp, fareCalls: fc });
  if (routeOk || fareOk) return scored(5, "replan_partly_followed", { routeOk, routeCalls: rp, routeNeeded: expectedRoute, fareOk });
  return scored(0, "replan_not_followed", { routeCalls: rp, fareCalls: fc });
}
