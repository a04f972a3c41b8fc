#!/usr/bin/env node
// Launcher for the `kiosk` CLI: runs the compiled CLI (dist/node/kiosk.js, built by
// scripts/build-node.ts). When dist is missing, or a source file it was built from is newer, it
// builds once first (a few seconds), so `npm run main` and `kiosk …` always run current code and
// never transpile TypeScript while running.
import { spawnSync } from "node:child_process";
import { readFileSync, statSync } from "node:fs";
import { SourceMap } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { inspect } from "node:util";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const DIST = path.join(ROOT, "dist", "node");
const INFO = path.join(DIST, "build-info.json");
/** A path under `dir` from a build-info entry (relative, "/"-separated): plain concatenation, since
 * path.join's normalising of each of the few hundred entries was half of the staleness check. */
const under = (dir, relative) => `${dir}${path.sep}${relative}`;

/** Why dist/node must be (re)built, or null when it is current. */
function staleReason() {
  let info;
  let builtAt;
  try {
    info = JSON.parse(readFileSync(INFO, "utf8"));
    builtAt = statSync(INFO).mtimeMs;
  } catch {
    return "not built yet";
  }
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

const reason = staleReason();
if (reason !== null) {
  process.stderr.write(`kiosk: compiling the CLI into dist/node (${reason})…\n`);
  const built = spawnSync(process.execPath, ["--import", "tsx", path.join(ROOT, "scripts", "build-node.ts")], { cwd: ROOT, stdio: ["ignore", "inherit", "inherit"] });
  if (built.status !== 0) {
    process.stderr.write("kiosk: the build failed (see above); `npm run build:node` retries it\n");
    process.exit(built.status ?? 1);
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
  return inspect(error).replace(/(file:\/\/[^\s()]+?\.js):(\d+):(\d+)/g, (frame, url, line, column) => {
    const file = fileURLToPath(url);
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

const { main } = await import(pathToFileURL(path.join(DIST, "kiosk.js")).href);
try {
  await main(process.argv);
} catch (error) {
  crash(error);
}
