// Repeated trials (`kiosk bench run --trials k`): how consistently a model policy gets a case right.
// pass^k, τ-bench's measure, is the chance that k independent trials of a case all pass; with n
// trials of which c passed, its unbiased estimate is C(c, k) / C(n, k), averaged over the cases
// (pass^1 is the plain pass rate; a policy that is right only by luck falls off as k grows).
// A case passes when every Tier 1 (deterministic) component scored full marks.
import { CATEGORIES } from "../../tools/data/schemas.ts";
import type { CaseScore } from "../scorer/index.ts";
import type { BenchStore, RunRow } from "../store/store.ts";

export const PASS_DEFINITION = "a case passes when every Tier 1 component scores full marks (Tier 1 = 100%)";

/** Did this scored case pass? (null score: not scored, so not passed.) */
export function casePassed(score: Pick<CaseScore, "tier1_pct"> | null | undefined): boolean {
  return score !== null && score !== undefined && score.tier1_pct >= 100;
}

function choose(n: number, k: number): number {
  if (k < 0 || k > n) return 0;
  let r = 1;
  for (let i = 1; i <= k; i++) r = (r * (n - k + i)) / i;
  return r;
}

/** pass^j for j = 1..n from the per-case pass counts (each case run n times). */
export function passHatK(passCounts: readonly number[], n: number): number[] {
  return Array.from({ length: n }, (_, i) => {
    const k = i + 1;
    if (passCounts.length === 0) return 0;
    const total = passCounts.reduce((sum, c) => sum + choose(c, k) / choose(n, k), 0);
    return (100 * total) / passCounts.length;
  });
}

export interface PassRow {
  /** Category, or "overall". */
  key: string;
  /** Cases scored in every trial. */
  n: number;
  /** pass^1 … pass^k in percent. */
  passAt: number[];
}

export interface TrialsReport {
  set: number;
  /** Trials asked for, and the runs stored for them (by trial number). */
  trials: number;
  runs: { id: number; trial: number; status: string }[];
  /** Trials whose cases count (stored runs); pass^k goes up to this. */
  counted: number;
  /** Cases scored in all counted trials, and those left out (not scored in some trial). */
  cases: number;
  leftOut: number;
  passDefinition: string;
  overall: PassRow;
  categories: PassRow[];
}

/** The trials section for a run that belongs to a trial set (undefined otherwise). */
export function trialsReport(store: BenchStore, run: Pick<RunRow, "trial">): TrialsReport | undefined {
  if (!run.trial) return undefined;
  const runs = store.trialRuns(run.trial.set);
  const perRun = runs.map((r) => new Map(store.casesWithScores(r.id).map((c) => [c.caseId, c])));
  const all = new Set(perRun.flatMap((m) => [...m.keys()]));
  const common = [...all].filter((id) => perRun.every((m) => m.get(id)?.score));
  const passCount = new Map(common.map((id) => [id, perRun.filter((m) => casePassed(m.get(id)!.score)).length]));
  const n = runs.length;
  const categoryOf = new Map(common.map((id) => [id, perRun[0]!.get(id)!.category]));
  const row = (key: string, ids: readonly string[]): PassRow => ({ key, n: ids.length, passAt: passHatK(ids.map((id) => passCount.get(id) ?? 0), n) });
  const order = CATEGORIES as readonly string[];
  const categories = [...new Set(categoryOf.values())].sort((a, b) => order.indexOf(a) - order.indexOf(b) || a.localeCompare(b));
  return {
    set: run.trial.set,
    trials: run.trial.of,
    runs: runs.map((r) => ({ id: r.id, trial: r.trial?.index ?? 0, status: r.status })),
    counted: n,
    cases: common.length,
    leftOut: all.size - common.length,
    passDefinition: PASS_DEFINITION,
    overall: row("overall", common),
    categories: categories.map((c) => row(c, common.filter((id) => categoryOf.get(id) === c))),
  };
}
