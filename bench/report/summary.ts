// The headline figures of a stored run, straight from its key columns (no transcripts, no
// bootstrap): what `kiosk bench run --json` prints and `kiosk bench list` shows.
import type { SystemId } from "../../tools/data/schemas.ts";
import { summarizePartitions, type PartitionName, type RunSummary, type ScoreLike, type ScoresBySystem } from "../stats/index.ts";
import type { BenchStore, RunRow, StoredCase } from "../store/store.ts";

export interface PartitionFigures {
  n: number;
  tier1: number;
  composite: number;
}

/** The partitions of the published summary: headline figures need no more (summarizeRun adds the rest). */
export type HeadlineSummary = Pick<RunSummary, "partitions">;

export interface StoredRunSummary {
  run: RunRow;
  cases: StoredCase[];
  summary: HeadlineSummary;
}

/** A stored case's score columns as the statistics read them (no breakdown: enough for summaries). */
function scoreLike(c: StoredCase): ScoreLike {
  return {
    case_id: c.caseId,
    total: c.total ?? 0,
    max_possible: c.maxPossible ?? 0,
    pct: c.pct ?? 0,
    tier1_total: c.tier1Total ?? 0,
    tier1_max: c.tier1Max ?? 0,
    tier1_pct: c.tier1Pct ?? 0,
    breakdown: {},
  };
}

export function summarizeStoredRun(store: BenchStore, run: RunRow): StoredRunSummary {
  return summarizeCases(run, store.cases(run.id));
}

/** As summarizeStoredRun, for a run's stored cases at hand (a run that just finished has them in RunOutcome.storedCases). */
export function summarizeCases(run: RunRow, cases: StoredCase[]): StoredRunSummary {
  const scores: Partial<Record<SystemId, ScoreLike[]>> = {};
  const split = { spec_version: "stored", holdout_ids: [] as string[], train_ids: [] as string[] };
  for (const c of cases) {
    if (c.partition === "holdout") split.holdout_ids.push(c.caseId);
    if (c.partition === "train") split.train_ids.push(c.caseId);
    if (!c.scored) continue;
    (scores[c.system as SystemId] ??= []).push(scoreLike(c));
  }
  return { run, cases, summary: summarizePartitions(scores as ScoresBySystem, split) };
}

/** Per partition and per system: n, Tier 1 and composite as the paper computes them. */
export function headlineFigures(summary: HeadlineSummary): {
  overall: Record<PartitionName, PartitionFigures>;
  systems: Partial<Record<SystemId, Partial<Record<PartitionName, PartitionFigures>>>>;
} {
  const names: PartitionName[] = ["full", "holdout", "train"];
  const overall = {} as Record<PartitionName, PartitionFigures>;
  const systems: Partial<Record<SystemId, Partial<Record<PartitionName, PartitionFigures>>>> = {};
  for (const p of names) {
    const part = summary.partitions[p];
    overall[p] = { n: part.overall.n, tier1: part.overall.tier1_mean_of_system_means, composite: part.overall.composite_mean_of_system_means };
    for (const [system, s] of Object.entries(part.systems) as [SystemId, NonNullable<(typeof part.systems)[SystemId]>][]) {
      (systems[system] ??= {})[p] = { n: s.n, tier1: s.tier1_ref, composite: s.composite_ref };
    }
  }
  return { overall, systems };
}
