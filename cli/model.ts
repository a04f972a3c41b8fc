// `kiosk model …`: fetch, list and inspect the GGUF students.
//   kiosk model pull [4b|2b|9b|27b|hf:owner/repo/file.gguf|https://…] [--models-dir DIR]
//   kiosk model list [--models-dir DIR] [--json]
//   kiosk model inspect FILE [--json] [--context N] [--estimate auto|formula]
import { SingleBar } from "cli-progress";
import type { Command } from "commander";
import { CATALOG, DEFAULT_MODEL_ID } from "../models/catalog.ts";
import { ModelError } from "../models/errors.ts";
import { sharedLlama } from "../models/llama.ts";
import { ModelManager, resolveModelsDir, type PullProgress } from "../models/manager.ts";
import { printJson, UsageError } from "./context.ts";
import { commandDescription } from "./commands.ts";

interface ModelOptions {
  modelsDir?: string;
  json?: boolean;
  context?: string;
  estimate?: string;
  probeTimeout?: string;
}

const MB = 1024 * 1024;
const GB = 1024 ** 3;
const fmtGb = (bytes: number): string =>
  bytes >= GB ? `${(bytes / GB).toFixed(2)} GB` : bytes >= MB ? `${(bytes / MB).toFixed(1)} MB` : `${(bytes / 1024).toFixed(0)} KB`;
/** A parameter count as `kiosk model inspect` prints it (also perf:llm). */
export const fmtParams = (n: number): string => (n >= 1e9 ? `${(n / 1e9).toFixed(2)} B` : n >= 1e6 ? `${(n / 1e6).toFixed(1)} M` : `${n}`);

/** Model-layer errors are the operator's to fix (missing file, offline, bad spec): no stack trace. */
async function asUsage<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof ModelError) throw new UsageError(err.message, { cause: err });
    throw err;
  }
}

function manager(opts: ModelOptions): ModelManager {
  return new ModelManager({ modelsDir: resolveModelsDir({ flag: opts.modelsDir }) });
}

function progressReporter(): { update(p: PullProgress): void; stop(): void } {
  if (process.stderr.isTTY) {
    const bar = new SingleBar(
      { format: "downloading [{bar}] {percentage}% {done}/{size} MB {speed} MB/s ETA {eta_formatted}", hideCursor: true, stream: process.stderr },
      undefined,
    );
    let started = false;
    return {
      update(p) {
        const payload = { done: (p.downloadedBytes / MB).toFixed(0), size: (p.totalBytes / MB).toFixed(0), speed: (p.bytesPerSecond / MB).toFixed(1) };
        if (!started && p.totalBytes > 0) {
          bar.start(p.totalBytes, p.downloadedBytes, payload);
          started = true;
        } else if (started) bar.update(p.downloadedBytes, payload);
      },
      stop: () => started && bar.stop(),
    };
  }
  let lastDecile = -1;
  return {
    update(p) {
      if (p.totalBytes <= 0) return;
      const decile = Math.floor((10 * p.downloadedBytes) / p.totalBytes);
      if (decile > lastDecile) {
        lastDecile = decile;
        process.stderr.write(`downloading ${decile * 10}% (${(p.downloadedBytes / MB).toFixed(0)}/${(p.totalBytes / MB).toFixed(0)} MB)\n`);
      }
    },
    stop: () => undefined,
  };
}

export function registerModelCommands(program: Command): void {
  const model = program
    .command("model")
    .description(commandDescription("model"));

  model
    .command("pull")
    .description("download a model (resumes a partial download; verifies size and GGUF integrity)")
    .argument("[model]", `${CATALOG.map((m) => m.id).join("|")}, hf:<owner>/<repo>/<file>.gguf or an https URL`, DEFAULT_MODEL_ID)
    .option("--models-dir <dir>", "models directory")
    .option("--probe-timeout <ms>", "how long to wait for the download host before giving up", "5000")
    .action(async (spec: string, opts: ModelOptions) => {
      const m = manager(opts);
      const progress = progressReporter();
      const controller = new AbortController();
      const onSignal = () => controller.abort(new UsageError("download interrupted; run the same pull again to resume"));
      process.once("SIGINT", onSignal);
      try {
        const pulled = await asUsage(() =>
          m.pull(spec, { onProgress: (p) => progress.update(p), signal: controller.signal, probeTimeoutMs: Number(opts.probeTimeout ?? 5000) }),
        );
        progress.stop();
        process.stdout.write(
          `${pulled.alreadyPresent ? "already present" : pulled.resumed ? "resumed and downloaded" : "downloaded"}: ${pulled.path} (${fmtGb(pulled.bytes)}, ${pulled.inspection.architecture ?? "?"} ${pulled.inspection.quantization ?? ""})\n`,
        );
      } finally {
        progress.stop();
        process.off("SIGINT", onSignal);
      }
    });

  model
    .command("list")
    .description("models in the models directory, and the published ones you can pull")
    .option("--models-dir <dir>", "models directory")
    .option("--json", "print JSON")
    .action((opts: ModelOptions) => {
      const m = manager(opts);
      const local = m.list();
      if (opts.json) {
        printJson({ modelsDir: m.modelsDir, local, catalog: CATALOG.map((c) => ({ ...c, downloaded: local.some((l) => l.catalogId === c.id && !l.partial) })) });
        return;
      }
      process.stdout.write(`models directory: ${m.modelsDir}\n`);
      if (local.length === 0) process.stdout.write("  (no .gguf files)\n");
      for (const l of local) {
        process.stdout.write(`  ${l.fileName}  ${fmtGb(l.bytes)}${l.partial ? "  [partial download: pull again to resume]" : ""}${l.catalogId ? `  (${l.catalogId})` : ""}\n`);
      }
      process.stdout.write("published students (kiosk model pull <id>):\n");
      for (const c of CATALOG) {
        const have = local.some((l) => l.catalogId === c.id && !l.partial);
        process.stdout.write(`  ${c.id.padEnd(4)} ${c.repo}  ~${(c.approxBytes / 1e9).toFixed(1)} GB  ${have ? "[downloaded]" : ""}${c.isDefault ? "[default] " : ""}${c.hardware}\n`);
      }
    });

  model
    .command("inspect")
    .description("GGUF metadata (architecture, parameters, quantisation, context, chat template), integrity, and whether it fits this machine")
    .argument("<file>", "a .gguf file, or a model id / file name in the models directory")
    .option("--models-dir <dir>", "models directory")
    .option("--context <n>", "context size for the memory estimate (default: the model's catalog default or 16384)")
    .option("--estimate <mode>", "auto (node-llama-cpp's estimate, detects a GPU) or formula (weights + KV + 1.5 GB)", "auto")
    .option("--json", "print JSON")
    .action(async (file: string, opts: ModelOptions) => {
      const m = manager(opts);
      if (opts.estimate !== "auto" && opts.estimate !== "formula") throw new UsageError(`--estimate must be auto or formula, not '${opts.estimate}'`);
      const contextSize = opts.context !== undefined ? Number(opts.context) : undefined;
      if (contextSize !== undefined && !(Number.isInteger(contextSize) && contextSize > 0)) throw new UsageError(`--context must be a positive integer, not '${opts.context}'`);
      const result = await asUsage(async () => {
        const path = m.locate(file);
        const llama = opts.estimate === "auto" ? await sharedLlama("auto").catch(() => undefined) : undefined;
        return m.inspect(path, { contextSize, llama });
      });
      if (opts.json) {
        printJson(result);
        return;
      }
      const { inspection: i, fit } = result;
      const lines = [
        `file:           ${i.path} (${fmtGb(i.fileSize)}, GGUF v${i.ggufVersion})`,
        `model:          ${i.name ?? "?"} (${i.architecture ?? "?"}${i.recurrent ? ", hybrid/recurrent" : ""})`,
        `parameters:     ${fmtParams(i.parameters)}`,
        `layers:         ${i.layers}`,
        `quantisation:   ${i.quantization ?? "?"}`,
        `context length: ${i.contextLength ?? "?"} (trained)`,
        `chat template:  ${i.hasChatTemplate ? "embedded" : "missing (pass one explicitly)"}`,
        `memory @ ${fit.contextSize} ctx: ${fmtGb(fit.cpuRamBytes)} RAM on CPU (${fit.method}); this machine: ${fmtGb(fit.freeRamBytes)} free of ${fmtGb(fit.totalRamBytes)} → ${fit.fitsInRam ? "fits" : "does NOT fit"}`,
      ];
      if (fit.gpu) lines.push(`gpu (${fit.gpu.type}): ${fmtGb(fit.gpu.vramBytes)} VRAM fully offloaded; ${fmtGb(fit.gpu.freeVramBytes)} free → ${fit.gpu.fitsInVram ? "fits" : "does NOT fit"}`);
      process.stdout.write(`${lines.join("\n")}\n`);
    });
}
