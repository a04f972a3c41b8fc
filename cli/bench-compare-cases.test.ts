// What a run covered (bench list, the technician's stored runs) and `--compare`'s per-case differences.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Command } from "commander";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { SHARED_DATA_DIR } from "../test/paths.ts";
import { DataPack } from "../tools/data/datapack.ts";
import { registerBenchCommands } from "./bench.ts";
import { startRun } from "../bench/run/execute.ts";
import { BenchStore } from "../bench/store/store.ts";
import { BenchTechnician } from "../bench/technician.ts";
import { buildReport } from "../bench/report/build.ts";
import { caseDifferenceBlock } from "../bench/report/case-diff-text.ts";
import { categoryRanges, coverageText, runCoverage } from "../bench/report/coverage.ts";

const pack = new DataPack(SHARED_DATA_DIR);
const dir = mkdtempSync(path.join(tmpdir(), "bench-cmp-"));
const dbFile = path.join(dir, "bench.sqlite");
let store: BenchStore;
let refRun: number;
let ruleRun: number;
let oneSystemRun: number;

beforeAll(async () => {
  store = BenchStore.open(dbFile);
  refRun = (await startRun({ pack, store, policy: "rule-ref", selection: { systems: ["bart", "cta"], categories: ["C", "D", "E", "I"] } })).runId;
  ruleRun = (await startRun({ pack, store, policy: "rule", selection: { systems: ["bart", "cta"], categories: ["C", "D", "E", "I"] } })).runId;
  oneSystemRun = (await startRun({ pack, store, policy: "rule", selection: { systems: ["marta"], categories: ["A"] } })).runId;
});
afterAll(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("what a run covered", () => {
  it("names the systems and the categories as ranges", () => {
    expect(categoryRanges(["A", "B", "C", "F", "H", "I"])).toBe("A–C, F, H, I");
    expect(coverageText(runCoverage(store.requireRun(ruleRun).selection))).toBe("bart, cta · C–E, I");
    expect(coverageText(runCoverage({ selectedIds: pack.allCases().map((c) => c.id), selectedSystems: [...pack.systemIds] }))).toBe("all 6 systems · A–K");
  });

  it("bench list has a 'covers' column, and the technician's stored runs carry it", async () => {
    const program = new Command("kiosk").option("--data <dir>").exitOverride();
    registerBenchCommands(program);
    let out = "";
    vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => ((out += String(chunk)), true));
    try {
      await program.parseAsync(["--data", SHARED_DATA_DIR, "bench", "list", "--db", dbFile], { from: "user" });
    } finally {
      vi.restoreAllMocks();
    }
    expect(out.split("\n")[0]).toMatch(/\bcovers\b/);
    expect(out).toMatch(new RegExp(`\\n\\s*${ruleRun}\\s+finished\\s+rule\\s+rule\\s+none\\s+bart, cta · C–E, I\\s`));
    expect(out).toMatch(new RegExp(`\\n\\s*${oneSystemRun}\\s+finished\\s+rule\\s+rule\\s+none\\s+marta · A\\s`));
    const technician = new BenchTechnician({ pack, store, setBenchRunning: () => undefined, log: () => undefined });
    const runs = technician.status().runs;
    expect(runs.find((r) => r.runId === ruleRun)).toMatchObject({ systems: ["bart", "cta"], categories: ["C", "D", "E", "I"], covers: "bart, cta · C–E, I" });
  });
});

describe("--compare per case", () => {
  it("lists the cases that changed, worst first, with the components that moved", () => {
    const report = buildReport(store, refRun, { compareWith: ruleRun });
    const diff = report.comparison!.cases;
    expect(diff.compared).toBe(report.comparison!.commonCases);
    expect(diff.worsened + diff.improved + diff.unchanged).toBe(diff.compared);
    expect(diff.worsened).toBeGreaterThan(0); // rule-ref is the weaker policy: run − base is negative on many cases
    expect(diff.cases.length).toBeGreaterThan(0);
    for (const c of diff.cases) {
      expect(c.delta.tier1 !== 0 || c.delta.composite !== 0 || c.components.length > 0).toBe(true);
      for (const k of c.components) expect(k.run).not.toBe(k.base);
    }
    const deltas = diff.cases.map((c) => c.delta.tier1);
    expect(deltas).toEqual([...deltas].sort((a, b) => a - b));
    const worst = diff.cases[0]!;
    const a = store.casesWithScores(refRun).find((c) => c.caseId === worst.caseId)!;
    const b = store.casesWithScores(ruleRun).find((c) => c.caseId === worst.caseId)!;
    expect(worst.delta.tier1).toBeCloseTo(a.score!.tier1_pct - b.score!.tier1_pct, 1);
    const block = caseDifferenceBlock(diff, refRun, ruleRun, 5);
    expect(block).toContain(`Per case, run ${refRun} vs run ${ruleRun}: ${diff.compared} compared · ${diff.worsened} worse`);
    expect(block).toContain(worst.caseId);
    expect(block).toMatch(new RegExp(`${worst.components[0]!.name} ${worst.components[0]!.base}→${worst.components[0]!.run}`));
    if (diff.cases.length > 5) expect(block).toContain(`… and ${diff.cases.length - 5} more changed case(s)`);
  });

  it("a run compared with itself has no changed case", () => {
    const diff = buildReport(store, ruleRun, { compareWith: ruleRun }).comparison!.cases;
    expect(diff).toMatchObject({ worsened: 0, improved: 0, cases: [] });
    expect(caseDifferenceBlock(diff, ruleRun, ruleRun)).toMatch(/no case changed$/);
  });
});
