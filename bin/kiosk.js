#!/usr/bin/env node
// Launcher for the `kiosk` CLI: runs the compiled CLI (dist/node, built by scripts/build-node.ts).
// When dist is missing, or a source file it was built from is newer, it builds once first (a few
// seconds), so `npm run main` and `kiosk …` always run current code and never transpile
// TypeScript while running. A command that runs to completion runs from the CommonJS bundle
// (dist/node/kiosk.cjs) with V8's code cache, kept per command beside it; a resident server and
// the program's own help from the ES module build (dist/node/kiosk.js): cli/launch-plan.ts decides.
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { createRequire, SourceMap } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { inspect } from "node:util";
import v8 from "node:v8";
import vm from "node:vm";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const DIST = path.join(ROOT, "dist", "node");
const INFO = path.join(DIST, "build-info.json");
/** A path under `dir` from a build-info entry (relative, "/"-separated): plain concatenation, since
 * path.join's normalising of each of the few hundred entries was half of the staleness check. */
const under = (dir, relative) => `${dir}${path.sep}${relative}`;

/** dist/node/build-info.json with its modification time, or null when there is none (not built). */
function readBuildInfo() {
  try {
    return { info: JSON.parse(readFileSync(INFO, "utf8")), builtAt: statSync(INFO).mtimeMs };
  } catch {
    return null;
  }
}

/** Why dist/node must be (re)built, or null when it is current. */
function staleReason(build) {
  if (build === null) return "not built yet";
  const { info, builtAt } = build;
  // Without sources (a copy of dist alone) there is nothing to compare with.
  if (!exists(path.join(ROOT, "scripts", "build-node.ts"))) return null;
  for (const input of info.inputs) {
    let mtime;
    try {
      mtime = statSync(under(ROOT, input)).mtimeMs;
    } catch {
      return `${input} was removed`;
    }
    if (mtime > builtAt) return `${input} changed`;
  }
  for (const output of info.outputs) if (!exists(under(DIST, output))) return `dist/node/${output} is missing`;
  return null;
}

function exists(file) {
  try {
    statSync(file);
    return true;
  } catch {
    return false;
  }
}

let build = readBuildInfo();
const reason = staleReason(build);
if (reason !== null) {
  process.stderr.write(`kiosk: compiling the CLI into dist/node (${reason})…\n`);
  const built = spawnSync(process.execPath, ["--import", "tsx", path.join(ROOT, "scripts", "build-node.ts")], { cwd: ROOT, stdio: ["ignore", "inherit", "inherit"] });
  if (built.status !== 0) {
    process.stderr.write("kiosk: the build failed (see above); `npm run build:node` retries it\n");
    process.exit(built.status ?? 1);
  }
  build = readBuildInfo();
}

/** At most this many code caches per build (each about 1.5 MB): sub-command names come from the command line. */
const MAX_CODE_CACHES = 16;

/**
 * The CLI's `main` from the CommonJS bundle, compiled with the code cache V8 made for `key`
 * (when there is one and V8 accepts it: same bundle text, same V8 and flags). The cache is made
 * as the process exits, so that it holds the code of every function the command ran, not only
 * what compiling the bundle produced; and made again whenever a run has compiled more than it
 * holds (a one-case `bench run` first, the whole bench later), so that it grows to what the
 * sub-command's runs use. A run that adds nothing leaves it as it is.
 */
function mainWithCodeCache(bundle, key) {
  const file = path.join(DIST, bundle.file);
  // V8 checks a cache against the source's length only: the bundle's hash is in the name.
  const prefix = `${bundle.file}.${bundle.sha256.slice(0, 16)}.`;
  const cacheFile = path.join(DIST, `${prefix}${key}.v8cache`);
  let cachedData;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    // none yet
  }
  // Node's CommonJS wrapper, on a line of its own so that the bundle's lines keep their numbers.
  // __kioskImport: this file's import(), for the ES modules the bundle loads (models/llama-cpp.ts).
  const wrapped = `(function (exports, require, module, __filename, __dirname, __kioskImport) { "use strict";\n${readFileSync(file, "utf8")}\n})`;
  const script = new vm.Script(wrapped, { filename: file, lineOffset: -1, cachedData });
  const previous = cachedData === undefined || script.cachedDataRejected ? 0 : cachedData.length;
  process.once("exit", () => writeCodeCache(script, cacheFile, prefix, previous));
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(file), module, file, DIST, (specifier) => import(specifier));
  return module.exports.main;
}

/** A cache is replaced only when the new one is this much larger (same code, a few bytes' jitter). */
const CODE_CACHE_GROWTH = 1.01;

/** Write the script's code cache to `file` unless it holds no more than the `previous` bytes used (0: none). */
function writeCodeCache(script, file, prefix, previous) {
  const temp = `${file}.${process.pid}.tmp`;
  try {
    const caches = readdirSync(DIST).filter((name) => name.startsWith(prefix) && name.endsWith(".v8cache"));
    if (caches.length >= MAX_CODE_CACHES && !caches.includes(path.basename(file))) return;
    const data = script.createCachedData(); // ≈ 10 ms for the whole CLI
    if (previous > 0 && data.length <= previous * CODE_CACHE_GROWTH) return;
    writeFileSync(temp, data);
    renameSync(temp, file); // a process starting meanwhile reads the old cache or the new one, never half
  } catch {
    // A read-only installation runs without a cache.
  }
}

/**
 * An error as Node prints it, its dist/node frames mapped to the TypeScript sources through the
 * chunks' source maps. (Read only when something crashed: enabling Node's own source-map support
 * would parse every loaded chunk's map at start-up.)
 */
function withSourceFrames(error) {
  const maps = new Map();
  const mapOf = (file) => {
    if (!maps.has(file)) {
      try {
        maps.set(file, new SourceMap(JSON.parse(readFileSync(`${file}.map`, "utf8"))));
      } catch {
        maps.set(file, null);
      }
    }
    return maps.get(file);
  };
  // ES module frames name file URLs, the CommonJS bundle's frames its path (with a drive letter on Windows).
  return inspect(error).replace(/(file:\/\/[^\s()]+?\.c?js|(?:[A-Za-z]:)?[\\/][^\s()]+?\.cjs):(\d+):(\d+)/g, (frame, location, line, column) => {
    const file = location.startsWith("file:") ? fileURLToPath(location) : location;
    if (!file.startsWith(DIST + path.sep)) return frame;
    const entry = mapOf(file)?.findEntry(Number(line) - 1, Number(column) - 1);
    if (!entry?.originalSource) return frame;
    const source = path.relative(process.cwd(), path.resolve(path.dirname(file), entry.originalSource));
    return `${source}:${entry.originalLine + 1}:${entry.originalColumn + 1}`;
  });
}

function crash(error) {
  process.stderr.write(`${withSourceFrames(error)}\n`);
  process.exit(1);
}
process.on("uncaughtException", crash);

const { launchPlan } = await import(pathToFileURL(path.join(DIST, "launch-plan.js")).href);
const plan = launchPlan(process.argv.slice(2), process.execArgv);
const bundle = plan.codeCache !== null ? build?.info.cjs : undefined;
let main;
if (bundle) {
  // Before anything is compiled: V8 accepts a code cache only under the flags it was made with.
  if (plan.v8Flags) v8.setFlagsFromString(plan.v8Flags);
  main = mainWithCodeCache(bundle, plan.codeCache);
} else {
  ({ main } = await import(pathToFileURL(path.join(DIST, "kiosk.js")).href));
}
try {
  await main(process.argv);
} catch (error) {
  crash(error);
}
