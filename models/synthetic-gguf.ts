// A 4B-shaped qwen35 GGUF with random Q4_K_M weights: the student's real dimensions (Qwen3.5-4B:
// 32 layers, 24 Gated DeltaNet + 8 full attention, width 2560, FFN 9216, 16 query / 4 KV heads of
// 256, linear attention 16 key / 32 value heads of 128, vocabulary 248,320, tied embeddings) and
// llama-quantize's Q4_K_M type mix (src/llama-quant.cpp: token embedding = tied output Q6_K;
// attn_v and ffn_down Q6_K on the "more bits" layers, else Q4_K; attn_qkv Q5_K; norms, conv and
// decay tensors F32; everything else Q4_K). Its output is gibberish, but per token it computes and
// reads what the 2.6 GB student does, so load time, memory, prefill and decode speed, checkpoint
// sizes and prefix reuse are realistic without downloading weights.
//
// Generated on demand (never committed) into the cache, outside the repository:
//   $XDG_CACHE_HOME/metro-kiosk/models/qwen35-4b-random-q4km.gguf   (~2.6 GB, tens of seconds)
// `kiosk probe --model synthetic-4b` and `npm run perf:llm` use it.
import { randomBytes } from "node:crypto";
import { closeSync, existsSync, mkdirSync, openSync, renameSync, statSync, writeSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import type { DataPack } from "../tools/data/datapack.ts";
import { mulberry32 } from "../tools/util/random.ts";
import { buildVocabulary, ggufHeader, qwen35Kvs, qwen35TensorShapes, T, tokenizerKvs, type KvValue, type Qwen35Dimensions, type TensorShape } from "./gguf-writer.ts";

/** Qwen3.5-4B's text model. */
export const QWEN35_4B: Qwen35Dimensions = {
  embedding: 2560,
  layers: 32,
  feedForward: 9216,
  heads: 16,
  kvHeads: 4,
  headDim: 256,
  stateSize: 128,
  linearKeyHeads: 16,
  linearValueHeads: 32,
  convKernel: 4,
  contextLength: 262_144,
  ropeFreqBase: 10_000_000,
};
export const QWEN35_VOCAB_SIZE = 248_320;

/** The spec `--model synthetic-4b` stands for. */
export const SYNTHETIC_4B_SPEC = "synthetic-4b";
export const SYNTHETIC_4B_FILE = "qwen35-4b-random-q4km.gguf";

// ggml types and their block layout (ggml-common.h).
const GGML = { F32: 0, Q4_K: 12, Q5_K: 13, Q6_K: 14 } as const;
type GgmlType = (typeof GGML)[keyof typeof GGML];
const QK_K = 256;
const BLOCK_BYTES: Record<number, number> = { [GGML.Q4_K]: 144, [GGML.Q5_K]: 176, [GGML.Q6_K]: 210 };
/** llama.cpp's LLAMA_FTYPE_MOSTLY_Q4_K_M. */
const FTYPE_MOSTLY_Q4_K_M = 15;

/** llama-quant's use_more_bits: the first and last eighth, and every third layer between. */
export const useMoreBits = (i: number, n: number): boolean => i < n / 8 || i >= (7 * n) / 8 || (i - Math.floor(n / 8)) % 3 === 2;

/** The type llama-quantize gives each qwen35 tensor for Q4_K_M. */
export function q4kmType(shape: TensorShape, d: Qwen35Dimensions): GgmlType {
  if (shape.ne.length < 2 || shape.role === "norm" || shape.role === "ssm_conv1d" || shape.role === "ssm_a" || shape.role === "ssm_dt") return GGML.F32;
  const attentionLayers = Array.from({ length: d.layers }, (_, l) => l).filter((l) => (l + 1) % 4 === 0);
  switch (shape.role) {
    case "token_embd":
    case "output":
      return GGML.Q6_K;
    case "attn_qkv":
      return GGML.Q5_K;
    case "attn_v":
      return useMoreBits(attentionLayers.indexOf(shape.layer as number), attentionLayers.length) ? GGML.Q6_K : GGML.Q4_K;
    case "ffn_down":
      return useMoreBits(shape.layer as number, d.layers) ? GGML.Q6_K : GGML.Q4_K;
    default:
      return GGML.Q4_K;
  }
}

function tensorBytes(ne: readonly number[], type: GgmlType): number {
  const n = ne.reduce((a, b) => a * b, 1);
  if (type === GGML.F32) return n * 4;
  if ((ne[0] as number) % QK_K !== 0) throw new Error(`row of ${ne[0]} is not a multiple of ${QK_K}`);
  return (n / QK_K) * (BLOCK_BYTES[type] as number);
}

/** A chunk of random K-quant blocks with small, valid fp16 scales (d ≈ 2e-4, dmin ≈ 1e-4). */
function randomBlocks(type: GgmlType, blocks: number): Buffer {
  const size = BLOCK_BYTES[type] as number;
  const buf = randomBytes(blocks * size);
  for (let b = 0; b < blocks; b++) {
    const at = b * size;
    if (type === GGML.Q6_K) buf.writeUInt16LE(0x0a8e, at + 208); // d at the end of the block
    else {
      buf.writeUInt16LE(0x0a8e, at); // d
      buf.writeUInt16LE(0x068e, at + 2); // dmin
    }
  }
  return buf;
}

function f32Data(shape: TensorShape, rand: () => number): Buffer {
  const n = shape.ne.reduce((a, b) => a * b, 1);
  const buf = Buffer.alloc(n * 4);
  for (let i = 0; i < n; i++) {
    const value =
      shape.role === "norm" ? 1 : shape.role === "ssm_a" ? -0.5 : shape.role === "ssm_dt" ? 0.1 * (rand() - 0.5) : 0.2 * (rand() - 0.5); // ssm_conv1d
    buf.writeFloatLE(value, i * 4);
  }
  return buf;
}

export interface SyntheticGgufOptions {
  chatTemplate: string;
  /** Text the tokenizer's merges are learned from (the data pack's prompts). */
  corpus: string;
  merges?: number;
  dimensions?: Qwen35Dimensions;
  vocabularySize?: number;
  /** Seed of the F32 tensors (the quantized blocks are random bytes). */
  seed?: number;
  /** Before the first byte: where the model goes and how large it will be. */
  onStart?: (target: { file: string; bytes: number }) => void;
  /** Bytes written so far, every 32 MiB or so, and once when complete. */
  onProgress?: (written: number, total: number) => void;
}

export interface SyntheticGguf {
  file: string;
  bytes: number;
  parameters: number;
  tensors: number;
}

/** Stream the model to `file` (written to `file.partial`, renamed when complete). */
export function writeSyntheticQwen35(file: string, options: SyntheticGgufOptions): SyntheticGguf {
  const d = options.dimensions ?? QWEN35_4B;
  const vocab = buildVocabulary({ chatTemplate: options.chatTemplate, corpus: options.corpus, merges: options.merges ?? 4000, padTo: options.vocabularySize ?? QWEN35_VOCAB_SIZE });
  const shapes = qwen35TensorShapes(d, vocab.tokens.length, false);
  const tensors = shapes.map((s) => {
    const type = q4kmType(s, d);
    return { ...s, type, bytes: tensorBytes(s.ne, type) };
  });
  const kvs: [string, KvValue][] = [
    ["general.architecture", { t: T.STR, v: "qwen35" }],
    ["general.name", { t: T.STR, v: "qwen35-4b-random-q4km (synthetic speed model: random weights)" }],
    ["general.file_type", { t: T.U32, v: FTYPE_MOSTLY_Q4_K_M }],
    ["general.quantization_version", { t: T.U32, v: 2 }],
    ...qwen35Kvs(d),
    ...tokenizerKvs(vocab, "qwen35", options.chatTemplate),
  ];
  const { header, offsets } = ggufHeader(kvs, tensors);
  const rand = mulberry32(options.seed ?? 4);
  const chunks = new Map<GgmlType, Buffer>();
  const chunkFor = (type: GgmlType): Buffer => {
    let chunk = chunks.get(type);
    if (!chunk) chunks.set(type, (chunk = randomBlocks(type, 16384)));
    return chunk;
  };
  const total = header.length + (offsets.at(-1) ?? 0) + (tensors.at(-1)?.bytes ?? 0);
  const partial = `${file}.partial`;
  mkdirSync(path.dirname(file), { recursive: true });
  options.onStart?.({ file, bytes: total });
  const fd = openSync(partial, "w");
  try {
    writeSync(fd, header);
    let pos = header.length;
    let reported = 0;
    // Checked per chunk: one tensor (the embedding) alone is hundreds of MB.
    const report = (): void => {
      if (pos - reported < 32 * 1024 * 1024) return;
      reported = pos;
      options.onProgress?.(pos, total);
    };
    for (const [i, t] of tensors.entries()) {
      const start = header.length + (offsets[i] as number);
      if (start > pos) pos += writeSync(fd, Buffer.alloc(start - pos));
      if (t.type === GGML.F32) pos += writeSync(fd, f32Data(t, rand));
      else {
        const chunk = chunkFor(t.type);
        for (let left = t.bytes; left > 0; ) {
          const n = writeSync(fd, chunk, 0, Math.min(left, chunk.length));
          left -= n;
          pos += n;
          report();
        }
      }
      report();
    }
  } finally {
    closeSync(fd);
  }
  renameSync(partial, file);
  options.onProgress?.(total, total);
  return { file, bytes: statSync(file).size, parameters: shapes.reduce((n, s) => n + s.ne.reduce((a, b) => a * b, 1), 0), tensors: tensors.length };
}

/** Tokenizer corpus from the data pack: the prompt profile, tools, every framebook and station name. */
export function dataPackCorpus(pack: DataPack): string {
  const parts = [pack.chatTemplate(), JSON.stringify(pack.toolDefinitions(), null, 1)];
  for (const system of pack.systemIds) {
    const data = pack.system(system);
    parts.push(JSON.stringify(data.framebook), data.stations.map((s) => s.name).join("\n"));
  }
  return parts.join("\n");
}

export function syntheticModelsDir(env: NodeJS.ProcessEnv = process.env): string {
  const cache = env.XDG_CACHE_HOME ? path.resolve(env.XDG_CACHE_HOME) : path.join(homedir(), ".cache");
  return path.join(cache, "metro-kiosk", "models");
}

/** The cached synthetic 4B (generated on first use). */
export function ensureSynthetic4b(options: Omit<SyntheticGgufOptions, "dimensions" | "vocabularySize"> & { dir?: string }): { file: string; generated: boolean } {
  const file = path.join(options.dir ?? syntheticModelsDir(), SYNTHETIC_4B_FILE);
  if (existsSync(file)) return { file, generated: false };
  writeSyntheticQwen35(file, options);
  return { file, generated: true };
}
