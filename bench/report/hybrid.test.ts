// The report's hybrid section on a synthetic run: the kiosk's answer pipeline (kioskHybridHandle,
// what `--policy hybrid` runs) with the rule policy standing in for the model, except that the
// "model" answers with text instead of a state on every other case it is given (so the rule
// policy's answer stands for those, as fallbacks). Shares, Tier 1 per path and latency per path are checked against the stored cases.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SHARED_DATA_DIR } from "../../test/paths.ts";
import { DataPack } from "../../tools/data/datapack.ts";
import { decideRoute } from "../../runtime/policies/hybrid.ts";
import { rulePolicy } from "../../runtime/policies/rule/index.ts";
import { caseTurns } from "../../runtime/session/case.ts";
import type { Policy } from "../../runtime/session/policy.ts";
import { kioskHybridHandle } from "../model-policies.ts";
import { registerPolicyFactory } from "../policies.ts";
import { startRun } from "../run/execute.ts";
import { timingStats } from "../stats/index.ts";
import { BenchStore } from "../store/store.ts";
import { buildReport, HYBRID_PATHS } from "./build.ts";
import { renderReportHtml } from "./html.ts";
import { renderReportTable } from "./table.ts";

const pack = new DataPack(SHARED_DATA_DIR);
const selection = { systems: ["marta" as const, "doha" as const], categories: ["A", "C", "F", "H"] };

let store: BenchStore;
let hybridRun: number;
let ruleRun: number;
const failed = new Set<string>();

/** A stand-in model: the rule policy, ending without a state on every second session it is given. */
function flakyModel(): Policy {
  let sessions = 0;
  return {
    id: "fake-llm",
    start: async (setup) => {
      if (sessions++ % 2 === 1) {
        failed.add(setup.sessionId);
        return { next: async () => ({ type: "message" as const, content: "I am not sure." }) };
      }
      return rulePolicy.start(setup);
    },
  };
}

beforeAll(async () => {
  store = BenchStore.open(":memory:");
  const restore = registerPolicyFactory({
    name: "hybrid",
    description: "test: hybrid over the rule policy and a flaky stand-in model",
    deterministic: false,
    accepts: [],
    create: () => ({ ...kioskHybridHandle(flakyModel()), model: "fake-llm" }),
  });
  try {
    hybridRun = (await startRun({ pack, store, policy: "hybrid", selection })).runId;
  } finally {
    restore();
  }
  ruleRun = (await startRun({ pack, store, policy: "rule", selection })).runId;
});

afterAll(() => store.close());

describe("hybrid routing in the bench report", () => {
  it("splits every category by router path with shares, Tier 1 and latency per path", () => {
    const report = buildReport(store, hybridRun);
    const hybrid = report.hybrid;
    expect(hybrid).toBeDefined();
    if (!hybrid) return;
    const cases = store.casesWithScores(hybridRun);
    expect(hybrid.routed).toBe(cases.length);
    expect(hybrid.unrouted).toBe(0);

    // The router's decision over all turns (what it settles on), computed independently.
    const pathOf = new Map(
      cases.map((c) => {
        const kase = pack.caseById(c.caseId)!;
        return [c.caseId, decideRoute(pack.system(kase.system), kase.system_context, caseTurns(kase)).path];
      }),
    );
    const full = hybrid.partitions.full;
    expect(full.n).toBe(cases.length);
    expect(full.categories.map((r) => r.key)).toEqual(["A", "C", "F", "H"]);
    for (const row of [...full.categories, full.overall]) {
      const inRow = cases.filter((c) => row.key === "overall" || c.category === row.key);
      expect(row.n).toBe(inRow.length);
      expect(HYBRID_PATHS.reduce((sum, p) => sum + row.paths[p].n, 0)).toBe(row.n);
      for (const p of HYBRID_PATHS) {
        const onPath = inRow.filter((c) => pathOf.get(c.caseId) === p);
        const stats = row.paths[p];
        expect(stats.n).toBe(onPath.length);
        expect(stats.sharePct).toBeCloseTo((100 * onPath.length) / inRow.length, 1);
        const t1 = onPath.map((c) => c.tier1Pct as number);
        if (t1.length > 0) expect(stats.tier1).toBeCloseTo(t1.reduce((a, b) => a + b, 0) / t1.length, 2);
        else expect(stats.tier1).toBeNull();
        expect(stats.e2eMs).toEqual(timingStats(onPath.map((c) => c.e2eMs)));
      }
      expect(row.fallbacks).toBe(inRow.filter((c) => failed.has(c.caseId)).length);
    }
    // Both paths occur, and half the model's sessions fell back.
    expect(full.overall.paths.rule.n).toBeGreaterThan(0);
    expect(full.overall.paths.model.n).toBeGreaterThan(0);
    expect(full.answeredBy["rule-fallback"].n).toBe(failed.size);
    expect(full.answeredBy.deterministic.n).toBe(full.overall.paths.rule.n + failed.size);
    expect(full.answeredBy.model.n + full.answeredBy.deterministic.n).toBe(full.n);
    expect(Object.keys(hybrid.fallbackReasons)).toEqual(["text_reply"]);
    expect(Object.values(hybrid.reasons).reduce((a, b) => a + b, 0)).toBe(cases.length);
    // Held-out is the subset of the held-out cases.
    const holdout = pack.holdoutIds();
    expect(hybrid.partitions.holdout.n).toBe(cases.filter((c) => holdout.has(c.caseId)).length);

    // JSON carries the section as built.
    expect(JSON.parse(JSON.stringify(report)).hybrid).toEqual(JSON.parse(JSON.stringify(hybrid)));
  });

  it("shows the kiosk's verdict per category: purchasable, blocked by the interlock, fallback, who answered", () => {
    for (const runId of [hybridRun, ruleRun]) {
      const report = buildReport(store, runId);
      const kiosk = report.kiosk!;
      const cases = store.casesWithRecords(runId);
      const verdicts = cases.map((c) => c.record.kiosk.verdict!);
      expect(kiosk.cases).toBe(cases.length);
      expect(kiosk.missing).toBe(0);
      expect(kiosk.overall.purchasable).toBe(verdicts.filter((v) => v.purchasable).length);
      expect(kiosk.overall.purchasable).toBeGreaterThan(0);
      expect(kiosk.overall.blocked).toBe(verdicts.filter((v) => v.interlockProblems.length > 0).length);
      expect(kiosk.categories.map((r) => r.key)).toEqual(["A", "C", "F", "H"]);
      expect(kiosk.categories.reduce((n, r) => n + r.n, 0)).toBe(cases.length);
      if (runId === ruleRun) expect(kiosk.overall.decidedBy).toEqual({ rule: cases.length, model: 0, "rule-fallback": 0 });
      else expect(kiosk.overall.decidedBy["rule-fallback"]).toBe(failed.size);
      expect(renderReportTable(report)).toMatch(/^At the kiosk +answered by$/m);
      expect(renderReportHtml(report)).toContain('<h2 id="kiosk">At the kiosk</h2>');
      expect(renderReportTable(report)).toMatch(/^F · Policy +\d+ +\d+ \(/m);
    }
  });

  it("renders the section in the terminal and the HTML page; runs without routing have none", () => {
    const report = buildReport(store, hybridRun);
    const text = renderReportTable(report);
    expect(text).toMatch(/Hybrid routing · held-out +→ rule +→ model/);
    expect(text).toMatch(/Hybrid routing · full/);
    expect(text).toMatch(/^ +n +share +Tier 1 +p50 +p95 +share +Tier 1 +p50 +p95 +fell back$/m);
    expect(text).toMatch(/^overall +\d+ +[\d.]+ % /m);
    expect(text).toMatch(/^H · Adversarial +\d+ +[\d.]+ % /m);
    expect(text).toMatch(/full: \d+ of \d+ cases \([\d.]+ %\) answered deterministically \(rule path \d+, model fallback \d+\), Tier 1 [\d.]+/);
    expect(text).toContain("fallback ×");
    const html = renderReportHtml(report);
    expect(html).toContain('<h2 id="hybrid">Hybrid routing</h2>');
    expect(html).toMatch(/<table class="data wide hybrid">/);
    expect(html).not.toMatch(/ style="/);

    const plain = buildReport(store, ruleRun);
    expect(plain.hybrid).toBeUndefined();
    expect(renderReportTable(plain)).not.toContain("Hybrid routing");
    expect(renderReportHtml(plain)).not.toContain('id="hybrid"');
  });
});
