// Aggregate statistics over scored cases, computed exactly as the reference does:
//  - `computeMetrics` is the reference scorer's compute_metrics (the `metrics` block of a scored
//    file: sr/fer/thr/amr/svr, by_category = Σtotal/Σmax, system means, composites, timing);
//  - `summarizeRun` gives the published summary figures per partition (full / held-out / train):
//    per system the mean of per-case pct and tier1_pct (pyRound 1), the six-system mean of those
//    (pyRound 2), pooled per-category ratios per system, and per category across systems the mean
//    of per-case percentages (pyRound 2), plus the "upper" composite where every judged component
//    is counted at full marks.
// Sums run in input order with plain float addition, as Python's sum() does.
import { pyRound } from "../../tools/py/index.ts";
import { inReportOrder, type Split, type SystemId } from "../../tools/data/schemas.ts";
import { JUDGED_COMPONENTS } from "../scorer/components/table.ts";

/** The fields of a scored case the statistics read (a CaseScore or an entry of a scored file). */
export interface ScoreLike {
  case_id: string;
  total: number;
  max_possible: number;
  pct: number;
  tier1_total?: number;
  tier1_max?: number;
  tier1_pct?: number;
  breakdown: Record<string, { score: number; max: number }>;
}

/** Python sum(values) / len(values) (0 for no values). */
export function mean(values: readonly number[]): number {
  if (values.length === 0) return 0;
  let sum = 0;
  for (const v of values) sum += v;
  return sum / values.length;
}

/** The category letter of a case id (MARTA-A-001 → "A"). */
export function categoryOf(caseId: string): string {
  return caseId.split("-")[1] ?? "";
}

/** The system prefix of a case id (MARTA-A-001 → "MARTA"). */
export function systemPrefixOf(caseId: string): string {
  return caseId.split("-")[0] ?? "";
}

function sortedRecord<T>(entries: Map<string, T>): Record<string, T> {
  return Object.fromEntries([...entries.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = out.get(k);
    if (list) list.push(item);
    else out.set(k, [item]);
  }
  return out;
}

const tier1Pct = (s: ScoreLike): number => s.tier1_pct ?? s.pct;
const tier1Total = (s: ScoreLike): number => s.tier1_total ?? s.total;
const tier1Max = (s: ScoreLike): number => s.tier1_max ?? s.max_possible;

/** Σscored / Σmax × 100 per category (pyRound 1; 0 when the max is 0), categories sorted. */
export function pooledByCategory(scores: readonly ScoreLike[], tier: "all" | "tier1"): Record<string, number> {
  const sums = new Map<string, { scored: number; max: number }>();
  for (const s of scores) {
    const cat = categoryOf(s.case_id);
    const acc = sums.get(cat) ?? { scored: 0, max: 0 };
    acc.scored += tier === "all" ? s.total : tier1Total(s);
    acc.max += tier === "all" ? s.max_possible : tier1Max(s);
    sums.set(cat, acc);
  }
  const out = new Map<string, number>();
  for (const [cat, v] of sums) out.set(cat, v.max > 0 ? pyRound((v.scored / v.max) * 100, 1) : 0);
  return sortedRecord(out);
}

export interface TimingStats {
  mean?: number;
  median?: number;
  p95?: number;
}

/** mean / median / p95 of the positive values (the reference's _stats; {} when none). */
export function timingStats(values: readonly number[]): TimingStats {
  const sorted = values.filter((v) => v > 0).sort((a, b) => a - b);
  const n = sorted.length;
  if (n === 0) return {};
  return {
    mean: pyRound(mean(sorted), 1),
    median: pyRound(sorted[Math.floor(n / 2)] as number, 1),
    p95: pyRound(sorted[Math.min(Math.trunc(n * 0.95), n - 1)] as number, 1),
  };
}

export interface Metrics {
  sr_pct: number;
  fer_pct: number;
  thr_pct: number;
  amr_pct: number;
  svr_pct: number;
  metrollm_composite: number;
  by_category: Record<string, number>;
  by_system: Record<string, number>;
  tier1_composite: number;
  tier1_by_category: Record<string, number>;
  tier1_by_system: Record<string, number>;
  timing: { e2e_ms: TimingStats; ttft_ms: TimingStats };
}

/** Share (×100) of `items` satisfying `test`; 0 for none. */
function share<T>(items: readonly T[], test: (item: T) => boolean): number {
  if (items.length === 0) return 0;
  return (items.filter(test).length / items.length) * 100;
}

function below(s: ScoreLike, component: string): boolean {
  const entry = s.breakdown[component];
  return entry !== undefined && entry.score < entry.max;
}

function timingValues(records: readonly unknown[], key: "e2e_ms" | "ttft_ms"): number[] {
  const out: number[] = [];
  for (const r of records) {
    const v = typeof r === "object" && r !== null ? (r as Record<string, unknown>)[key] : undefined;
    if (typeof v === "number" && v > 0) out.push(v);
  }
  return out;
}

/**
 * The reference's compute_metrics over one scored file (`records` are the results, for timing).
 * Returns null for no scores (the reference returns {}).
 */
export function computeMetrics(scores: readonly ScoreLike[], records: readonly unknown[] = []): Metrics | null {
  if (scores.length === 0) return null;
  const fareCases = scores.filter((s) => s.breakdown["fare_correct"] !== undefined);
  const advisoryCases = scores.filter((s) => s.breakdown["advisory_issued"] !== undefined);
  const bySystem = groupBy(scores, (s) => systemPrefixOf(s.case_id));
  const systemMeans = new Map<string, number>();
  const tier1SystemMeans = new Map<string, number>();
  for (const [sys, list] of bySystem) {
    systemMeans.set(sys, pyRound(mean(list.map((s) => s.pct)), 1));
    tier1SystemMeans.set(sys, pyRound(mean(list.map(tier1Pct)), 1));
  }
  const bySystemSorted = sortedRecord(systemMeans);
  const tier1BySystemSorted = sortedRecord(tier1SystemMeans);
  return {
    sr_pct: pyRound(share(scores, (s) => s.total >= 0.7 * s.max_possible), 1),
    fer_pct: pyRound(share(fareCases, (s) => below(s, "fare_correct")), 1),
    thr_pct: pyRound(share(scores, (s) => below(s, "no_tool_hallucination")), 1),
    amr_pct: pyRound(share(advisoryCases, (s) => below(s, "advisory_issued")), 1),
    svr_pct: pyRound(
      share(scores, (s) => {
        const e = s.breakdown["renderable_state_validity"];
        return (e?.score ?? 0) === (e?.max ?? 5);
      }),
      1,
    ),
    metrollm_composite: pyRound(mean(Object.values(bySystemSorted)), 1),
    by_category: pooledByCategory(scores, "all"),
    by_system: bySystemSorted,
    tier1_composite: pyRound(mean(Object.values(tier1BySystemSorted)), 1),
    tier1_by_category: pooledByCategory(scores, "tier1"),
    tier1_by_system: tier1BySystemSorted,
    timing: { e2e_ms: timingStats(timingValues(records, "e2e_ms")), ttft_ms: timingStats(timingValues(records, "ttft_ms")) },
  };
}

/** The per-case composite if every judged component had scored its max, pyRound 1. */
export function compositeUpperPct(s: ScoreLike): number {
  let gap = 0;
  for (const [name, entry] of Object.entries(s.breakdown)) if (JUDGED_COMPONENTS.has(name)) gap += entry.max - entry.score;
  return s.max_possible > 0 ? pyRound(((s.total + gap) / s.max_possible) * 100, 1) : 0;
}

// ------------------------------------------------------------------------------------------------
// The published summary (ORACLE summary.json shape), per partition of the split.

export type PartitionName = "full" | "holdout" | "train";

export interface SystemSummary {
  n: number;
  tier1_ref: number;
  composite_ref: number;
  tier1_unrounded: number;
  composite_unrounded: number;
  tier1_by_category_pooled: Record<string, number>;
  composite_by_category_pooled: Record<string, number>;
}

export interface PartitionSummary {
  systems: Partial<Record<SystemId, SystemSummary>>;
  overall: {
    n: number;
    tier1_mean_of_system_means: number;
    composite_mean_of_system_means: number;
    tier1_mean_of_system_means_unrounded: number;
    composite_mean_of_system_means_unrounded: number;
  };
}

export interface CategorySummary {
  n: number;
  t1: number;
  comp: number;
  comp_upper: number;
}

export interface ExtendedSummary {
  per_category_pooled: Record<string, CategorySummary>;
  composite_upper_by_system: Partial<Record<SystemId, number>>;
  composite_upper_mean_of_system_means: number;
}

export interface RunSummary {
  partitions: Record<PartitionName, PartitionSummary>;
  extended: Record<PartitionName, ExtendedSummary>;
}

export type ScoresBySystem = Partial<Record<SystemId, readonly ScoreLike[]>>;

/** The case ids of a partition (undefined = every case). */
export function partitionIds(split: Split, partition: PartitionName): ReadonlySet<string> | undefined {
  if (partition === "full") return undefined;
  return new Set(partition === "holdout" ? split.holdout_ids : split.train_ids);
}

function systemsIn(scores: ScoresBySystem): SystemId[] {
  return inReportOrder(Object.keys(scores)).filter((s) => (scores[s]?.length ?? 0) > 0);
}

function filtered(scores: ScoresBySystem, ids: ReadonlySet<string> | undefined): Map<SystemId, ScoreLike[]> {
  const out = new Map<SystemId, ScoreLike[]>();
  for (const sys of systemsIn(scores)) {
    const list = (scores[sys] as readonly ScoreLike[]).filter((s) => ids === undefined || ids.has(s.case_id));
    if (list.length > 0) out.set(sys, list);
  }
  return out;
}

export function summarizePartition(scores: ScoresBySystem, ids?: ReadonlySet<string>): PartitionSummary {
  const systems: Partial<Record<SystemId, SystemSummary>> = {};
  const rounded = { t1: [] as number[], comp: [] as number[] };
  const unrounded = { t1: [] as number[], comp: [] as number[] };
  let n = 0;
  for (const [sys, list] of filtered(scores, ids)) {
    const t1 = mean(list.map(tier1Pct));
    const comp = mean(list.map((s) => s.pct));
    systems[sys] = {
      n: list.length,
      tier1_ref: pyRound(t1, 1),
      composite_ref: pyRound(comp, 1),
      tier1_unrounded: t1,
      composite_unrounded: comp,
      tier1_by_category_pooled: pooledByCategory(list, "tier1"),
      composite_by_category_pooled: pooledByCategory(list, "all"),
    };
    rounded.t1.push(pyRound(t1, 1));
    rounded.comp.push(pyRound(comp, 1));
    unrounded.t1.push(t1);
    unrounded.comp.push(comp);
    n += list.length;
  }
  return {
    systems,
    overall: {
      n,
      tier1_mean_of_system_means: pyRound(mean(rounded.t1), 2),
      composite_mean_of_system_means: pyRound(mean(rounded.comp), 2),
      tier1_mean_of_system_means_unrounded: mean(unrounded.t1),
      composite_mean_of_system_means_unrounded: mean(unrounded.comp),
    },
  };
}

export function summarizeExtended(scores: ScoresBySystem, ids?: ReadonlySet<string>): ExtendedSummary {
  const bySystem = filtered(scores, ids);
  const pooled = [...bySystem.values()].flat();
  const perCategory = new Map<string, CategorySummary>();
  for (const [cat, list] of groupBy(pooled, (s) => categoryOf(s.case_id))) {
    perCategory.set(cat, {
      n: list.length,
      t1: pyRound(mean(list.map(tier1Pct)), 2),
      comp: pyRound(mean(list.map((s) => s.pct)), 2),
      comp_upper: pyRound(mean(list.map(compositeUpperPct)), 2),
    });
  }
  const upperBySystem: Partial<Record<SystemId, number>> = {};
  for (const [sys, list] of bySystem) upperBySystem[sys] = pyRound(mean(list.map(compositeUpperPct)), 1);
  return {
    per_category_pooled: sortedRecord(perCategory),
    composite_upper_by_system: upperBySystem,
    composite_upper_mean_of_system_means: pyRound(mean(Object.values(upperBySystem) as number[]), 2),
  };
}

const PARTITION_NAMES: readonly PartitionName[] = ["full", "holdout", "train"];

/** The published summary's partitions alone: what headline figures need (no per-category upper bounds). */
export function summarizePartitions(scores: ScoresBySystem, split: Split): Pick<RunSummary, "partitions"> {
  return { partitions: Object.fromEntries(PARTITION_NAMES.map((p) => [p, summarizePartition(scores, partitionIds(split, p))])) as Record<PartitionName, PartitionSummary> };
}

/** The summary of a run (scores per system) over the full set and the split's two partitions. */
export function summarizeRun(scores: ScoresBySystem, split: Split): RunSummary {
  return {
    partitions: summarizePartitions(scores, split).partitions,
    extended: Object.fromEntries(PARTITION_NAMES.map((p) => [p, summarizeExtended(scores, partitionIds(split, p))])) as Record<PartitionName, ExtendedSummary>,
  };
}
