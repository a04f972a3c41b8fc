// llama.cpp's own tools as speed and serving anchors: `llama-bench` (what llama.cpp itself reaches
// on this machine) and `llama-server` (the paper's serving path), built offline from the very
// llama.cpp source that node-llama-cpp ships (node_modules/node-llama-cpp/llama/gitRelease.bundle, a
// git bundle of the release node-llama-cpp's binaries were built from).
//
// The build is cached outside the repository, per llama.cpp release:
//   $XDG_CACHE_HOME/metro-kiosk/llama.cpp/<tag>/   (default ~/.cache/metro-kiosk/llama.cpp/<tag>/)
//     src/        the cloned source
//     build/      the CMake build tree (incremental rebuilds)
//     bin/        llama-bench, llama-server
//     build.json  what was built, with which options, how long it took
// METRO_LLAMA_CPP_CACHE overrides the root (CI caches it between runs).
import { spawn } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
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

export interface AnchorBuildInfo {
  tag: string;
  nodeLlamaCppVersion: string;
  targets: AnchorTarget[];
  cmakeOptions: Record<string, string>;
  jobs: number;
  configureSeconds: number;
  buildSeconds: number;
  builtAt: string;
  compiler: string;
}

export interface AnchorPaths {
  root: string;
  src: string;
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

export function anchorPaths(tag: string = llamaCppSource().tag, env: NodeJS.ProcessEnv = process.env): AnchorPaths {
  const root = path.join(anchorCacheRoot(env), tag);
  return { root, src: path.join(root, "src"), build: path.join(root, "build"), bin: path.join(root, "bin"), info: path.join(root, "build.json") };
}

/** The built binary of `target`, or undefined (with the command that builds it in the caller's message). */
export function anchorBinary(target: AnchorTarget, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const file = path.join(anchorPaths(undefined, env).bin, target);
  return existsSync(file) ? file : undefined;
}

export function anchorBuildInfo(env: NodeJS.ProcessEnv = process.env): AnchorBuildInfo | undefined {
  const file = anchorPaths(undefined, env).info;
  if (!existsSync(file)) return undefined;
  try {
    return JSON.parse(readFileSync(file, "utf8")) as AnchorBuildInfo;
  } catch {
    return undefined;
  }
}

/** What to run when an anchor is missing. */
export const ANCHOR_BUILD_COMMAND = "npm run anchors:build";

/**
 * CMake options: a native Release build of the tools only, offline (no prebuilt web UI download, no
 * curl/OpenSSL), static so the binaries in bin/ stand alone.
 */
export const ANCHOR_CMAKE_OPTIONS: Readonly<Record<string, string>> = {
  CMAKE_BUILD_TYPE: "Release",
  BUILD_SHARED_LIBS: "OFF",
  GGML_NATIVE: "ON",
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

export interface BuildAnchorsOptions {
  targets?: readonly AnchorTarget[];
  /** Parallel compile jobs (default: all cores). */
  jobs: number;
  /** Rebuild even when the binaries exist. */
  force?: boolean;
  /** Every output line of git/cmake (for a log or a progress line). */
  onLine?: (line: string) => void;
  env?: NodeJS.ProcessEnv;
}

export class AnchorBuildError extends Error {
  override name = "AnchorBuildError";
}

function run(command: string, args: string[], cwd: string, onLine?: (line: string) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: ["ignore", "pipe", "pipe"] });
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

/** Clone the bundled source (once), configure and build the anchors, copy them to bin/. */
export async function buildAnchors(options: BuildAnchorsOptions): Promise<{ paths: AnchorPaths; info: AnchorBuildInfo; skipped: boolean }> {
  const env = options.env ?? process.env;
  const source = llamaCppSource();
  const paths = anchorPaths(source.tag, env);
  const targets = [...(options.targets ?? ANCHOR_TARGETS)];
  const existing = anchorBuildInfo(env);
  if (!options.force && existing && targets.every((t) => existsSync(path.join(paths.bin, t)))) {
    return { paths, info: existing, skipped: true };
  }
  mkdirSync(paths.root, { recursive: true });
  if (!existsSync(path.join(paths.src, "CMakeLists.txt"))) {
    rmSync(paths.src, { recursive: true, force: true });
    options.onLine?.(`cloning llama.cpp ${source.tag} from ${source.bundle}`);
    await run("git", ["clone", "--quiet", source.bundle, paths.src], paths.root, options.onLine);
  }
  const cmakeOptions = { ...ANCHOR_CMAKE_OPTIONS };
  const t0 = performance.now();
  await run("cmake", ["-S", paths.src, "-B", paths.build, ...Object.entries(cmakeOptions).map(([k, v]) => `-D${k}=${v}`)], paths.root, options.onLine);
  const t1 = performance.now();
  await run("cmake", ["--build", paths.build, "--config", "Release", "-j", String(options.jobs), "--target", ...targets], paths.root, options.onLine);
  const t2 = performance.now();
  mkdirSync(paths.bin, { recursive: true });
  for (const target of targets) {
    const built = path.join(paths.build, "bin", target);
    if (!existsSync(built)) throw new AnchorBuildError(`the build finished but ${built} is missing`);
    copyFileSync(built, path.join(paths.bin, target));
  }
  let compiler = "unknown";
  try {
    const cache = readFileSync(path.join(paths.build, "CMakeCache.txt"), "utf8");
    compiler = /^CMAKE_CXX_COMPILER:[A-Z]+=(.*)$/m.exec(cache)?.[1] ?? compiler;
  } catch {
    // keep "unknown"
  }
  const info: AnchorBuildInfo = {
    tag: source.tag,
    nodeLlamaCppVersion: source.nodeLlamaCppVersion,
    targets: [...new Set([...(existing?.targets ?? []), ...targets])],
    cmakeOptions,
    jobs: options.jobs,
    configureSeconds: Math.round((t1 - t0) / 100) / 10,
    buildSeconds: Math.round((t2 - t1) / 100) / 10,
    builtAt: new Date().toISOString(),
    compiler,
  };
  writeFileSync(paths.info, `${JSON.stringify(info, null, 2)}\n`);
  return { paths, info, skipped: false };
}
