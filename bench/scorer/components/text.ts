// Text checks: framebook_conformance and accessibility_accuracy (Tier 2, programmatic; §9.4) and
// cultural_accuracy (Tier 1 keyword check; §9.3).
import { bannersOf, type CaseContext, type Scored } from "../context.ts";
import { dget, pyStr } from "../pyvalues.ts";
import { listAt } from "./shared.ts";
import { NOTES, scored } from "../reasons.ts";

const FOREIGN_CARD_TERMS = ["metro card", "oyster", "octopus", "suica"];

/**
 * Searches the ASCII-escaped JSON dump of the response, so a non-ASCII currency symbol (Beijing's
 * "¥") never matches and such a system tops out at 3 of 5: the reference behaves so.
 */
export function framebookConformance(ctx: CaseContext): Scored {
  if (!ctx.rec.hasResponse) return scored(0, "no_response");
  const fb = ctx.system.framebook;
  const notes: string[] = [];
  let score = 0;
  const symbol = fb.currency_symbol;
  if (ctx.dump.includes(symbol)) score += 2;
  else notes.push(NOTES.currencySymbolMissing(symbol));
  for (const term of FOREIGN_CARD_TERMS) {
    if (ctx.dumpLower.includes(term)) {
      notes.push(NOTES.foreignCard(term));
      score -= 1;
    }
  }
  const smartcard = fb.terminology.smartcard;
  if (smartcard && ctx.dumpLower.includes(smartcard.toLowerCase())) score += 3;
  else notes.push(NOTES.smartcardMissing(smartcard));
  return scored(Math.max(0, Math.min(5, score)), "framebook_checked", { notes });
}

const FALSE_ALARMS = [
  "elevator out",
  "not accessible",
  "no elevator",
  "elevator closed",
  "step-free unavailable",
  "accessibility issue",
  "accessibility problem",
];

/** Banner titles and bodies, the message and the reasoning, each after a space, lower-cased. */
function accessibilityText(ctx: CaseContext): string {
  const response = ctx.response;
  if (!ctx.rec.hasResponse || response === null) return "";
  let text = "";
  for (const b of bannersOf(ctx.ui, (m) => ctx.flag(m))) text += ` ${pyStr(dget(b, "title", ""))} ${pyStr(dget(b, "body", ""))}`;
  text += ` ${pyStr(dget(ctx.ui, "assistant_message", ""))}`;
  text += ` ${pyStr(dget(response, "reasoning", ""))}`;
  return text.toLowerCase();
}

export function accessibilityAccuracy(ctx: CaseContext): Scored {
  let score = 0;
  const notes: string[] = [];
  const checked = ctx.rec.calls.some((c) => c.name === "station_info" && c.args["query_type"] === "accessibility");
  if (checked) score += 5;
  else notes.push(NOTES.accessibilityNotChecked);

  const issues = listAt(ctx, ctx.gtDict("accessibility"), "issues_on_route", "ground_truth.accessibility");
  const text = accessibilityText(ctx);
  if (issues.length === 0) {
    if (FALSE_ALARMS.some((phrase) => text.includes(phrase))) {
      notes.push(NOTES.accessibilityFalseAlarm);
    } else {
      score += 5;
    }
  } else {
    const stations: string[] = [];
    for (const issue of issues) {
      const name = typeof issue === "object" && issue !== null ? (issue as Record<string, unknown>)["station_name"] : undefined;
      if (name === undefined) ctx.flag("an accessibility issue has no station_name (skipped)");
      else stations.push(pyStr(name));
    }
    const matched = stations.filter((n) => text.includes(n.toLowerCase()));
    if (matched.length === stations.length) {
      score += 5;
      notes.push(NOTES.accessibilityAllNamed(matched));
    } else if (matched.length > 0) {
      score += 3;
      notes.push(NOTES.accessibilitySomeNamed(matched, stations.filter((n) => !matched.includes(n))));
    } else {
      notes.push(NOTES.accessibilityNoneNamed(stations));
    }
  }
  return scored(score, "accessibility_checked", { notes });
}

export function culturalAccuracy(ctx: CaseContext, max: number): Scored {
  const keywords = listAt(ctx, ctx.gtDict("cultural_response"), "must_mention", "ground_truth.cultural_response").map(pyStr);
  if (keywords.length === 0) return scored(max, "cultural_nothing_required");
  const text = ctx.judgeText.toLowerCase();
  if (text.trim() === "") return scored(0, "no_response");
  const found = keywords.filter((k) => text.includes(k.toLowerCase()));
  const missing = keywords.filter((k) => !text.includes(k.toLowerCase()));
  if (missing.length === 0) return scored(max, "cultural_all_present", { count: keywords.length });
  if (found.length === 0) return scored(0, "cultural_none_present", { missing });
  // Partial credit in proportion, unrounded.
  return scored((max * found.length) / keywords.length, "cultural_some_present", { found: found.length, required: keywords.length, missing });
}
