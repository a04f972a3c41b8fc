// Options shared by every command, and the data pack they resolve to.
import { DataPack } from "../tools/data/datapack.ts";
import { fileValidatedFiles, type BuildCache } from "./validated-files.ts";

export interface GlobalOptions {
  data?: string;
  systemsDir?: string;
}

let cached: { key: string; pack: DataPack } | undefined;
let buildCache: BuildCache | undefined;

/** The compiled build this process runs (bin/kiosk.js says so): its data-file validation memo is used. */
export function useBuildCache(build: BuildCache | undefined): void {
  buildCache = build;
  cached = undefined;
}

/**
 * The data pack selected by --data / METRO_DATA_DIR / the defaults (loaded once per process), with
 * the build's validation memo: files that passed validation in an earlier run of this build are
 * not validated again.
 */
export function dataPack(options: GlobalOptions): DataPack {
  const key = `${options.data ?? ""}\u0000${options.systemsDir ?? ""}`;
  if (!cached || cached.key !== key) {
    cached = { key, pack: DataPack.locate({ flag: options.data, systemsDirFlag: options.systemsDir, validatedFiles: buildCache && fileValidatedFiles(buildCache) }) };
  }
  return cached.pack;
}

/** Forget the loaded pack: its list of systems changed on disk (a network was imported). */
export function forgetDataPack(): void {
  cached = undefined;
}

/** The same data pack, every file of it validated now (no memo): for `kiosk data check`. */
export function dataPackValidatedNow(options: GlobalOptions): DataPack {
  return DataPack.locate({ flag: options.data, systemsDirFlag: options.systemsDir });
}

/** Print a value as pretty JSON on stdout. */
export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** An error the user caused (bad flag, unknown id): printed without a stack trace. */
export class UsageError extends Error {
  override name = "UsageError";
}
