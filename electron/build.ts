// Bundle the Electron main process and preload for Electron (CommonJS):
//   dist/electron/main.cjs          — main process (runtime included; native/heavy modules external)
//   dist/electron/model-worker.cjs  — the model process (models/worker/main.ts, a utilityProcess)
//   dist/electron/preload.cjs       — sandboxed preload (must be self-contained: only `electron` is external)
// Run: npx tsx electron/build.ts [--watch] [--minify]
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build, context, type BuildOptions } from "esbuild";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const OUT_DIR = path.join(ROOT, "dist", "electron");

/** Packages resolved at run time from node_modules (native addons, the model runtime, Electron itself). */
export const MAIN_EXTERNALS = ["electron", "better-sqlite3", "node-llama-cpp", "bufferutil", "utf-8-validate"];

export function buildOptions(options: { minify?: boolean } = {}): BuildOptions[] {
  const common: BuildOptions = {
    bundle: true,
    format: "cjs",
    sourcemap: true,
    minify: options.minify ?? false,
    logLevel: "info",
    legalComments: "linked",
  };
  return [
    {
      ...common,
      entryPoints: { main: path.join(ROOT, "electron", "main.ts") },
      outExtension: { ".js": ".cjs" },
      outdir: OUT_DIR,
      platform: "node",
      target: "node22",
      external: MAIN_EXTERNALS,
      // ESM modules that locate files beside themselves (bench/run/environment.ts) read
      // import.meta.url, which a CommonJS bundle lacks: give them the bundle's own file URL.
      define: { "import.meta.url": "__kiosk_import_meta_url" },
      banner: { js: 'const __kiosk_import_meta_url = require("node:url").pathToFileURL(__filename).href;' },
    },
    {
      // The model process (an Electron utilityProcess): node-llama-cpp is loaded here, never in main.
      ...common,
      entryPoints: { "model-worker": path.join(ROOT, "models", "worker", "main.ts") },
      outExtension: { ".js": ".cjs" },
      outdir: OUT_DIR,
      platform: "node",
      target: "node22",
      external: MAIN_EXTERNALS,
      define: { "import.meta.url": "__kiosk_import_meta_url" },
      banner: { js: 'const __kiosk_import_meta_url = require("node:url").pathToFileURL(__filename).href;' },
    },
    {
      ...common,
      entryPoints: { preload: path.join(ROOT, "electron", "preload.ts") },
      outExtension: { ".js": ".cjs" },
      outdir: OUT_DIR,
      // A sandboxed preload gets a browser-like environment with a limited `require("electron")`.
      platform: "browser",
      target: "chrome130",
      external: ["electron"],
    },
  ];
}

async function run(): Promise<void> {
  const args = process.argv.slice(2);
  const configs = buildOptions({ minify: args.includes("--minify") });
  if (args.includes("--watch")) {
    for (const c of configs) await (await context(c)).watch();
    console.error("electron/build: watching for changes");
    return;
  }
  await Promise.all(configs.map((c) => build(c)));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  run().catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  });
}
