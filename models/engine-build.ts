// The engine build: node-llama-cpp's prebuilt CPU binary (generic, with runtime CPU dispatch) or a
// source build of its bundled llama.cpp for this very CPU (GGML_NATIVE). `npm run engine:build`
// compiles the source build offline (node-llama-cpp clones llama.cpp from the git bundle it ships
// and writes the binary under node_modules/node-llama-cpp/llama/localBuilds; ~5–7 min on 2 cores);
// `npm run perf:engine-build` measures both on the same model and records the faster one here:
//   $XDG_CACHE_HOME/metro-kiosk/engine-build.json
// The engine uses the source build only when that measurement chose it.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import type { Llama, LlamaLogLevel } from "node-llama-cpp";
import { llamaCpp } from "./llama-cpp.ts";

export type EngineBuild = "prebuilt" | "source";

/** CMake options of the source build (the folder name node-llama-cpp gives it depends on them). */
export const SOURCE_BUILD_CMAKE_OPTIONS: Readonly<Record<string, string>> = { GGML_NATIVE: "ON" };

/**
 * How each build is compiled. The prebuilt is node-llama-cpp's CI build (its compileLLamaCpp.js:
 * GGML_NATIVE=OFF, GGML_OPENMP=OFF, every CPU variant built and the best one loaded at run time);
 * the source build sets GGML_NATIVE=ON and leaves OpenMP at llama.cpp's default, on.
 */
export const ENGINE_BUILD_COMPILATION: Readonly<Record<EngineBuild, { native: boolean; openmp: boolean; text: string }>> = {
  prebuilt: { native: false, openmp: false, text: "portable build (GGML_NATIVE=OFF), OpenMP off, CPU variant picked at run time" },
  source: { native: true, openmp: true, text: "native build (GGML_NATIVE=ON, for this CPU), OpenMP on" },
};

/** The engine build in words, e.g. "node-llama-cpp 3.21.1 prebuilt binary: portable build (GGML_NATIVE=OFF), OpenMP off, …". */
export function describeEngineBuild(build: EngineBuild, nodeLlamaCppVersion: string): string {
  return `node-llama-cpp ${nodeLlamaCppVersion} ${build === "prebuilt" ? "prebuilt binary" : "source build"}: ${ENGINE_BUILD_COMPILATION[build].text}`;
}

export interface EngineBuildChoice {
  choice: EngineBuild;
  measuredAt: string;
  model: string;
  threads: number;
  figures: Record<EngineBuild, { prefillTokS: number; decodeTokS: number }>;
}

export function engineBuildChoiceFile(env: NodeJS.ProcessEnv = process.env): string {
  const cache = env.XDG_CACHE_HOME ? path.resolve(env.XDG_CACHE_HOME) : path.join(homedir(), ".cache");
  return path.join(cache, "metro-kiosk", "engine-build.json");
}

export function readEngineBuildChoice(file: string = engineBuildChoiceFile()): EngineBuildChoice | undefined {
  if (!existsSync(file)) return undefined;
  try {
    return JSON.parse(readFileSync(file, "utf8")) as EngineBuildChoice;
  } catch {
    return undefined;
  }
}

export function writeEngineBuildChoice(choice: EngineBuildChoice, file: string = engineBuildChoiceFile()): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(choice, null, 2)}\n`);
}

/** The CPU runtime of a given build; the source build must exist (no compiling here). */
export async function loadEngineBuild(build: EngineBuild, logLevel?: LlamaLogLevel): Promise<Llama> {
  const { getLlama, LlamaLogLevel: Level } = await llamaCpp();
  const base = { gpu: false as const, skipDownload: true, progressLogs: false, logLevel: logLevel ?? Level.error };
  if (build === "prebuilt") return getLlama({ ...base, build: "never" });
  const missing = "no source build of the engine here: run `npm run engine:build` first";
  const llama = await getLlama({ ...base, build: "never", cmakeOptions: { ...SOURCE_BUILD_CMAKE_OPTIONS }, existingPrebuiltBinaryMustMatchBuildOptions: true, usePrebuiltBinaries: false }).catch((err: unknown) => {
    throw new Error(missing, { cause: err });
  });
  if (llama.buildType !== "localBuild") {
    await llama.dispose();
    throw new Error(missing);
  }
  return llama;
}

/** Whether a source build of the engine is there (and loads). */
export async function sourceBuildPresent(): Promise<boolean> {
  try {
    await (await loadEngineBuild("source")).dispose();
    return true;
  } catch {
    return false;
  }
}

/** Compile the source build (offline, from the llama.cpp bundled with node-llama-cpp). */
export async function buildSourceEngine(): Promise<{ buildType: string; seconds: number }> {
  const t0 = performance.now();
  const { getLlama, LlamaLogLevel } = await llamaCpp();
  const llama = await getLlama({
    gpu: false,
    build: "forceRebuild",
    cmakeOptions: { ...SOURCE_BUILD_CMAKE_OPTIONS },
    progressLogs: true,
    logLevel: LlamaLogLevel.warn,
  });
  const buildType = llama.buildType;
  await llama.dispose();
  return { buildType, seconds: Math.round((performance.now() - t0) / 1000) };
}
