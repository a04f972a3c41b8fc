// Repeated trials: pass^k's estimator, and `kiosk bench run --trials k` end to end with a policy
// that is right only some of the time (it answers each case with rule or rule-ref by chance).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Command } from "commander";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { SHARED_DATA_DIR } from "../test/paths.ts";
import { registerBenchCommands } from "./bench.ts";
import { ruleRefPolicy } from "../runtime/policies/rule-ref.ts";
import { rulePolicy } from "../runtime/policies/rule/index.ts";
import type { Policy } from "../runtime/session/policy.ts";
import { registerPolicyFactory } from "../bench/policies.ts";
import { BenchStore } from "../bench/store/store.ts";
import { buildReport } from "../bench/report/build.ts";
import { renderReportHtml } from "../bench/report/html.ts";
import { casePassed, passHatK } from "../bench/report/trials.ts";

describe("pass^k", () => {
  it("is C(c,k)/C(n,k) averaged over cases", () => {
    const [p1, p2, p3] = passHatK([3, 2, 0, 1], 3);
    expect(p1).toBeCloseTo(50, 9);
    expect(p2).toBeCloseTo((100 * (1 + 1 / 3)) / 4, 9);
    expect(p3).toBeCloseTo(25, 9);
    expect(passHatK([], 2)).toEqual([0, 0]);
    expect(passHatK([2, 2], 2)).toEqual([100, 100]);
  });

  it("a case passes with every Tier 1 point", () => {
    expect(casePassed({ tier1_pct: 100 })).toBe(true);
    expect(casePassed({ tier1_pct: 99.9 })).toBe(false);
    expect(casePassed(null)).toBe(false);
  });
});

const dir = mkdtempSync(path.join(tmpdir(), "bench-trials-"));
const db = path.join(dir, "bench.sqlite");
let restore: () => void;
beforeAll(() => {
  let trial = 0;
  restore = registerPolicyFactory({
    name: "coin",
    description: "test: rule or rule-ref by chance, per case and trial",
    deterministic: false,
    accepts: [],
    create: () => {
      const seed = ++trial;
      const policy: Policy = {
        id: "coin",
        start: (setup) => {
          const h = [...`${setup.sessionId}#${seed}`].reduce((a, c) => (a * 31 + c.charCodeAt(0)) >>> 0, 7);
          return (h % 2 === 0 ? rulePolicy : ruleRefPolicy).start(setup);
        },
      };
      return { policy, model: "coin" };
    },
  });
});
afterAll(() => {
  restore();
  rmSync(dir, { recursive: true, force: true });
});

async function bench(...argv: string[]): Promise<{ stdout: string; stderr: string; error?: Error }> {
  const program = new Command("kiosk").option("--data <dir>").exitOverride();
  registerBenchCommands(program);
  let stdout = "";
  let stderr = "";
  vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => ((stdout += String(chunk)), true));
  vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => ((stderr += String(chunk)), true));
  let error: Error | undefined;
  try {
    await program.parseAsync(["--data", SHARED_DATA_DIR, "bench", ...argv], { from: "user" });
  } catch (err) {
    error = err as Error;
  } finally {
    vi.restoreAllMocks();
    process.exitCode = undefined;
  }
  return { stdout, stderr, ...(error ? { error } : {}) };
}

describe("kiosk bench run --trials", () => {
  it("refuses a deterministic policy", async () => {
    const r = await bench("run", "--policy", "rule", "--trials", "3", "--system", "marta", "--category", "A", "--db", db);
    expect(r.error?.message).toMatch(/--trials repeats a model policy .*; rule is deterministic/);
  });

  it("runs k trials as one set and reports pass^1..k per category; the report and its HTML carry it", async () => {
    const r = await bench("run", "--policy", "coin", "--trials", "3", "--system", "marta", "--category", "C,G", "--db", db);
    expect(r.error).toBeUndefined();
    expect(r.stdout).toMatch(/Repeated trials: 3 of 3 trial\(s\) stored \(runs 1, 2, 3\); \d+ case\(s\) scored in every trial\./);
    expect(r.stdout).toMatch(/\s+n\s+pass\^1\s+pass\^2\s+pass\^3\n/);
    expect(r.stdout).toMatch(/\nC · Disruption\s+\d+\s+[\d.]+\s+[\d.]+\s+[\d.]+\n/);
    expect(r.stdout).toMatch(/\noverall\s+\d+\s+[\d.]+\s+[\d.]+\s+[\d.]+\n/);

    const store = BenchStore.open(db);
    try {
      expect(store.trialRuns(1).map((run) => run.trial)).toEqual([
        { set: 1, index: 1, of: 3 },
        { set: 1, index: 2, of: 3 },
        { set: 1, index: 3, of: 3 },
      ]);
      const report = buildReport(store, 2);
      const t = report.trials!;
      expect(t).toMatchObject({ set: 1, trials: 3, counted: 3, leftOut: 0 });
      expect(t.categories.map((c) => c.key)).toEqual(["C", "G"]);
      // Recompute pass^k from the stored scores.
      const passes = new Map<string, number>();
      for (const run of [1, 2, 3]) for (const c of store.casesWithScores(run)) passes.set(c.caseId, (passes.get(c.caseId) ?? 0) + (casePassed(c.score) ? 1 : 0));
      expect(t.overall.n).toBe(passes.size);
      expect(t.overall.passAt).toEqual(passHatK([...passes.values()], 3));
      // Consistency can only fall with k, and a policy right by chance is not always right.
      expect(t.overall.passAt[0]!).toBeGreaterThanOrEqual(t.overall.passAt[1]!);
      expect(t.overall.passAt[1]!).toBeGreaterThanOrEqual(t.overall.passAt[2]!);
      expect(t.overall.passAt[2]!).toBeLessThan(t.overall.passAt[0]!);
      const html = renderReportHtml(report);
      expect(html).toContain('<h2 id="trials">Repeated trials</h2>');
      expect(html).toMatch(/<th>pass\^3<\/th>/);
    } finally {
      store.close();
    }
    expect((await bench("list", "--db", db)).stdout).toMatch(/\n\s*2\s+finished\s+coin \(trial 2\/3 of set 1\)\s+coin\s+none\s+marta · C, G\s/);
    const json = JSON.parse((await bench("report", "3", "--json", "--db", db)).stdout) as { trials?: { counted: number } };
    expect(json.trials?.counted).toBe(3);
    expect((await bench("report", "3", "--db", db)).stdout).toMatch(/Repeated trials: 3 of 3/);
  });
});
