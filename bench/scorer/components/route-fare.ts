// route_correct and fare_correct (CONTRACT §9.3).
import { pyTruthy } from "../../../tools/py/index.ts";
import type { CaseContext, Scored } from "../context.ts";
import { dget, isDict, pyFloat, pyIter, pyNum, pyStr, type Dict } from "../pyvalues.ts";
import { admitsRouteAndFare, tolerance } from "./shared.ts";
import { NOTES, scored } from "../reasons.ts";

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
    return pyTruthy(dget(ctx.ui, "route", null)) ? scored(0, "route_during_suspension") : scored(max, "route_rightly_omitted");
  }
  if (!ctx.rec.hasResponse) return scored(0, "no_response");

  const routeValue = dget(ctx.ui, "route", {});
  const gtRoute = gtOrEmpty(ctx, "route");
  if (!pyTruthy(gtRoute)) {
    if (pyTruthy(routeValue) && admitsRouteAndFare(ctx)) return scored(10, "route_alternative_quoted");
    if (pyTruthy(routeValue)) return scored(0, "route_not_expected", { outcome: dget(ctx.gt, "expected_outcome", null) });
    return scored(10, "route_none_expected");
  }
  if (!pyTruthy(routeValue)) return scored(0, "route_missing");
  let route: Dict = {};
  if (isDict(routeValue)) route = routeValue;
  else ctx.flag("ui_updates.route is not an object (read as {})");

  let score = 0;
  const notes: string[] = [];

  // Transfers: exact 5, off by one 3.
  const gtTransfers = pyNum(dget(gtRoute, "transfers", 0)) ?? NaN;
  const respTransfers = dget(route, "transfers", null);
  const transfers = pyNum(respTransfers);
  if (respTransfers !== null && transfers === undefined) {
    ctx.flag(`route.transfers is not a number: ${pyStr(respTransfers)}`);
    notes.push(NOTES.transfersNotANumber);
  } else if (transfers !== undefined && transfers === gtTransfers) {
    score += 5;
  } else if (transfers !== undefined && Math.abs(transfers - gtTransfers) <= 1) {
    score += 3;
    notes.push(NOTES.transfersOff(Math.abs(transfers - gtTransfers)));
  } else {
    notes.push(NOTES.transfersWrong);
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
      notes.push(NOTES.distanceNotANumber);
    } else if (Math.abs(d - gtDist) <= tol) {
      score += 5;
    } else {
      notes.push(NOTES.distanceWrong(respDist, gtDist));
    }
  } else {
    notes.push(NOTES.distanceMissing);
  }

  // Lines: the lower-cased set of line_sequence (else lines, else [line]) equals the GT set.
  const sequence = dget(route, "line_sequence", null);
  let respLines: unknown = pyTruthy(sequence) ? sequence : dget(route, "lines", []);
  if (!pyTruthy(respLines) && pyTruthy(dget(route, "line", null))) respLines = [route["line"]];
  const respSet = lowerSet(ctx, respLines, "route.line_sequence");
  const gtSet = lowerSet(ctx, dget(gtRoute, "line_sequence", []), "ground_truth.route.line_sequence");
  if (respSet.size > 0 && sameSet(respSet, gtSet)) score += 5;
  else if (respSet.size > 0) notes.push(NOTES.linesWrong(respLines, dget(gtRoute, "line_sequence", [])));
  else notes.push(NOTES.linesMissing);

  return scored(score, "route_checked", { notes });
}

export function fareCorrect(ctx: CaseContext, max: number): Scored {
  if (ctx.noService || ctx.temporalNoService) {
    return pyTruthy(dget(ctx.ui, "fare_quote", null)) ? scored(0, "fare_during_suspension") : scored(max, "fare_rightly_omitted");
  }
  if (!ctx.rec.hasResponse) return scored(0, "no_response");

  const fare = ctx.uiDict("fare_quote");
  const gtFare = gtOrEmpty(ctx, "fare");
  const respTotal = dget(fare, "total", null);
  if (!pyTruthy(gtFare)) {
    const quoted = pyTruthy(fare) && respTotal !== null;
    if (quoted && admitsRouteAndFare(ctx)) return scored(15, "fare_alternative_quoted");
    if (quoted) return scored(0, "fare_not_expected", { outcome: dget(ctx.gt, "expected_outcome", null) });
    return scored(15, "fare_none_expected");
  }

  const tol = tolerance(ctx, "fare", tolerance(ctx, "fare_usd", 0.5));
  if (respTotal === null) return scored(0, "fare_total_missing");

  const symbol = ctx.system.framebook.currency_symbol;
  const total =
    typeof respTotal === "string"
      ? pyFloat(respTotal.replaceAll(symbol, "").replaceAll("$", "").replaceAll(",", "").trim())
      : pyFloat(respTotal);
  const gtTotal = pyFloat(dget(gtFare, "total", 0));
  if (total === undefined || gtTotal === undefined) return scored(0, "fare_total_unreadable", { total: respTotal });

  if (Math.abs(total - gtTotal) <= tol) {
    // 20 for an exact match, clamped to the component max by the framework.
    if (total === gtTotal) return scored(20, "fare_exact");
    return scored(15, "fare_within_tolerance", { symbol, total, expected: gtTotal });
  }
  return scored(0, "fare_wrong", { symbol, total, expected: gtTotal, tolerance: tol });
}
