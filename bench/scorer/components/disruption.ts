// Disruptions and re-planning: disruption_detected, advisory_issued, context_update_detected,
// re_planning_efficiency (CONTRACT §9.3).
import { pyTruthy } from "../../../tools/py/index.ts";
import { bannersOf, type CaseContext, type Scored } from "../context.ts";
import { dget, isDict, pyStr } from "../pyvalues.ts";
import type { ScorableCall } from "../record.ts";
import { listAt, setRepr } from "./shared.ts";

function lowered(values: readonly unknown[]): string[] {
  return values.map((k) => pyStr(k).toLowerCase());
}

export function disruptionDetected(ctx: CaseContext): Scored {
  if (ctx.rec.calls.some((c) => c.name === "disruption_feed")) return { score: 15, reason: "Called disruption_feed" };
  if (ctx.rec.hasResponse) {
    const pd = ctx.gtDict("post_disruption");
    const keywords = lowered(listAt(ctx, pd, "advisory_must_mention", "ground_truth.post_disruption"));
    const text = ctx.dumpLower;
    if (keywords.some((kw) => text.includes(kw))) {
      return { score: 8, reason: "Acknowledged disruption in response but did not call disruption_feed" };
    }
  }
  return { score: 0, reason: "Disruption not detected" };
}

export function advisoryIssued(ctx: CaseContext): Scored {
  if (!ctx.rec.hasResponse) return { score: 0, reason: "No response" };
  if (!pyTruthy(dget(ctx.ui, "advisory_banners", []))) return { score: 0, reason: "No advisory banners issued" };
  const expected = pyStr(dget(ctx.gtDict("post_disruption"), "advisory_severity", "warning")).toLowerCase();
  const severities: string[] = [];
  for (const b of bannersOf(ctx.ui, (m) => ctx.flag(m))) {
    const severity = dget(b, "severity", "");
    if (typeof severity === "string") severities.push(severity.toLowerCase());
    else ctx.flag(`an advisory banner's severity is not a string: ${pyStr(severity)}`);
  }
  if (severities.includes(expected)) return { score: 10, reason: `Advisory issued with correct severity: ${expected}` };
  return { score: 5, reason: `Advisory issued but severity mismatch: ${JSON.stringify(severities)} vs expected ${expected}` };
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
  if (calls.length === 0) return { score: 0, reason: "No tool calls" };
  const acceptedAt = calls.flatMap((c, i) => (accepted(ctx, c) ? [i] : []));
  if (acceptedAt.length <= 1) return { score: 0, reason: "Single submission only — no re-planning detected" };
  const first = acceptedAt[0] as number;
  const last = acceptedAt[acceptedAt.length - 1] as number;
  const between = calls.slice(first + 1, last).filter((c) => c.name === "route_planner" || c.name === "fare_calculator");
  if (between.length > 0) return { score: 5, reason: `Re-planned between submissions: ${setRepr(new Set(between.map((c) => c.name)))}` };
  return { score: 2, reason: "Multiple submissions but no re-planning between them" };
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
    if (!needsReroute) return { score: 5, reason: "No re-routing needed" };
    const planner = calls.filter((c) => c.name === "route_planner");
    const restricted = planner.some((c) => RESTRICTION_KEYS.some((k) => pyTruthy(dget(c.args, k, null))));
    if (planner.length >= 2 && restricted) return { score: 5, reason: "Re-routed with disruption-aware restrictions" };
    if (planner.length >= 2) return { score: 3, reason: "Re-called route_planner but without restrictions" };
    return { score: 0, reason: `Did not re-route (${planner.length} route_planner calls)` };
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
    return rp > 0 ? { score: 10, reason: "No state changes; route_planner called" } : { score: 0, reason: "No route_planner called" };
  }
  const fc = countNamed(calls, "fare_calculator");
  const expectedRoute = 1 + routeChanges;
  const routeOk = rp >= expectedRoute;
  const recalcs = Math.max(0, rp - expectedRoute) + (fc > 0 ? Math.max(0, fc - 1) : 0);
  const fareOk = fareOnly === 0 || recalcs >= fareOnly;
  if (routeOk && fareOk) return { score: 10, reason: `Re-planned correctly (${rp} route, ${fc} fare calls)` };
  if (routeOk || fareOk) {
    return {
      score: 5,
      reason: `Partial: route=${routeOk ? "OK" : "MISS"} (${rp}/${expectedRoute}), fare=${fareOk ? "OK" : "MISS"}`,
    };
  }
  return { score: 0, reason: `No re-planning (${rp} route, ${fc} fare calls)` };
}
