// Parity of the aggregates with the reference: the `metrics` block of every oracle scored file and
// every figure of the oracle's summary.json, computed from our own scores of the rule-agent records.
import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { DataPack } from "../../tools/data/datapack.ts";
import { PACK_SYSTEM_IDS, type SystemId } from "../../tools/data/schemas.ts";
import { ORACLE_DIR, SHARED_DATA_DIR } from "../../test/paths.ts";
import { scoreCaseNoJudge, type CaseScore } from "../scorer/index.ts";
import { bootstrapRun, computeMetrics, summarizePartitions, summarizeRun, terminationCounts, type RunSummary, type ScoresBySystem } from "./index.ts";

const pack = new DataPack(SHARED_DATA_DIR);
const readOracle = (...parts: string[]): unknown => JSON.parse(readFileSync(path.join(ORACLE_DIR, ...parts), "utf8"));

/** Every leaf of `expected` must be present in `actual` and equal (numbers within 1e-9). */
function leafDifferences(expected: unknown, actual: unknown, where = "$"): string[] {
  if (typeof expected === "number") {
    return typeof actual === "number" && Math.abs(actual - expected) <= 1e-9 ? [] : [`${where}: ${String(actual)} != ${expected}`];
  }
  if (expected !== null && typeof expected === "object") {
    if (actual === null || typeof actual !== "object") return [`${where}: missing (${String(actual)})`];
    const out: string[] = [];
    const a = actual as Record<string, unknown>;
    const e = expected as Record<string, unknown>;
    for (const key of Object.keys(e)) out.push(...leafDifferences(e[key], a[key], `${where}.${key}`));
    const extra = Object.keys(a).filter((k) => !(k in e));
    if (!Array.isArray(expected) && extra.length > 0 && !where.endsWith("partitions") && !where.endsWith("extended")) {
      out.push(`${where}: unexpected keys ${extra.join(", ")}`);
    }
    return out;
  }
  return Object.is(expected, actual) ? [] : [`${where}: ${String(actual)} != ${String(expected)}`];
}

describe("aggregate parity with the reference", () => {
  const scores: ScoresBySystem = {};
  const records: Partial<Record<SystemId, unknown[]>> = {};

  beforeAll(() => {
    for (const system of PACK_SYSTEM_IDS) {
      const results = (readOracle("rule-agent", `${system}.json`) as { results: { case_id: string }[] }).results;
      const cases = new Map(pack.cases(system).map((c) => [c.id, c]));
      const data = pack.system(system);
      records[system] = results;
      scores[system] = results.map((r): CaseScore => scoreCaseNoJudge(cases.get(r.case_id) as never, r, data));
    }
  });

  for (const system of PACK_SYSTEM_IDS) {
    it(`${system}: compute_metrics matches the scored file's metrics block (incl. timing)`, () => {
      const oracle = readOracle("scores", `${system}.json`) as { metrics: unknown };
      const ours = computeMetrics(scores[system] ?? [], records[system] ?? []);
      expect(leafDifferences(oracle.metrics, ours)).toEqual([]);
      expect(Object.keys(ours ?? {})).toEqual(Object.keys(oracle.metrics as object));
    });
  }

  it("reproduces every figure of summary.json (full and held-out partitions, extended per-category)", () => {
    const oracle = readOracle("summary.json") as RunSummary & { tag: string };
    const ours = summarizeRun(scores, pack.split());
    expect(leafDifferences(oracle.partitions, ours.partitions, "partitions")).toEqual([]);
    expect(leafDifferences(oracle.extended, ours.extended, "extended")).toEqual([]);
    // What headline figures use (`bench run --json`, `bench list`): the same partitions, without the extended part.
    expect(summarizePartitions(scores, pack.split())).toEqual({ partitions: ours.partitions });

    // The headline: 84.6 Tier 1 on the held-out partition, 84.55 on all 955 cases.
    const held = ours.partitions.holdout;
    expect(held.overall.tier1_mean_of_system_means).toBe(84.6);
    expect(ours.partitions.full.overall.tier1_mean_of_system_means).toBe(84.55);
    const perSystem = Object.fromEntries(PACK_SYSTEM_IDS.map((s) => [s, held.systems[s]?.tier1_ref]));
    expect(perSystem).toEqual({ marta: 80.4, doha: 85.6, bart: 88.7, taipei: 84.3, cta: 81.1, beijing: 87.5 });
    expect(held.overall.n + ours.partitions.train.overall.n).toBe(955);

    const rows = PACK_SYSTEM_IDS.map((s) => {
      const f = ours.partitions.full.systems[s];
      const h = held.systems[s];
      return `${s.padEnd(8)} ${String(f?.n).padStart(4)} ${String(f?.tier1_ref).padStart(6)} ${String(f?.composite_ref).padStart(6)}   ${String(h?.n).padStart(4)} ${String(h?.tier1_ref).padStart(6)} ${String(h?.composite_ref).padStart(6)}`;
    });
    const fo = ours.partitions.full.overall;
    const ho = held.overall;
    console.log(
      [
        "system      n(full) T1  comp    n(held) T1  comp",
        ...rows,
        `${"mean".padEnd(8)} ${String(fo.n).padStart(4)} ${String(fo.tier1_mean_of_system_means).padStart(6)} ${String(fo.composite_mean_of_system_means).padStart(6)}   ${String(ho.n).padStart(4)} ${String(ho.tier1_mean_of_system_means).padStart(6)} ${String(ho.composite_mean_of_system_means).padStart(6)}`,
      ].join("\n"),
    );
  });

  it("bootstraps the held-out Tier 1: the system-stratified estimate is the headline mean of system means", () => {
    const all = PACK_SYSTEM_IDS.flatMap((s) => scores[s] ?? []);
    const ids = new Set(pack.split().holdout_ids);
    const pooled = bootstrapRun(all, { ids });
    const bySystem = bootstrapRun(all, { ids, stratify: "system" });
    const headline = summarizeRun(scores, pack.split()).partitions.holdout.overall.tier1_mean_of_system_means_unrounded;
    expect(pooled.n).toBe(238);
    expect(bySystem.estimate).toBeCloseTo(headline, 9);
    for (const ci of [pooled, bySystem]) {
      expect(ci.lo).toBeLessThan(ci.estimate);
      expect(ci.hi).toBeGreaterThan(ci.estimate);
    }
    const fmt = (x: number): string => x.toFixed(2);
    console.log(
      `held-out Tier 1 (n=238, 5000 resamples, seed 42): pooled ${fmt(pooled.estimate)} [${fmt(pooled.lo)}, ${fmt(pooled.hi)}]; ` +
        `stratified by system ${fmt(bySystem.estimate)} [${fmt(bySystem.lo)}, ${fmt(bySystem.hi)}]`,
    );
  });

  it("counts terminations: no errors, 733 rejected submissions (route stops sent as names)", () => {
    const all = PACK_SYSTEM_IDS.flatMap((s) => records[s] ?? []);
    const counts = terminationCounts(all);
    expect(counts).toMatchObject({ records: 955, errors: 0, exhaustedRounds: 0, truncated: 0, noResponse: 0, rejectedSubmissions: 733 });
    expect(counts.casesWithRejectedSubmission).toBe(733);
    expect(counts.toolErrors).toBe(6);
  });
});
