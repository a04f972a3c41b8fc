// The report's numbers are summarizeRun's, with seeded bootstrap CIs; a full rule-ref run stored in
// the database reproduces the published summary.
import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ORACLE_DIR, SHARED_DATA_DIR } from "../../test/paths.ts";
import { DataPack } from "../../tools/data/datapack.ts";
import { PACK_SYSTEM_IDS, type SystemId } from "../../tools/data/schemas.ts";
import { startRun } from "../run/execute.ts";
import { summarizeRun, type PartitionName, type RunSummary, type ScoreLike } from "../stats/index.ts";
import { BenchStore } from "../store/store.ts";
import { buildReport, PARTITION_NAMES, type CI } from "./build.ts";
import { renderReportHtml } from "./html.ts";
import { summarizeStoredRun } from "./summary.ts";
import { renderReportTable } from "./table.ts";

const pack = new DataPack(SHARED_DATA_DIR);
// A fixed set: categories C, I and K of every system (both partitions).
const selection = { categories: ["C", "I", "K"] };
const fixedClock = () => new Date("2026-01-02T03:04:05.000Z");

let store: BenchStore;
let ruleRefRun: number;
let ruleRun: number;

beforeAll(async () => {
  store = BenchStore.open(":memory:");
  ruleRefRun = (await startRun({ pack, store, policy: "rule-ref", selection })).runId;
  ruleRun = (await startRun({ pack, store, policy: "rule", selection })).runId;
  return () => store.close();
});

function scoresOf(runId: number): Partial<Record<SystemId, ScoreLike[]>> {
  const out: Partial<Record<SystemId, ScoreLike[]>> = {};
  for (const s of store.scores(runId)) (out[s.system as SystemId] ??= []).push(s.score);
  return out;
}

function expectCi(ci: CI, n: number): void {
  expect(ci.n).toBe(n);
  expect(ci.lo).toBeLessThanOrEqual(ci.estimate + 1e-9);
  expect(ci.hi).toBeGreaterThanOrEqual(ci.estimate - 1e-9);
}

describe("buildReport", () => {
  it("reports summarizeRun's figures per partition, system and category, each with a bootstrap CI", () => {
    const report = buildReport(store, ruleRefRun, { clock: fixedClock });
    const expected: RunSummary = summarizeRun(scoresOf(ruleRefRun), pack.split());
    expect(report.summary).toEqual(expected);
    expect(report.bootstrap).toMatchObject({ resamples: 5000, seed: 42, level: 95 });
    for (const p of PARTITION_NAMES) {
      const part = report.partitions[p];
      const exp = expected.partitions[p];
      const ext = expected.extended[p];
      expect(part.n).toBe(exp.overall.n);
      expect(part.overall.tier1).toBe(exp.overall.tier1_mean_of_system_means);
      expect(part.overall.composite).toBe(exp.overall.composite_mean_of_system_means);
      expect(part.overall.compositeUpper).toBe(ext.composite_upper_mean_of_system_means);
      expectCi(part.overall.tier1Ci, part.n);
      expectCi(part.overall.compositeCiPooled, part.n);
      // The stratified interval is centred on the headline's unrounded mean of system means.
      expect(part.overall.tier1Ci.estimate).toBeCloseTo(exp.overall.tier1_mean_of_system_means_unrounded, 9);
      expect(part.systems.map((s) => s.system)).toEqual(PACK_SYSTEM_IDS.filter((s) => exp.systems[s]));
      for (const s of part.systems) {
        const e = exp.systems[s.system]!;
        expect([s.n, s.tier1, s.composite]).toEqual([e.n, e.tier1_ref, e.composite_ref]);
        expectCi(s.tier1Ci, s.n);
        expectCi(s.compositeCi, s.n);
        expect(s.tier1Ci.estimate).toBeCloseTo(e.tier1_unrounded, 9);
      }
      expect(part.categories.map((c) => c.category)).toEqual(["C", "I", "K"]);
      for (const c of part.categories) {
        const e = ext.per_category_pooled[c.category]!;
        expect([c.n, c.tier1, c.composite, c.compositeUpper]).toEqual([e.n, e.t1, e.comp, e.comp_upper]);
        expectCi(c.tier1Ci, c.n);
        for (const [system, v] of Object.entries(c.bySystem)) expect(v?.tier1).toBe(exp.systems[system as SystemId]!.tier1_by_category_pooled[c.category]);
      }
    }
    // The CIs are seeded: the same report twice.
    expect(buildReport(store, ruleRefRun, { clock: fixedClock })).toEqual(report);
  });

  it("counts how the cases ended, including the reference baseline's rejected submissions", () => {
    const report = buildReport(store, ruleRefRun);
    const t = report.terminations.overall;
    expect(t.records).toBe(report.run.casesDone);
    expect(t.rejectedSubmissions).toBeGreaterThan(0);
    expect(t.casesWithRejectedSubmission).toBeLessThanOrEqual(t.records);
    expect(Object.values(t.byTermination).reduce((a, b) => a + b, 0)).toBe(t.records);
    expect(Object.values(report.terminations.systems).reduce((n, s) => n + (s?.records ?? 0), 0)).toBe(t.records);
    expect(report.notes).toEqual(["no judge: the six judged Tier 2 components score 0, so the composite is a lower bound (see 'upper')"]);
  });

  it("compares two runs over their common cases with paired bootstrap CIs of the difference", () => {
    const report = buildReport(store, ruleRun, { compareWith: ruleRefRun });
    const cmp = report.comparison!;
    expect(cmp.base.id).toBe(ruleRefRun);
    expect(cmp.commonCases).toBe(report.run.casesScored);
    const a = summarizeRun(scoresOf(ruleRun), pack.split());
    const b = summarizeRun(scoresOf(ruleRefRun), pack.split());
    for (const p of ["full", "holdout"] as PartitionName[]) {
      const d = cmp.partitions[p];
      const expectedDelta = a.partitions[p].overall.tier1_mean_of_system_means_unrounded - b.partitions[p].overall.tier1_mean_of_system_means_unrounded;
      expect(d.overall.delta.tier1).toBeCloseTo(expectedDelta, 2);
      expect(d.overall.tier1Ci.estimate).toBeCloseTo(expectedDelta, 9);
      expectCi(d.overall.tier1Ci, d.n);
      expect(d.systems).toHaveLength(6);
      for (const s of d.systems) expectCi(s.compositeCi, s.n);
    }
    // rule improves on the baseline: the held-out Tier 1 interval excludes zero.
    expect(cmp.partitions.holdout.overall.tier1Ci.lo).toBeGreaterThan(0);

    const self = buildReport(store, ruleRun, { compareWith: ruleRun }).comparison!;
    expect(self.partitions.full.overall.delta).toEqual({ tier1: 0, composite: 0 });
    expect([self.partitions.full.overall.tier1Ci.lo, self.partitions.full.overall.tier1Ci.hi]).toEqual([0, 0]);
  });

  it("renders aligned terminal tables", () => {
    const text = renderReportTable(buildReport(store, ruleRun, { compareWith: ruleRefRun }));
    expect(text).toMatch(new RegExp(`^Run ${ruleRun} · policy rule · finished · judge none$`, "m"));
    expect(text).toMatch(/^Tier 1 +held-out +train +full$/m);
    expect(text).toMatch(/^overall +\d+ +\d+\.\d\d +\[\d+\.\d, \d+\.\d\] /m);
    expect(text).toMatch(/^rejected submissions +0/m);
    expect(text).toContain(`Run ${ruleRun} vs run ${ruleRefRun} (rule-ref, rule-based): paired over`);
    // Categories by letter and the benchmark's name, in the score and the Δ tables.
    expect(text.match(/^C · Disruption +\d+ +\d+\.\d\d /gm)).toHaveLength(2);
    expect(text.match(/^K · Compound Stress +\d+ +[\d.]+ +[\d.]+ +[+−-]?[\d.]+ /gm)).toHaveLength(2);
    expect(text).not.toMatch(/^[A-K] +\d/m);
    // Every row of a block lines up: the "%" column ends at the same offset.
    const block = text.split("\n\n")[1]!.split("\n");
    const header = block[1]!;
    const end = header.indexOf("%") + 1;
    for (const line of block.slice(3)) expect(line.slice(end - 1, end)).toMatch(/\d/);
  });
});

describe("the HTML report", () => {
  it("is one self-contained page: no scripts, no external resources, escaped text", () => {
    const report = buildReport(store, ruleRun, { compareWith: ruleRefRun });
    report.notes.push("<script>alert(1)</script> & more");
    const html = renderReportHtml(report);
    expect(html.startsWith("<!doctype html>")).toBe(true);
    expect(html).not.toMatch(/<script|<link|<img|<iframe|@import|url\(/i);
    expect(html.replaceAll('xmlns="http://www.w3.org/2000/svg"', "")).not.toMatch(/https?:\/\//);
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt; &amp; more");
    // Per partition: a per-system and a per-category chart, and two delta charts.
    expect(html.match(/<svg /g)).toHaveLength(3 * 4);
    expect(html).toContain('id="tab-holdout" checked');
    for (const label of ["C · Disruption", "I · Temporal", "K · Compound Stress"]) {
      expect(html).toContain(`<th scope="row">${label}</th>`);
      expect(html).toContain(`class="label">${label}</text>`); // the run-vs-run chart's rows
    }
  });
});

describe("a full rule-ref run in the database", () => {
  it("reproduces the published summary (84.6 Tier 1 held-out, 84.55 on all 955)", async () => {
    const full = BenchStore.open(":memory:");
    try {
      const { runId, casesDone } = await startRun({ pack, store: full, policy: "rule-ref", selection: {} });
      expect(casesDone).toBe(955);
      const { summary } = summarizeStoredRun(full, full.requireRun(runId));
      const oracle = JSON.parse(readFileSync(path.join(ORACLE_DIR, "summary.json"), "utf8")) as RunSummary;
      for (const p of ["full", "holdout"] as const) {
        expect(summary.partitions[p].overall.tier1_mean_of_system_means).toBe(oracle.partitions[p].overall.tier1_mean_of_system_means);
        expect(summary.partitions[p].overall.composite_mean_of_system_means).toBe(oracle.partitions[p].overall.composite_mean_of_system_means);
        for (const s of PACK_SYSTEM_IDS) {
          const ours = summary.partitions[p].systems[s]!;
          const ref = oracle.partitions[p].systems[s]!;
          expect([ours.n, ours.tier1_ref, ours.composite_ref, ours.tier1_by_category_pooled]).toEqual([ref.n, ref.tier1_ref, ref.composite_ref, ref.tier1_by_category_pooled]);
        }
      }
      expect(summary.partitions.holdout.overall.tier1_mean_of_system_means).toBe(84.6);
      expect(summary.partitions.full.overall.tier1_mean_of_system_means).toBe(84.55);
    } finally {
      full.close();
    }
  });
});
