// Test support: the tiny GGUF every model test uses, generated once per test file into a temporary
// directory from the data pack's chat template and prompt material (never committed).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { SHARED_DATA_DIR } from "../../test/paths.ts";
import { DataPack } from "../../tools/data/datapack.ts";
import { writeTinyGguf, type TinyArchitecture, type TinyGguf } from "./tiny-gguf.ts";

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

/** Both architectures every model test runs on: the plain llama layout and the student's qwen35 hybrid. */
export const TINY_ARCHITECTURES: readonly TinyArchitecture[] = ["llama", "qwen35"];

export function makeTinyModel(options: { preferredTokens?: Record<string, number>; seed?: number; architecture?: TinyArchitecture } = {}): TinyModelFixture {
  const pack = new DataPack(SHARED_DATA_DIR);
  const architecture = options.architecture ?? "llama";
  const dir = mkdtempSync(path.join(tmpdir(), "tiny-gguf-"));
  const file = path.join(dir, architecture === "llama" ? "tiny.gguf" : `tiny-${architecture}.gguf`);
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
    architecture,
    // qwen35: 4 layers (3 Gated DeltaNet + 1 full attention, the student's 3:1 pattern), 16-wide heads.
    ...(architecture === "qwen35" ? { embeddingLength: 64, headCount: 4, headCountKv: 2, headDim: 16, feedForwardLength: 128 } : {}),
  });
  return { ...gguf, dir, pack, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
