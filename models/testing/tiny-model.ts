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

/**
 * Steering for the serving-parity model: the real `<tool_call>` token wins the first step of every
 * round (a transition from the generation prompt's last token), so the tiny model opens a tool call on its own — in llama-server too, whose lazy grammar
 * triggers on that token — and the grammar then decides the call (tool, arguments) by the model's
 * logits alone. ">\n" closes a tag in one token and the terminating preferences keep the free-text
 * arguments short.
 */
export const SERVING_PARITY_PREFERENCES: Record<string, number> = { ...TERMINATING_PREFERENCES, "\n</parameter>\n": 7, ">\n": 5 };
/** …and `<tool_call>` right after the generation prompt's last token, "\n" (so only there). */
export const SERVING_PARITY_TRANSITIONS: Record<string, Record<string, number>> = { "\n": { "<tool_call>": 12 } };

/**
 * Output-projection scale of the serving-parity models: small enough that every choice is decided
 * by a clear margin (a near-tie would be broken by the last bits of two builds' arithmetic), so the
 * variety comes from several seeds instead — each makes other calls (route_planner; disruption_feed,
 * line_info and fare_calculator; submit_assistant_state; disruption_feed).
 */
export const SERVING_PARITY_MIXING = 3;
export const SERVING_PARITY_SEEDS: readonly number[] = [1, 2, 3, 5];

export interface TinyModelFixture extends TinyGguf {
  file: string;
  dir: string;
  pack: DataPack;
  cleanup(): void;
}

/** Both architectures every model test runs on: the plain llama layout and the student's qwen35 hybrid. */
export const TINY_ARCHITECTURES: readonly TinyArchitecture[] = ["llama", "qwen35"];

export function makeTinyModel(
  options: { preferredTokens?: Record<string, number>; transitions?: Record<string, Record<string, number>>; seed?: number; architecture?: TinyArchitecture; mixing?: number } = {},
): TinyModelFixture {
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
    ...(options.mixing !== undefined ? { mixing: options.mixing } : {}),
    ...(options.transitions ? { transitions: options.transitions } : {}),
    // qwen35: 4 layers (3 Gated DeltaNet + 1 full attention, the student's 3:1 pattern), 16-wide heads.
    ...(architecture === "qwen35" ? { embeddingLength: 64, headCount: 4, headCountKv: 2, headDim: 16, feedForwardLength: 128 } : {}),
  });
  return { ...gguf, dir, pack, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
