// Our engine against llama.cpp's own llama-bench, side by side in one run, on the same 4B-shaped
// GGUFs and thread counts: prefill and decode tokens/s of LlamaEngine (node-llama-cpp's prebuilt
// binary the kiosk uses, or the source build `npm run perf:engine-build` chose) as a share of
// llama-bench's, built from the same llama.cpp source. Target: >= 95 % on both, for both architectures.
//
//   npm run perf:anchor -- [--arch qwen35,llama] [--threads 1,2] [--prefill 128] [--decode 32] [--reps 3] [--native] [--openmp] [--json] [--record]
//
// Prints the header (machine, ours, llama-bench, a note when they are not compiled alike), then the
// table; --json prints one JSON object on stdout instead (comparisonJson) and the table on stderr.
//
// The llama-bench is by default the portable one, compiled like node-llama-cpp's prebuilt binary
// (GGML_NATIVE=OFF, no OpenMP, CPU variant picked at run time: models/anchors/llama-cpp.ts), and
// built here first when it is missing; --native / --openmp compare with those builds instead. The
// output names the machine, both builds as they were compiled (from build.json and the CPU variant
// llama-bench loaded), and says when the two are not compiled alike.
//
// qwen35: the student's shape with random Q4_K_M weights (models/synthetic-gguf.ts); llama: the
// shared tool's Qwen3-4B-like random Q4_K model (../shared/tools/make-bench-gguf.mjs). Both are
// generated once into ~/.cache/metro-kiosk/models. Runs alternate (ours, llama-bench, ours, ...) so
// that load from other processes hits both alike; the median of the repetitions is reported, with
// the machine's load average, because on a shared machine the figures move; "paired" is the median
// of each repetition's own share (ours / the llama-bench run beside it).
import { execFile, execFileSync } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs, promisify } from "node:util";
import { describeMachine } from "../bench/report/table.ts";
import { hardwareInfo } from "../bench/run/environment.ts";
import type { Hardware } from "../bench/store/schema.ts";
import { anchorBinary, anchorFlavourName, describeAnchorBuild, ensureAnchor, likeThePrebuilt, llamaCppSource, loadedCpuVariant, type AnchorBuildInfo, type AnchorFlavour } from "../models/anchors/llama-cpp.ts";
import { describeEngineBuild, ENGINE_BUILD_COMPILATION, type EngineBuild } from "../models/engine-build.ts";
import { LlamaEngine } from "../models/engine.ts";
import { dataPackCorpus, ensureSynthetic4b, syntheticModelsDir } from "../models/synthetic-gguf.ts";
import { SHARED_DIR } from "../test/paths.ts";
import { DataPack } from "../tools/data/datapack.ts";
import { recordFigures } from "./figures.ts";

const run = promisify(execFile);

const log = (line: string): void => void process.stderr.write(`${line}\n`);

// ---------------------------------------------------------------------------------------------
// What was compared, in words (exported for scripts/perf-anchor.test.ts)

export interface AnchorComparison {
  machine: Hardware;
  /** Our CPU runtime: the prebuilt binary, or the source build `npm run perf:engine-build` chose. */
  engineBuild: EngineBuild;
  nodeLlamaCppVersion: string;
  /** The llama-bench run: its flavour folder, its build.json (undefined when missing) and the CPU variant it loaded. */
  anchor: { flavour: string; binary: string; info: AnchorBuildInfo | undefined; cpuVariant: string | undefined };
}

/** The lines above the table: the machine, both builds as compiled, and a warning when they differ. */
export function comparisonHeader(c: AnchorComparison): string[] {
  const lines = [
    `machine: ${describeMachine(c.machine)}`,
    `ours: ${describeEngineBuild(c.engineBuild, c.nodeLlamaCppVersion)}`,
    `llama-bench: ${describeAnchorBuild(c.anchor.info, c.anchor.cpuVariant)} (${c.anchor.flavour}: ${c.anchor.binary})`,
  ];
  const oursLikePrebuilt = !ENGINE_BUILD_COMPILATION[c.engineBuild].native && !ENGINE_BUILD_COMPILATION[c.engineBuild].openmp;
  if (oursLikePrebuilt !== likeThePrebuilt(c.anchor.info)) {
    lines.push("note: the two are not compiled alike, so the shares below compare builds as well as engines");
  }
  return lines;
}

/** The --json object: the header's facts as fields (for a README generator), then the rows. */
export function comparisonJson(c: AnchorComparison, settings: Settings, rows: readonly Row[]) {
  return {
    machine: c.machine,
    ours: { build: c.engineBuild, label: describeEngineBuild(c.engineBuild, c.nodeLlamaCppVersion) },
    llamaBench: { flavour: c.anchor.flavour, binary: c.anchor.binary, label: describeAnchorBuild(c.anchor.info, c.anchor.cpuVariant), likeThePrebuilt: likeThePrebuilt(c.anchor.info), cpuVariant: c.anchor.cpuVariant ?? null, build: c.anchor.info ?? null },
    settings,
    rows,
  };
}

// ---------------------------------------------------------------------------------------------
// The measurement

export interface Settings {
  prefill: number;
  decode: number;
  reps: number;
}

function modelFile(arch: "qwen35" | "llama"): string {
  if (arch === "qwen35") {
    const pack = DataPack.locate();
    const { file, generated } = ensureSynthetic4b({ chatTemplate: pack.chatTemplate(), corpus: dataPackCorpus(pack) });
    if (generated) log(`generated ${file}`);
    return file;
  }
  const file = path.join(syntheticModelsDir(), "llama-4b-random-q4k.gguf");
  if (!existsSync(file)) {
    mkdirSync(path.dirname(file), { recursive: true });
    log(`generating ${file} with ../shared/tools/make-bench-gguf.mjs ...`);
    execFileSync(process.execPath, [path.join(SHARED_DIR, "tools", "make-bench-gguf.mjs"), file], { stdio: ["ignore", "ignore", "inherit"] });
  }
  return file;
}

/** Text of exactly `tokens` tokens for this model. */
function textOfTokens(engine: LlamaEngine, tokens: number, seed: string): string {
  let text = "";
  for (let i = 0; engine.tokenize(text, false).length < tokens; i++) text += `${seed} passenger ${i} route fare station. `;
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = Math.floor((lo + hi + 1) / 2);
    if (engine.tokenize(text.slice(0, mid), false).length <= tokens) lo = mid;
    else hi = mid - 1;
  }
  return text.slice(0, lo);
}

async function ours(engine: LlamaEngine, rep: number, s: Settings): Promise<{ prefill: number; decode: number }> {
  // A fresh prompt each time (nothing cached), then free generation after a short prompt.
  const p = await engine.complete({ prompt: textOfTokens(engine, s.prefill, `prefill run ${rep}`), maxTokens: 1 });
  const evaluated = p.usage.promptTokens - p.usage.cachedPromptTokens;
  const d = await engine.complete({ prompt: textOfTokens(engine, 4, `decode ${rep}`), maxTokens: s.decode });
  return { prefill: evaluated / (p.usage.prefillMs / 1000), decode: (d.usage.completionTokens - 1) / (d.usage.decodeMs / 1000) };
}

async function llamaBench(bench: string, file: string, threads: number, s: Settings): Promise<{ prefill: number; decode: number; cpuVariant: string | undefined }> {
  const { stdout, stderr } = await run(bench, ["-m", file, "-t", String(threads), "-p", String(s.prefill), "-n", String(s.decode), "-r", "1", "-o", "json"], { maxBuffer: 16 * 1024 * 1024 });
  const rows = JSON.parse(stdout) as { n_prompt: number; n_gen: number; avg_ts: number }[];
  const pp = rows.find((r) => r.n_prompt > 0 && r.n_gen === 0);
  const tg = rows.find((r) => r.n_gen > 0 && r.n_prompt === 0);
  if (!pp || !tg) throw new Error(`unexpected llama-bench output: ${stdout.slice(0, 500)}`);
  return { prefill: pp.avg_ts, decode: tg.avg_ts, cpuVariant: loadedCpuVariant(stderr) };
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
};

export interface Row {
  arch: string;
  threads: number;
  oursPrefill: number;
  benchPrefill: number;
  oursDecode: number;
  benchDecode: number;
  /** Median of the per-repetition shares (ours / llama-bench run next to it): steadier than a ratio of medians when the machine's speed drifts between repetitions. */
  pairedPrefillShare: number;
  pairedDecodeShare: number;
  loadAverage: number;
  engineBuild: EngineBuild;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      arch: { type: "string", default: "qwen35,llama" },
      threads: { type: "string", default: Array.from({ length: availableParallelism() }, (_, i) => i + 1).join(",") },
      prefill: { type: "string", default: "128" },
      decode: { type: "string", default: "32" },
      reps: { type: "string", default: "3" },
      native: { type: "boolean", default: false },
      openmp: { type: "boolean", default: false },
      json: { type: "boolean", default: false },
      record: { type: "boolean", default: false },
    },
  });
  const archs = values.arch.split(",") as ("qwen35" | "llama")[];
  const threadCounts = values.threads.split(",").map(Number);
  const settings: Settings = { prefill: Number(values.prefill), decode: Number(values.decode), reps: Number(values.reps) };
  const flavour: AnchorFlavour = { native: values.native, openmp: values.openmp };

  if (!anchorBinary("llama-bench", flavour)) log(`llama-bench (${anchorFlavourName(flavour)}) is not built: building it first, once (minutes on 2 cores) ...`);
  const anchor = await ensureAnchor("llama-bench", {
    flavour,
    jobs: availableParallelism(),
    onLine: (line) => {
      if (/^cloning|^\[\s*\d*0%\]|error/i.test(line)) log(`  ${line}`);
    },
  });

  const rows: Row[] = [];
  let cpuVariant: string | undefined;
  for (const arch of archs) {
    const file = modelFile(arch);
    for (const threads of threadCounts) {
      log(`${arch}, ${threads} thread(s): ${settings.reps} x (ours, llama-bench) with pp${settings.prefill} + tg${settings.decode} ...`);
      const engine = new LlamaEngine({ modelPath: file, threads, gpu: false, contextSize: 2048 });
      await engine.load();
      const engineBuild = engine.info.engineBuild;
      const o: { prefill: number; decode: number }[] = [];
      const b: { prefill: number; decode: number }[] = [];
      const loads: number[] = [];
      try {
        await engine.complete({ prompt: "warm up", maxTokens: 2 });
        for (let rep = 0; rep < settings.reps; rep++) {
          o.push(await ours(engine, rep, settings));
          const bench = await llamaBench(anchor.binary, file, threads, settings);
          cpuVariant ??= bench.cpuVariant;
          b.push(bench);
          loads.push(loadavg()[0] as number);
          log(`  rep ${rep + 1}: ours ${o.at(-1)?.prefill.toFixed(2)} / ${o.at(-1)?.decode.toFixed(2)} tok/s, llama-bench ${bench.prefill.toFixed(2)} / ${bench.decode.toFixed(2)} tok/s (load ${loads.at(-1)?.toFixed(1)})`);
        }
      } finally {
        await engine.unload();
      }
      rows.push({
        arch,
        threads,
        oursPrefill: median(o.map((x) => x.prefill)),
        benchPrefill: median(b.map((x) => x.prefill)),
        oursDecode: median(o.map((x) => x.decode)),
        benchDecode: median(b.map((x) => x.decode)),
        pairedPrefillShare: median(o.map((x, i) => x.prefill / (b[i] as { prefill: number }).prefill)),
        pairedDecodeShare: median(o.map((x, i) => x.decode / (b[i] as { decode: number }).decode)),
        loadAverage: median(loads),
        engineBuild,
      });
    }
  }

  const comparison: AnchorComparison = {
    machine: hardwareInfo(),
    // One process loads one engine build (the recorded choice), so every row has the same.
    engineBuild: rows[0]?.engineBuild ?? "prebuilt",
    nodeLlamaCppVersion: llamaCppSource().nodeLlamaCppVersion,
    anchor: { flavour: anchorFlavourName(flavour), binary: anchor.binary, info: anchor.info, cpuVariant },
  };
  const pct = (a: number, b: number): string => `${((100 * a) / b).toFixed(0)} %`;
  const f = (x: number): string => x.toFixed(2);
  // --json: stdout is the JSON object alone (for a README generator); the table goes to stderr.
  const table = values.json ? process.stderr : process.stdout;
  for (const line of comparisonHeader(comparison)) table.write(`${line}\n`);
  table.write(`median of ${settings.reps}, pp${settings.prefill} / tg${settings.decode}\n`);
  table.write("arch    threads  prefill ours  llama-bench  share  paired   decode ours  llama-bench  share  paired   load avg\n");
  for (const r of rows) {
    table.write(
      `${r.arch.padEnd(7)} ${String(r.threads).padStart(7)}  ${f(r.oursPrefill).padStart(12)}  ${f(r.benchPrefill).padStart(11)}  ${pct(r.oursPrefill, r.benchPrefill).padStart(5)}  ${pct(r.pairedPrefillShare, 1).padStart(6)}  ${f(r.oursDecode).padStart(11)}  ${f(r.benchDecode).padStart(11)}  ${pct(r.oursDecode, r.benchDecode).padStart(5)}  ${pct(r.pairedDecodeShare, 1).padStart(6)}  ${r.loadAverage.toFixed(1).padStart(8)}\n`,
    );
  }
  if (values.json) process.stdout.write(`${JSON.stringify(comparisonJson(comparison, settings, rows), null, 2)}\n`);
  if (values.record) {
    const share = (x: number): number => Math.round(x * 1000) / 10;
    const perRow = Object.fromEntries(
      rows.flatMap((r) => [
        [`prefill_share_${r.arch}_${r.threads}t`, share(r.pairedPrefillShare)],
        [`decode_share_${r.arch}_${r.threads}t`, share(r.pairedDecodeShare)],
      ]),
    );
    const header = comparisonHeader(comparison);
    const file = await recordFigures("perf-anchor", `npm run perf:anchor -- --arch ${values.arch} --threads ${values.threads} --reps ${settings.reps} --record`, {
      rows: rows.map((r) => `${r.arch}_${r.threads}t`).join(","),
      ours: describeEngineBuild(comparison.engineBuild, comparison.nodeLlamaCppVersion),
      llama_bench: describeAnchorBuild(comparison.anchor.info, comparison.anchor.cpuVariant),
      compiled_alike: header.some((line) => line.startsWith("note:")) ? "no" : "yes",
      settings: `pp${settings.prefill} / tg${settings.decode}, median of ${settings.reps} paired repetitions`,
      ...perRow,
    });
    log(`recorded in ${file}`);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
