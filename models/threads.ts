// CPU threads chosen by measurement. On first use of a model on a machine the engine's thread count
// is not guessed (the old default, cores − 1, is 1 thread on a 2-core kiosk, half its speed): decode
// speed is measured for 1..N threads on a short, fixed workload, and the fastest is used. The table
// is cached per machine and model file, so this costs seconds once:
//   $XDG_CACHE_HOME/metro-kiosk/threads.json   (default ~/.cache/metro-kiosk/threads.json)
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import os, { homedir } from "node:os";
import path from "node:path";
import type { Llama, LlamaModel, Token } from "node-llama-cpp";
import { sharedLlama, type GpuSetting } from "./llama.ts";

export interface ThreadMeasurement {
  threads: number;
  /** Decode tokens per second (after the first generated token). */
  decodeTokS: number;
  /** Prefill tokens per second of the workload's prompt. */
  prefillTokS: number;
}

export interface ThreadTable {
  /** The fastest decode. */
  best: number;
  results: ThreadMeasurement[];
  measuredAt: string;
  /** How long the measurement took. */
  seconds: number;
  machine: { cpuModel: string; cores: number; platform: string; arch: string };
  model: { path: string; size: number; mtimeMs: number };
  gpu: string | false;
}

export interface MeasureThreadsOptions {
  gpu?: GpuSetting;
  /** The runtime to measure (default: the shared one for `gpu`; scripts pass another engine build). */
  llama?: Llama;
  /** Thread counts to try (default 1..cores). */
  candidates?: readonly number[];
  /** Tokens decoded per thread count (default 16). */
  decodeTokens?: number;
  /** Prompt tokens prefilled per thread count (default 32). */
  promptTokens?: number;
  onProgress?: (message: string) => void;
}

export function threadsCacheFile(env: NodeJS.ProcessEnv = process.env): string {
  const cache = env.XDG_CACHE_HOME ? path.resolve(env.XDG_CACHE_HOME) : path.join(homedir(), ".cache");
  return path.join(cache, "metro-kiosk", "threads.json");
}

function machine(): ThreadTable["machine"] {
  return { cpuModel: os.cpus()[0]?.model.trim() ?? "unknown", cores: os.availableParallelism(), platform: os.platform(), arch: os.arch() };
}

function modelKey(modelPath: string): ThreadTable["model"] {
  const stat = statSync(modelPath);
  return { path: path.resolve(modelPath), size: stat.size, mtimeMs: stat.mtimeMs };
}

function cacheKey(m: ThreadTable["machine"], model: ThreadTable["model"], gpu: string | false): string {
  return createHash("sha256").update(JSON.stringify([m, model, gpu])).digest("hex").slice(0, 24);
}

function readCache(file: string): Record<string, ThreadTable> {
  if (!existsSync(file)) return {};
  try {
    return JSON.parse(readFileSync(file, "utf8")) as Record<string, ThreadTable>;
  } catch {
    return {}; // a damaged cache is measured again
  }
}

/** The cached table for this machine, model file and backend, if any. */
export function cachedThreadTable(modelPath: string, gpu: string | false, file: string = threadsCacheFile()): ThreadTable | undefined {
  return readCache(file)[cacheKey(machine(), modelKey(modelPath), gpu)];
}

function storeThreadTable(table: ThreadTable, file: string): void {
  const all = readCache(file);
  all[cacheKey(table.machine, table.model, table.gpu)] = table;
  mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(all, null, 2)}\n`);
  renameSync(tmp, file);
}

/** A deterministic workload prompt of `n` tokens (the same for every thread count). */
function workloadPrompt(model: LlamaModel, n: number): Token[] {
  const text = "Passenger at Five Points needs two adult tickets to the Airport, step-free please. ".repeat(Math.ceil(n / 8) + 2);
  return model.tokenize(text, false).slice(0, n);
}

/** What one measurement per thread count does. */
export interface ThreadWorkload {
  /** Prompt tokens prefilled. */
  promptTokens: number;
  /** Tokens decoded (at least 2: the first one ends the prefill). */
  decodeTokens: number;
  /** Stop decoding after this long once a decode speed is known (the re-measure between answers). */
  maxDecodeMs?: number;
}

async function measureOne(model: LlamaModel, threads: number, prompt: Token[], workload: ThreadWorkload): Promise<ThreadMeasurement> {
  const decodeTokens = Math.max(2, workload.decodeTokens);
  const context = await model.createContext({ contextSize: Math.max(256, prompt.length + decodeTokens + 8), threads, sequences: 1 });
  try {
    const sequence = context.getSequence();
    const t0 = performance.now();
    let first = 0;
    let last = 0;
    let count = 0;
    for await (const _token of sequence.evaluate(prompt, { temperature: 0 })) {
      void _token;
      count++;
      last = performance.now();
      if (count === 1) first = last;
      if (count >= decodeTokens) break;
      if (workload.maxDecodeMs !== undefined && count >= 2 && last - first >= workload.maxDecodeMs) break;
    }
    return { threads, prefillTokS: prompt.length / ((first - t0) / 1000), decodeTokS: count < 2 ? 0 : (count - 1) / ((last - first) / 1000) };
  } finally {
    await context.dispose();
  }
}

/**
 * Decode (and prefill) speed for each thread count on an already loaded model, each on a small
 * scratch context of its own (the model's other contexts are not touched).
 */
export async function measureThreadsOnModel(
  model: LlamaModel,
  candidates: readonly number[],
  workload: ThreadWorkload,
  onProgress?: (message: string) => void,
): Promise<ThreadMeasurement[]> {
  const prompt = workloadPrompt(model, workload.promptTokens);
  const results: ThreadMeasurement[] = [];
  for (const threads of candidates) {
    onProgress?.(`measuring decode speed with ${threads} thread${threads === 1 ? "" : "s"} …`);
    results.push(await measureOne(model, threads, prompt, workload));
  }
  return results;
}

/** Measure decode (and prefill) speed for each thread count; the model is loaded once. */
export async function measureThreads(modelPath: string, options: MeasureThreadsOptions = {}): Promise<ThreadTable> {
  const t0 = performance.now();
  const llama = options.llama ?? (await sharedLlama(options.gpu ?? "auto"));
  const cores = os.availableParallelism();
  const candidates = options.candidates ?? Array.from({ length: cores }, (_, i) => i + 1);
  const model = await llama.loadModel({ modelPath, gpuLayers: llama.gpu === false ? 0 : "auto" });
  try {
    const workload = { promptTokens: options.promptTokens ?? 32, decodeTokens: options.decodeTokens ?? 16 };
    const results = await measureThreadsOnModel(model, candidates, workload, options.onProgress);
    const best = results.reduce((a, b) => (b.decodeTokS > a.decodeTokS ? b : a));
    return {
      best: best.threads,
      results,
      measuredAt: new Date().toISOString(),
      seconds: Math.round((performance.now() - t0) / 100) / 10,
      machine: machine(),
      model: modelKey(modelPath),
      gpu: llama.gpu,
    };
  } finally {
    await model.dispose();
  }
}

/**
 * The thread count to use for this model here: the cached measurement, else measured now (and
 * cached). `remeasure` ignores the cache.
 */
export async function chooseThreads(
  modelPath: string,
  options: MeasureThreadsOptions & { remeasure?: boolean; cacheFile?: string } = {},
): Promise<{ threads: number; table: ThreadTable; fromCache: boolean }> {
  const file = options.cacheFile ?? threadsCacheFile();
  const gpu = (await sharedLlama(options.gpu ?? "auto")).gpu;
  const cached = options.remeasure ? undefined : cachedThreadTable(modelPath, gpu, file);
  if (cached) return { threads: cached.best, table: cached, fromCache: true };
  const table = await measureThreads(modelPath, options);
  storeThreadTable(table, file);
  return { threads: table.best, table, fromCache: false };
}
