// `kiosk probe`: the latency probe a technician runs on the target machine (bench/probe).
//   kiosk probe [--model PATH|4b|synthetic-4b] [--threads N] [--gpu auto|off|metal|cuda|vulkan] [--policy llm|hybrid]
//               [--cases N] [--sustained SECONDS] [--json] [--out FILE] [--models-dir DIR]
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Command } from "commander";
import { BenchError } from "../bench/errors.ts";
import { ModelError } from "../models/errors.ts";
import type { LocalModelOptions } from "../models/local.ts";
import type { ProbeOptions, ProbeProgress } from "../bench/probe/probe.ts";
import { probeJson, renderProbeTable } from "../bench/probe/format.ts";
import { runProbe, type ProbePolicy } from "../bench/probe/probe.ts";
import { PROBE_SET_SIZE } from "../bench/probe/set.ts";
import type { GpuSetting } from "../models/llama.ts";
import { dataPackCorpus, ensureSynthetic4b, SYNTHETIC_4B_SPEC } from "../models/synthetic-gguf.ts";
import { formatBytes, formatMs } from "../bench/report/table.ts";
import { positiveInt } from "./bench-run.ts";
import { dataPack, UsageError, type GlobalOptions } from "./context.ts";
import { commandDescription } from "./commands.ts";
import { probeStepText, ProgressLine, writingText, type ProgressStream } from "./progress.ts";

interface ProbeCliOptions {
  model: string;
  threads?: string;
  gpu: string;
  policy: string;
  cases: string;
  sustained?: string;
  json?: boolean;
  out?: string;
  modelsDir?: string;
}

/** Test hooks: options merged into the probe's engine, its sessions' llm policy and the hybrid router. */
export interface ProbeCommandDeps {
  engine?: LocalModelOptions["engine"];
  llm?: ProbeOptions["llm"];
  hybrid?: ProbeOptions["hybrid"];
  /** Where progress goes (default process.stderr) and the synthetic model's writer (tests: a small one). */
  stderr?: ProgressStream;
  ensureSynthetic?: typeof ensureSynthetic4b;
}

const GPU_VALUES: Readonly<Record<string, GpuSetting>> = { auto: "auto", off: false, cpu: false, metal: "metal", cuda: "cuda", vulkan: "vulkan" };

export function registerProbeCommand(program: Command, deps: ProbeCommandDeps = {}): Command {
  return program
    .command("probe")
    .description(commandDescription("probe"))
    .option("--model <model>", `a .gguf path, 2b/4b/9b/27b from the models directory, or ${SYNTHETIC_4B_SPEC} (a 4B-shaped qwen35 Q4_K_M with random weights, generated once into the cache: realistic speed and memory, gibberish answers)`, "4b")
    .option("--threads <n>", "CPU threads, fixed (default: the fastest in the thread table, measured on first use and cached, then adapted to the machine's load)")
    .option("--gpu <backend>", "auto, off, metal, cuda or vulkan", "auto")
    .option("--policy <name>", "llm (every case through the model) or hybrid (router: rule or model; latency split by path)", "llm")
    .option("--cases <n>", `run only the first N probe cases (1..${PROBE_SET_SIZE})`, String(PROBE_SET_SIZE))
    .option("--sustained <seconds>", "afterwards, keep the model busy this long and sample throughput over time (thermal throttling)")
    .option("--json", "print the result as one JSON object (no table, no progress)")
    .option("--out <file>", "also write the JSON object to this file")
    .option("--models-dir <dir>", "models directory (else $METRO_MODELS_DIR, else ./models/cache)")
    .action(async (opts: ProbeCliOptions, cmd: Command) => {
      const gpu = GPU_VALUES[opts.gpu];
      if (gpu === undefined) throw new UsageError(`--gpu must be one of ${Object.keys(GPU_VALUES).join(", ")}, got '${opts.gpu}'`);
      if (opts.policy !== "llm" && opts.policy !== "hybrid") throw new UsageError(`--policy must be llm or hybrid, got '${opts.policy}'`);
      const cases = positiveInt(opts.cases, "--cases");
      if (cases > PROBE_SET_SIZE) throw new UsageError(`--cases must be 1..${PROBE_SET_SIZE}, got ${cases}`);
      const sustained = opts.sustained !== undefined ? positiveInt(opts.sustained, "--sustained") : 0;
      const pack = dataPack(cmd.optsWithGlobals<GlobalOptions>());
      const progress = opts.json ? null : new ProgressLine(deps.stderr ?? process.stderr);
      if (opts.model === SYNTHETIC_4B_SPEC) {
        let startedAt = 0;
        const made = (deps.ensureSynthetic ?? ensureSynthetic4b)({
          chatTemplate: pack.chatTemplate(),
          corpus: dataPackCorpus(pack),
          onStart: ({ file, bytes }) => {
            startedAt = performance.now();
            progress?.line(`${SYNTHETIC_4B_SPEC}: writing a ${formatBytes(bytes)} model with random weights (once; reused later) to ${file}`);
          },
          onProgress: (written, total) => progress?.update(writingText(SYNTHETIC_4B_SPEC, written, total, performance.now() - startedAt), `${Math.floor((10 * written) / total)}`),
        });
        if (made.generated) progress?.line(`${SYNTHETIC_4B_SPEC}: written in ${formatMs(performance.now() - startedAt)}`);
        else progress?.line(`${SYNTHETIC_4B_SPEC}: reusing ${made.file}`);
        opts.model = made.file;
      }
      let result;
      try {
        result = await runProbe({
          pack,
          model: opts.model,
          ...(opts.threads !== undefined ? { threads: positiveInt(opts.threads, "--threads") } : {}),
          gpu,
          policy: opts.policy as ProbePolicy,
          cases,
          sustainedSeconds: sustained,
          ...(opts.modelsDir ? { modelsDir: path.resolve(opts.modelsDir) } : {}),
          ...(deps.engine ? { engine: deps.engine } : {}),
          ...(deps.hybrid ? { hybrid: deps.hybrid } : {}),
          ...(deps.llm ? { llm: deps.llm } : {}),
          ...(progress ? { onProgress: (p: ProbeProgress) => progress.update(probeStepText(p), String(p.step)) } : {}),
        });
      } catch (err) {
        if (err instanceof BenchError || err instanceof ModelError) throw new UsageError(err.message);
        throw err;
      } finally {
        progress?.clear();
      }
      const json = probeJson(result);
      if (opts.out) {
        mkdirSync(path.dirname(path.resolve(opts.out)), { recursive: true });
        writeFileSync(opts.out, `${JSON.stringify(json, null, 2)}\n`);
      }
      if (opts.json) process.stdout.write(`${JSON.stringify(json)}\n`);
      else process.stdout.write(`${renderProbeTable(result)}${opts.out ? `wrote ${opts.out}\n` : ""}`);
    });
}
