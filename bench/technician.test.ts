import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SHARED_DATA_DIR } from "../test/paths.ts";
import { DataPack } from "../tools/data/datapack.ts";
import { CATEGORIES } from "../tools/data/schemas.ts";
import { BENCH_REPORT_STYLE_HASH, BENCH_TRACE_STYLE_HASH, KIOSK_CSP_DIRECTIVES } from "../runtime/kiosk/csp.ts";
import { BenchJobSchema, BenchStatusSchema, TechnicianInfoSchema } from "../runtime/kiosk/bridge.ts";
import { OperatorError } from "../runtime/operator/console.ts";
import { pacedRulePolicy } from "../runtime/kiosk/testing.ts";
import { registerPolicyFactory } from "./policies.ts";
import { REPORT_CSS, reportStyleHash } from "./report/html.ts";
import { TRACE_CSS, traceStyleHash } from "./report/trace-html.ts";
import { PROBE_SET_IDS } from "./probe/set.ts";
import { BenchStore } from "./store/store.ts";
import { BenchTechnician, probeCaseIds } from "./technician.ts";

const pack = new DataPack(SHARED_DATA_DIR);
let store: BenchStore;
let running: boolean[];
let technician: BenchTechnician;

beforeEach(() => {
  store = BenchStore.open(":memory:");
  running = [];
  technician = new BenchTechnician({ pack, store, setBenchRunning: (r) => running.push(r), log: () => undefined });
});
afterEach(() => store.close());

/** The rule policy, each session held back `ms` (so a run is slow enough to watch). */

describe("technician bench", () => {
  it("the probe set is the latency probe's fixed set: every category, all held out", () => {
    const ids = probeCaseIds(pack);
    expect(ids).toEqual([...PROBE_SET_IDS]);
    const cases = ids.map((id) => pack.caseById(id)!);
    expect(new Set(cases.map((c) => c.category))).toEqual(new Set(CATEGORIES));
    const holdout = new Set(pack.split().holdout_ids);
    expect(ids.every((id) => holdout.has(id))).toBe(true);
  });

  it("offers rule and rule-ref always, llm and hybrid only with a model; counts the selections", () => {
    const info = TechnicianInfoSchema.parse(technician.info());
    expect(info.policies).toEqual([
      { name: "rule", available: true, unavailableReason: null },
      { name: "rule-ref", available: true, unavailableReason: null },
      { name: "llm", available: false, unavailableReason: "no_model" },
      { name: "hybrid", available: false, unavailableReason: "no_model" },
    ]);
    expect(info.counts.all).toBe(955);
    expect(info.counts.probe).toBe(PROBE_SET_IDS.length);
    expect(info.counts.holdout).toBe(pack.split().holdout_ids.length);
    expect(info.counts.categories.reduce((n, c) => n + c.cases, 0)).toBe(955);
    expect(info.model).toEqual({ configured: false, name: null });
    expect(() => technician.start({ policy: "llm", selection: { kind: "probe" }, operator: "t" })).toThrow(OperatorError);
  });

  it("runs one category with live per-category scores, stores it with the CLI's runs, refuses passengers meanwhile", async () => {
    const job = technician.start({ policy: "rule", selection: { kind: "category", category: "C" }, operator: "Tess" });
    expect(BenchJobSchema.parse(job)).toMatchObject({ state: "starting", policy: "rule", startedBy: "Tess", total: pack.allCases().filter((c) => c.category === "C").length });
    expect(running).toEqual([true]);
    expect(() => technician.start({ policy: "rule", selection: { kind: "probe" }, operator: "Tess" })).toThrow(expect.objectContaining({ code: "conflict" }));
    await technician.idle();
    expect(running).toEqual([true, false]);
    const status = BenchStatusSchema.parse(technician.status());
    expect(status.job).toMatchObject({ state: "finished", done: job.total, scored: job.total, error: null });
    expect(status.job!.categories).toEqual([{ category: "C", total: job.total, done: job.total, scored: job.total, tier1: expect.any(Number), composite: expect.any(Number) }]);
    expect(status.job!.tier1).toBeCloseTo(status.job!.categories[0]!.tier1!, 6);
    expect(status.runs[0]).toMatchObject({ runId: status.job!.runId, status: "finished", policy: "rule", casesDone: job.total, systems: pack.systemIds });
    expect(store.listRuns()).toHaveLength(1);
  });

  it("renders the stored run's report for a strict CSP (no scripts, no style attributes, its two style sheets by hash)", async () => {
    technician.start({ policy: "rule-ref", selection: { kind: "probe" }, operator: "Tess" });
    await technician.idle();
    const runId = technician.status().job!.runId!;
    const { html } = technician.report(runId);
    expect(html).toContain(`<style>${REPORT_CSS}</style>`);
    expect(html).not.toMatch(/<script|\son[a-z]+=|\sstyle=|javascript:|<link|<img|<iframe|url\(/i);
    expect(html).toContain(`<style>${TRACE_CSS}</style>`);
    expect(html.match(/<style>/g)).toHaveLength(2);
    // The trace viewer: every case of the run opens, with the failed-only filter.
    expect(html.match(/<details class="case /g)).toHaveLength(technician.status().runs.find((r) => r.runId === runId)!.casesDone);
    expect(html).toContain('<input class="tabs-input" type="checkbox" id="failed-only"');
    expect(html).toContain("<svg");
    // The kiosk's CSP (header and renderer meta tag) allows exactly this style sheet.
    expect(reportStyleHash()).toBe(BENCH_REPORT_STYLE_HASH);
    expect(traceStyleHash()).toBe(BENCH_TRACE_STYLE_HASH);
    expect(KIOSK_CSP_DIRECTIVES["style-src"]).toBe(`'self' ${reportStyleHash()} ${traceStyleHash()}`);
    expect(() => technician.report(999)).toThrow(expect.objectContaining({ code: "rejected" }));
  });

  it("exports the run's summary and the reference results of one system", async () => {
    technician.start({ policy: "rule", selection: { kind: "probe" }, operator: "Tess" });
    await technician.idle();
    const runId = technician.status().job!.runId!;
    const summary = technician.exportRun(runId, "summary");
    expect(summary.fileName).toBe(`bench-run-${runId}-summary.json`);
    const parsed = JSON.parse(summary.content) as { run_id: number; cases: { case_id: string }[]; overall: { full: { n: number } } };
    expect(parsed.run_id).toBe(runId);
    expect(parsed.cases.map((c) => c.case_id).sort()).toEqual(probeCaseIds(pack).sort());
    expect(parsed.overall.full.n).toBe(PROBE_SET_IDS.length);
    expect(() => technician.exportRun(runId, "reference")).toThrow(/covers 2 systems: choose one \(marta, doha\)/);
    const reference = technician.exportRun(runId, "reference", "marta");
    expect(reference.fileName).toBe(`bench-run-${runId}-marta.json`);
    expect(JSON.parse(reference.content)).toMatchObject({ system: "marta", model: "rule", cases_total: PROBE_SET_IDS.filter((id) => id.startsWith("MARTA-")).length, results: expect.any(Array) });
  });

  it("stops a run on request (interrupted, resumable from the CLI) and serves passengers again", async () => {
    const restore = registerPolicyFactory({ name: "rule", description: "paced", deterministic: true, accepts: [], create: () => ({ policy: pacedRulePolicy(20), model: "rule" }) });
    try {
      technician.start({ policy: "rule", selection: { kind: "category", category: "A" }, operator: "Tess" });
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(technician.status().job!.state).toBe("running");
      technician.stop();
      await technician.idle();
      const job = technician.status().job!;
      expect(job.state).toBe("interrupted");
      expect(job.done).toBeGreaterThan(0);
      expect(job.done).toBeLessThan(job.total);
      expect(store.getRun(job.runId!)?.status).toBe("interrupted");
      expect(running).toEqual([true, false]);
    } finally {
      restore();
    }
  });

  it("generates cases for imported systems only, and only where a case file can be kept", () => {
    // The pack alone: no system is imported, and an in-memory database has no folder for case files.
    expect(technician.info().generatedCasesDir).toBeNull();
    expect(() => technician.start({ policy: "rule", selection: { kind: "generated", system: "marta", perCategory: 2, seed: 1 }, operator: "Tess" })).toThrow(
      expect.objectContaining({ code: "rejected", message: expect.stringMatching(/^'marta' is a system of the benchmark's data pack: .*\(no system is imported on this kiosk\)\.$/) }),
    );
    expect(() => technician.start({ policy: "rule", selection: { kind: "generated", system: "atlantis", perCategory: 2, seed: 1 }, operator: "Tess" })).toThrow(
      expect.objectContaining({ code: "rejected", message: "This kiosk has no system 'atlantis' (no system is imported on this kiosk)." }),
    );
    expect(running).toEqual([]);
    expect(store.listRuns()).toEqual([]);
    const onDisk = new BenchTechnician({ pack, store, setBenchRunning: () => undefined, casesDir: "var/cases", log: () => undefined });
    expect(onDisk.info().generatedCasesDir).toBe(path.resolve("var/cases"));
  });

  it("leaves a clear state for the latency probe without a model", async () => {
    expect(await technician.latencyProbe()).toEqual({ available: false, reason: "no_model" });
    const withModel = new BenchTechnician({ pack, store, setBenchRunning: (r) => running.push(r), model: "4b", log: () => undefined });
    expect(await withModel.latencyProbe()).toEqual({ available: false, reason: "not_built" });
    const probed = new BenchTechnician({
      pack,
      store,
      setBenchRunning: (r) => running.push(r),
      model: "4b",
      probe: async (model) => ({ available: true, model, figures: [{ label: "TTFT", value: "120 ms" }] }),
      log: () => undefined,
    });
    expect(await probed.latencyProbe()).toEqual({ available: true, model: "4b", figures: [{ label: "TTFT", value: "120 ms" }] });
    expect(running).toEqual([true, false]);
  });
});
