// Test support: the tiny GGUF every model test uses, generated once per test file into a temporary
// directory from the data pack's chat template and prompt material (never committed).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { SHARED_DATA_DIR } from "../../test/paths.ts";
import { DataPack } from "../../tools/data/datapack.ts";
import { writeTinyGguf, type TinyGguf } from "./tiny-gguf.ts";

/**
 * Token bonuses that make grammar-constrained output of the random test model end quickly: empty
 * free-text values ("\n</parameter>\n" right away), closing quotes/brackets before anything else,
 * "</function>" before another optional parameter.
 */
export const TERMINATING_PREFERENCES: Record<string, number> = {
  "\n</parameter>\n": 5,
  "</function>\n": 4,
  "</tool_call>": 4,
  '"': 3,
  "}": 3,
  "]": 3,
};

export interface TinyModelFixture extends TinyGguf {
  file: string;
  dir: string;
  pack: DataPack;
  cleanup(): void;
}

export function makeTinyModel(options: { preferredTokens?: Record<string, number>; seed?: number } = {}): TinyModelFixture {
  const pack = new DataPack(SHARED_DATA_DIR);
  const dir = mkdtempSync(path.join(tmpdir(), "tiny-gguf-"));
  const file = path.join(dir, "tiny.gguf");
  const marta = pack.system("marta");
  const corpus = [
    pack.chatTemplate(),
    JSON.stringify(pack.toolDefinitions(), null, 1),
    JSON.stringify(marta.framebook),
    marta.stations.map((s) => s.name).join("\n"),
  ].join("\n");
  const gguf = writeTinyGguf(file, {
    chatTemplate: pack.chatTemplate(),
    corpus,
    merges: 900,
    seed: options.seed ?? 7,
    preferredTokens: options.preferredTokens ?? TERMINATING_PREFERENCES,
  });
  return { ...gguf, dir, pack, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
