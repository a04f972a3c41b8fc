// Where the local model is and how it is loaded — for the kiosk's passenger model (in its model
// process, models/worker/), the bench's llm/hybrid policies, the llm judge and the latency probe:
// `--model` is a .gguf path or a catalog id (2b, 4b, 9b, 27b) in the models directory (ModelManager),
// inspected, then loaded into one LlamaEngine. What a run records about the model (file, size,
// quantisation, threads, GPU, load time) is LocalModelInfo / modelSettings.
//
// node-llama-cpp is imported on first use only, so a rule-only process never loads it.
import path from "node:path";
import type { LlamaEngine, LlamaEngineOptions } from "./engine.ts";
import { ModelError } from "./errors.ts";
import type { GgufInspection } from "./gguf.ts";
import type { GpuSetting } from "./llama.ts";

/** The catalog model used when `--model` is not given. */
export const DEFAULT_LOCAL_MODEL = "4b";

/** What a run records about the local model it used. */
export interface LocalModelInfo {
  /** Absolute path of the GGUF file. */
  file: string;
  fileName: string;
  bytes: number;
  /** Short quantisation name (e.g. Q4_K_M), when the file says. */
  quantization: string | null;
  architecture: string | null;
  parameters: number;
  /** Catalog id (2b/4b/9b/27b) when the file is a catalog model. */
  catalogId: string | null;
  contextSize: number;
  threads: number;
  /** GPU backend in use ("cuda", "metal", "vulkan") or false for CPU only. */
  gpu: string | false;
  /** Hybrid/recurrent architecture (prefix reuse through checkpoints). */
  recurrent: boolean;
  loadMs: number;
}

export interface LocalModelOptions {
  /** A .gguf path, or a catalog id (2b, 4b, 9b, 27b) in the models directory. Default 4b. */
  model?: string;
  /** CPU threads (always passed to node-llama-cpp). Default: measured on first use (models/threads.ts). */
  threads?: number;
  /**
   * When the thread count is measured (no `threads`): watch the decode speed of real answers and
   * switch the count when another process slows it down (models/thread-governor.ts). Default true.
   */
  adaptiveThreads?: boolean;
  gpu?: GpuSetting;
  /** Models directory (default: $METRO_MODELS_DIR, else ./models/cache). */
  modelsDir?: string;
  /** Extra engine options (tests: forcedOutputPrefix, a smaller context). */
  engine?: Partial<Omit<LlamaEngineOptions, "modelPath" | "threads">>;
}

export interface LoadedLocalModel {
  engine: LlamaEngine;
  info: LocalModelInfo;
  inspection: GgufInspection;
}

/** The model could not be found or loaded; the message says what to do. */
export class LocalModelError extends ModelError {
  override name = "LocalModelError";
}

/** Where `--model` points: an existing file, else the models directory. Throws LocalModelError. */
export async function locateLocalModel(spec: string = DEFAULT_LOCAL_MODEL, modelsDir?: string): Promise<{ file: string; catalogId: string | null }> {
  const [{ ModelManager }, { catalogEntry, catalogEntryForFile, DEFAULT_MODEL_ID }, { ModelNotFoundError }] = await Promise.all([
    import("./manager.ts"),
    import("./catalog.ts"),
    import("./errors.ts"),
  ]);
  const manager = new ModelManager(modelsDir ? { modelsDir } : {});
  try {
    const file = manager.locate(spec);
    return { file, catalogId: catalogEntryForFile(path.basename(file))?.id ?? null };
  } catch (err) {
    if (!(err instanceof ModelNotFoundError)) throw err;
    const entry = catalogEntry(spec);
    if (entry) {
      throw new LocalModelError(
        `model '${entry.id}' is not downloaded (no ${err.path}): run \`kiosk model pull ${entry.id}\` first, or pass --model PATH to a .gguf file`,
      );
    }
    const pathLike = spec.includes("/") || spec.includes("\\");
    throw new LocalModelError(
      `model file not found: ${pathLike ? spec : `${spec} (not a file here nor in ${path.dirname(err.path)})`}: pass --model PATH to a .gguf file or a downloaded catalog model (2b, 4b, 9b, 27b); the kiosk's default model is downloaded with \`kiosk model pull ${DEFAULT_MODEL_ID}\``,
    );
  }
}

/** Locate, inspect and load a local model into one engine. Throws LocalModelError. */
export async function loadLocalModel(options: LocalModelOptions = {}): Promise<LoadedLocalModel> {
  const { file, catalogId } = await locateLocalModel(options.model ?? DEFAULT_LOCAL_MODEL, options.modelsDir);
  const [{ LlamaEngine }, { inspectGgufFile }, { catalogEntry }, { chooseThreads }] = await Promise.all([
    import("./engine.ts"),
    import("./gguf.ts"),
    import("./catalog.ts"),
    import("./threads.ts"),
  ]);
  try {
    // Measured once per machine and model (decode tok/s for 1..N threads), then read from the cache;
    // that table is also what the adaptive thread count compares real answers with.
    let threads = options.threads;
    let adaptiveThreads = options.engine?.adaptiveThreads;
    if (threads === undefined) {
      const chosen = await chooseThreads(file, { gpu: options.gpu ?? "auto" });
      threads = chosen.threads;
      if (options.adaptiveThreads !== false) adaptiveThreads ??= { table: chosen.table };
    }
    const { inspection } = await inspectGgufFile(file);
    const contextSize = options.engine?.contextSize ?? (catalogId ? catalogEntry(catalogId)?.defaultContextSize : undefined) ?? 16384;
    const engine = new LlamaEngine({ gpu: options.gpu ?? "auto", ...options.engine, contextSize, modelPath: file, threads, ...(adaptiveThreads ? { adaptiveThreads } : {}) });
    const t0 = performance.now();
    await engine.load();
    const loadMs = performance.now() - t0;
    const info = engine.info;
    return {
      engine,
      inspection,
      info: {
        file,
        fileName: path.basename(file),
        bytes: inspection.fileSize,
        quantization: inspection.quantization ?? null,
        architecture: inspection.architecture ?? null,
        parameters: inspection.parameters,
        catalogId,
        contextSize: info.contextSize,
        threads: info.threads,
        gpu: info.gpu,
        recurrent: inspection.recurrent,
        loadMs,
      },
    };
  } catch (err) {
    if (err instanceof ModelError) throw new LocalModelError(err.message, { cause: err });
    throw err;
  }
}

/** What the run stores about the model (JSON-ready). */
export function modelSettings(info: LocalModelInfo): Record<string, unknown> {
  return {
    model_file: info.file,
    model_bytes: info.bytes,
    quantization: info.quantization,
    architecture: info.architecture,
    parameters: info.parameters,
    catalog_id: info.catalogId,
    context_size: info.contextSize,
    threads: info.threads,
    gpu: info.gpu,
    load_ms: Math.round(info.loadMs),
  };
}

/**
 * Warm boot: restore the saved KV state of the shared prompt prefix when it matches this model
 * file; else evaluate the prefix once (`prefix` renders it with the model's chat template) and save
 * it there for the next start. Never fatal: the log says what happened.
 */
export async function warmBoot(engine: LlamaEngine, file: string, prefix: (chatTemplate: string) => string, log: (message: string) => void): Promise<void> {
  try {
    if (await engine.loadWarmState(file)) {
      log(`warm boot: the shared prompt prefix was restored from ${file}`);
      return;
    }
    const template = engine.chatTemplate();
    if (!template) return;
    const t0 = performance.now();
    const saved = await engine.saveWarmState(file, prefix(template));
    log(`warm boot: evaluated the shared prompt prefix (${saved.tokens} tokens, ${Math.round(performance.now() - t0)} ms) and saved it to ${file}`);
  } catch (err) {
    log(`warm boot skipped (${(err as Error).message})`);
  }
}
