// One node-llama-cpp runtime per process and GPU setting. Never builds or downloads binaries: the
// prebuilt ones shipped in node_modules are used, and "auto" falls back to the CPU build. On the CPU,
// a source build for this machine replaces the prebuilt one only where `npm run perf:engine-build`
// measured it faster (models/engine-build.ts).
import type { Llama, LlamaLogLevel } from "node-llama-cpp";
import { llamaCpp } from "./llama-cpp.ts";
import { loadEngineBuild, readEngineBuildChoice } from "./engine-build.ts";

export type GpuSetting = "auto" | false | "cuda" | "vulkan" | "metal";

const instances = new Map<string, Promise<Llama>>();

async function create(gpu: GpuSetting, logLevel: LlamaLogLevel): Promise<Llama> {
  const llama = await createPrebuilt(gpu, logLevel);
  if (llama.gpu !== false || readEngineBuildChoice()?.choice !== "source") return llama;
  try {
    const source = await loadEngineBuild("source", logLevel);
    await llama.dispose();
    return source;
  } catch {
    return llama; // the measured source build is gone: keep the prebuilt one
  }
}

async function createPrebuilt(gpu: GpuSetting, logLevel: LlamaLogLevel): Promise<Llama> {
  const { getLlama } = await llamaCpp();
  const base = { build: "never" as const, skipDownload: true, progressLogs: false, logLevel };
  try {
    return await getLlama({ ...base, gpu });
  } catch (err) {
    if (gpu === false) throw err;
    return getLlama({ ...base, gpu: false });
  }
}

/** The shared Llama runtime for a GPU setting (created on first use). */
export function sharedLlama(gpu: GpuSetting = "auto", logLevel?: LlamaLogLevel): Promise<Llama> {
  // node-llama-cpp's LlamaLogLevel.error is the string "error".
  const key = `${String(gpu)}:${logLevel ?? "error"}`;
  let llama = instances.get(key);
  if (!llama) {
    llama = llamaCpp().then((m) => create(gpu, logLevel ?? m.LlamaLogLevel.error));
    llama.catch(() => instances.delete(key));
    instances.set(key, llama);
  }
  return llama;
}
