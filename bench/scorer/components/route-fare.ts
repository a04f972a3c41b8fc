// route_correct and fare_correct (CONTRACT §9.3).
import { pyTruthy } from "../../../tools/py/index.ts";
import type { CaseContext, Scored } from "../context.ts";
import { dget, isDict, pyFloat, pyIter, pyNum, pyStr, type Dict } from "../pyvalues.ts";
import { admitsRouteAndFare, tolerance } from "./shared.ts";

function lowerSet(ctx: CaseContext, value: unknown, what: string): Set<string> {
  if (!pyTruthy(value)) return new Set();
  const items = pyIter(value);
  if (items === undefined) {
    ctx.flag(`${what} is not iterable (read as [])`);
    return new Set();
  }
  return new Set(items.map((l) => pyStr(l).toLowerCase()));
}

function sameSet(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  if (a.size !== b.size) return false;
  for (const x of a) if (!b.has(x)) return false;
  return true;
}

/** A GT sub-object read as `gt.get(key) or {}`. */
function gtOrEmpty(ctx: CaseContext, key: string): Dict {
  const v = dget(ctx.gt, key, null);
  if (!pyTruthy(v)) return {};
  if (isDict(v)) return v;
  ctx.flag(`ground_truth.${key} is not an object (read as {})`);
  return {};
}

export function routeCorrect(ctx: CaseContext, max: number): Scored {
  if (ctx.noService || ctx.temporalNoService) {
    return pyTruthy(dget(ctx.ui, "route", null))
      ? { score: 0, reason: "Should not include route during full suspension" }
      : { score: max, reason: "Correctly omitted route (no service)" };
  }
  if (!ctx.rec.hasResponse) return { score: 0, reason: "No parseable response" };

  const routeValue = dget(ctx.ui, "route", {});
  const gtRoute = gtOrEmpty(ctx, "route");
  if (!pyTruthy(gtRoute)) {
    if (pyTruthy(routeValue) && admitsRouteAndFare(ctx)) return { score: 10, reason: "OK (no GT route; admissible alt with route quoted)" };
    if (pyTruthy(routeValue)) {
      return { score: 0, reason: `Ground truth has no route (outcome=${pyStr(dget(ctx.gt, "expected_outcome", null))}) but response quoted one` };
    }
    return { score: 10, reason: "OK (no route expected)" };
  }
  if (!pyTruthy(routeValue)) return { score: 0, reason: "No route in response" };
  let route: Dict = {};
  if (isDict(routeValue)) route = routeValue;
  else ctx.flag("ui_updates.route is not an object (read as {})");

  let score = 0;
  const reasons: string[] = [];

  // Transfers: exact 5, off by one 3.
  const gtTransfers = pyNum(dget(gtRoute, "transfers", 0)) ?? NaN;
  const respTransfers = dget(route, "transfers", null);
  const transfers = pyNum(respTransfers);
  if (respTransfers !== null && transfers === undefined) {
    ctx.flag(`route.transfers is not a number: ${pyStr(respTransfers)}`);
    reasons.push("transfers not a number");
  } else if (transfers !== undefined && transfers === gtTransfers) {
    score += 5;
  } else if (transfers !== undefined && Math.abs(transfers - gtTransfers) <= 1) {
    score += 3;
    reasons.push(`transfers off by ${Math.abs(transfers - gtTransfers)}`);
  } else {
    reasons.push("transfers incorrect or missing");
  }

  // Distance: distance_miles, else distance_km (no conversion), within tolerance.
  const tol = tolerance(ctx, "distance_miles", 2.0);
  const gtDist = pyNum(dget(gtRoute, "distance_miles", 0)) ?? NaN;
  const miles = dget(route, "distance_miles", null);
  const respDist = pyTruthy(miles) ? miles : dget(route, "distance_km", null);
  if (respDist !== null) {
    const d = pyNum(respDist);
    if (d === undefined) {
      ctx.flag(`route distance is not a number: ${pyStr(respDist)}`);
      reasons.push("distance not a number");
    } else if (Math.abs(d - gtDist) <= tol) {
      score += 5;
    } else {
      reasons.push(`distance ${pyStr(respDist)} vs expected ${pyStr(gtDist)}`);
    }
  } else {
    reasons.push("no distance in response");
  }

  // Lines: the lower-cased set of line_sequence (else lines, else [line]) equals the GT set.
  const sequence = dget(route, "line_sequence", null);
  let respLines: unknown = pyTruthy(sequence) ? sequence : dget(route, "lines", []);
  if (!pyTruthy(respLines) && pyTruthy(dget(route, "line", null))) respLines = [route["line"]];
  const respSet = lowerSet(ctx, respLines, "route.line_sequence");
  const gtSet = lowerSet(ctx, dget(gtRoute, "line_sequence", []), "ground_truth.route.line_sequence");
  if (respSet.size > 0 && sameSet(respSet, gtSet)) score += 5;
  else if (respSet.size > 0) reasons.push(`lines ${pyStr(respLines)} vs expected ${pyStr(dget(gtRoute, "line_sequence", []))}`);
  else reasons.push("no line sequence in response");

  return { score, reason: reasons.length === 0 ? "OK" : reasons.join("; ") };
}

export function fareCorrect(ctx: CaseContext, max: number): Scored {
  if (ctx.noService || ctx.temporalNoService) {
    return pyTruthy(dget(ctx.ui, "fare_quote", null))
      ? { score: 0, reason: "Should not include fare during full suspension" }
      : { score: max, reason: "Correctly omitted fare (no service)" };
  }
  if (!ctx.rec.hasResponse) return { score: 0, reason: "No parseable response" };

  const fare = ctx.uiDict("fare_quote");
  const gtFare = gtOrEmpty(ctx, "fare");
  const respTotal = dget(fare, "total", null);
  if (!pyTruthy(gtFare)) {
    const quoted = pyTruthy(fare) && respTotal !== null;
    if (quoted && admitsRouteAndFare(ctx)) return { score: 15, reason: "OK (no GT fare; admissible alt with fare quoted)" };
    if (quoted) {
      return { score: 0, reason: `Ground truth has no fare (outcome=${pyStr(dget(ctx.gt, "expected_outcome", null))}) but response quoted one` };
    }
    return { score: 15, reason: "OK (no fare expected)" };
  }

  const tol = tolerance(ctx, "fare", tolerance(ctx, "fare_usd", 0.5));
  if (respTotal === null) return { score: 0, reason: "No fare total in response" };

  const symbol = ctx.system.framebook.currency_symbol;
  const total =
    typeof respTotal === "string"
      ? pyFloat(respTotal.replaceAll(symbol, "").replaceAll("$", "").replaceAll(",", "").trim())
      : pyFloat(respTotal);
  const gtTotal = pyFloat(dget(gtFare, "total", 0));
  if (total === undefined || gtTotal === undefined) return { score: 0, reason: `Cannot parse fare total: ${pyStr(respTotal)}` };

  if (Math.abs(total - gtTotal) <= tol) {
    // 20 for an exact match, clamped to the component max by the framework.
    if (total === gtTotal) return { score: 20, reason: "Exact match" };
    return { score: 15, reason: `Within tolerance: ${symbol}${total} vs ${symbol}${gtTotal}` };
  }
  return { score: 0, reason: `Fare incorrect: ${symbol}${total} vs expected ${symbol}${gtTotal} (tolerance ${symbol}${tol})` };
}
