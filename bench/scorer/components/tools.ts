// tool_calls_correct and no_tool_hallucination (CONTRACT §9.3).
import { pyTruthy } from "../../../tools/py/index.ts";
import type { CaseContext, Scored } from "../context.ts";
import { dget, hasOwn } from "../pyvalues.ts";
import { KNOWN_TOOLS, listAt, setRepr } from "./shared.ts";

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
  if (ctx.rec.calls.length === 0) return { score: 0, reason: "No tool calls made" };
  const called = ctx.rec.calledNames;
  const acceptable = stringSet(listAt(ctx, ctx.gt, "acceptable_tools", "ground_truth"));
  const acceptedCalled = [...acceptable].filter((t) => called.has(t));

  if (ctx.category === "H") {
    if (acceptable.size === 0) {
      const planning = PLANNING_TOOLS.filter((t) => called.has(t));
      if (planning.length === 0) return { score: 10, reason: "Correctly abstained from tool calls" };
      return { score: 3, reason: `Called unnecessary tools: ${setRepr(planning)}` };
    }
    if (acceptedCalled.length > 0) return { score: 10, reason: `Used correct tools: ${setRepr(acceptedCalled)}` };
    return { score: 5, reason: `Called ${setRepr(called)}, expected ${setRepr(acceptable)}` };
  }
  if (ctx.category === "J") {
    if (acceptedCalled.length > 0) return { score: 15, reason: `Used correct tools: ${setRepr(acceptedCalled)}` };
    if (pyTruthy(dget(ctx.gt, "should_reject", null))) {
      const rest = withoutSubmit(called);
      if (rest.every((n) => n === "knowledge_base")) return { score: 15, reason: "Correctly declined or used knowledge_base" };
      return { score: 5, reason: `Should have declined, called: ${setRepr(called)}` };
    }
    return { score: 5, reason: `Called ${setRepr(called)}, expected ${setRepr(acceptable)}` };
  }
  if (ctx.category === "I" && !pyTruthy(dget(ctx.gtDict("temporal"), "service_available", true))) {
    const rest = withoutSubmit(called);
    if (rest.length === 0) return { score: 10, reason: "Correctly used only submit_assistant_state (no service)" };
    if (rest.every((n) => n === "route_planner")) return { score: 7, reason: "Called route_planner before recognizing no service" };
    return { score: 3, reason: `Called ${setRepr(called)} when service unavailable` };
  }

  const expected = expectedTools(ctx);
  const hits = [...expected].filter((t) => called.has(t));
  if (expected.size > 0 && hits.length === expected.size) return { score: 10, reason: `All expected tools called: ${setRepr(called)}` };
  if (hits.length > 0) return { score: 5, reason: `Partial: called ${setRepr(called)}, expected ${setRepr(expected)}` };
  return { score: 2, reason: `Called ${setRepr(called)}, expected ${setRepr(expected)}` };
}

export function noToolHallucination(ctx: CaseContext, max: number): Scored {
  const traps = stringSet(listAt(ctx, ctx.gt, "hallucination_traps", "ground_truth"));
  if (traps.size > 0) {
    const trapped = ctx.rec.calls.filter((c) => traps.has(c.name)).map((c) => c.name);
    if (trapped.length > 0) return { score: 0, reason: `Fell for hallucination traps: ${JSON.stringify(trapped)}` };
  }
  // Every call (not every distinct name) outside the known tools costs floor(max / 2).
  const hallucinated = ctx.rec.calls.filter((c) => !KNOWN_TOOLS.has(c.name)).map((c) => c.name);
  if (hallucinated.length > 0) {
    const penalty = Math.floor(max / 2) * hallucinated.length;
    return { score: Math.max(0, max - penalty), reason: `Hallucinated: ${JSON.stringify(hallucinated)}` };
  }
  return { score: max, reason: "No hallucinated tools" };
}
