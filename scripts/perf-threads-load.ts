// Threads under load: what the adaptive thread count (models/thread-governor.ts) does when another
// process busies a core, against the fixed, measured-once count — by default on the product's
// architecture, the synthetic 4B (random weights, realistic compute; see scripts/perf-llm.ts).
//
//   npx tsx scripts/perf-threads-load.ts [model.gguf] [--threads-candidates 1,2] [--rounds 3]
//                                        [--decode 10] [--come-back-s 20]
//
// 1. the quiet-machine thread table (decode tok/s per candidate count, measured now: the anchor);
// 2. quiet: answers at the table's best count, on a fixed engine and on an adaptive one;
// 3. loaded (a child process busy-looping on one core): the fixed engine's answers (the same-run
//    figure the adaptive count is compared with), then the adaptive engine's — watched rounds, a
//    re-measure, a switch — and its answers after the switch;
// 4. quiet again (burner stopped): the adaptive engine's answers until its come-back check returns
//    it to the quiet-machine best (the back-off is shortened to --come-back-s for this run).
// Per phase: threads used, decode tok/s, ratio against the quiet anchor and against the fixed count
// under the same load; then every decision line the governor logged. The burner is always killed.
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { LlamaEngine } from "../models/engine.ts";
import { inspectGgufFile } from "../models/gguf.ts";
import { formatThreadDecision, roundDecodeTokS } from "../models/thread-governor.ts";
import { measureThreads, type ThreadTable } from "../models/threads.ts";
import { describeMachine } from "../bench/report/table.ts";
import { hardwareInfo } from "../bench/run/environment.ts";
import { modelLine, perfModel } from "./perf-llm.ts";

const log = (line: string): void => void process.stdout.write(`${line}\n`);
const tokS = (x: number | null): string => (x === null ? "–" : `${x.toFixed(2)} tok/s`);
const ratio = (x: number | null, anchor: number | null): string => (x === null || anchor === null || anchor === 0 ? "–" : `${(x / anchor).toFixed(2)}×`);

interface RoundFigure {
  threads: number;
  tokS: number | null;
}

interface Phase {
  name: string;
  rounds: RoundFigure[];
}

function median(values: readonly number[]): number | null {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return null;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

const phaseTokS = (p: Phase): number | null => median(p.rounds.flatMap((r) => (r.tokS === null ? [] : [r.tokS])));

/** A prompt of a few dozen tokens; the same every round, so each round is (almost) pure decode. */
const PROMPT = "<|im_start|>user\nTwo adult tickets from Five Points to the Airport, step-free please, and the fare.<|im_end|>\n<|im_start|>assistant\n";

/** One answer; the thread count it decoded with is the engine's before it (a switch happens after). */
async function answer(engine: LlamaEngine, decode: number): Promise<RoundFigure> {
  const threads = engine.threads;
  const r = await engine.complete({ prompt: PROMPT, maxTokens: decode });
  await engine.threadsSettled(); // a re-measurement this round asked for, before the next round is timed
  return { threads, tokS: roundDecodeTokS(r.usage) };
}

/** A child process that keeps one core busy. */
function startBurner(): ChildProcess {
  return spawn(process.execPath, ["-e", "for (;;) {}"], { stdio: "ignore" });
}

async function stopBurner(burner: ChildProcess | undefined): Promise<void> {
  if (!burner || burner.exitCode !== null || burner.signalCode !== null) return;
  const exited = new Promise((resolve) => burner.once("exit", resolve));
  burner.kill("SIGKILL");
  await exited;
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      "threads-candidates": { type: "string", default: "1,2" },
      rounds: { type: "string", default: "3" },
      decode: { type: "string", default: "10" },
      "come-back-s": { type: "string", default: "20" },
    },
  });
  const candidates = values["threads-candidates"].split(",").map(Number);
  if (candidates.some((n) => !Number.isInteger(n) || n < 1)) throw new Error(`--threads-candidates must be positive integers, got ${values["threads-candidates"]}`);
  const rounds = Number(values.rounds);
  const decode = Number(values.decode);
  const comeBackMs = Number(values["come-back-s"]) * 1000;

  const model = perfModel(positionals[0]);
  const { inspection } = await inspectGgufFile(model.file);
  log(`machine: ${describeMachine(hardwareInfo())}`);
  log(modelLine(model.file, inspection, model.synthetic));

  log(`quiet-machine thread table (candidates ${candidates.join(", ")}; 16-token prompt, 8 decoded tokens each) …`);
  const table: ThreadTable = await measureThreads(model.file, { gpu: false, candidates, decodeTokens: 8, promptTokens: 16 });
  log(`  ${table.results.map((r) => `${r.threads}: ${tokS(r.decodeTokS)}`).join(" · ")} → best ${table.best}`);

  const decisions: string[] = [];
  const base = { modelPath: model.file, gpu: false as const, threads: table.best, contextSize: 1024 };
  const fixed = new LlamaEngine(base);
  const adaptive = new LlamaEngine({ ...base, adaptiveThreads: { table, settings: { comeBackMs } } });
  adaptive.onThreadDecision((d) => {
    const line = formatThreadDecision(d);
    decisions.push(line);
    log(`  [governor] ${line}`);
  });
  await fixed.load();
  await adaptive.load();
  const phases: Phase[] = [];
  const run = async (name: string, engine: LlamaEngine, n: number): Promise<Phase> => {
    log(`${name}: ${n} answers of ${decode} tokens …`);
    const phase: Phase = { name, rounds: [] };
    for (let i = 0; i < n; i++) {
      const r = await answer(engine, decode);
      phase.rounds.push(r);
      log(`  round ${i + 1}: ${r.threads} thread${r.threads === 1 ? "" : "s"}, ${tokS(r.tokS)}`);
    }
    phases.push(phase);
    return phase;
  };

  let burner: ChildProcess | undefined;
  // Interrupted: the burner must not outlive this script.
  const interrupted = (): void => {
    burner?.kill("SIGKILL");
    process.exit(130);
  };
  process.once("SIGINT", interrupted);
  process.once("SIGTERM", interrupted);
  const t0 = performance.now();
  try {
    const quietFixed = await run("quiet, fixed", fixed, rounds);
    await run("quiet, adaptive", adaptive, rounds);

    burner = startBurner();
    log(`burner started (pid ${burner.pid}): one core busy`);
    const loadedFixed = await run("loaded, fixed", fixed, rounds);
    // The governor needs `window` watched rounds before it acts, then answers at the new count.
    await run("loaded, adaptive", adaptive, 2 * rounds);
    await stopBurner(burner);
    burner = undefined;
    log("burner stopped: the machine is quiet again");

    // Rounds until the come-back check has run (or a generous bound), then a few at the result.
    const quietAgain: Phase = { name: "quiet again, adaptive", rounds: [] };
    phases.push(quietAgain);
    log(`quiet again, adaptive: answers until the come-back check (back-off ${comeBackMs / 1000} s) …`);
    const deadline = performance.now() + comeBackMs + 60_000;
    let after = 0;
    while (after < rounds && performance.now() < deadline) {
      const r = await answer(adaptive, decode);
      quietAgain.rounds.push(r);
      log(`  round ${quietAgain.rounds.length}: ${r.threads} thread${r.threads === 1 ? "" : "s"}, ${tokS(r.tokS)}`);
      if (adaptive.threads === table.best) after++;
    }

    const quietAnchor = phaseTokS(quietFixed);
    const loadedAnchor = phaseTokS(loadedFixed);
    log("");
    log(`${"phase".padEnd(24)} ${"threads used".padEnd(18)} ${"decode".padStart(12)} ${"vs quiet".padStart(9)} ${"vs fixed loaded".padStart(16)}`);
    for (const p of phases) {
      const used = p.rounds.map((r) => r.threads).join(",");
      const speed = phaseTokS(p);
      log(`${p.name.padEnd(24)} ${used.padEnd(18)} ${tokS(speed).padStart(12)} ${ratio(speed, quietAnchor).padStart(9)} ${ratio(speed, loadedAnchor).padStart(16)}`);
    }
    // The adaptive engine under load once it has switched: its rounds after the last 2-thread one.
    const loadedAdaptive = phases.find((p) => p.name === "loaded, adaptive") as Phase;
    const switchedRounds = loadedAdaptive.rounds.filter((r) => r.threads !== table.best);
    const afterSwitch = median(switchedRounds.flatMap((r) => (r.tokS === null ? [] : [r.tokS])));
    if (switchedRounds.length === 0) log("loaded, adaptive: no switch");
    else {
      log(
        `loaded, adaptive after its switch (${switchedRounds.length} rounds at ${switchedRounds[0]?.threads ?? "–"} threads): ${tokS(afterSwitch)} = ${ratio(afterSwitch, loadedAnchor)} the fixed count under the same load, ${ratio(afterSwitch, quietAnchor)} the quiet anchor`,
      );
    }
    log(`decisions (${decisions.length}):`);
    for (const line of decisions) log(`  ${line}`);
    log(`wall: ${((performance.now() - t0) / 1000).toFixed(0)} s (after loading)`);
  } finally {
    await stopBurner(burner);
    await fixed.unload();
    await adaptive.unload();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
