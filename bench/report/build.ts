// The report of a stored run (and optionally its comparison with another): the paper's figures
// per system, per category and per partition (held-out, train, full) from summarizeRun, seeded
// paired-bootstrap 95% CIs, and how the cases ended. Pure data (JSON-ready); the terminal table and
// the HTML page render it.
import type { SystemId } from "../../tools/data/schemas.ts";
import { pyRound } from "../../tools/py/index.ts";
import type { CaseScore } from "../scorer/index.ts";
import {
  bootstrapDifference,
  bootstrapRun,
  categoryOf,
  mean,
  summarizePartition,
  summarizeRun,
  terminationCounts,
  timingStats,
  type Interval,
  type PartitionName,
  type RunBootstrapOptions,
  type RunSummary,
  type ScoresBySystem,
  type TerminationCounts,
  type TimingStats,
} from "../stats/index.ts";
import type { CasePartition, Hardware, RunSelection, RunStatus } from "../store/schema.ts";
import type { BenchStore, RunRow, StoredCase } from "../store/store.ts";
import { caseDifferences, type CaseDifferences } from "./case-diff.ts";
import { trialsReport, type TrialsReport } from "./trials.ts";
import { kioskVerdictReport, type KioskVerdictReport } from "./kiosk.ts";

export const PARTITION_NAMES: readonly PartitionName[] = ["holdout", "train", "full"];
export const PARTITION_LABELS: Readonly<Record<PartitionName, string>> = { holdout: "held-out", train: "train", full: "full" };

/** The bootstrap every report uses: 5,000 resamples, seed 42, 95 %. */
export const REPORT_BOOTSTRAP = { resamples: 5000, seed: 42, level: 95 } as const;

export interface CI {
  lo: number;
  hi: number;
  /** The bootstrap's point estimate (unrounded mean). */
  estimate: number;
  n: number;
}

export interface MetricPair {
  tier1: number;
  composite: number;
}

export interface SystemRow extends MetricPair {
  system: SystemId;
  n: number;
  /** Composite if every judged component scored full marks (the no-judge upper bound). */
  compositeUpper: number;
  tier1Ci: CI;
  compositeCi: CI;
}

export interface CategoryRow extends MetricPair {
  category: string;
  n: number;
  compositeUpper: number;
  tier1Ci: CI;
  compositeCi: CI;
  /** Per system: Σscore / Σmax × 100 over the category's cases (the reference's by_category). */
  bySystem: Partial<Record<SystemId, MetricPair>>;
}

export interface PartitionReport {
  partition: PartitionName;
  n: number;
  overall: MetricPair & {
    /** Mean of the system means (the paper's headline), pyRound 2. */
    compositeUpper: number;
    /** Stratified by system: the estimate is the (unrounded) mean of the system means. */
    tier1Ci: CI;
    compositeCi: CI;
    /** The reference script's pooled resampling (estimate: mean over cases). */
    tier1CiPooled: CI;
    compositeCiPooled: CI;
  };
  systems: SystemRow[];
  categories: CategoryRow[];
}

export interface TerminationReport extends TerminationCounts {
  /** The session engine's termination reasons (submitted, round_budget_exhausted, …). */
  byTermination: Record<string, number>;
  /** Cases whose kiosk state is the safe fallback. */
  fallbacks: number;
  /** Cases stored without a score. */
  unscored: number;
}

export interface RunInfo {
  id: number;
  policy: string;
  model: string;
  judge: string;
  scored: boolean;
  status: RunStatus;
  startedAt: string;
  finishedAt: string | null;
  casesTotal: number;
  casesDone: number;
  casesScored: number;
  wallMs: number;
  sessions: number;
  concurrency: number;
  e2eMs: TimingStats;
  tokens: { input: number; output: number };
  selection: Omit<RunSelection, "selectedIds">;
  dataRoot: string;
  upstreamCommit: string | null;
  gitCommit: string | null;
  gitDirty: boolean | null;
  hardware: Hardware;
  policyOptions: Record<string, unknown>;
  policySettings: Record<string, unknown>;
}

export interface DeltaRow {
  key: string;
  n: number;
  run: MetricPair;
  base: MetricPair;
  /** run − base (unrounded means; rounded to 2 decimals). */
  delta: MetricPair;
  tier1Ci: CI;
  compositeCi: CI;
}

export interface ComparisonPartition {
  partition: PartitionName;
  n: number;
  overall: DeltaRow;
  systems: DeltaRow[];
  categories: DeltaRow[];
}

export interface Comparison {
  base: RunInfo;
  commonCases: number;
  onlyInRun: number;
  onlyInBase: number;
  partitions: Record<PartitionName, ComparisonPartition>;
  /** Case by case: which cases changed and which components moved. */
  cases: CaseDifferences;
}

export interface BenchReport {
  generatedAt: string;
  bootstrap: typeof REPORT_BOOTSTRAP & { method: string };
  run: RunInfo;
  partitions: Record<PartitionName, PartitionReport>;
  terminations: { overall: TerminationReport; systems: Partial<Record<SystemId, TerminationReport>> };
  /** summarizeRun over the run's scored cases (the published summary's shape). */
  summary: RunSummary;
  comparison?: Comparison;
  /** Present when the run's sessions carry a router decision (policy hybrid). */
  hybrid?: HybridReport;
  /** Present when the run is one of repeated trials (bench run --trials): pass^k per category. */
  trials?: TrialsReport;
  /** What the kiosk would have done with the answers (every run records the kiosk's verdict per case). */
  kiosk?: KioskVerdictReport;
  notes: string[];
}

// ------------------------------------------------------------------------------------------------
// Hybrid routing: where the router sent each case (policyInfo.router.path), and how each path did.

export const HYBRID_PATHS = ["rule", "model"] as const;
export type HybridPathName = (typeof HYBRID_PATHS)[number];
/** Who produced the final state: the rule policy, the model, or rule after the model failed. */
export const ANSWERED_BY = ["rule", "model", "rule-fallback"] as const;
export type AnsweredBy = (typeof ANSWERED_BY)[number];

export interface PathStats {
  n: number;
  /** Percentage of the row's routed cases (pyRound 1). */
  sharePct: number;
  scored: number;
  /** Mean per-case Tier 1 of the scored cases (pyRound 2); null when none is scored. */
  tier1: number | null;
  /** Per-case end-to-end latency (e2e_ms): median and p95 (the reference's index rule), mean. */
  e2eMs: TimingStats;
}

export interface HybridRow {
  /** Category, or "overall". */
  key: string;
  /** Cases with a router decision. */
  n: number;
  paths: Record<HybridPathName, PathStats>;
  /** Cases the router sent to the model that the rule policy finished (deadline, error, no state). */
  fallbacks: number;
}

export interface HybridPartition {
  partition: PartitionName;
  n: number;
  overall: HybridRow;
  categories: HybridRow[];
  /** By who produced the final state; "deterministic" = rule + rule-fallback. */
  answeredBy: Record<AnsweredBy | "deterministic", PathStats>;
}

export interface HybridReport {
  /** Cases with a router decision / without one (e.g. a session that failed before its first step). */
  routed: number;
  unrouted: number;
  /** Router reason codes (decision-table rows) and their counts, most frequent first. */
  reasons: Record<string, number>;
  /** Why model sessions were handed to the rule policy, most frequent first (up to 10). */
  fallbackReasons: Record<string, number>;
  partitions: Record<PartitionName, HybridPartition>;
}

interface RoutedCase {
  category: string;
  partition: CasePartition;
  path: HybridPathName;
  answeredBy: AnsweredBy;
  reason: string;
  fallbackReason: string | null;
  tier1: number | null;
  e2eMs: number;
}

function pathStats(cases: readonly RoutedCase[], total: number): PathStats {
  const scored = cases.filter((c) => c.tier1 !== null).map((c) => c.tier1 as number);
  return {
    n: cases.length,
    sharePct: total > 0 ? pyRound((100 * cases.length) / total, 1) : 0,
    scored: scored.length,
    tier1: scored.length > 0 ? pyRound(mean(scored), 2) : null,
    e2eMs: timingStats(cases.map((c) => c.e2eMs)),
  };
}

function hybridRow(key: string, cases: readonly RoutedCase[]): HybridRow {
  const paths = Object.fromEntries(HYBRID_PATHS.map((p) => [p, pathStats(cases.filter((c) => c.path === p), cases.length)])) as Record<HybridPathName, PathStats>;
  return { key, n: cases.length, paths, fallbacks: cases.filter((c) => c.path === "model" && c.answeredBy === "rule-fallback").length };
}

function countsByFrequency(values: readonly string[], limit = Infinity): Record<string, number> {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return Object.fromEntries([...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, limit));
}

/** Runs stored before the vocabulary was one ("model" everywhere) called the model's path "llm". */
function legacyModel(value: unknown): unknown {
  return value === "llm" ? "model" : value;
}

/** The hybrid section, or undefined when no stored session carries a router decision. */
export function hybridReport(cases: readonly (StoredCase & { score?: CaseScore | null })[], policyInfo: ReadonlyMap<string, Record<string, unknown>>): HybridReport | undefined {
  const routed: RoutedCase[] = [];
  for (const c of cases) {
    const info = policyInfo.get(c.caseId);
    const router = info?.["router"] as { path?: unknown; reason?: unknown } | undefined;
    const path = legacyModel(router?.path);
    if (!router || (path !== "rule" && path !== "model")) continue;
    const answered = legacyModel(info?.["answeredBy"]);
    routed.push({
      category: c.category,
      partition: c.partition,
      path,
      answeredBy: answered === "model" || answered === "rule-fallback" ? answered : "rule",
      reason: typeof router.reason === "string" ? router.reason : "unknown",
      fallbackReason: typeof info?.["fallbackReason"] === "string" ? (info["fallbackReason"] as string) : null,
      tier1: c.tier1Pct,
      e2eMs: c.e2eMs,
    });
  }
  if (routed.length === 0) return undefined;
  const partitions = Object.fromEntries(
    PARTITION_NAMES.map((p): [PartitionName, HybridPartition] => {
      const list = p === "full" ? routed : routed.filter((c) => c.partition === p);
      const categories = [...new Set(list.map((c) => c.category))].sort().map((cat) => hybridRow(cat, list.filter((c) => c.category === cat)));
      const answeredBy = Object.fromEntries(ANSWERED_BY.map((a) => [a, pathStats(list.filter((c) => c.answeredBy === a), list.length)])) as Record<AnsweredBy, PathStats>;
      return [p, { partition: p, n: list.length, overall: hybridRow("overall", list), categories, answeredBy: { ...answeredBy, deterministic: pathStats(list.filter((c) => c.answeredBy !== "model"), list.length) } }];
    }),
  ) as Record<PartitionName, HybridPartition>;
  return {
    routed: routed.length,
    unrouted: cases.length - routed.length,
    reasons: countsByFrequency(routed.map((c) => c.reason)),
    fallbackReasons: countsByFrequency(routed.flatMap((c) => (c.fallbackReason ? [c.fallbackReason.slice(0, 120)] : [])), 10),
    partitions,
  };
}

// ------------------------------------------------------------------------------------------------

interface LoadedRun {
  row: RunRow;
  cases: (StoredCase & { score: CaseScore | null })[];
  scores: ScoresBySystem;
  /** Held-out and train ids as stored with the cases. */
  split: { spec_version: string; holdout_ids: string[]; train_ids: string[] };
  partitionOf: Map<string, CasePartition>;
}

function loadRun(store: BenchStore, row: RunRow): LoadedRun {
  const cases = store.casesWithScores(row.id);
  const scores: Partial<Record<SystemId, CaseScore[]>> = {};
  const split = { spec_version: "stored", holdout_ids: [] as string[], train_ids: [] as string[] };
  const partitionOf = new Map<string, CasePartition>();
  for (const c of cases) {
    partitionOf.set(c.caseId, c.partition);
    if (c.partition === "holdout") split.holdout_ids.push(c.caseId);
    if (c.partition === "train") split.train_ids.push(c.caseId);
    if (!c.score) continue;
    const list = (scores[c.system as SystemId] ??= []);
    list.push(c.score);
  }
  return { row, cases, scores, split, partitionOf };
}

function ci(interval: Interval): CI {
  return { lo: interval.lo, hi: interval.hi, estimate: interval.estimate, n: interval.n };
}

function idsOf(run: LoadedRun, partition: PartitionName): ReadonlySet<string> | undefined {
  if (partition === "full") return undefined;
  return new Set(partition === "holdout" ? run.split.holdout_ids : run.split.train_ids);
}

function intersect(a: ReadonlySet<string> | undefined, b: ReadonlySet<string>): ReadonlySet<string> {
  if (!a) return b;
  return new Set([...b].filter((id) => a.has(id)));
}

function runInfo(store: BenchStore, run: LoadedRun): RunInfo {
  const { row, cases } = run;
  const sessions = store.sessions(row.id);
  const { selectedIds: _ids, ...selection } = row.selection;
  return {
    id: row.id,
    policy: row.policy,
    model: row.model,
    judge: row.judge,
    scored: row.score,
    status: row.status,
    startedAt: row.startedAt,
    finishedAt: row.finishedAt,
    casesTotal: row.casesTotal,
    casesDone: cases.length,
    casesScored: cases.filter((c) => c.scored).length,
    wallMs: row.wallMs,
    sessions: sessions.length,
    concurrency: Math.max(1, ...sessions.map((s) => s.concurrency)),
    e2eMs: timingStats(cases.map((c) => c.e2eMs)),
    tokens: { input: cases.reduce((n, c) => n + c.inputTokens, 0), output: cases.reduce((n, c) => n + c.outputTokens, 0) },
    selection,
    dataRoot: row.dataRoot,
    upstreamCommit: row.upstreamCommit,
    gitCommit: row.gitCommit,
    gitDirty: row.gitDirty,
    hardware: row.hardware,
    policyOptions: row.policyOptions,
    policySettings: row.policySettings,
  };
}

/** terminationCounts over the cases: the sum of each case's stored counts. */
function sumEndings(cases: readonly StoredCase[]): TerminationCounts {
  const total = terminationCounts([]);
  for (const c of cases) for (const key of Object.keys(total) as (keyof TerminationCounts)[]) total[key] += c.ending[key] ?? 0;
  return total;
}

function terminationReport(cases: readonly StoredCase[]): TerminationReport {
  const byTermination: Record<string, number> = {};
  for (const c of cases) byTermination[c.termination] = (byTermination[c.termination] ?? 0) + 1;
  return {
    ...sumEndings(cases),
    byTermination: Object.fromEntries(Object.entries(byTermination).sort(([, a], [, b]) => b - a)),
    fallbacks: cases.filter((c) => c.fallback).length,
    unscored: cases.filter((c) => !c.scored).length,
  };
}

function partitionReport(run: LoadedRun, summary: RunSummary, partition: PartitionName): PartitionReport {
  const p = summary.partitions[partition];
  const ext = summary.extended[partition];
  const ids = idsOf(run, partition);
  const all = Object.values(run.scores).flat() as CaseScore[];
  const boot = (scores: readonly CaseScore[], extra: RunBootstrapOptions): CI => ci(bootstrapRun(scores, { ...REPORT_BOOTSTRAP, ...extra }));
  const withIds = (set: ReadonlySet<string> | undefined): RunBootstrapOptions => (set ? { ids: set } : {});

  const systems: SystemRow[] = [];
  for (const [system, s] of Object.entries(p.systems) as [SystemId, NonNullable<(typeof p.systems)[SystemId]>][]) {
    const list = run.scores[system] as CaseScore[];
    systems.push({
      system,
      n: s.n,
      tier1: s.tier1_ref,
      composite: s.composite_ref,
      compositeUpper: ext.composite_upper_by_system[system] ?? 0,
      tier1Ci: boot(list, { metric: "tier1", ...withIds(ids) }),
      compositeCi: boot(list, { metric: "composite", ...withIds(ids) }),
    });
  }

  const categories: CategoryRow[] = [];
  for (const [category, c] of Object.entries(ext.per_category_pooled)) {
    const catIds = new Set(all.filter((s) => categoryOf(s.case_id) === category).map((s) => s.case_id));
    const scope = intersect(ids, catIds);
    const bySystem: Partial<Record<SystemId, MetricPair>> = {};
    for (const [system, s] of Object.entries(p.systems) as [SystemId, NonNullable<(typeof p.systems)[SystemId]>][]) {
      const t1 = s.tier1_by_category_pooled[category];
      const comp = s.composite_by_category_pooled[category];
      if (t1 !== undefined && comp !== undefined) bySystem[system] = { tier1: t1, composite: comp };
    }
    categories.push({
      category,
      n: c.n,
      tier1: c.t1,
      composite: c.comp,
      compositeUpper: c.comp_upper,
      tier1Ci: boot(all, { metric: "tier1", ids: scope }),
      compositeCi: boot(all, { metric: "composite", ids: scope }),
      bySystem,
    });
  }

  return {
    partition,
    n: p.overall.n,
    overall: {
      tier1: p.overall.tier1_mean_of_system_means,
      composite: p.overall.composite_mean_of_system_means,
      compositeUpper: ext.composite_upper_mean_of_system_means,
      tier1Ci: boot(all, { metric: "tier1", stratify: "system", ...withIds(ids) }),
      compositeCi: boot(all, { metric: "composite", stratify: "system", ...withIds(ids) }),
      tier1CiPooled: boot(all, { metric: "tier1", ...withIds(ids) }),
      compositeCiPooled: boot(all, { metric: "composite", ...withIds(ids) }),
    },
    systems,
    categories,
  };
}

// ------------------------------------------------------------------------------------------------
// Comparison of two runs over the cases both scored.

function restrict(scores: ScoresBySystem, ids: ReadonlySet<string>): ScoresBySystem {
  const out: ScoresBySystem = {};
  for (const [system, list] of Object.entries(scores) as [SystemId, readonly CaseScore[]][]) {
    const kept = list.filter((s) => ids.has(s.case_id));
    if (kept.length > 0) out[system] = kept;
  }
  return out;
}

const round2 = (x: number): number => pyRound(x, 2);

function comparisonPartition(a: LoadedRun, b: LoadedRun, common: ReadonlySet<string>, partition: PartitionName): ComparisonPartition {
  const ids = intersect(idsOf(a, partition), common);
  const sa = restrict(a.scores, ids);
  const sb = restrict(b.scores, ids);
  const allA = Object.values(sa).flat() as CaseScore[];
  const allB = Object.values(sb).flat() as CaseScore[];
  const diff = (metric: "tier1" | "composite", scope: ReadonlySet<string>, stratify: "none" | "system"): CI =>
    ci(bootstrapDifference(allA, allB, { ...REPORT_BOOTSTRAP, metric, ids: scope, stratify }));
  const pair = (t1: number, comp: number): MetricPair => ({ tier1: t1, composite: comp });
  const row = (key: string, scope: ReadonlySet<string>, stratify: "none" | "system", ma: MetricPair, mb: MetricPair, n: number): DeltaRow => ({
    key,
    n,
    run: pair(round2(ma.tier1), round2(ma.composite)),
    base: pair(round2(mb.tier1), round2(mb.composite)),
    delta: pair(round2(ma.tier1 - mb.tier1), round2(ma.composite - mb.composite)),
    tier1Ci: diff("tier1", scope, stratify),
    compositeCi: diff("composite", scope, stratify),
  });
  const t1 = (s: CaseScore): number => s.tier1_pct;
  const meanOf = (list: readonly CaseScore[]): MetricPair => pair(mean(list.map(t1)), mean(list.map((s) => s.pct)));

  const summaryA = summarizePartition(sa);
  const summaryB = summarizePartition(sb);
  const overall = row(
    "overall",
    ids,
    "system",
    pair(summaryA.overall.tier1_mean_of_system_means_unrounded, summaryA.overall.composite_mean_of_system_means_unrounded),
    pair(summaryB.overall.tier1_mean_of_system_means_unrounded, summaryB.overall.composite_mean_of_system_means_unrounded),
    summaryA.overall.n,
  );
  const systems: DeltaRow[] = [];
  for (const [system, list] of Object.entries(sa) as [SystemId, CaseScore[]][]) {
    const other = (sb[system] ?? []) as CaseScore[];
    systems.push(row(system, new Set(list.map((s) => s.case_id)), "none", meanOf(list), meanOf(other), list.length));
  }
  const categories: DeltaRow[] = [];
  const cats = [...new Set(allA.map((s) => categoryOf(s.case_id)))].sort();
  for (const category of cats) {
    const la = allA.filter((s) => categoryOf(s.case_id) === category);
    const lb = allB.filter((s) => categoryOf(s.case_id) === category);
    categories.push(row(category, new Set(la.map((s) => s.case_id)), "none", meanOf(la), meanOf(lb), la.length));
  }
  return { partition, n: allA.length, overall, systems, categories };
}

function scoredIds(run: LoadedRun): Set<string> {
  return new Set((Object.values(run.scores).flat() as CaseScore[]).map((s) => s.case_id));
}

// ------------------------------------------------------------------------------------------------

export interface BuildReportOptions {
  compareWith?: number;
  clock?: () => Date;
}

/** The report of run `runId` (default: the latest), optionally compared with another run. */
export function buildReport(store: BenchStore, runId: number | undefined, options: BuildReportOptions = {}): BenchReport {
  const run = loadRun(store, store.requireRun(runId));
  const summary = summarizeRun(run.scores, run.split);
  const notes: string[] = [];
  const info = runInfo(store, run);
  if (run.row.status !== "finished") notes.push(`run ${run.row.id} is ${run.row.status}: ${info.casesDone} of ${info.casesTotal} cases stored${run.row.status === "interrupted" ? ` (resume with 'kiosk bench run --resume ${run.row.id}')` : ""}`);
  const unscored = run.cases.filter((c) => !c.scored);
  if (unscored.length > 0) {
    const reasons = new Map<string, number>();
    for (const c of unscored) {
      const why = (c.scoreNote ?? "not scored").replace(/^not scored:?\s*/, "") || "not scored";
      reasons.set(why, (reasons.get(why) ?? 0) + 1);
    }
    for (const [why, n] of reasons) notes.push(`${n} case${n === 1 ? "" : "s"} not scored: ${why}`);
  }
  if (run.row.judge === "none" && info.casesScored > 0) notes.push("no judge: the six judged Tier 2 components score 0, so the composite is a lower bound (see 'upper')");

  const systems: Partial<Record<SystemId, TerminationReport>> = {};
  for (const system of run.row.selection.selectedSystems) {
    const list = run.cases.filter((c) => c.system === system);
    if (list.length > 0) systems[system] = terminationReport(list);
  }

  const report: BenchReport = {
    generatedAt: (options.clock ?? (() => new Date()))().toISOString(),
    bootstrap: {
      ...REPORT_BOOTSTRAP,
      method:
        "percentile bootstrap over cases (nearest-rank percentiles), seeded; systems and categories resample their cases, the overall figure resamples within each system (its estimate is the mean of the system means; the reference script's pooled interval is given as *CiPooled); run comparisons resample the paired per-case differences over the cases both runs scored",
    },
    run: info,
    partitions: Object.fromEntries(PARTITION_NAMES.map((p) => [p, partitionReport(run, summary, p)])) as Record<PartitionName, PartitionReport>,
    terminations: { overall: terminationReport(run.cases), systems },
    summary,
    notes,
  };
  const hybrid = hybridReport(run.cases, store.casePolicyInfo(run.row.id));
  if (hybrid) report.hybrid = hybrid;
  const trials = trialsReport(store, run.row);
  if (trials) report.trials = trials;
  const kiosk = kioskVerdictReport(run.cases, store.caseVerdicts(run.row.id));
  if (kiosk) report.kiosk = kiosk;

  if (options.compareWith !== undefined) {
    const base = loadRun(store, store.requireRun(options.compareWith));
    const idsA = scoredIds(run);
    const idsB = scoredIds(base);
    const common = new Set([...idsA].filter((id) => idsB.has(id)));
    if (common.size === 0) notes.push(`runs ${run.row.id} and ${base.row.id} have no scored case in common: nothing to compare`);
    report.comparison = {
      base: runInfo(store, base),
      commonCases: common.size,
      onlyInRun: idsA.size - common.size,
      onlyInBase: idsB.size - common.size,
      partitions: Object.fromEntries(PARTITION_NAMES.map((p) => [p, comparisonPartition(run, base, common, p)])) as Record<PartitionName, ComparisonPartition>,
      cases: caseDifferences(run.cases, base.cases, common),
    };
  }
  return report;
}
