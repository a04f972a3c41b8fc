// Package the kiosk app with electron-builder (electron-builder.yml), on a machine of the target
// platform (native modules are built and checked there):
//
//   npm run package -- --linux          # AppImage + deb (x64 and arm64)
//   npm run package -- --mac            # dmg + zip (arm64 and x64)
//   npm run package -- --win            # NSIS installer (x64)
//   npm run package -- --linux --dir    # unpacked app only (quick check)
//
// It builds the renderer and the Electron bundles (`npm run build`), finds the data pack the way the
// kiosk does (KIOSK_DATA_PACK, else $METRO_DATA_DIR, ./data/metrollm-bench, ../shared/…) and checks
// it, sets the two resource paths electron-builder.yml reads (KIOSK_DATA_PACK, KIOSK_MODELS_DIR —
// a folder of .gguf files to ship, default build/models, none when it is absent or empty), and runs
// electron-builder with the remaining arguments. See docs/PACKAGING.md.
import { spawnSync } from "node:child_process";
import { licenceProblems, shippedPackages } from "./licences.ts";
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { DataPack, locateDataDir } from "../tools/data/datapack.ts";

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const DEFAULT_MODELS_DIR = path.join("build", "models");

export interface PackagingEnv {
  /** The data pack copied to resources/metrollm-bench. */
  KIOSK_DATA_PACK: string;
  /** The folder whose .gguf files are copied to resources/models (may be absent: no model). */
  KIOSK_MODELS_DIR: string;
}

/** The resource paths electron-builder.yml expands (`${env.…}`), resolved like the kiosk does. */
export function packagingEnv(env: NodeJS.ProcessEnv = process.env, cwd = REPO_ROOT): PackagingEnv {
  const dataPack = locateDataDir({ flag: env.KIOSK_DATA_PACK, env, cwd });
  return {
    KIOSK_DATA_PACK: dataPack,
    KIOSK_MODELS_DIR: path.resolve(cwd, env.KIOSK_MODELS_DIR ?? DEFAULT_MODELS_DIR),
  };
}

/** The model files a packaging run would ship. */
export function modelsToShip(modelsDir: string): string[] {
  if (!existsSync(modelsDir)) return [];
  return readdirSync(modelsDir).filter((f) => f.endsWith(".gguf"));
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv): void {
  const result = spawnSync(command, args, { cwd: REPO_ROOT, env, stdio: "inherit", shell: process.platform === "win32" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

async function main(): Promise<void> {
  // Nothing GPL-licensed ships with the Apache-2.0 kiosk (eSpeak NG runs as a separate program).
  const problems = licenceProblems(await shippedPackages(REPO_ROOT));
  if (problems.length > 0) {
    console.error(`package: these packages may not ship:\n  ${problems.join("\n  ")}`);
    process.exit(1);
  }
  const resources = packagingEnv();
  // Fail here, not in the packaged app: the pack must load (systems, cases, split).
  const pack = new DataPack(resources.KIOSK_DATA_PACK);
  for (const id of pack.systemIds) pack.system(id);
  const models = modelsToShip(resources.KIOSK_MODELS_DIR);
  console.error(`package: data pack ${resources.KIOSK_DATA_PACK} (${pack.allCases().length} cases)`);
  console.error(models.length > 0 ? `package: model(s) ${models.join(", ")} from ${resources.KIOSK_MODELS_DIR}` : "package: no model (the kiosk answers with its rule policy)");
  const env = { ...process.env, ...resources };
  run("npm", ["run", "build"], env);
  run(process.execPath, [path.join(REPO_ROOT, "node_modules", "electron-builder", "cli.js"), "--config", "electron-builder.yml", ...process.argv.slice(2)], env);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
