#!/usr/bin/env node
// Launcher for the `kiosk` CLI: runs the compiled CLI (dist/node, built by scripts/build-node.ts).
// When dist is missing, or a source file it was built from is newer, it builds once first (a few
// seconds), so `npm run main` and `kiosk …` always run current code and never transpile
// TypeScript while running. A command that runs to completion runs from the CommonJS bundle
// (dist/node/kiosk.cjs) with V8's code cache, kept per command beside it; a resident server and
// the program's own help from the ES module build (dist/node/kiosk.js): cli/launch-plan.ts decides.
//
// This file is CommonJS (bin/package.json), as is the launch plan it reads first
// (dist/node/launch-plan.cjs): a command run from the CommonJS bundle never starts Node's ES module
// loader, ≈ 30 ms of every such command's start-up here (docs/PERFORMANCE.md).
"use strict";
const { readdirSync, readFileSync, renameSync, statSync, writeFileSync } = require("node:fs");
const { createRequire, SourceMap } = require("node:module");
const path = require("node:path");
const { fileURLToPath, pathToFileURL } = require("node:url");
const { inspect } = require("node:util");
const v8 = require("node:v8");
const vm = require("node:vm");

const ROOT = path.resolve(__dirname, "..");
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
  const built = require("node:child_process").spawnSync(process.execPath, ["--import", "tsx", path.join(ROOT, "scripts", "build-node.ts")], { cwd: ROOT, stdio: ["ignore", "inherit", "inherit"] });
  if (built.status !== 0) {
    process.stderr.write("kiosk: the build failed (see above); `npm run build:node` retries it\n");
    process.exit(built.status ?? 1);
  }
  build = readBuildInfo();
}

/** At most this many code caches per build (each about 1.5 MB): sub-command names come from the command line. */
const MAX_CODE_CACHES = 16;

/**
 * A code cache file: this magic, the isolate's bytecode size (bytes, little-endian 64-bit) at the
 * end of the run that wrote it, then V8's data. A later run of the command that ends with about
 * as much bytecode compiled nothing the cache lacks, and skips making a new one (≈ 15 ms of every
 * run); see writeCodeCache for what "about" means.
 */
const CACHE_MAGIC = "kioskv8c";
const CACHE_HEADER = 16;

/** `{ data, bytecode }` of a cache file's bytes, or null when they are not one (another format, cut short). */
function parseCodeCache(bytes) {
  if (bytes.length <= CACHE_HEADER || bytes.toString("latin1", 0, CACHE_MAGIC.length) !== CACHE_MAGIC) return null;
  return { data: bytes.subarray(CACHE_HEADER), bytecode: Number(bytes.readBigUInt64LE(CACHE_MAGIC.length)) };
}

function codeCacheBytes(data, bytecode) {
  const header = Buffer.alloc(CACHE_HEADER);
  header.write(CACHE_MAGIC, 0, "latin1");
  header.writeBigUInt64LE(BigInt(bytecode), CACHE_MAGIC.length);
  return Buffer.concat([header, data]);
}

const bytecodeSize = () => v8.getHeapCodeStatistics().bytecode_and_metadata_size; // ≈ 4 ms at the end of a bench run

/**
 * The CLI's `main` from the CommonJS bundle (one function expression: scripts/build-node.ts),
 * compiled with the code cache V8 made for `key` (when there is one and V8 accepts it: same
 * bundle text, same V8 and flags). The cache is made as a successful run's process exits (a
 * failed one compiled little but its error path), so that it holds the code of every function the
 * command ran, not only what compiling the bundle produced; and made again whenever a run has
 * compiled more than it holds (a one-case `bench run` first, the whole bench later), so that it
 * grows to what the sub-command's runs use. A run that adds nothing leaves it as it is.
 */
function mainWithCodeCache(bundle, key) {
  const file = path.join(DIST, bundle.file);
  // V8 checks a cache against the source's length only: the bundle's hash is in the name.
  const prefix = `${bundle.file}.${bundle.sha256.slice(0, 16)}.`;
  const cacheFile = path.join(DIST, `${prefix}${key}.v8cache`);
  let cache = null;
  try {
    cache = parseCodeCache(readFileSync(cacheFile));
  } catch {
    // none yet
  }
  const script = new vm.Script(readFileSync(file, "utf8"), { filename: file, cachedData: cache?.data });
  const used = cache !== null && !script.cachedDataRejected ? cache : null;
  // A failed run (a usage error, a mistyped policy) writes none: each mistyped name would take one
  // of the build's MAX_CODE_CACHES places.
  process.once("exit", (code) => {
    if (code === 0) writeCodeCache(script, cacheFile, prefix, used);
  });
  const module = { exports: {} };
  // __kioskImport: this file's import(), for the ES modules the bundle loads (models/llama-cpp.ts).
  script.runInThisContext()(module.exports, createRequire(file), module, file, DIST, (specifier) => import(specifier));
  return module.exports.main;
}

/** A cache is made again when the run ends with this much more bytecode, and replaced when it is this much larger. */
const CODE_CACHE_GROWTH = 1.01;
/**
 * …or with this much less. The heap's bytecode counts dead code until a full garbage collection
 * frees it, so a longer run (the whole bench after one case) that collected it can end with less
 * bytecode than a short run, though it compiled more; only V8's data can tell then.
 */
const CODE_CACHE_SHRINK = 0.97;

/**
 * Write the script's code cache to `file` unless the cache `used` (null: none) already holds what
 * this run compiled: the run's bytecode stayed within a few percent of the size recorded with it,
 * or the new cache is no larger (then only the recorded size changes to this run's, so that the
 * next run like it skips the check). Runs of one kind end with the same bytecode, run after run.
 */
function writeCodeCache(script, file, prefix, used) {
  const temp = `${file}.${process.pid}.tmp`;
  try {
    const bytecode = bytecodeSize();
    if (used !== null && bytecode <= used.bytecode * CODE_CACHE_GROWTH && bytecode >= used.bytecode * CODE_CACHE_SHRINK) return;
    const caches = readdirSync(DIST).filter((name) => name.startsWith(prefix) && name.endsWith(".v8cache"));
    if (caches.length >= MAX_CODE_CACHES && !caches.includes(path.basename(file))) return;
    const data = script.createCachedData(); // ≈ 15 ms for the whole CLI
    const kept = used !== null && data.length <= used.data.length * CODE_CACHE_GROWTH ? used.data : data;
    writeFileSync(temp, codeCacheBytes(kept, bytecode));
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

async function launch() {
  const { launchPlan } = require(path.join(DIST, "launch-plan.cjs"));
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
  // The build's identity and cache folder, for caches of the CLI's own (cli/validated-files.ts).
  await main(process.argv, bundle ? { buildId: bundle.sha256, dir: DIST } : undefined);
  // A command that runs to completion has done its work once main resolves: end the process now.
  // Left to itself, Node would tear the environment and the heap down piece by piece (the bench
  // writer thread's too): ≈ 14 ms of a whole bench run's end here. `exit` listeners still run (the
  // code cache, the validation memo). Output still queued for a slow reader (pipes are asynchronous
  // on macOS) goes out first.
  if (bundle) exitOnceFlushed();
}
launch().catch(crash);

function exitOnceFlushed() {
  const queued = [process.stdout, process.stderr].filter((stream) => stream.writableLength > 0);
  let left = queued.length;
  if (left === 0) process.exit();
  for (const stream of queued) stream.once("drain", () => --left === 0 && process.exit());
}
