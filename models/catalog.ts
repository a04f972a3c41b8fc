// The published MetroLLM-Bench students (QLoRA on Qwen3.5, merged, Q4_K_M GGUF), with the 4B as the
// kiosk default.
//
// Source: the reference repository (continker/metrollm-bench): README "Choosing a model" and
// "Models" sections (repos, approximate sizes, hardware guidance, held-out Tier-1), REPRODUCING.md
// (the 4B download command), scripts/mac_bench/run_bench.sh (REPO_ID="continker/Qwen3.5-${SIZE}-metro-v24",
// GGUF_NAME="Qwen3.5-${SIZE}-metro-v24-Q4_K_M.gguf", default context per size, KV cost per token) and
// scripts/peft/upload_hf.py (same file naming for every size).
// Verified there: repo and file names (the 4B literally; 2B/9B/27B by the scripts' naming pattern).
// Assumptions: the sizes are the README's rounded figures (exact byte counts and SHA-256 digests are
// not published in the repository), so integrity is checked against the server's Content-Length and
// by parsing the GGUF; the hardware column is the README's guidance, not our measurement.

export type CatalogModelId = "2b" | "4b" | "9b" | "27b";

export interface CatalogModel {
  id: CatalogModelId;
  /** Hugging Face repository. */
  repo: string;
  /** GGUF file in that repository. */
  file: string;
  /** node-llama-cpp model URI. */
  uri: string;
  /** README's rounded download size (assumption: not an exact byte count). */
  approxBytes: number;
  /** Exact size / digest when known (none are published). */
  exactBytes: number | null;
  sha256: string | null;
  /** Context size the reference's Mac bench defaults to for this size. */
  defaultContextSize: number;
  /** fp16 KV cache per token (reference mac_bench estimate). */
  kvBytesPerToken: number;
  /** What it fits on (README guidance). */
  hardware: string;
  /** Held-out Tier-1, mean of two training seeds (README). */
  heldOutTier1: number;
  isDefault: boolean;
  note?: string;
}

const GB = 1_000_000_000;
const KB = 1024;

function entry(id: CatalogModelId, size: string, rest: Omit<CatalogModel, "id" | "repo" | "file" | "uri" | "exactBytes" | "sha256" | "isDefault">): CatalogModel {
  const repo = `continker/Qwen3.5-${size}-metro-v24`;
  const file = `Qwen3.5-${size}-metro-v24-Q4_K_M.gguf`;
  return { id, repo, file, uri: `hf:${repo}/${file}`, exactBytes: null, sha256: null, isDefault: id === DEFAULT_MODEL_ID, ...rest };
}

export const DEFAULT_MODEL_ID: CatalogModelId = "4b";

export const CATALOG: readonly CatalogModel[] = [
  entry("2b", "2B", {
    approxBytes: 1.2 * GB,
    defaultContextSize: 32768,
    kvBytesPerToken: 36 * KB,
    hardware: "anything, including CPU-only (about 4 GB RAM at 32K context)",
    heldOutTier1: 79.43,
  }),
  entry("4b", "4B", {
    approxBytes: 2.6 * GB,
    defaultContextSize: 16384,
    kvBytesPerToken: 144 * KB,
    hardware: "8 GB VRAM or a 16 GB Mac; CPU-only works but is slow (about 6.5 GB RAM at 16K context)",
    heldOutTier1: 91.32,
    note: "the validated default: best size/quality trade-off",
  }),
  entry("9b", "9B", {
    approxBytes: 5.3 * GB,
    defaultContextSize: 16384,
    kvBytesPerToken: 144 * KB,
    hardware: "12 GB VRAM or a 24 GB Mac (about 9.2 GB RAM at 16K context)",
    heldOutTier1: 91.03,
  }),
  entry("27b", "27B", {
    approxBytes: 16 * GB,
    defaultContextSize: 16384,
    kvBytesPerToken: 256 * KB,
    hardware: "24 GB+ VRAM or a 32 GB+ Mac (48 GB+ unified memory recommended)",
    heldOutTier1: 91.41,
    note: "the model card flags a base-vs-PEFT regression at this size",
  }),
];

export function catalogEntry(id: string): CatalogModel | undefined {
  return CATALOG.find((m) => m.id === id.toLowerCase());
}

/** The catalog entry whose file name matches (for files already in the models directory). */
export function catalogEntryForFile(fileName: string): CatalogModel | undefined {
  return CATALOG.find((m) => m.file === fileName);
}

/** Rough memory need (bytes) of a catalog model at a context size: weights + KV + 1.5 GB buffers. */
export function estimatedMemoryBytes(model: CatalogModel, contextSize = model.defaultContextSize): number {
  return model.approxBytes + model.kvBytesPerToken * contextSize + 1.5 * 1024 ** 3;
}

/** Catalog models that fit in the given memory, largest first (the default first when it fits). */
export function modelsThatFit(memoryBytes: number): CatalogModel[] {
  return CATALOG.filter((m) => estimatedMemoryBytes(m) <= memoryBytes).sort((a, b) => b.approxBytes - a.approxBytes);
}
