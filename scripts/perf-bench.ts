// Wall time of the on-device bench as a technician runs it, beside the reference pipeline on the
// same machine: both whole processes, storage and results files included.
//
//   npm run perf:bench -- [--reps 3] [--policies rule-ref,rule]
//                         [--reference DIR --python PY | --reference-s SECONDS] [--in-process] [--record]
//
// Ours: `node bin/kiosk.js bench run --policy P --db <fresh file> --out <dir> --json` over all 955
// cases (the compiled CLI: start-up, data-pack loading and validation, replay, scoring, SQLite
// storage and the reference-format results files). Reference: scripts/reference-pipeline.sh over
// a checkout of github:continker/metrollm-bench kept outside this repository (its mock tool server,
// its rule agent over HTTP and its scorer, per system); docs/PERFORMANCE.md gives the exact
// commands to get the checkout and its Python packages. With both, the runs alternate (ours,
// reference, ours, …) so that both see the same machine load. --in-process adds the replay and
// scoring times inside one warm process (no start-up, no storage).
//
// NODE_EXTRA_CA_CERTS (set in some sandboxes and corporate machines for a TLS proxy) makes Node 20
// read and parse that file and its own CA store at every start, before any of our code runs
// (≈ 50–90 ms on this project’s 2-vCPU sandbox); the reference's Python processes do not read it.
// When it is set, the figures also show a bare Node start with and without it, and our runs
// again without it (alternating), so that the environment's share is visible; the main rows stay
// as the caller's environment runs them.
//
// It also times `kiosk --help` against a bare `node -e 0` (best of 8 each, alternating): the CLI's
// own start-up cost. With --record (and a measured reference, not one given with --reference-s) the
// figures go to docs/figures/perf-bench.json, which the README is written from (scripts/figures.ts).
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { hardwareInfo } from "../bench/run/environment.ts";
import { recordFigures } from "./figures.ts";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const KIOSK = path.join(ROOT, "bin", "kiosk.js");

const { values } = parseArgs({
  options: {
    reps: { type: "string", default: "3" },
    policies: { type: "string", default: "rule-ref,rule" },
    reference: { type: "string" },
    python: { type: "string" },
    "reference-s": { type: "string" },
    "in-process": { type: "boolean", default: false },
    data: { type: "string" },
    record: { type: "boolean", default: false },
  },
});
const REPS = Number(values.reps);
if (!Number.isInteger(REPS) || REPS < 1) throw new Error(`--reps must be a positive integer, got '${values.reps}'`);
const POLICIES = values.policies.split(",").map((s) => s.trim()).filter(Boolean);
const referenceDir = values.reference ?? process.env["METROLLM_REFERENCE_DIR"];
if (referenceDir !== undefined && !existsSync(path.join(referenceDir, "harness", "rule_agent.py"))) {
  throw new Error(`--reference ${referenceDir} is not a checkout of github:continker/metrollm-bench (no harness/rule_agent.py); see docs/PERFORMANCE.md`);
}
const givenReferenceS = values["reference-s"] !== undefined ? Number(values["reference-s"]) : undefined;
if (givenReferenceS !== undefined && !(givenReferenceS > 0)) throw new Error(`--reference-s must be a positive number of seconds, got '${values["reference-s"]}'`);

interface OurRun {
  seconds: number;
  tier1: number;
  cases: number;
}

const EXTRA_CA = "NODE_EXTRA_CA_CERTS";
const extraCaFile = process.env[EXTRA_CA] || undefined;
/** The caller's environment without NODE_EXTRA_CA_CERTS. */
function withoutExtraCa(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env[EXTRA_CA];
  return env;
}

/** One whole `kiosk bench run` process into a fresh database and results folder. */
function ourRun(policy: string, env: NodeJS.ProcessEnv = process.env): OurRun {
  const dir = mkdtempSync(path.join(tmpdir(), "perf-bench-"));
  try {
    const args = [KIOSK, ...(values.data ? ["--data", values.data] : []), "bench", "run", "--policy", policy, "--db", path.join(dir, "bench.sqlite"), "--out", path.join(dir, "out"), "--json"];
    const t0 = performance.now();
    const run = spawnSync(process.execPath, args, { encoding: "utf8", maxBuffer: 64 * 1024 * 1024, env });
    const seconds = (performance.now() - t0) / 1000;
    if (run.status !== 0) throw new Error(`kiosk bench run --policy ${policy} failed (${run.status}):\n${run.stderr}`);
    const summary = JSON.parse(run.stdout) as { cases: { done: number }; overall: { full: { tier1: number } } };
    return { seconds, tier1: summary.overall.full.tier1, cases: summary.cases.done };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

interface ReferenceRun {
  seconds: number;
  /** Mean of the six systems' Tier 1 percentages, from the reference scorer's own output. */
  tier1: number;
  cases: number;
}

/** One whole reference pipeline (six systems) through scripts/reference-pipeline.sh. */
function referenceRun(dir: string): ReferenceRun {
  const out = mkdtempSync(path.join(tmpdir(), "perf-bench-reference-"));
  try {
    const env = { ...process.env, ...(values.python ? { PYTHON: values.python } : {}) };
    const run = spawnSync("bash", [path.join(ROOT, "scripts", "reference-pipeline.sh"), dir, out], { encoding: "utf8", env });
    const seconds = Number(/reference_total_s=([\d.]+)/.exec(run.stdout)?.[1]);
    if (run.status !== 0 || !Number.isFinite(seconds)) throw new Error(`the reference pipeline failed (${run.status}):\n${run.stdout}\n${run.stderr}`);
    let tier1 = 0;
    let cases = 0;
    const systems = ["marta", "doha", "bart", "taipei", "cta", "beijing"];
    for (const system of systems) {
      const scored = JSON.parse(readFileSync(path.join(out, `rule_${system}_scored.json`), "utf8")) as { scores: { tier1_pct: number }[] };
      cases += scored.scores.length;
      tier1 += scored.scores.reduce((n, s) => n + s.tier1_pct, 0) / scored.scores.length / systems.length;
    }
    return { seconds, tier1, cases };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
};
const sec = (s: number): string => `${s.toFixed(2)} s`;

const hw = hardwareInfo();
console.log(`perf-bench: ${REPS} repetition(s) per figure; ${hw.cpuModel} ×${hw.cpuCores}, node ${hw.node}`);
// Build dist/node now if needed, so that no timed run includes the one-time compilation; and run
// each policy once untimed, which writes `bench run`'s V8 code cache beside the bundle (bin/kiosk.js)
// as a kiosk's first bench does, as the reference's Python keeps its bytecode in __pycache__.
const warm = spawnSync(process.execPath, [KIOSK, "--help"], { encoding: "utf8" });
if (warm.status !== 0) throw new Error(`kiosk --help failed:\n${warm.stderr}`);
for (const policy of POLICIES) ourRun(policy);

/** Median wall seconds of a bare `node -e 0`, with and without NODE_EXTRA_CA_CERTS, alternating. */
function bareNodeStart(runs: number): { withCa: number; withoutCa: number } {
  const time = (env: NodeJS.ProcessEnv): number => {
    const t0 = performance.now();
    const run = spawnSync(process.execPath, ["-e", "0"], { env });
    if (run.status !== 0) throw new Error(`node -e 0 failed (${run.status}): ${String(run.stderr)}`);
    return (performance.now() - t0) / 1000;
  };
  const withCa: number[] = [];
  const withoutCa: number[] = [];
  for (let i = 0; i < runs; i++) {
    withCa.push(time(process.env));
    withoutCa.push(time(withoutExtraCa()));
  }
  return { withCa: median(withCa), withoutCa: median(withoutCa) };
}

const ours = new Map<string, OurRun[]>(POLICIES.map((p) => [p, []]));
const oursWithoutCa = new Map<string, OurRun[]>(POLICIES.map((p) => [p, []]));
const reference: ReferenceRun[] = [];
for (let i = 0; i < REPS; i++) {
  for (const policy of POLICIES) {
    ours.get(policy)?.push(ourRun(policy));
    if (extraCaFile !== undefined) oursWithoutCa.get(policy)?.push(ourRun(policy, withoutExtraCa()));
  }
  if (referenceDir !== undefined) reference.push(referenceRun(referenceDir));
  process.stderr.write(`perf-bench: repetition ${i + 1}/${REPS} done\n`);
}

const referenceS = reference.length > 0 ? median(reference.map((r) => r.seconds)) : givenReferenceS;
console.log("\nWhole 955-case bench, one process each (median of the repetitions; best in brackets):");
const rows: string[][] = [["", "wall", "Tier 1 (all 955)", "cases", "vs reference"]];
const ourRow = (label: string, runs: readonly OurRun[]): string[] => {
  const m = median(runs.map((r) => r.seconds));
  const best = Math.min(...runs.map((r) => r.seconds));
  const first = runs[0] as OurRun;
  return [label, `${sec(m)} [${sec(best)}]`, first.tier1.toFixed(2), String(first.cases), referenceS !== undefined ? `${(referenceS / m).toFixed(1)}× faster` : "–"];
};
for (const [policy, runs] of ours) rows.push(ourRow(`ours: kiosk bench run --policy ${policy}`, runs));
if (extraCaFile !== undefined) for (const [policy, runs] of oursWithoutCa) rows.push(ourRow(`ours: --policy ${policy}, without ${EXTRA_CA}`, runs));
if (reference.length > 0) {
  const first = reference[0] as ReferenceRun;
  rows.push(["reference: mock server + rule agent + scorer", `${sec(referenceS as number)} [${sec(Math.min(...reference.map((r) => r.seconds)))}]`, first.tier1.toFixed(2), String(first.cases), "1.0×"]);
} else if (referenceS !== undefined) {
  rows.push(["reference (given with --reference-s)", sec(referenceS), "", "", "1.0×"]);
}
const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => (r[c] as string).length)));
for (const row of rows) console.log(row.map((cell, c) => (c === 0 ? cell.padEnd(widths[c] as number) : cell.padStart(widths[c] as number))).join("  "));
if (extraCaFile !== undefined) {
  const start = bareNodeStart(10);
  console.log(
    `\n${EXTRA_CA}=${extraCaFile} is set here: a bare Node start (node -e 0, median of 10) takes ${(start.withCa * 1000).toFixed(0)} ms with it, ` +
      `${(start.withoutCa * 1000).toFixed(0)} ms without (Node reads the file and builds its CA store at start-up; the reference's Python does not read it).`,
  );
}
/** Best wall seconds of each command over `runs` alternating runs. */
function bestStarts(runs: number, commands: readonly (readonly string[])[]): number[] {
  const best = commands.map(() => Infinity);
  for (let i = 0; i < runs; i++) {
    commands.forEach((args, c) => {
      const t0 = performance.now();
      const run = spawnSync(process.execPath, args, { encoding: "utf8" });
      if (run.status !== 0) throw new Error(`node ${args.join(" ")} failed (${run.status}): ${run.stderr}`);
      best[c] = Math.min(best[c] as number, (performance.now() - t0) / 1000);
    });
  }
  return best;
}
const [helpS, nodeS] = bestStarts(8, [[KIOSK, "--help"], ["-e", "0"]]) as [number, number];
console.log(`\nkiosk --help ${sec(helpS)} against a bare node -e 0 ${sec(nodeS)} (best of 8 each, alternating)`);

if (referenceS === undefined) {
  console.log("\nNo reference figure: pass --reference DIR (a checkout of github:continker/metrollm-bench; docs/PERFORMANCE.md) or --reference-s SECONDS.");
}

if (values["in-process"]) {
  // Inside one process, after loading: the replay and the scoring alone, cold and warm.
  const { DataPack } = await import("../tools/data/datapack.ts");
  const { runCase } = await import("../runtime/session/case.ts");
  const { toReferenceRecord } = await import("../runtime/session/record.ts");
  const { createPolicy } = await import("../bench/policies.ts");
  const { scoreCaseNoJudge } = await import("../bench/scorer/index.ts");
  const pack = DataPack.locate({ flag: values.data });
  pack.loadAll();
  const cases = pack.allCases();
  console.log(`\nIn one process (no start-up, no storage), ${cases.length} cases:`);
  for (const policy of POLICIES) {
    const { handle } = await createPolicy(policy, {});
    const totals: number[] = [];
    for (let i = 0; i < REPS; i++) {
      const t0 = performance.now();
      for (const kase of cases) {
        const record = await runCase(pack, kase, handle.policy);
        scoreCaseNoJudge(kase, toReferenceRecord(record), pack.system(kase.system));
      }
      totals.push((performance.now() - t0) / 1000);
    }
    console.log(`  ${policy}: replay + score first ${sec(totals[0] as number)}, best ${sec(Math.min(...totals))}, median ${sec(median(totals))}`);
  }
}

if (values.record) {
  const [policy, runs] = [...ours][0] ?? [];
  if (reference.length === 0 || policy === undefined || runs === undefined) {
    throw new Error("--record needs a measured reference (--reference DIR): a figure given with --reference-s is no run of this machine");
  }
  const oursS = median(runs.map((r) => r.seconds));
  const referenceMedian = referenceS as number;
  const file = await recordFigures("perf-bench", `npm run perf:bench -- --reference DIR --python PY --reps ${REPS} --policies ${policy} --record`, {
    policy,
    reps: REPS,
    ours_s: Math.round(oursS * 100) / 100,
    ours_best_s: Math.round(Math.min(...runs.map((r) => r.seconds)) * 100) / 100,
    reference_s: Math.round(referenceMedian * 100) / 100,
    reference_best_s: Math.round(Math.min(...reference.map((r) => r.seconds)) * 100) / 100,
    ratio: Math.round((referenceMedian / oursS) * 10) / 10,
    tier1_ours: Math.round((runs[0]?.tier1 ?? 0) * 100) / 100,
    tier1_reference: Math.round((reference[0]?.tier1 ?? 0) * 100) / 100,
    help_s: Math.round(helpS * 1000) / 1000,
    node_start_s: Math.round(nodeS * 1000) / 1000,
  });
  console.log(`recorded in ${file}`);
}
