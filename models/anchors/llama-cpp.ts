// llama.cpp's own tools as speed and serving anchors: `llama-bench` (what llama.cpp itself reaches
// on this machine) and `llama-server` (the paper's serving path), built offline from the very
// llama.cpp source that node-llama-cpp ships (node_modules/node-llama-cpp/llama/gitRelease.bundle, a
// git bundle of the release node-llama-cpp's binaries were built from).
//
// Two flavours. The default, "portable", is compiled like node-llama-cpp's prebuilt CPU binary
// (its compileLLamaCpp.js in CI mode): GGML_NATIVE=OFF, no OpenMP, every CPU variant of the
// architecture built as a loadable backend and the best one picked at run time, so the comparison
// with the kiosk's engine is like for like and the binaries run on any CPU of the architecture.
// "native" (opt-in) is compiled for the builder's CPU (GGML_NATIVE=ON): it can die with SIGILL on
// another CPU, e.g. when the cache is shared or restored elsewhere. OpenMP is a second opt-in.
//
// The build is cached outside the repository, per llama.cpp release and flavour:
//   $XDG_CACHE_HOME/metro-kiosk/llama.cpp/<tag>/   (default ~/.cache/metro-kiosk/llama.cpp/<tag>/)
//     src/                 the cloned source (shared by the flavours)
//     <flavour>/build/     the CMake build tree (incremental rebuilds)
//     <flavour>/bin/       llama-bench, llama-server (and, portable, the ggml/llama libraries and CPU variants)
//     <flavour>/build.json what was built, with which options, how long it took
//   where <flavour> is portable, native, portable-openmp or native-openmp.
// METRO_LLAMA_CPP_CACHE overrides the root (CI caches it between runs).
import { spawn } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { homedir } from "node:os";
import path from "node:path";

export const ANCHOR_TARGETS = ["llama-bench", "llama-server"] as const;
export type AnchorTarget = (typeof ANCHOR_TARGETS)[number];

export interface LlamaCppSource {
  /** llama.cpp release tag node-llama-cpp was built from (llama.cpp.info.json). */
  tag: string;
  repo: string;
  /** The git bundle holding that release's source. */
  bundle: string;
  nodeLlamaCppVersion: string;
}

/** How an anchor is compiled (see the header). */
export interface AnchorFlavour {
  /** GGML_NATIVE=ON: for this CPU only. */
  native: boolean;
  /** GGML_OPENMP=ON: OpenMP threads instead of ggml's own thread pool. */
  openmp: boolean;
}

/** The default: compiled like node-llama-cpp's prebuilt binary, the fair comparison for the kiosk's engine. */
export const PORTABLE_ANCHOR: Readonly<AnchorFlavour> = { native: false, openmp: false };

/** The flavour's folder name and label: portable, native, portable-openmp or native-openmp. */
export function anchorFlavourName(flavour: AnchorFlavour): string {
  return `${flavour.native ? "native" : "portable"}${flavour.openmp ? "-openmp" : ""}`;
}

export interface AnchorBuildInfo {
  tag: string;
  nodeLlamaCppVersion: string;
  /** anchorFlavourName of the build (older build.json files lack it). */
  flavour?: string;
  targets: AnchorTarget[];
  cmakeOptions: Record<string, string>;
  /** Whether OpenMP is really in (CMake's GGML_OPENMP_ENABLED): GGML_OPENMP=ON without OpenMP found builds without it. */
  openmp?: boolean;
  jobs: number;
  configureSeconds: number;
  buildSeconds: number;
  builtAt: string;
  compiler: string;
}

export interface AnchorPaths {
  /** The release's folder (the source is shared by the flavours). */
  root: string;
  src: string;
  /** The flavour's folder: build/, bin/ and build.json. */
  dir: string;
  build: string;
  bin: string;
  info: string;
}

/** The llama.cpp source node-llama-cpp ships (no network). */
export function llamaCppSource(): LlamaCppSource {
  // The package exports no ./package.json: walk up from its entry point.
  let dir = path.dirname(createRequire(import.meta.url).resolve("node-llama-cpp"));
  while (!existsSync(path.join(dir, "package.json")) || !existsSync(path.join(dir, "llama"))) {
    const up = path.dirname(dir);
    if (up === dir) throw new AnchorBuildError("node-llama-cpp's package directory was not found");
    dir = up;
  }
  const pkgFile = path.join(dir, "package.json");
  const pkg = JSON.parse(readFileSync(pkgFile, "utf8")) as { version: string };
  const info = JSON.parse(readFileSync(path.join(dir, "llama", "llama.cpp.info.json"), "utf8")) as { tag: string; llamaCppGithubRepo: string };
  return { tag: info.tag, repo: info.llamaCppGithubRepo, bundle: path.join(dir, "llama", "gitRelease.bundle"), nodeLlamaCppVersion: pkg.version };
}

export function anchorCacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  if (env.METRO_LLAMA_CPP_CACHE) return path.resolve(env.METRO_LLAMA_CPP_CACHE);
  const cache = env.XDG_CACHE_HOME ? path.resolve(env.XDG_CACHE_HOME) : path.join(homedir(), ".cache");
  return path.join(cache, "metro-kiosk", "llama.cpp");
}

export function anchorPaths(flavour: AnchorFlavour = PORTABLE_ANCHOR, env: NodeJS.ProcessEnv = process.env, tag: string = llamaCppSource().tag): AnchorPaths {
  const root = path.join(anchorCacheRoot(env), tag);
  const dir = path.join(root, anchorFlavourName(flavour));
  return { root, src: path.join(root, "src"), dir, build: path.join(dir, "build"), bin: path.join(dir, "bin"), info: path.join(dir, "build.json") };
}

/** The built binary of `target` in that flavour, or undefined (with the command that builds it in the caller's message). */
export function anchorBinary(target: AnchorTarget, flavour: AnchorFlavour = PORTABLE_ANCHOR, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const file = path.join(anchorPaths(flavour, env).bin, target);
  return existsSync(file) ? file : undefined;
}

export function anchorBuildInfo(flavour: AnchorFlavour = PORTABLE_ANCHOR, env: NodeJS.ProcessEnv = process.env): AnchorBuildInfo | undefined {
  const file = anchorPaths(flavour, env).info;
  if (!existsSync(file)) return undefined;
  try {
    return JSON.parse(readFileSync(file, "utf8")) as AnchorBuildInfo;
  } catch {
    return undefined;
  }
}

/** What to run when an anchor is missing. */
export const ANCHOR_BUILD_COMMAND = "npm run anchors:build";

/** Every flavour: a Release build of the tools only, offline (no prebuilt web UI download, no curl/OpenSSL). */
const COMMON_CMAKE_OPTIONS: Readonly<Record<string, string>> = {
  CMAKE_BUILD_TYPE: "Release",
  LLAMA_BUILD_TESTS: "OFF",
  LLAMA_BUILD_EXAMPLES: "OFF",
  LLAMA_BUILD_APP: "OFF",
  LLAMA_BUILD_TOOLS: "ON",
  LLAMA_BUILD_SERVER: "ON",
  LLAMA_BUILD_UI: "OFF",
  LLAMA_USE_PREBUILT_UI: "OFF",
  LLAMA_OPENSSL: "OFF",
  LLAMA_CURL: "OFF",
};

/**
 * The CMake options of a flavour. Portable: node-llama-cpp's CI build of its prebuilt binaries
 * (GGML_NATIVE=OFF; GGML_CPU_ALL_VARIANTS where ggml has variants for the platform, which needs
 * loadable backends and so shared libraries, found next to the binaries through an $ORIGIN rpath).
 * Native: static, so the binaries in bin/ stand alone. GGML_OPENMP is always explicit, since
 * llama.cpp's own default is ON and the prebuilt's is OFF.
 */
export function anchorCmakeOptions(flavour: AnchorFlavour, platform: NodeJS.Platform = process.platform, arch: string = process.arch): Record<string, string> {
  const openmp = { GGML_OPENMP: flavour.openmp ? "ON" : "OFF" };
  if (flavour.native) return { ...COMMON_CMAKE_OPTIONS, BUILD_SHARED_LIBS: "OFF", GGML_NATIVE: "ON", ...openmp };
  const variants = arch === "x64" || (arch === "arm64" && (platform === "linux" || platform === "darwin"));
  return {
    ...COMMON_CMAKE_OPTIONS,
    BUILD_SHARED_LIBS: "ON",
    CMAKE_BUILD_RPATH_USE_ORIGIN: "ON",
    GGML_NATIVE: "OFF",
    GGML_BACKEND_DL: "ON",
    ...(variants ? { GGML_CPU_ALL_VARIANTS: "ON" } : {}),
    ...openmp,
  };
}

/** What a build is, read from the options it was configured with (its build.json), not from what was asked for. */
export function describeAnchorBuild(info: AnchorBuildInfo | undefined, loadedCpuVariant?: string): string {
  if (!info) return "llama.cpp, unknown build (no build.json beside the binary)";
  const o = info.cmakeOptions;
  const native = o.GGML_NATIVE === "ON";
  const parts = [
    native ? "native build (GGML_NATIVE=ON, for the builder's CPU)" : "portable build (GGML_NATIVE=OFF)",
    // What CMake resolved, else what was asked (llama.cpp's default is ON).
    `OpenMP ${(info.openmp ?? o.GGML_OPENMP !== "OFF") ? "on" : "off"}`,
  ];
  if (o.GGML_CPU_ALL_VARIANTS === "ON") parts.push(`CPU variant picked at run time${loadedCpuVariant ? `: ${loadedCpuVariant}` : ""}`);
  return `llama.cpp ${info.tag} ${parts.join(", ")}`;
}

/** Whether a build is compiled like node-llama-cpp's prebuilt binary (portable, no OpenMP, CPU variants chosen at run time where the platform has them). */
export function likeThePrebuilt(info: AnchorBuildInfo | undefined): boolean {
  if (!info || info.openmp === true) return false;
  const expected = anchorCmakeOptions(PORTABLE_ANCHOR);
  return ["GGML_NATIVE", "GGML_OPENMP", "GGML_BACKEND_DL", "GGML_CPU_ALL_VARIANTS"].every((k) => info.cmakeOptions[k] === expected[k]);
}

/** The CPU variant a portable build loaded, from its stderr ("load_backend: loaded CPU backend from …/libggml-cpu-haswell.so"). */
export function loadedCpuVariant(stderr: string): string | undefined {
  return /loaded CPU backend from \S*?ggml-cpu-([\w.-]+?)\.(?:so|dylib|dll)\b/.exec(stderr)?.[1];
}

export interface BuildAnchorsOptions {
  targets?: readonly AnchorTarget[];
  /** Default: portable (PORTABLE_ANCHOR). */
  flavour?: AnchorFlavour;
  /** Parallel compile jobs (default: all cores). */
  jobs: number;
  /** Rebuild even when the binaries exist. */
  force?: boolean;
  /** Every output line of git/cmake (for a log or a progress line). */
  onLine?: (line: string) => void;
  /** The cache root's variables, and the environment git and cmake run in. */
  env?: NodeJS.ProcessEnv;
}

export class AnchorBuildError extends Error {
  override name = "AnchorBuildError";
}

function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, onLine?: (line: string) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    const tail: string[] = [];
    const feed = (chunk: Buffer): void => {
      for (const line of chunk.toString("utf8").split(/\r?\n/)) {
        if (!line) continue;
        tail.push(line);
        if (tail.length > 40) tail.shift();
        onLine?.(line);
      }
    };
    child.stdout.on("data", feed);
    child.stderr.on("data", feed);
    child.on("error", (err) => reject(new AnchorBuildError(`${command} could not be started (${err.message}); install it (Debian: apt-get install cmake g++ git)`)));
    child.on("close", (code) => {
      if (code === 0) resolve();
      else reject(new AnchorBuildError(`${command} ${args.join(" ")} failed with exit code ${code}:\n${tail.join("\n")}`));
    });
  });
}

/** What the configure step resolved (CMakeCache.txt): the compiler, and whether OpenMP is really in (GGML_OPENMP=ON without OpenMP found builds without it). */
export function parseCMakeCache(cache: string): { compiler: string; openmp: boolean | undefined } {
  const openmp = /^GGML_OPENMP_ENABLED:INTERNAL=(.*)$/m.exec(cache)?.[1];
  return { compiler: /^CMAKE_CXX_COMPILER:[A-Z]+=(.*)$/m.exec(cache)?.[1] ?? "unknown", openmp: openmp === undefined ? undefined : openmp === "ON" };
}

/** The files bin/ needs beside the targets: a shared build's libraries and loadable CPU variants. */
export function sharedLibraries(files: readonly string[]): string[] {
  return files.filter((f) => /\.(so|dylib)(\.\d+)*$/.test(f) || f.endsWith(".dll")).sort();
}

/** Clone the bundled source (once), configure and build the anchors, copy them to bin/. */
export async function buildAnchors(options: BuildAnchorsOptions): Promise<{ paths: AnchorPaths; info: AnchorBuildInfo; skipped: boolean }> {
  const env = options.env ?? process.env;
  const flavour = options.flavour ?? PORTABLE_ANCHOR;
  const source = llamaCppSource();
  const paths = anchorPaths(flavour, env, source.tag);
  const targets = [...(options.targets ?? ANCHOR_TARGETS)];
  const existing = anchorBuildInfo(flavour, env);
  if (!options.force && existing && targets.every((t) => existsSync(path.join(paths.bin, t)))) {
    return { paths, info: existing, skipped: true };
  }
  mkdirSync(paths.root, { recursive: true });
  if (!existsSync(path.join(paths.src, "CMakeLists.txt"))) {
    rmSync(paths.src, { recursive: true, force: true });
    options.onLine?.(`cloning llama.cpp ${source.tag} from ${source.bundle}`);
    await run("git", ["clone", "--quiet", source.bundle, paths.src], paths.root, env, options.onLine);
  }
  const cmakeOptions = anchorCmakeOptions(flavour);
  const t0 = performance.now();
  await run("cmake", ["-S", paths.src, "-B", paths.build, ...Object.entries(cmakeOptions).map(([k, v]) => `-D${k}=${v}`)], paths.root, env, options.onLine);
  const t1 = performance.now();
  await run("cmake", ["--build", paths.build, "--config", "Release", "-j", String(options.jobs), "--target", ...targets], paths.root, env, options.onLine);
  const t2 = performance.now();
  mkdirSync(paths.bin, { recursive: true });
  const builtDir = path.join(paths.build, "bin");
  for (const target of targets) {
    const built = path.join(builtDir, target);
    if (!existsSync(built)) throw new AnchorBuildError(`the build finished but ${built} is missing`);
    copyFileSync(built, path.join(paths.bin, target));
  }
  // copyFileSync follows the versioned libraries' symlinks: every name the loader asks for is a file.
  for (const lib of sharedLibraries(readdirSync(builtDir))) copyFileSync(path.join(builtDir, lib), path.join(paths.bin, lib));
  let resolved: ReturnType<typeof parseCMakeCache> = { compiler: "unknown", openmp: undefined };
  try {
    resolved = parseCMakeCache(readFileSync(path.join(paths.build, "CMakeCache.txt"), "utf8"));
  } catch {
    // keep "unknown"
  }
  const info: AnchorBuildInfo = {
    tag: source.tag,
    nodeLlamaCppVersion: source.nodeLlamaCppVersion,
    flavour: anchorFlavourName(flavour),
    targets: [...new Set([...(existing?.targets ?? []), ...targets])],
    cmakeOptions,
    ...(resolved.openmp !== undefined ? { openmp: resolved.openmp } : {}),
    jobs: options.jobs,
    configureSeconds: Math.round((t1 - t0) / 100) / 10,
    buildSeconds: Math.round((t2 - t1) / 100) / 10,
    builtAt: new Date().toISOString(),
    compiler: resolved.compiler,
  };
  writeFileSync(paths.info, `${JSON.stringify(info, null, 2)}\n`);
  return { paths, info, skipped: false };
}

/** An anchor of that flavour, built first when it is missing (so a comparison never runs a build it did not ask for). */
export async function ensureAnchor(
  target: AnchorTarget,
  options: Omit<BuildAnchorsOptions, "targets" | "force"> & { build?: typeof buildAnchors },
): Promise<{ binary: string; info: AnchorBuildInfo | undefined; built: boolean }> {
  const flavour = options.flavour ?? PORTABLE_ANCHOR;
  const env = options.env ?? process.env;
  const binary = anchorBinary(target, flavour, env);
  if (binary) return { binary, info: anchorBuildInfo(flavour, env), built: false };
  const { paths, info } = await (options.build ?? buildAnchors)({ ...options, flavour, env, targets: [target] });
  return { binary: path.join(paths.bin, target), info, built: true };
}
