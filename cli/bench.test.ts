// `kiosk bench run` end to end on a handful of cases with a temporary database: what it stores, the
// one-object JSON summary, the reference results file (which the scorer scores identically), an
// interruption by SIGINT and its resume, and a case file without answer keys.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Command } from "commander";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { ORACLE_DIR, SHARED_DATA_DIR } from "../test/paths.ts";
import { DataPack } from "../tools/data/datapack.ts";
import { PACK_SYSTEM_IDS, type Case, type SystemId } from "../tools/data/schemas.ts";
import { rulePolicy } from "../runtime/policies/rule/index.ts";
import { toReferenceRecord } from "../runtime/session/record.ts";
import { registerPolicyFactory } from "../bench/policies.ts";
import { scoreResults } from "../bench/scorer/results.ts";
import { summarizeRun, type ScoreLike } from "../bench/stats/index.ts";
import { BenchStore } from "../bench/store/store.ts";
import { UsageError } from "./context.ts";
import { registerBenchCommands } from "./bench.ts";

const pack = new DataPack(SHARED_DATA_DIR);
const dir = mkdtempSync(path.join(tmpdir(), "bench-cli-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => {
  process.exitCode = undefined;
  vi.restoreAllMocks();
});

let dbCounter = 0;
const freshDb = (): string => path.join(dir, `bench-${++dbCounter}.sqlite`);

async function run(...argv: string[]): Promise<{ stdout: string; stderr: string; exitCode: number | undefined }> {
  const program = new Command("kiosk").option("--data <dir>").exitOverride();
  registerBenchCommands(program);
  let stdout = "";
  let stderr = "";
  process.exitCode = undefined;
  vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => ((stdout += String(chunk)), true));
  vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => ((stderr += String(chunk)), true));
  try {
    await program.parseAsync(["--data", SHARED_DATA_DIR, "bench", ...argv], { from: "user" });
  } finally {
    vi.restoreAllMocks();
  }
  return { stdout, stderr, exitCode: process.exitCode === undefined ? undefined : Number(process.exitCode) };
}

/** The first case of each category of a system (11 cases). */
function sampleIds(system: SystemId): string[] {
  const seen = new Set<string>();
  return pack.cases(system).filter((c) => !seen.has(c.category) && seen.add(c.category)).map((c) => c.id);
}

const REFERENCE_RECORD_KEYS = ["case_id", "response", "tool_calls_made", "raw_content", "reasoning_content", "messages", "ttft_ms", "e2e_ms", "input_tokens", "output_tokens", "api_rounds", "error", "empty_rounds", "truncated"];

interface Summary {
  run_id: number;
  status: string;
  policy: string;
  model: string;
  judge: string;
  db: string;
  cases: { total: number; done: number; ran_now: number; scored: number; unscored: number };
  wall_ms: number;
  overall: Record<"full" | "holdout" | "train", { n: number; tier1: number; composite: number }>;
  systems: Record<string, Record<string, { n: number; tier1: number; composite: number }>>;
  unscored: { case_id: string; note: string }[];
  warnings: string[];
  out?: string[];
  resume?: string;
}

describe("kiosk bench run", () => {
  it("stores the cases, prints one JSON summary and writes the reference results file, which scores identically", async () => {
    const db = freshDb();
    const out = path.join(dir, "marta.json");
    const ids = sampleIds("marta");
    const { stdout, stderr, exitCode } = await run("run", "--policy", "rule-ref", "--cases", ids.join(","), "--db", db, "--out", out, "--json");
    expect(exitCode).toBeUndefined();
    expect(stderr).toBe("");
    expect(stdout.trim().split("\n")).toHaveLength(1);
    const summary = JSON.parse(stdout) as Summary;
    expect(summary).toMatchObject({ status: "finished", policy: "rule-ref", model: "rule-based", judge: "none", db, out: [out] });
    expect(summary.cases).toEqual({ total: ids.length, done: ids.length, ran_now: ids.length, scored: ids.length, unscored: 0 });
    expect(Object.keys(summary.systems)).toEqual(["marta"]);
    expect(summary.overall.full.n).toBe(ids.length);
    expect(summary.overall.holdout.n + summary.overall.train.n).toBe(ids.length);

    // Stored: transcripts (with the kiosk extras), scores and key columns.
    const store = BenchStore.open(db);
    try {
      const run = store.requireRun(summary.run_id);
      expect(run).toMatchObject({ status: "finished", policy: "rule-ref", casesTotal: ids.length, judge: "none", score: true });
      expect(run.hardware.cpuCores).toBeGreaterThan(0);
      expect(run.selection.selectedIds).toEqual(ids);
      const cases = store.casesWithRecords(run.id);
      expect(cases.map((c) => c.caseId)).toEqual(ids);
      for (const c of cases) {
        expect(c.record.kiosk.policy).toBe("rule-ref");
        expect(c.score?.case_id).toBe(c.caseId);
        expect(c.tier1Pct).toBe(c.score?.tier1_pct);
        expect(c.system).toBe("marta");
      }
      const row = store.db.prepare("SELECT holdout, tokens, partition FROM run_cases WHERE run_id = ? AND case_id = ?").get(run.id, ids[0]) as { holdout: number; tokens: number; partition: string };
      expect(row.holdout).toBe(row.partition === "holdout" ? 1 : 0);
      expect(row.tokens).toBe(0);

      // The summary is summarizeRun over the stored scores.
      const scores = cases.map((c) => c.score as ScoreLike);
      const expected = summarizeRun({ marta: scores }, pack.split());
      expect(summary.overall.full.tier1).toBe(expected.partitions.full.overall.tier1_mean_of_system_means);
      expect(summary.overall.holdout.composite).toBe(expected.partitions.holdout.overall.composite_mean_of_system_means);
      expect(summary.systems["marta"]?.["full"]?.tier1).toBe(expected.partitions.full.systems.marta?.tier1_ref);

      // --out: the reference runner's format, records = toReferenceRecord(transcript), and beside
      // the reference fields the kiosk's verdict on each answer.
      const file = JSON.parse(readFileSync(out, "utf8")) as { results: Record<string, unknown>[] } & Record<string, unknown>;
      expect(Object.keys(file)).toEqual(["metadata", "model", "system", "thinking", "cases_total", "cases_succeeded", "cases_failed", "results"]);
      expect(file).toMatchObject({ model: "rule-based", system: "marta", thinking: false, cases_total: ids.length, cases_succeeded: ids.length, cases_failed: 0 });
      expect(file["metadata"]).toMatchObject({ run_id: run.id, policy: "rule-ref", system: "marta", cases_file: "cases/marta_cases.json", max_tool_rounds: 20 });
      for (const [i, { kiosk, ...record }] of file.results.entries()) {
        expect(Object.keys(record)).toEqual(REFERENCE_RECORD_KEYS);
        expect(record).toEqual(JSON.parse(JSON.stringify(toReferenceRecord(cases[i]!.record))));
        const verdict = cases[i]!.record.kiosk.verdict!;
        expect(kiosk).toEqual({ purchasable: verdict.purchasable, interlock_problems: verdict.interlockProblems, decided_by: "rule", fallback: cases[i]!.record.kiosk.fallback });
      }
      // The reference baseline's MARTA-A-001 submission is one the kiosk's validator rejects (scored
      // as submitted, a published quirk): the kiosk would have shown its safe fallback, no sale.
      expect(file.results.find((r) => r["case_id"] === "MARTA-A-001")?.["kiosk"]).toEqual({ purchasable: false, interlock_problems: [], decided_by: "rule", fallback: true });

      // Fed to the scorer, the file scores exactly as stored — and as the reference scored the
      // reference rule agent's records for those cases.
      const rescored = scoreResults(file, pack.cases("marta"), pack.system("marta"));
      expect(rescored.unknownCaseIds).toEqual([]);
      const oracle = new Map((JSON.parse(readFileSync(path.join(ORACLE_DIR, "scores", "marta.json"), "utf8")) as { scores: ScoreLike[] }).scores.map((s) => [s.case_id, s]));
      for (const [i, s] of rescored.scores.entries()) {
        const stored = cases[i]!.score!;
        expect(s).toEqual(stored);
        const ref = oracle.get(s.case_id)!;
        expect([s.total, s.max_possible, s.pct, s.tier1_pct]).toEqual([ref.total, ref.max_possible, ref.pct, ref.tier1_pct]);
      }
    } finally {
      store.close();
    }
  });

  it("writes one <system>.json per system into a directory when several systems are selected, and prints a table without --json", async () => {
    const db = freshDb();
    const out = path.join(dir, "multi");
    const { stdout, exitCode } = await run("run", "--policy", "rule", "--system", "doha,cta", "--category", "A..B", "--split", "holdout", "--db", db, "--out", out);
    expect(exitCode).toBeUndefined();
    expect(readdirSync(out).sort()).toEqual(["cta.json", "doha.json"]);
    const doha = JSON.parse(readFileSync(path.join(out, "doha.json"), "utf8")) as { system: string; results: { case_id: string }[] };
    expect(doha.system).toBe("doha");
    const holdout = pack.holdoutIds();
    expect(doha.results.every((r) => /^DOHA-[AB]-/.test(r.case_id) && holdout.has(r.case_id))).toBe(true);
    expect(stdout).toMatch(/^run 1 finished: \d+\/\d+ cases stored/);
    expect(stdout).toMatch(/^overall +\d+ +\d+\.\d\d +\d+\.\d\d/m);
    expect(stdout).toContain(`report: kiosk bench report 1 --db ${db}`);
  });

  it("stops cleanly on SIGINT (finished cases kept, run interrupted) and --resume completes it without re-running them", async () => {
    const db = freshDb();
    const ids = sampleIds("bart").slice(0, 7);
    let started = 0;
    let interruptAt = 4;
    const restore = registerPolicyFactory({
      name: "rule-sigint",
      description: "rule, pressing Ctrl-C as its fourth case starts",
      deterministic: true,
      accepts: [],
      create: () => ({
        model: "rule",
        policy: {
          ...rulePolicy,
          id: "rule",
          start: (setup) => {
            if (++started === interruptAt) process.emit("SIGINT");
            return rulePolicy.start(setup);
          },
        },
      }),
    });
    try {
      const first = await run("run", "--policy", "rule-sigint", "--cases", ids.join(","), "--db", db, "--json");
      expect(first.exitCode).toBe(130);
      const s1 = JSON.parse(first.stdout) as Summary;
      expect(s1).toMatchObject({ status: "interrupted", resume: `kiosk bench run --resume ${s1.run_id} --db ${db}` });
      expect(s1.cases).toMatchObject({ total: 7, done: 3, ran_now: 3 });
      expect(first.stderr).toContain("interrupt: stopping; finished cases are kept");
      expect(first.stderr).toContain(`run ${s1.run_id} interrupted with 3/7 cases stored; resume with: kiosk bench run --resume ${s1.run_id} --db ${db}`);
      expect(process.listeners("SIGINT")).toHaveLength(0);

      const store = BenchStore.open(db);
      const before = store.cases(s1.run_id);
      expect(before.map((c) => c.caseId)).toEqual(ids.slice(0, 3));
      expect(store.requireRun(s1.run_id).status).toBe("interrupted");
      store.close();

      interruptAt = 0;
      const clash = run("run", "--resume", String(s1.run_id), "--system", "bart", "--db", db);
      await expect(clash).rejects.toThrow(UsageError);
      await expect(clash).rejects.toThrow("drop --system");

      const second = await run("run", "--resume", String(s1.run_id), "--db", db, "--json");
      expect(second.exitCode).toBeUndefined();
      const s2 = JSON.parse(second.stdout) as Summary;
      expect(s2).toMatchObject({ run_id: s1.run_id, status: "finished" });
      expect(s2.cases).toMatchObject({ total: 7, done: 7, ran_now: 4 });
      expect(started).toBe(4 + 4); // 3 stored + 1 aborted, then only the 4 missing ones

      const after = BenchStore.open(db);
      try {
        const cases = after.cases(s1.run_id);
        expect(cases.map((c) => c.caseId)).toEqual(ids);
        // The first three were not run again: same rows, same finish times.
        expect(cases.slice(0, 3).map((c) => c.finishedAt)).toEqual(before.map((c) => c.finishedAt));
        const sessions = after.sessions(s1.run_id);
        expect(sessions.map((s) => [s.kind, s.status, s.casesRun])).toEqual([
          ["start", "interrupted", 3],
          ["resume", "finished", 4],
        ]);
        expect(after.requireRun(s1.run_id)).toMatchObject({ status: "finished", policy: "rule-sigint" });
      } finally {
        after.close();
      }

      // Resuming the finished run changes nothing: no case runs, no session is added, the finish time stays.
      const finishedRun = (): unknown => {
        const again = BenchStore.open(db);
        try {
          const r = again.requireRun(s1.run_id);
          return { finishedAt: r.finishedAt, wallMs: r.wallMs, sessions: again.sessions(s1.run_id).length };
        } finally {
          again.close();
        }
      };
      const beforeThird = finishedRun();
      await new Promise((resolve) => setTimeout(resolve, 5));
      const third = await run("run", "--resume", String(s1.run_id), "--db", db, "--json");
      const s3 = JSON.parse(third.stdout) as Summary & { warnings: string[] };
      expect(s3).toMatchObject({ run_id: s1.run_id, status: "finished", cases: { total: 7, done: 7, ran_now: 0 } });
      expect(s3.warnings).toContain(`run ${s1.run_id} had already finished with all 7 cases stored: nothing ran and the run is unchanged`);
      expect(started).toBe(4 + 4);
      expect(finishedRun()).toEqual(beforeThird);
    } finally {
      restore();
    }
  });

  it("runs a case file without answer keys and skips scoring those cases with a note", async () => {
    const db = freshDb();
    const base = pack.cases("taipei").slice(0, 3);
    const keyless = base.slice(0, 2).map((c, i): Case => {
      const { ground_truth: _gt, scoring: _sc, ...rest } = c;
      return { ...rest, id: `TAIPEI-${c.category}-90${i}` } as Case;
    });
    const file = path.join(dir, "operator-cases.json");
    writeFileSync(file, JSON.stringify([...keyless, base[2]]));
    const { stdout, exitCode } = await run("run", "--policy", "rule", "--cases-file", file, "--db", db, "--json");
    expect(exitCode).toBeUndefined();
    const summary = JSON.parse(stdout) as Summary;
    expect(summary.cases).toMatchObject({ total: 3, done: 3, scored: 1, unscored: 2 });
    expect(summary.unscored).toEqual(keyless.map((c) => ({ case_id: c.id, note: "not scored: the case has no answer key (ground_truth and scoring absent)" })));
    expect(summary.overall.full.n).toBe(1);

    const report = JSON.parse((await run("report", "--db", db, "--json")).stdout) as { notes: string[]; terminations: { overall: { unscored: number; records: number } } };
    expect(report.notes).toContain("2 cases not scored: the case has no answer key (ground_truth and scoring absent)");
    expect(report.terminations.overall).toMatchObject({ unscored: 2, records: 3 });
  });

  it("explains what cannot run", async () => {
    const db = freshDb();
    await expect(run("run", "--policy", "llm", "--model", path.join(dir, "missing.gguf"), "--db", db)).rejects.toThrow(/^model file not found: .*`kiosk model pull 4b`/);
    await expect(run("run", "--policy", "openai", "--model", "m", "--db", db)).rejects.toThrow("policy 'openai' needs --base-url");
    await expect(run("run", "--policy", "rule", "--judge-model", "4b", "--db", db)).rejects.toThrow("judge 'none' does not take --judge-model");
    await expect(run("run", "--policy", "rule", "--judge", "llm", "--judge-threads", "0", "--db", db)).rejects.toThrow("--judge-threads must be a positive integer");
    await expect(run("run", "--db", db)).rejects.toThrow("--policy is required (one of: rule, rule-ref, llm, openai, hybrid), or --resume RUN");
    await expect(run("run", "--policy", "rule", "--cases", "MARTA-A-001,NOPE-1", "--db", db)).rejects.toThrow("unknown case id in the data pack: NOPE-1");
    await expect(run("run", "--policy", "rule", "--system", "paris", "--db", db)).rejects.toThrow("unknown system 'paris'");
    await expect(run("run", "--policy", "rule", "--concurrency", "0", "--db", db)).rejects.toThrow("--concurrency must be a positive integer");
    await expect(run("run", "--resume", "9", "--db", db)).rejects.toThrow(`no run 9 in ${db}`);
  });
});

describe("kiosk bench list", () => {
  it("lists stored runs with their headline figures", async () => {
    const db = freshDb();
    await run("run", "--policy", "rule-ref", "--system", "beijing", "--category", "C", "--db", db, "--json");
    const { stdout } = await run("list", "--db", db);
    expect(stdout.split("\n")[0]).toMatch(/^run +status +policy +model +judge +covers +cases +scored +T1 held-out +T1 full +comp full +wall +started$/);
    expect(stdout).toMatch(/^ +1 +finished +rule-ref +rule-based +none +beijing · C +\d+\/\d+ +\d+ /m);
    const json = JSON.parse((await run("list", "--db", db, "--json")).stdout) as { runs: { id: number; tier1: { full: { n: number } } }[] };
    expect(json.runs.map((r) => r.id)).toEqual([1]);
    expect(json.runs[0]?.tier1.full.n).toBeGreaterThan(0);
    expect(PACK_SYSTEM_IDS).toContain("beijing");
  });
});
