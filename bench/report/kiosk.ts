// The report's "At the kiosk" section: what the kiosk would have done with the run's answers — the
// kiosk's verdict every bench run records per case (SessionRecord.kiosk.verdict): how many answers
// the passenger could have bought, what the purchase interlock refused and why, who answered, and
// how many answers were the safe fallback. Per category and overall.
import { categoryLabel } from "../../tools/data/schemas.ts";
import { pyRound } from "../../tools/py/index.ts";
import type { KioskVerdict } from "../../runtime/session/record.ts";
import type { StoredCase } from "../store/store.ts";

export const DECIDED_BY = ["rule", "model", "rule-fallback"] as const;

export interface KioskVerdictRow {
  /** Category, or "overall". */
  key: string;
  n: number;
  purchasable: number;
  purchasablePct: number;
  /** Answers offering a purchase that the interlock refused. */
  blocked: number;
  fallback: number;
  decidedBy: Record<KioskVerdict["decidedBy"], number>;
}

export interface KioskVerdictReport {
  /** Cases with a recorded verdict / without one (runs stored before the kiosk's verdict was recorded). */
  cases: number;
  missing: number;
  overall: KioskVerdictRow;
  categories: KioskVerdictRow[];
  /** Interlock problem codes ("fare_mismatch", …) and how many answers each blocked, most frequent first. */
  problems: Record<string, number>;
}

function row(key: string, verdicts: readonly KioskVerdict[]): KioskVerdictRow {
  const purchasable = verdicts.filter((v) => v.purchasable).length;
  return {
    key,
    n: verdicts.length,
    purchasable,
    purchasablePct: verdicts.length > 0 ? pyRound((100 * purchasable) / verdicts.length, 1) : 0,
    blocked: verdicts.filter((v) => v.interlockProblems.length > 0).length,
    fallback: verdicts.filter((v) => v.fallback).length,
    decidedBy: Object.fromEntries(DECIDED_BY.map((d) => [d, verdicts.filter((v) => v.decidedBy === d).length])) as Record<KioskVerdict["decidedBy"], number>,
  };
}

/** The section, or undefined when no stored case carries a verdict. */
export function kioskVerdictReport(cases: readonly StoredCase[], verdicts: ReadonlyMap<string, KioskVerdict>): KioskVerdictReport | undefined {
  const withVerdict = cases.filter((c) => verdicts.has(c.caseId));
  if (withVerdict.length === 0) return undefined;
  const of = (list: readonly StoredCase[]): KioskVerdict[] => list.map((c) => verdicts.get(c.caseId) as KioskVerdict);
  const problems = new Map<string, number>();
  for (const v of of(withVerdict)) {
    for (const code of new Set(v.interlockProblems.map((p) => p.split(":")[0]!.trim()))) problems.set(code, (problems.get(code) ?? 0) + 1);
  }
  return {
    cases: withVerdict.length,
    missing: cases.length - withVerdict.length,
    overall: row("overall", of(withVerdict)),
    categories: [...new Set(withVerdict.map((c) => c.category))].sort().map((cat) => row(cat, of(withVerdict.filter((c) => c.category === cat)))),
    problems: Object.fromEntries([...problems].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))),
  };
}

export const KIOSK_VERDICT_HEADER = ["", "n", "purchasable", "blocked", "fallback", "rule", "model", "rule-fallback"];

/** One line per row: n, purchasable (count and share), blocked by the interlock, fallback states, who answered. */
export function kioskVerdictRows(report: KioskVerdictReport): string[][] {
  const cells = (r: KioskVerdictRow): string[] => [
    categoryLabel(r.key),
    String(r.n),
    `${r.purchasable} (${r.purchasablePct.toFixed(1)} %)`,
    String(r.blocked),
    String(r.fallback),
    ...DECIDED_BY.map((d) => String(r.decidedBy[d])),
  ];
  return [...report.categories.map(cells), cells(report.overall)];
}

export function kioskVerdictNotes(report: KioskVerdictReport): string[] {
  const problems = Object.entries(report.problems).map(([code, n]) => `${code} ${n}`).join(", ");
  return [
    "purchasable: the buy button would be enabled (the answer offers a ticket and the kiosk's interlock confirmed route and fare); blocked: offered, refused by the interlock; fallback: the safe fallback state.",
    ...(problems ? [`interlock refusals: ${problems}`] : []),
    ...(report.missing > 0 ? [`${report.missing} case(s) stored without the kiosk's verdict (an older run)`] : []),
  ];
}
