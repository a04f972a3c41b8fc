// Compiles the Node programs (the `kiosk` CLI, and any process it starts) into dist/node/: ESM
// bundles with source maps, split into chunks so a command loads only the code it runs (a lazy
// `import()` becomes its own chunk: `kiosk --help` never loads node-llama-cpp or the kiosk server).
// The CLI is also bundled once more as one CommonJS file, dist/node/kiosk.cjs, which bin/kiosk.js
// runs with V8's code cache for the commands that run to completion (cli/launch-plan.ts): Node 20
// has no code cache for ES modules, and compiling the CLI's code is a tenth of a bench run.
// What the launcher reads first, the launch plan, is CommonJS too (LAUNCH_PLAN_ENTRY).
// Users never transpile TypeScript at run time: bin/kiosk.js runs dist/node and runs this
// build once when dist is missing or older than a source file it was built from.
//
//   npm run build:node            (tsx scripts/build-node.ts [--minify false])
//
// To compile another Node program, add it to NODE_ENTRY_POINTS; its output is
// dist/node/<name>.js (e.g. a model worker process: `"model-worker": "models/worker/main.ts"`).
// Code that starts it finds it with tools/util/node-entry.ts: `nodeEntry("model-worker", new
// URL("./worker/main.ts", import.meta.url))` gives dist/node/model-worker.js when running
// compiled, the TypeScript source (with tsx) when running from the sources.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build, type Metafile, type OutputFile, type Plugin } from "esbuild";
import { asciiOnlyChunk, type RawSourceMap } from "./ascii-output.ts";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** Output name → entry source (relative to the repository root). */
export const NODE_ENTRY_POINTS: Readonly<Record<string, string>> = {
  kiosk: "cli/main.ts",
  // The bench's SQLite writer thread (bench/store/case-writer.ts).
  "case-writer": "bench/store/case-writer-thread.ts",
};

export const NODE_OUT_DIR = path.join(ROOT, "dist", "node");

/** Written last by a build: what bin/kiosk.js reads to decide whether dist is current. */
export const BUILD_INFO_FILE = "build-info.json";

/**
 * Packages loaded from node_modules at run time rather than bundled: native addons (and the model
 * runtime, which locates its binaries beside itself), ws's optional native helpers, and Electron.
 */
export const NODE_EXTERNALS = [
  "better-sqlite3",
  "node-llama-cpp",
  "bufferutil",
  "utf-8-validate",
  "electron",
  // Compiled ClojureScript (clj-fuzzy, under words-to-numbers) finds its global through the
  // module's top-level `this`, which is undefined once bundled as ESM: Node loads it as CommonJS.
  "words-to-numbers",
];

/** Files outside the bundle's inputs whose change also makes dist stale. */
const EXTRA_INPUTS = ["package.json", "package-lock.json", "scripts/build-node.ts"];

/** Chunks a newer build no longer references are removed once they are this old (a running process may still load them). */
const STALE_CHUNK_AGE_MS = 24 * 3600 * 1000;

/** The CLI as one CommonJS file (bin/kiosk.js compiles it with V8's code cache). */
export const CJS_ENTRY = { name: "kiosk", source: "cli/main.ts", file: "kiosk.cjs" } as const;
/**
 * The first line of the CommonJS bundle: it is one function expression of Node's module
 * parameters and `__kioskImport` (the launcher's own `import()`, for the ES modules the bundle
 * loads, such as node-llama-cpp), which bin/kiosk.js calls.
 */
export const CJS_WRAPPER_HEAD = '(function (exports, require, module, __filename, __dirname, __kioskImport) { "use strict";';

/**
 * What bin/kiosk.js reads first, as CommonJS (the launcher require()s it: a command run from the
 * CommonJS bundle then never starts Node's ES module loader): which build of the CLI to run, with
 * which V8 flags. The command table's import()s of the commands are left out: the plan never runs them.
 */
export const LAUNCH_PLAN_ENTRY = { name: "launch-plan", source: "cli/launch-plan.ts", file: "launch-plan.cjs" } as const;

export interface BuildInfo {
  /** Entry name → output file, relative to dist/node. */
  entries: Record<string, string>;
  /**
   * CJS_ENTRY's file and the SHA-256 of its text: code caches are kept per bundle text (V8 itself
   * checks only the source's length against a cache).
   */
  cjs: { file: string; sha256: string };
  /** Repository files the build read (project sources and EXTRA_INPUTS), relative to the root. */
  inputs: string[];
  /** Every file of this build, relative to dist/node. */
  outputs: string[];
}

/**
 * In a bundle `import.meta.url` would be the chunk's URL; code that finds files beside its source
 * (the repository root, the pack manifest) gets its own source file's URL instead, computed from
 * the chunk's location (all chunks sit directly in dist/node/).
 */
function sourceUrlPlugin(outDir: string, chunkUrl: string): Plugin {
  return {
    name: "kiosk-source-import-meta-url",
    setup(b) {
      b.onLoad({ filter: /\.(ts|tsx)$/ }, async (args) => {
        if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
        const { readFile } = await import("node:fs/promises");
        const text = await readFile(args.path, "utf8");
        if (!text.includes("import.meta.url")) return undefined;
        const relative = path.relative(outDir, args.path).split(path.sep).join("/");
        const replaced = text.replaceAll("import.meta.url", `new URL(${JSON.stringify(relative)}, ${chunkUrl}).href`);
        return { contents: replaced, loader: args.path.endsWith(".tsx") ? "tsx" : "ts" };
      });
    },
  };
}

/**
 * zod's `z` namespace object carries all of its ~60 locales (a quarter of a megabyte of code to
 * load with every command) though only English is ever used (zod sets it up itself): the bundle's
 * locales module exports English alone.
 */
function zodEnglishOnlyPlugin(): Plugin {
  return {
    name: "kiosk-zod-english-only",
    setup(b) {
      b.onLoad({ filter: /[\\/]node_modules[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, (args) => ({
        contents: 'export { default as en } from "./en.js";',
        loader: "js",
        resolveDir: path.dirname(args.path),
      }));
    },
  };
}

function projectInputs(...metafiles: Metafile[]): string[] {
  const inputs = metafiles.flatMap((m) => Object.keys(m.inputs)).filter((p) => !p.startsWith("node_modules/") && !p.includes(":"));
  return [...new Set([...inputs, ...EXTRA_INPUTS])].sort();
}

/**
 * What starting an entry loads before any `import()` runs: the bundled sources and the external
 * packages reachable from its output through static imports.
 */
export function staticClosure(metafile: Metafile, outputFile: string): { inputs: string[]; externals: string[] } {
  const inputs = new Set<string>();
  const externals = new Set<string>();
  const seen = new Set<string>();
  const pending = [outputFile];
  while (pending.length > 0) {
    const file = pending.pop() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    const output = metafile.outputs[file];
    if (!output) throw new Error(`${file} is not an output of this build`);
    for (const input of Object.keys(output.inputs)) inputs.add(input);
    for (const imp of output.imports) {
      if (imp.kind !== "import-statement") continue;
      if (imp.external) externals.add(imp.path);
      else pending.push(imp.path);
    }
  }
  return { inputs: [...inputs].sort(), externals: [...externals].sort() };
}

/** The command table's import()s, in the launch plan: a module that says it is not there (never loaded). */
function notInLaunchPlanPlugin(): Plugin {
  const namespace = "kiosk-not-in-launch-plan";
  return {
    name: namespace,
    setup(b) {
      b.onResolve({ filter: /.*/ }, (args) => (args.kind === "dynamic-import" ? { path: args.path, namespace } : undefined));
      b.onLoad({ filter: /.*/, namespace }, (args) => ({ contents: `throw new Error(${JSON.stringify(`${args.path} is the CLI's, not in its launch plan`)});`, loader: "js" }));
    },
  };
}

/** A file to write: its path and bytes (esbuild's, or made ASCII-only from them). */
interface Output {
  path: string;
  contents: Uint8Array;
}

/**
 * Every chunk ASCII-only (scripts/ascii-output.ts: V8 keeps a source with any character above
 * U+00FF as a two-byte string), its source map shifted to match; other files as esbuild made them.
 */
function asciiOnlyOutputs(files: readonly OutputFile[]): Output[] {
  const byPath = new Map(files.map((f) => [f.path, f]));
  const replaced = new Map<string, Uint8Array>();
  for (const file of files) {
    const sourceType = file.path.endsWith(".cjs") ? "script" : file.path.endsWith(".js") ? "module" : null;
    if (sourceType === null) continue;
    const mapFile = byPath.get(`${file.path}.map`);
    const map = mapFile ? (JSON.parse(mapFile.text) as RawSourceMap) : undefined;
    const ascii = asciiOnlyChunk(file.text, map, path.relative(ROOT, file.path), sourceType);
    if (ascii.code === file.text) continue;
    replaced.set(file.path, Buffer.from(ascii.code, "ascii"));
    if (mapFile && ascii.map) replaced.set(mapFile.path, Buffer.from(JSON.stringify(ascii.map)));
  }
  return files.map((f) => ({ path: f.path, contents: replaced.get(f.path) ?? f.contents }));
}

/** Write a file atomically (a process starting meanwhile sees the old or the new one, never half). */
function writeAtomic(file: string, contents: Uint8Array | string): void {
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, contents);
  renameSync(temp, file);
}

function removeStaleChunks(outDir: string, keep: ReadonlySet<string>): void {
  const now = Date.now();
  for (const name of readdirSync(outDir)) {
    if (keep.has(name) || name === BUILD_INFO_FILE) continue;
    const file = path.join(outDir, name);
    if (name.endsWith(".tmp") || now - statSync(file).mtimeMs > STALE_CHUNK_AGE_MS) rmSync(file, { force: true });
  }
}

export interface BuildNodeOptions {
  outDir?: string;
  minify?: boolean;
  entryPoints?: Readonly<Record<string, string>>;
}

/**
 * Build every entry point. Chunk names carry a content hash and are never overwritten, entries and
 * build-info.json are replaced atomically: processes running an older build keep working and
 * concurrent builds (parallel tests) cannot leave a half-written file.
 */
export async function buildNode(options: BuildNodeOptions = {}): Promise<BuildInfo> {
  return (await buildNodeWithMetafile(options)).info;
}

/** `buildNode`, also returning esbuild's metafile (which output imports what). */
export async function buildNodeWithMetafile(options: BuildNodeOptions = {}): Promise<{ info: BuildInfo; metafile: Metafile; launchPlanMetafile: Metafile }> {
  const outDir = options.outDir ?? NODE_OUT_DIR;
  const entryPoints = options.entryPoints ?? NODE_ENTRY_POINTS;
  const common = {
    absWorkingDir: ROOT,
    outdir: outDir,
    bundle: true,
    platform: "node",
    target: "node20",
    entryNames: "[name]",
    sourcemap: "linked",
    minify: options.minify ?? true,
    external: NODE_EXTERNALS,
    metafile: true,
    write: false,
    legalComments: "linked",
    logLevel: "warning",
    // Object spread compiled to esbuild's helper: V8 in Node 20 gives `{ ...a, b }` a hidden
    // class of its own at every evaluation, so objects built that way never share a shape and
    // every function reading them runs megamorphic. The helper copies the fields after a spread
    // by property descriptors, so the objects built for every case are written out instead
    // (docs/CONVENTIONS.md); with those, the lowering alone measured ≈ −1 % (docs/PERFORMANCE.md).
    supported: { "object-rest-spread": false },
  } as const;
  const [result, cjs, plan] = await Promise.all([
    build({
      ...common,
      entryPoints: Object.fromEntries(Object.entries(entryPoints).map(([name, file]) => [name, path.join(ROOT, file)])),
      splitting: true,
      format: "esm",
      chunkNames: "[name]-[hash]",
      // Bundled CommonJS packages call require() for Node's built-ins; tools/util/node-entry.ts finds
      // the other entry points beside the running chunk.
      banner: {
        js: 'import { createRequire as __kioskCreateRequire } from "node:module"; const require = __kioskCreateRequire(import.meta.url); const __kioskChunkUrl = import.meta.url;',
      },
      plugins: [sourceUrlPlugin(outDir, "import.meta.url"), zodEnglishOnlyPlugin()],
    }),
    build({
      ...common,
      entryPoints: { [CJS_ENTRY.name]: path.join(ROOT, CJS_ENTRY.source) },
      format: "cjs",
      outExtension: { ".js": ".cjs" },
      // Node's CommonJS wrapper written into the file, with the launcher's import() as one more
      // parameter (bin/kiosk.js compiles the text as it is: wrapping it there made V8 copy all 3 MB
      // of it into one string first). Then the same names as an ES module chunk's banner gives.
      banner: { js: `${CJS_WRAPPER_HEAD}\nconst __kioskChunkUrl = require("node:url").pathToFileURL(__filename).href;` },
      footer: { js: "})" },
      plugins: [sourceUrlPlugin(outDir, "__kioskChunkUrl"), zodEnglishOnlyPlugin()],
    }),
    build({
      ...common,
      entryPoints: { [LAUNCH_PLAN_ENTRY.name]: path.join(ROOT, LAUNCH_PLAN_ENTRY.source) },
      format: "cjs",
      outExtension: { ".js": ".cjs" },
      plugins: [notInLaunchPlanPlugin()],
    }),
  ]);
  mkdirSync(outDir, { recursive: true });
  const entryFiles = new Set([
    ...Object.keys(entryPoints).flatMap((name) => [`${name}.js`, `${name}.js.map`]),
    ...[...cjs.outputFiles, ...plan.outputFiles].map((f) => path.relative(outDir, f.path)),
  ]);
  const outputs = asciiOnlyOutputs([...result.outputFiles, ...cjs.outputFiles, ...plan.outputFiles]);
  // Chunks first (content-hashed: an existing one is already right), entries after them.
  for (const file of outputs) {
    const name = path.relative(outDir, file.path);
    if (entryFiles.has(name)) continue;
    if (!existsSync(file.path)) writeAtomic(file.path, file.contents);
  }
  for (const file of outputs) if (entryFiles.has(path.relative(outDir, file.path))) writeAtomic(file.path, file.contents);
  const bundle = outputs.find((f) => path.relative(outDir, f.path) === CJS_ENTRY.file);
  if (!bundle) throw new Error(`esbuild wrote no ${CJS_ENTRY.file}`);
  const info: BuildInfo = {
    entries: Object.fromEntries(Object.keys(entryPoints).map((name) => [name, `${name}.js`])),
    cjs: { file: CJS_ENTRY.file, sha256: createHash("sha256").update(bundle.contents).digest("hex") },
    inputs: projectInputs(result.metafile, cjs.metafile, plan.metafile),
    outputs: outputs.map((f) => path.relative(outDir, f.path).split(path.sep).join("/")).sort(),
  };
  writeAtomic(path.join(outDir, BUILD_INFO_FILE), `${JSON.stringify(info, null, 2)}\n`);
  removeStaleChunks(outDir, new Set(info.outputs));
  return { info, metafile: result.metafile, launchPlanMetafile: plan.metafile };
}

if (process.argv[1] && pathToFileURL(path.resolve(process.argv[1])).href === import.meta.url) {
  const minify = !process.argv.includes("--no-minify");
  const started = performance.now();
  buildNode({ minify }).then(
    (info) => {
      const ms = (performance.now() - started).toFixed(0);
      process.stderr.write(`build-node: ${Object.keys(info.entries).join(", ")} → ${path.relative(process.cwd(), NODE_OUT_DIR) || "."} (${info.outputs.length} files, ${info.inputs.length} inputs, ${ms} ms)\n`);
    },
    (err: unknown) => {
      console.error(err);
      process.exitCode = 1;
    },
  );
}
