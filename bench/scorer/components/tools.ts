// tool_calls_correct and no_tool_hallucination (CONTRACT §9.3).
import { pyTruthy } from "../../../tools/py/index.ts";
import type { CaseContext, Scored } from "../context.ts";
import { dget, hasOwn } from "../pyvalues.ts";
import { KNOWN_TOOLS, listAt } from "./shared.ts";
import { names, scored } from "../reasons.ts";

const PLANNING_TOOLS = ["route_planner", "fare_calculator", "station_info", "disruption_feed"];
const SUBMIT = "submit_assistant_state";

function stringSet(items: readonly unknown[]): Set<string> {
  return new Set(items.filter((x): x is string => typeof x === "string"));
}

function withoutSubmit(called: ReadonlySet<string>): string[] {
  return [...called].filter((n) => n !== SUBMIT);
}

/** The tools a category expects (A–G, I with service, K); undefined where the rule is special. */
function expectedTools(ctx: CaseContext): Set<string> {
  switch (ctx.category) {
    case "A":
    case "E":
      return new Set(["route_planner"]);
    case "B":
    case "F":
    case "G":
    case "I":
      return new Set(["route_planner", "fare_calculator"]);
    case "C": {
      if (ctx.noService) return new Set(["disruption_feed"]);
      const pd = ctx.gtDict("post_disruption");
      const hasAlternative = dget(pd, "alternative_route", null) !== null && !pyTruthy(dget(pd, "route_still_valid", true));
      return new Set(hasAlternative ? ["route_planner", "fare_calculator", "disruption_feed"] : ["route_planner", "disruption_feed"]);
    }
    case "D":
      return new Set(["route_planner", "station_info"]);
    case "K": {
      const out = new Set(["route_planner"]);
      if (pyTruthy(dget(ctx.systemContext, "active_disruptions", null))) out.add("disruption_feed");
      if (pyTruthy(dget(ctx.systemContext, "accessibility_mode", null))) out.add("station_info");
      if (hasOwn(ctx.scoring, "fare_correct")) out.add("fare_calculator");
      return out;
    }
    default:
      return new Set();
  }
}

export function toolCallsCorrect(ctx: CaseContext): Scored {
  if (ctx.rec.calls.length === 0) return scored(0, "no_tool_calls");
  const called = ctx.rec.calledNames;
  const acceptable = stringSet(listAt(ctx, ctx.gt, "acceptable_tools", "ground_truth"));
  const acceptedCalled = [...acceptable].filter((t) => called.has(t));

  if (ctx.category === "H") {
    if (acceptable.size === 0) {
      const planning = PLANNING_TOOLS.filter((t) => called.has(t));
      if (planning.length === 0) return scored(10, "tools_rightly_none");
      return scored(3, "tools_unneeded", { called: names(planning) });
    }
    if (acceptedCalled.length > 0) return scored(10, "tools_acceptable", { used: names(acceptedCalled) });
    return scored(5, "tools_other_than_expected", { called: names(called), expected: names(acceptable) });
  }
  if (ctx.category === "J") {
    if (acceptedCalled.length > 0) return scored(15, "tools_acceptable", { used: names(acceptedCalled) });
    if (pyTruthy(dget(ctx.gt, "should_reject", null))) {
      const rest = withoutSubmit(called);
      if (rest.every((n) => n === "knowledge_base")) return scored(15, "tools_rightly_declined");
      return scored(5, "tools_should_have_declined", { called: names(called) });
    }
    return scored(5, "tools_other_than_expected", { called: names(called), expected: names(acceptable) });
  }
  if (ctx.category === "I" && !pyTruthy(dget(ctx.gtDict("temporal"), "service_available", true))) {
    const rest = withoutSubmit(called);
    if (rest.length === 0) return scored(10, "tools_rightly_submit_only");
    if (rest.every((n) => n === "route_planner")) return scored(7, "tools_planned_without_service");
    return scored(3, "tools_called_without_service", { called: names(called) });
  }

  const expected = expectedTools(ctx);
  const hits = [...expected].filter((t) => called.has(t));
  if (expected.size > 0 && hits.length === expected.size) return scored(10, "tools_all_expected", { called: names(called) });
  if (hits.length > 0) return scored(5, "tools_some_expected", { called: names(called), expected: names(expected) });
  return scored(2, "tools_other_than_expected", { called: names(called), expected: names(expected) });
}

export function noToolHallucination(ctx: CaseContext, max: number): Scored {
  const traps = stringSet(listAt(ctx, ctx.gt, "hallucination_traps", "ground_truth"));
  if (traps.size > 0) {
    const trapped = ctx.rec.calls.filter((c) => traps.has(c.name)).map((c) => c.name);
    if (trapped.length > 0) return scored(0, "tools_trap_taken", { calls: trapped });
  }
  // Every call (not every distinct name) outside the known tools costs floor(max / 2).
  const hallucinated = ctx.rec.calls.filter((c) => !KNOWN_TOOLS.has(c.name)).map((c) => c.name);
  if (hallucinated.length > 0) {
    const penalty = Math.floor(max / 2) * hallucinated.length;
    return scored(Math.max(0, max - penalty), "tools_unknown", { calls: hallucinated });
  }
  return scored(max, "tools_all_real");
}
