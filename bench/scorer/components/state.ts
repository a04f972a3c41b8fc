// The terminal state's shape and contents: renderable_state_validity, outcome_correct,
// purchase_gate_correct, fare_breakdown_correct, passenger_summary_correct (CONTRACT §9.3).
import { pyRound, pyTruthy } from "../../../tools/py/index.ts";
import type { CaseContext, Scored } from "../context.ts";
import { dget, hasOwn, isDict, pyEq, pyFloat, pyIn, pyNum, pyStr, type Dict } from "../pyvalues.ts";
import { listAt, tolerance } from "./shared.ts";
import { NOTES, scored } from "../reasons.ts";

export function renderableStateValidity(ctx: CaseContext): Scored {
  const response = ctx.response;
  if (response === null) {
    return ctx.rec.rawContent === "" ? scored(0, "state_empty") : scored(0, "state_not_json");
  }
  const hasOutcome = pyTruthy(dget(response, "outcome", null));
  const hasAction = pyTruthy(dget(response, "kiosk_action", null));
  const hasUi = hasOwn(response, "ui_updates");
  const hasMessage = pyTruthy(dget(ctx.ui, "assistant_message", null));
  const passed = [hasOutcome, hasAction, hasUi, hasMessage].filter(Boolean).length;

  if (passed === 4) {
    const outcome = dget(response, "outcome", "");
    if ((outcome === "route_and_fare_ready" || outcome === "advisory_only") && !pyTruthy(dget(ctx.ui, "route", null))) {
      return scored(3, "state_route_missing", { outcome: pyStr(outcome) });
    }
    if (outcome === "route_and_fare_ready" && !pyTruthy(dget(ctx.ui, "fare_quote", null))) {
      return scored(3, "state_fare_missing");
    }
    return scored(5, "state_renderable");
  }
  if (passed >= 2) {
    const missing = [!hasOutcome && "outcome", !hasAction && "kiosk_action", !hasMessage && "assistant_message"].filter((m) => m !== false);
    return scored(3, "state_incomplete", { missing });
  }
  return scored(1, "state_unstructured");
}

export function outcomeCorrect(ctx: CaseContext): Scored {
  if (!ctx.rec.hasResponse || ctx.response === null) return scored(0, "no_response");
  const outcome = dget(ctx.response, "outcome", "");
  const expected = dget(ctx.gt, "expected_outcome", "");
  const admissible = dget(ctx.gt, "admissible_outcomes", null);
  if (pyEq(outcome, expected)) return scored(5, "outcome_expected", { outcome });
  if (pyTruthy(admissible) && Array.isArray(admissible) && pyIn(outcome, admissible)) {
    return scored(5, "outcome_admissible", { outcome });
  }
  return scored(0, "outcome_wrong", { outcome, expected });
}

/** response.kiosk_action as a dict (`response.get("kiosk_action", {})`), flagged when malformed. */
export function kioskAction(ctx: CaseContext): Dict {
  if (ctx.response === null) return {};
  return ctx.dictField(ctx.response, "kiosk_action", "response");
}

export function purchaseGateCorrect(ctx: CaseContext): Scored {
  if (!ctx.rec.hasResponse) return scored(0, "no_response");
  const ka = kioskAction(ctx);
  const action = dget(ka, "action", "");
  const reasonCode = dget(ka, "reason_code", "");
  const expectedAction = dget(ctx.gt, "expected_kiosk_action", "");
  const expectedReason = dget(ctx.gt, "expected_reason_code", "");
  const admissible = dget(ctx.gt, "admissible_kiosk_actions", null);
  let score = 0;
  const notes: string[] = [];
  if (pyEq(action, expectedAction)) {
    score += 2.5;
    notes.push(NOTES.actionMatches);
  } else if (pyTruthy(admissible) && Array.isArray(admissible) && pyIn(action, admissible)) {
    score += 2.5;
    notes.push(NOTES.actionAdmissible);
  } else {
    notes.push(NOTES.actionWrong(action, expectedAction));
  }
  if (pyEq(reasonCode, expectedReason)) {
    score += 2.5;
    notes.push(NOTES.reasonCodeMatches);
  } else {
    notes.push(NOTES.reasonCodeWrong(reasonCode, expectedReason));
  }
  return scored(score, "gate_checked", { notes });
}

export function fareBreakdownCorrect(ctx: CaseContext): Scored {
  if (!ctx.rec.hasResponse) return scored(0, "no_response");
  const fareQuote = ctx.uiDict("fare_quote");
  const respItems = dget(fareQuote, "line_items", []);
  const expectedItems = listAt(ctx, ctx.gtDict("expected_fare_breakdown"), "line_items", "ground_truth.expected_fare_breakdown");
  if (expectedItems.length === 0) return scored(5, "breakdown_not_expected");
  if (!pyTruthy(respItems)) return scored(0, "breakdown_missing");
  if (!Array.isArray(respItems)) {
    ctx.flag("fare_quote.line_items is not a list");
    return scored(0, "breakdown_not_a_list");
  }

  const tol = tolerance(ctx, "fare", 0.5);
  const items = respItems.filter((item, i) => {
    if (isDict(item)) return true;
    ctx.flag(`fare_quote.line_items[${i}] is not an object (skipped)`);
    return false;
  });
  let matched = 0;
  for (const exp of expectedItems) {
    if (!isDict(exp)) continue;
    const expType = pyStr(dget(exp, "rider_type", "")).toLowerCase();
    const expFare = pyFloat(dget(exp, "unit_fare", 0)) ?? NaN;
    // Any response item may match each expected item; items are not consumed.
    const hit = items.some((resp) => {
      const type = dget(resp, "rider_type", "");
      const unit = pyFloat(dget(resp, "unit_fare", -999));
      if (typeof type !== "string") ctx.flag(`a line item's rider_type is not a string: ${pyStr(type)}`);
      if (unit === undefined) ctx.flag(`a line item's unit_fare is not a number: ${pyStr(dget(resp, "unit_fare", null))}`);
      return (
        typeof type === "string" &&
        type.toLowerCase() === expType &&
        pyEq(dget(resp, "count", null), dget(exp, "count", null)) &&
        unit !== undefined &&
        Math.abs(unit - expFare) <= tol
      );
    });
    if (hit) matched++;
  }
  const score = pyRound((5 * matched) / expectedItems.length, 1);
  if (matched === expectedItems.length) return scored(score, "breakdown_all_found", { count: matched });
  return scored(score, "breakdown_some_found", { found: matched, expected: expectedItems.length });
}

const PASSENGER_KEYS = ["adults", "children", "seniors", "disabled", "free_riders"] as const;

export function passengerSummaryCorrect(ctx: CaseContext): Scored {
  if (!ctx.rec.hasResponse) return scored(0, "no_response");
  const summaryValue = dget(ctx.uiDict("fare_quote"), "passenger_summary", null);
  if (!pyTruthy(summaryValue)) return scored(0, "passengers_missing");
  if (!isDict(summaryValue)) {
    ctx.flag("fare_quote.passenger_summary is not an object");
    return scored(0, "passengers_not_an_object");
  }

  // Expected: zeros, overlaid by each passenger_count_changed event (keys present only), then
  // replaced wholesale by the GT breakdown's passenger_summary when it has one.
  let expected: Dict = { adults: 0, children: 0, seniors: 0, disabled: 0, free_riders: 0 };
  for (const event of listAt(ctx, ctx.caseDict, "events", "case")) {
    if (!isDict(event) || event["type"] !== "passenger_count_changed") continue;
    for (const key of PASSENGER_KEYS) if (hasOwn(event, key)) expected[key] = event[key];
  }
  const gtSummary = dget(ctx.gtDict("expected_fare_breakdown"), "passenger_summary", null);
  if (pyTruthy(gtSummary) && isDict(gtSummary)) expected = gtSummary;

  let counted = 0;
  let correct = 0;
  for (const key of PASSENGER_KEYS) {
    const want = dget(expected, key, 0);
    const got = dget(summaryValue, key, 0);
    const wantN = pyNum(want);
    const gotN = pyNum(got);
    let isCounted: boolean;
    if (wantN !== undefined && wantN > 0) {
      isCounted = true;
    } else if (gotN !== undefined) {
      isCounted = gotN > 0;
    } else {
      // Not comparable with 0 (the reference raises): a null counts as 0, anything else as a claim.
      ctx.flag(`passenger_summary.${key} is not a number: ${pyStr(got)}`);
      isCounted = got !== null;
    }
    if (wantN === undefined) ctx.flag(`expected passenger count ${key} is not a number: ${pyStr(want)}`);
    if (!isCounted) continue;
    counted++;
    if (pyEq(got, want)) correct++;
  }
  if (counted === 0) return scored(5, "passengers_nothing_to_check");
  if (correct === counted) return scored(5, "passengers_all_agree", { count: correct });
  if (correct > 0) return scored(3, "passengers_some_agree", { agreeing: correct, counted });
  return scored(0, "passengers_none_agree", { expected });
}
