// Wall time of the on-device bench: replaying all 955 cases with a policy and scoring them
// (no judge), in-process, against the reference Python pipeline on this machine (~25 s: the rule
// agent over HTTP ~13.6 s + the scorer ~11 s).
//
//   npx tsx scripts/perf-bench.ts [--reps N] [--policies rule-ref,rule] [--reference-s 25] [--no-db]
//
// Per policy and repetition: replay (runCase for every case), score (scoreCaseNoJudge), and the
// whole `kiosk bench run` path (startRun into a fresh SQLite file: replay + score + store). The
// first repetition includes the JIT warm-up (a fresh CLI process pays it); best and median show the
// steady state.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { DataPack } from "../tools/data/datapack.ts";
import type { Case } from "../tools/data/schemas.ts";
import { runCase } from "../runtime/session/case.ts";
import { toReferenceRecord, type SessionRecord } from "../runtime/session/record.ts";
import { createPolicy } from "../bench/policies.ts";
import { startRun } from "../bench/run/execute.ts";
import { scoreCaseNoJudge } from "../bench/scorer/index.ts";
import { BenchStore } from "../bench/store/store.ts";
import { hardwareInfo } from "../bench/run/environment.ts";

const { values } = parseArgs({
  options: {
    reps: { type: "string", default: "5" },
    policies: { type: "string", default: "rule-ref,rule" },
    "reference-s": { type: "string", default: "25" },
    "no-db": { type: "boolean", default: false },
    data: { type: "string" },
  },
});
const REPS = Number(values.reps);
if (!Number.isInteger(REPS) || REPS < 1) throw new Error(`--reps must be a positive integer, got '${values.reps}'`);
const REFERENCE_S = Number(values["reference-s"]);
const POLICIES = values.policies.split(",").map((s) => s.trim()).filter(Boolean);

const pack = DataPack.locate({ flag: values.data });
const loadStart = performance.now();
pack.loadAll();
const cases: Case[] = pack.allCases();
const loadMs = performance.now() - loadStart;

interface Rep {
  replayMs: number;
  scoreMs: number;
  totalMs: number;
  meanTier1: number;
}

async function replayAndScore(policyName: string): Promise<Rep> {
  const { handle } = await createPolicy(policyName, {});
  const t0 = performance.now();
  const records: SessionRecord[] = [];
  for (const kase of cases) records.push(await runCase(pack, kase, handle.policy));
  const t1 = performance.now();
  let tier1 = 0;
  for (let i = 0; i < cases.length; i++) {
    const kase = cases[i] as Case;
    tier1 += scoreCaseNoJudge(kase, toReferenceRecord(records[i] as SessionRecord), pack.system(kase.system)).tier1_pct;
  }
  const t2 = performance.now();
  return { replayMs: t1 - t0, scoreMs: t2 - t1, totalMs: t2 - t0, meanTier1: tier1 / cases.length };
}

async function benchRun(policyName: string): Promise<number> {
  const dir = mkdtempSync(path.join(tmpdir(), "perf-bench-"));
  const store = BenchStore.open(path.join(dir, "bench.sqlite"));
  try {
    const t0 = performance.now();
    await startRun({ pack, store, policy: policyName, selection: {} });
    return performance.now() - t0;
  } finally {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
};
const sec = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;
const ratio = (ms: number): string => `${(REFERENCE_S / (ms / 1000)).toFixed(1)}× faster`;

const hw = hardwareInfo();
console.log(`perf-bench: ${cases.length} cases, ${REPS} repetition(s) per figure; ${hw.cpuModel} ×${hw.cpuCores}, node ${hw.node}`);
console.log(`data pack loaded and validated in ${sec(loadMs)} (not counted below)`);
console.log(`reference Python pipeline on this machine: ~${REFERENCE_S} s (rule agent over HTTP ~13.6 s + scorer ~11 s)\n`);

for (const policy of POLICIES) {
  const reps: Rep[] = [];
  for (let i = 0; i < REPS; i++) reps.push(await replayAndScore(policy));
  const first = reps[0] as Rep;
  const totals = reps.map((r) => r.totalMs);
  const best = Math.min(...totals);
  const med = median(totals);
  console.log(`${policy}: replay + score of ${cases.length} cases (mean Tier 1 per case ${first.meanTier1.toFixed(2)})`);
  console.log(`  first   ${sec(first.totalMs).padStart(8)}  (replay ${sec(first.replayMs)}, score ${sec(first.scoreMs)})  ${ratio(first.totalMs)}`);
  console.log(`  best    ${sec(best).padStart(8)}  (replay ${sec(Math.min(...reps.map((r) => r.replayMs)))}, score ${sec(Math.min(...reps.map((r) => r.scoreMs)))})  ${ratio(best)}`);
  console.log(`  median  ${sec(med).padStart(8)}  ${ratio(med)}`);
  if (!values["no-db"]) {
    const runs: number[] = [];
    for (let i = 0; i < REPS; i++) runs.push(await benchRun(policy));
    console.log(`  bench run (replay + score + SQLite store): first ${sec(runs[0] as number)}, best ${sec(Math.min(...runs))}, median ${sec(median(runs))}  (${ratio(median(runs))})`);
  }
  console.log("");
}
