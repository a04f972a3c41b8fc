// Test support: writes a tiny but complete GGUF (a few hundred KB to ~1.3 MB) that llama.cpp loads
// like a real Qwen student. Two architectures: "llama" (a couple of small plain layers) and
// "qwen35", the student's own layout — Gated DeltaNet (linear attention with a recurrent state)
// layers and every 4th layer full attention with a joint query+gate projection, Q/K norms and
// multi-section RoPE (tensor names and metadata as llama.cpp's src/models/qwen35.cpp loads them).
// Both have a byte-level BPE tokenizer ("gpt2" model; "qwen2" or, for qwen35, the student's "qwen35"
// pre-tokenizer) whose merges are learned here from a corpus, Qwen's special tokens (<|im_start|>,
// <|im_end|>, <|endoftext|> as control tokens; <think>, </think>, <tool_call>, </tool_call>,
// <tool_response>, </tool_response> as user-defined tokens, each a single token) and a chat template
// embedded as tokenizer.chat_template. Weights are seeded random numbers (F32). The container and
// tokenizer are models/gguf-writer.ts.
//
// Steering (for tests only): `preferredTokens` gives chosen tokens a fixed logit bonus at every step.
// Every embedding carries a constant component (dimension 0) that survives the final RMS norm, and
// row 0 of output.weight holds the bonuses; the rest of the weights are random, so unpreferred
// tokens compete by context-dependent noise (gibberish, as expected from random weights). Tests use
// it to make grammar-constrained free text end (prefer "\n</parameter>\n", closing brackets, …).
import { writeFileSync } from "node:fs";
import { mulberry32 } from "../../tools/util/random.ts";
import {
  buildVocabulary,
  ggufHeader,
  qwen35Kvs,
  qwen35TensorShapes,
  T,
  tokenizerKvs,
  type KvValue,
  type Qwen35Dimensions,
  type Vocabulary,
} from "../gguf-writer.ts";


export type TinyArchitecture = "llama" | "qwen35";

/** Gated DeltaNet (linear attention) geometry of a qwen35 model. */
export interface Qwen35LinearGeometry {
  /** ssm.state_size = linear key/value head dimension. */
  stateSize: number;
  /** ssm.group_count = linear key heads. */
  keyHeads: number;
  /** ssm.time_step_rank = linear value heads. */
  valueHeads: number;
  /** ssm.conv_kernel. */
  convKernel: number;
}

export interface TinyGgufOptions {
  /** Embedded as tokenizer.chat_template. */
  chatTemplate: string;
  /** Text the BPE merges are learned from (prompts tokenize shorter when it resembles them). */
  corpus?: string;
  /** Number of BPE merges to learn (default 800). */
  merges?: number;
  seed?: number;
  embeddingLength?: number;
  layers?: number;
  feedForwardLength?: number;
  headCount?: number;
  headCountKv?: number;
  contextLength?: number;
  /** Token text → logit bonus (in units of ~5 logits). Texts not in the vocabulary are added. */
  preferredTokens?: Record<string, number>;
  /**
   * Bonuses that apply only right after a given token: previous token text → (next token text →
   * bonus). Each previous token gets an embedding dimension of its own that the output rows of its
   * favoured successors read. Texts not in the vocabulary are added.
   */
  transitions?: Record<string, Record<string, number>>;
  name?: string;
  /** "llama" (default) or "qwen35", the student's hybrid Gated DeltaNet + attention layout. */
  architecture?: TinyArchitecture;
  /** Attention head dimension (default embeddingLength / headCount). */
  headDim?: number;
  /**
   * Scale of the layers' output projections (attn_output, ssm_out, ffn_down; default 1). Larger
   * values let the context, not only the last token, decide the next token.
   */
  mixing?: number;
  /** qwen35: the linear-attention geometry (default: state = head dimension, 2 key heads, 4 value heads, kernel 4). */
  linear?: Qwen35LinearGeometry;
}

export interface TinyGguf {
  bytes: Uint8Array;
  vocabSize: number;
  /** Token id of each special token. */
  specialTokens: Record<string, number>;
  parameters: number;
  architecture: TinyArchitecture;
}

interface Tensor {
  name: string;
  ne: number[];
  data: Float32Array;
}

function gaussian(rand: () => number): () => number {
  return () => Math.sqrt(-2 * Math.log(rand() + 1e-12)) * Math.cos(2 * Math.PI * rand());
}

type Fill = (n: number, std: number, f?: (i: number) => number | undefined) => Float32Array;

const OUTPUT_STD = 0.02;

interface Dimensions {
  E: number;
  L: number;
  FF: number;
  H: number;
  HKV: number;
  headDim: number;
  V: number;
}

/**
 * Embedding and output head; every embedding has a constant dimension 0, the output row 0 the
 * bonuses; a transition's previous token owns dimension k ≥ 1, which its successors' rows read.
 */
function steeredHead(d: Dimensions, vocab: Vocabulary, fill: Fill, transitions: TinyGgufOptions["transitions"]): { embd: Float32Array; output: Float32Array } {
  const embd = fill(d.E * d.V, 0.1, (i) => (i % d.E === 0 ? 1 : undefined));
  const output = fill(d.E * d.V, 0.3, (i) => (i % d.E === 0 ? (vocab.preferred.get(Math.floor(i / d.E)) ?? 0) : undefined));
  let dim = 1;
  for (const [previous, nexts] of Object.entries(transitions ?? {})) {
    const prev = vocab.idOf(previous);
    if (prev === undefined || dim >= d.E) throw new Error(`transition from '${previous}': not in the vocabulary or no dimension left`);
    for (let j = 1; j < d.E; j++) embd[prev * d.E + j] = j === dim ? 1 : 0;
    for (const [next, bonus] of Object.entries(nexts)) {
      const id = vocab.idOf(next);
      if (id === undefined) throw new Error(`transition to '${next}': not in the vocabulary`);
      output[id * d.E + dim] = bonus;
    }
    dim++;
  }
  return { embd, output };
}

function llamaModel(d: Dimensions, vocab: Vocabulary, fill: Fill, contextLength: number, mixing: number, transitions: TinyGgufOptions["transitions"]): { tensors: Tensor[]; kvs: [string, KvValue][] } {
  const ones = (n: number) => new Float32Array(n).fill(1);
  const kvDim = d.HKV * d.headDim;
  const { embd, output } = steeredHead(d, vocab, fill, transitions);
  const tensors: Tensor[] = [
    { name: "token_embd.weight", ne: [d.E, d.V], data: embd },
    { name: "output_norm.weight", ne: [d.E], data: ones(d.E) },
    { name: "output.weight", ne: [d.E, d.V], data: output },
  ];
  for (let l = 0; l < d.L; l++) {
    tensors.push(
      { name: `blk.${l}.attn_norm.weight`, ne: [d.E], data: ones(d.E) },
      { name: `blk.${l}.attn_q.weight`, ne: [d.E, d.E], data: fill(d.E * d.E, 0.05) },
      { name: `blk.${l}.attn_k.weight`, ne: [d.E, kvDim], data: fill(d.E * kvDim, 0.05) },
      { name: `blk.${l}.attn_v.weight`, ne: [d.E, kvDim], data: fill(d.E * kvDim, 0.05) },
      { name: `blk.${l}.attn_output.weight`, ne: [d.E, d.E], data: fill(d.E * d.E, OUTPUT_STD * mixing) },
      { name: `blk.${l}.ffn_norm.weight`, ne: [d.E], data: ones(d.E) },
      { name: `blk.${l}.ffn_gate.weight`, ne: [d.E, d.FF], data: fill(d.E * d.FF, 0.05) },
      { name: `blk.${l}.ffn_up.weight`, ne: [d.E, d.FF], data: fill(d.E * d.FF, 0.05) },
      { name: `blk.${l}.ffn_down.weight`, ne: [d.FF, d.E], data: fill(d.FF * d.E, OUTPUT_STD * mixing) },
    );
  }
  const kvs: [string, KvValue][] = [
    ["llama.context_length", { t: T.U32, v: contextLength }],
    ["llama.embedding_length", { t: T.U32, v: d.E }],
    ["llama.block_count", { t: T.U32, v: d.L }],
    ["llama.feed_forward_length", { t: T.U32, v: d.FF }],
    ["llama.attention.head_count", { t: T.U32, v: d.H }],
    ["llama.attention.head_count_kv", { t: T.U32, v: d.HKV }],
    ["llama.rope.dimension_count", { t: T.U32, v: d.headDim }],
    ["llama.rope.freq_base", { t: T.F32, v: 1000000 }],
    ["llama.attention.layer_norm_rms_epsilon", { t: T.F32, v: 1e-6 }],
    ["llama.vocab_size", { t: T.U32, v: d.V }],
  ];
  return { tensors, kvs };
}

/** The student's qwen35 layout (models/gguf-writer.ts) with small random F32 weights. */
function qwen35Model(d: Dimensions, g: Qwen35LinearGeometry, vocab: Vocabulary, fill: Fill, contextLength: number, mixing: number, transitions: TinyGgufOptions["transitions"]): { tensors: Tensor[]; kvs: [string, KvValue][] } {
  const dims: Qwen35Dimensions = {
    embedding: d.E,
    layers: d.L,
    feedForward: d.FF,
    heads: d.H,
    kvHeads: d.HKV,
    headDim: d.headDim,
    stateSize: g.stateSize,
    linearKeyHeads: g.keyHeads,
    linearValueHeads: g.valueHeads,
    convKernel: g.convKernel,
    contextLength,
    ropeFreqBase: 10_000_000,
  };
  const { embd, output } = steeredHead(d, vocab, fill, transitions);
  const tensors = qwen35TensorShapes(dims, d.V, true).map((shape): Tensor => {
    const n = shape.ne.reduce((a, b) => a * b, 1);
    switch (shape.role) {
      case "token_embd":
        return { ...shape, data: embd };
      case "output":
        return { ...shape, data: output };
      case "norm":
        return { ...shape, data: new Float32Array(n).fill(1) };
      case "ssm_a": // -exp(A_log), as the converter stores it: a negative decay rate per value head
        return { ...shape, data: new Float32Array(n).fill(-0.5) };
      case "ssm_conv1d":
        return { ...shape, data: fill(n, 0.2) };
      case "ssm_dt":
        return { ...shape, data: fill(n, 0.1) };
      case "attn_output":
      case "ssm_out":
      case "ffn_down":
        return { ...shape, data: fill(n, OUTPUT_STD * mixing) };
      default:
        return { ...shape, data: fill(n, 0.05) };
    }
  });
  return { tensors, kvs: qwen35Kvs(dims) };
}

export function buildTinyGguf(options: TinyGgufOptions): TinyGguf {
  const architecture = options.architecture ?? "llama";
  const E = options.embeddingLength ?? 32;
  const H = options.headCount ?? 4;
  const headDim = options.headDim ?? E / H;
  if (!Number.isInteger(headDim)) throw new Error("embeddingLength must be a multiple of headCount");
  const rand = mulberry32(options.seed ?? 1);
  const normal = gaussian(rand);
  // Transition texts join the vocabulary like preferred ones (with no constant bonus).
  const extra = Object.fromEntries(Object.entries(options.transitions ?? {}).flatMap(([p, n]) => [[p, 0], ...Object.keys(n).map((t) => [t, 0])]));
  const vocab = buildVocabulary({ ...options, preferredTokens: { ...extra, ...options.preferredTokens } });
  const d: Dimensions = {
    E,
    L: options.layers ?? (architecture === "qwen35" ? 4 : 2),
    FF: options.feedForwardLength ?? 64,
    H,
    HKV: options.headCountKv ?? 2,
    headDim,
    V: vocab.tokens.length,
  };
  const fill: Fill = (n, std, f) => {
    const a = new Float32Array(n);
    for (let i = 0; i < n; i++) a[i] = f?.(i) ?? normal() * std;
    return a;
  };
  const contextLength = options.contextLength ?? 32768;
  const body =
    architecture === "qwen35"
      ? qwen35Model(d, options.linear ?? { stateSize: headDim, keyHeads: 2, valueHeads: 4, convKernel: 4 }, vocab, fill, contextLength, options.mixing ?? 1, options.transitions)
      : llamaModel(d, vocab, fill, contextLength, options.mixing ?? 1, options.transitions);
  const kvs: [string, KvValue][] = [
    ["general.architecture", { t: T.STR, v: architecture }],
    ["general.name", { t: T.STR, v: options.name ?? (architecture === "llama" ? "tiny-qwen-test" : "tiny-qwen35-test") }],
    ["general.file_type", { t: T.U32, v: 0 }],
    ...body.kvs,
    ...tokenizerKvs(vocab, architecture === "qwen35" ? "qwen35" : "qwen2", options.chatTemplate),
  ];
  const GGML_TYPE_F32 = 0;
  const { header, offsets } = ggufHeader(
    kvs,
    body.tensors.map((t) => ({ name: t.name, ne: t.ne, type: GGML_TYPE_F32, bytes: t.data.byteLength })),
  );
  const last = body.tensors.length - 1;
  const bytes = new Uint8Array(header.length + (offsets[last] ?? 0) + (body.tensors[last]?.data.byteLength ?? 0));
  bytes.set(header, 0);
  for (const [i, t] of body.tensors.entries()) bytes.set(new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength), header.length + (offsets[i] as number));
  return { bytes, vocabSize: d.V, specialTokens: vocab.specialTokens, parameters: body.tensors.reduce((n, t) => n + t.data.length, 0), architecture };
}

/** Write the tiny GGUF to `file`. */
export function writeTinyGguf(file: string, options: TinyGgufOptions): TinyGguf & { file: string } {
  const gguf = buildTinyGguf(options);
  writeFileSync(file, gguf.bytes);
  return { ...gguf, file };
}
