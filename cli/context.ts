// Options shared by every command, and the data pack they resolve to.
import { DataPack } from "../tools/data/datapack.ts";

export interface GlobalOptions {
  data?: string;
}

let cached: { key: string; pack: DataPack } | undefined;

/** The data pack selected by --data / METRO_DATA_DIR / the defaults (loaded once per process). */
export function dataPack(options: GlobalOptions): DataPack {
  const key = options.data ?? "";
  if (!cached || cached.key !== key) cached = { key, pack: DataPack.locate({ flag: options.data }) };
  return cached.pack;
}

/** Print a value as pretty JSON on stdout. */
export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** An error the user caused (bad flag, unknown id): printed without a stack trace. */
export class UsageError extends Error {
  override name = "UsageError";
}
