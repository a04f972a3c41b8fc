// Test support: writes a tiny but complete GGUF (a few hundred KB) that llama.cpp loads like a real
// Qwen student — "llama" architecture with a couple of small layers, a byte-level BPE tokenizer
// ("gpt2" model, "qwen2" pre-tokenizer) whose merges are learned here from a corpus, Qwen's special
// tokens (<|im_start|>, <|im_end|>, <|endoftext|> as control tokens; <think>, </think>,
// <tool_call>, </tool_call>, <tool_response>, </tool_response> as user-defined tokens, each a single
// token) and a chat template embedded as tokenizer.chat_template. Weights are seeded random numbers.
//
// Steering (for tests only): `preferredTokens` gives chosen tokens a fixed logit bonus at every step.
// Every embedding carries a constant component (dimension 0) that survives the final RMS norm, and
// row 0 of output.weight holds the bonuses; the rest of the weights are random, so unpreferred
// tokens compete by context-dependent noise (gibberish, as expected from random weights). Tests use
// it to make grammar-constrained free text end (prefer "\n</parameter>\n", closing brackets, …).
//
// GGUF layout (v3): magic, version, tensor count, kv count, key/values, tensor infos, padding to
// general.alignment (32), tensor data (each tensor aligned to 32). Dimensions are listed innermost
// first (ne[0] = row length).
import { writeFileSync } from "node:fs";
import { mulberry32 } from "../../tools/util/random.ts";

export const QWEN_CONTROL_TOKENS = ["<|endoftext|>", "<|im_start|>", "<|im_end|>"] as const;
export const QWEN_USER_DEFINED_TOKENS = ["<tool_call>", "</tool_call>", "<think>", "</think>", "<tool_response>", "</tool_response>"] as const;

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
  name?: string;
  /** "llama" (default) or "qwen35", the student's hybrid Gated DeltaNet + attention layout. */
  architecture?: TinyArchitecture;
  /** Attention head dimension (default embeddingLength / headCount). */
  headDim?: number;
  /** qwen35: the linear-attention geometry (default: state 16, 2 key heads, 4 value heads, kernel 4). */
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

// ---------------------------------------------------------------------------------------------
// Byte-level BPE (GPT-2 byte↔unicode mapping, Qwen2 pre-tokenizer regex)

function byteToUnicode(): string[] {
  const printable: number[] = [];
  for (let b = 0x21; b <= 0x7e; b++) printable.push(b);
  for (let b = 0xa1; b <= 0xac; b++) printable.push(b);
  for (let b = 0xae; b <= 0xff; b++) printable.push(b);
  const map: string[] = new Array<string>(256);
  let extra = 0;
  for (let b = 0; b < 256; b++) map[b] = printable.includes(b) ? String.fromCodePoint(b) : String.fromCodePoint(256 + extra++);
  return map;
}
const BYTE_CHARS = byteToUnicode();
const utf8 = new TextEncoder();
const toByteLevel = (text: string): string => Array.from(utf8.encode(text), (b) => BYTE_CHARS[b] as string).join("");

const QWEN2_PRETOKENIZE = /(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+/gu;

/** Learn `count` merges from a corpus (deterministic: ties go to the lexicographically smaller pair). */
export function learnBpeMerges(corpus: string, count: number, reserved: readonly string[] = []): [string, string][] {
  let text = corpus;
  for (const special of reserved) text = text.split(special).join(" ");
  const words = new Map<string, number>();
  for (const m of text.matchAll(QWEN2_PRETOKENIZE)) {
    const w = toByteLevel(m[0]);
    words.set(w, (words.get(w) ?? 0) + 1);
  }
  const entries = [...words].map(([w, n]) => ({ syms: Array.from(w), n }));
  const merges: [string, string][] = [];
  for (let k = 0; k < count; k++) {
    const pairs = new Map<string, number>();
    for (const { syms, n } of entries) {
      for (let i = 0; i + 1 < syms.length; i++) {
        const key = `${syms[i]}\u0000${syms[i + 1]}`;
        pairs.set(key, (pairs.get(key) ?? 0) + n);
      }
    }
    let best: string | undefined;
    let bestN = 1;
    for (const [key, n] of pairs) if (n > bestN || (n === bestN && best !== undefined && key < best)) [best, bestN] = [key, n];
    if (best === undefined) break;
    const [a, b] = best.split("\u0000") as [string, string];
    merges.push([a, b]);
    for (const entry of entries) {
      const out: string[] = [];
      for (let i = 0; i < entry.syms.length; i++) {
        if (entry.syms[i] === a && entry.syms[i + 1] === b) {
          out.push(a + b);
          i++;
        } else out.push(entry.syms[i] as string);
      }
      entry.syms = out;
    }
  }
  return merges;
}

// ---------------------------------------------------------------------------------------------
// Seeded random numbers


function gaussian(rand: () => number): () => number {
  return () => Math.sqrt(-2 * Math.log(rand() + 1e-12)) * Math.cos(2 * Math.PI * rand());
}

// ---------------------------------------------------------------------------------------------
// GGUF writer

const T = { U32: 4, I32: 5, F32: 6, BOOL: 7, STR: 8, ARR: 9 } as const;
type KvValue =
  | { t: typeof T.U32 | typeof T.I32 | typeof T.F32; v: number }
  | { t: typeof T.BOOL; v: boolean }
  | { t: typeof T.STR; v: string }
  | { t: typeof T.ARR; of: typeof T.STR; v: string[] }
  | { t: typeof T.ARR; of: typeof T.I32; v: number[] };

class ByteSink {
  private chunks: Uint8Array[] = [];
  length = 0;
  push(bytes: Uint8Array): void {
    this.chunks.push(bytes);
    this.length += bytes.length;
  }
  u32(v: number): void {
    const b = new Uint8Array(4);
    new DataView(b.buffer).setUint32(0, v, true);
    this.push(b);
  }
  i32(v: number): void {
    const b = new Uint8Array(4);
    new DataView(b.buffer).setInt32(0, v, true);
    this.push(b);
  }
  f32(v: number): void {
    const b = new Uint8Array(4);
    new DataView(b.buffer).setFloat32(0, v, true);
    this.push(b);
  }
  u64(v: number): void {
    const b = new Uint8Array(8);
    new DataView(b.buffer).setBigUint64(0, BigInt(v), true);
    this.push(b);
  }
  str(s: string): void {
    const b = utf8.encode(s);
    this.u64(b.length);
    this.push(b);
  }
  pad(alignment: number): void {
    const n = (alignment - (this.length % alignment)) % alignment;
    if (n) this.push(new Uint8Array(n));
  }
  concat(): Uint8Array {
    const out = new Uint8Array(this.length);
    let at = 0;
    for (const c of this.chunks) {
      out.set(c, at);
      at += c.length;
    }
    return out;
  }
}

function writeKv(sink: ByteSink, key: string, value: KvValue): void {
  sink.str(key);
  sink.u32(value.t);
  switch (value.t) {
    case T.U32:
      return sink.u32(value.v);
    case T.I32:
      return sink.i32(value.v);
    case T.F32:
      return sink.f32(value.v);
    case T.BOOL:
      return sink.push(new Uint8Array([value.v ? 1 : 0]));
    case T.STR:
      return sink.str(value.v);
    case T.ARR:
      sink.u32(value.of);
      sink.u64(value.v.length);
      if (value.of === T.STR) for (const s of value.v as string[]) sink.str(s);
      else for (const n of value.v as number[]) sink.i32(n);
  }
}

interface Tensor {
  name: string;
  ne: number[];
  data: Float32Array;
}

// ---------------------------------------------------------------------------------------------

export type TinyArchitecture = "llama" | "qwen35";

/** Hybrid layer pattern of the student (qwen35.full_attention_interval): every 4th layer attends. */
export const QWEN35_FULL_ATTENTION_INTERVAL = 4;

interface Vocabulary {
  tokens: string[];
  types: number[];
  merges: [string, string][];
  specialTokens: Record<string, number>;
  preferred: Map<number, number>;
}

function buildVocabulary(options: TinyGgufOptions): Vocabulary {
  // 256 byte tokens, learned merges, preferred extras, then the special tokens.
  const specials = [...QWEN_CONTROL_TOKENS, ...QWEN_USER_DEFINED_TOKENS] as string[];
  const merges = learnBpeMerges(options.corpus ?? options.chatTemplate, options.merges ?? 800, specials);
  const tokens: string[] = [...BYTE_CHARS];
  const types: number[] = tokens.map(() => 1);
  const index = new Map(tokens.map((t, i) => [t, i]));
  const addToken = (text: string, type: number): number => {
    const existing = index.get(text);
    if (existing !== undefined) return existing;
    index.set(text, tokens.length);
    tokens.push(text);
    types.push(type);
    return tokens.length - 1;
  };
  for (const [a, b] of merges) addToken(a + b, 1);
  const preferredTexts = Object.entries(options.preferredTokens ?? {});
  for (const [text] of preferredTexts) if (!specials.includes(text)) addToken(toByteLevel(text), 1);
  const specialTokens: Record<string, number> = {};
  for (const s of QWEN_CONTROL_TOKENS) specialTokens[s] = addToken(s, 3);
  for (const s of QWEN_USER_DEFINED_TOKENS) specialTokens[s] = addToken(s, 4);
  const preferred = new Map<number, number>();
  for (const [text, bonus] of preferredTexts) {
    preferred.set((specials.includes(text) ? specialTokens[text] : index.get(toByteLevel(text))) as number, bonus);
  }
  return { tokens, types, merges, specialTokens, preferred };
}

/** Tokenizer key/values shared by both architectures (Qwen's conventions; qwen35 pre-tokenizer for the student). */
function tokenizerKvs(vocab: Vocabulary, pre: string, chatTemplate: string): [string, KvValue][] {
  return [
    ["tokenizer.ggml.model", { t: T.STR, v: "gpt2" }],
    ["tokenizer.ggml.pre", { t: T.STR, v: pre }],
    ["tokenizer.ggml.tokens", { t: T.ARR, of: T.STR, v: vocab.tokens }],
    ["tokenizer.ggml.token_type", { t: T.ARR, of: T.I32, v: vocab.types }],
    ["tokenizer.ggml.merges", { t: T.ARR, of: T.STR, v: vocab.merges.map(([a, b]) => `${a} ${b}`) }],
    ["tokenizer.ggml.eos_token_id", { t: T.U32, v: vocab.specialTokens["<|im_end|>"] as number }],
    ["tokenizer.ggml.padding_token_id", { t: T.U32, v: vocab.specialTokens["<|endoftext|>"] as number }],
    ["tokenizer.ggml.bos_token_id", { t: T.U32, v: vocab.specialTokens["<|endoftext|>"] as number }],
    ["tokenizer.ggml.add_bos_token", { t: T.BOOL, v: false }],
    ["tokenizer.chat_template", { t: T.STR, v: chatTemplate }],
  ];
}

interface Dimensions {
  E: number;
  L: number;
  FF: number;
  H: number;
  HKV: number;
  headDim: number;
  V: number;
}

type Fill = (n: number, std: number, f?: (i: number) => number | undefined) => Float32Array;

/** Embedding, final norm and output head; every embedding has a constant dimension 0 for steering. */
function headTensors(d: Dimensions, vocab: Vocabulary, fill: Fill): Tensor[] {
  const embd = fill(d.E * d.V, 0.1, (i) => (i % d.E === 0 ? 1 : undefined));
  const output = fill(d.E * d.V, 0.3, (i) => (i % d.E === 0 ? (vocab.preferred.get(Math.floor(i / d.E)) ?? 0) : undefined));
  return [
    { name: "token_embd.weight", ne: [d.E, d.V], data: embd },
    { name: "output_norm.weight", ne: [d.E], data: new Float32Array(d.E).fill(1) },
    { name: "output.weight", ne: [d.E, d.V], data: output },
  ];
}

function ffnTensors(l: number, d: Dimensions, fill: Fill): Tensor[] {
  return [
    { name: `blk.${l}.ffn_gate.weight`, ne: [d.E, d.FF], data: fill(d.E * d.FF, 0.05) },
    { name: `blk.${l}.ffn_up.weight`, ne: [d.E, d.FF], data: fill(d.E * d.FF, 0.05) },
    { name: `blk.${l}.ffn_down.weight`, ne: [d.FF, d.E], data: fill(d.FF * d.E, 0.02) },
  ];
}

function llamaTensors(d: Dimensions, fill: Fill): { tensors: Tensor[]; kvs: [string, KvValue][] } {
  const ones = (n: number) => new Float32Array(n).fill(1);
  const kvDim = d.HKV * d.headDim;
  const tensors: Tensor[] = [];
  for (let l = 0; l < d.L; l++) {
    tensors.push(
      { name: `blk.${l}.attn_norm.weight`, ne: [d.E], data: ones(d.E) },
      { name: `blk.${l}.attn_q.weight`, ne: [d.E, d.E], data: fill(d.E * d.E, 0.05) },
      { name: `blk.${l}.attn_k.weight`, ne: [d.E, kvDim], data: fill(d.E * kvDim, 0.05) },
      { name: `blk.${l}.attn_v.weight`, ne: [d.E, kvDim], data: fill(d.E * kvDim, 0.05) },
      { name: `blk.${l}.attn_output.weight`, ne: [d.E, d.E], data: fill(d.E * d.E, 0.02) },
      { name: `blk.${l}.ffn_norm.weight`, ne: [d.E], data: ones(d.E) },
      ...ffnTensors(l, d, fill),
    );
  }
  const kvs: [string, KvValue][] = [
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

/**
 * The student's qwen35 layout (llama.cpp src/models/qwen35.cpp): every layer has attn_norm,
 * post_attention_norm and a SwiGLU FFN; layers l with (l+1) % 4 != 0 are Gated DeltaNet layers
 * (attn_qkv, attn_gate, ssm_conv1d, ssm_dt, ssm_a, ssm_alpha, ssm_beta, ssm_norm, ssm_out), the others
 * full attention with a joint query+gate projection, Q/K norms and interleaved multi-section RoPE.
 */
function qwen35Tensors(d: Dimensions, g: Qwen35LinearGeometry, fill: Fill, contextLength: number): { tensors: Tensor[]; kvs: [string, KvValue][] } {
  const ones = (n: number) => new Float32Array(n).fill(1);
  const keyDim = g.stateSize * g.keyHeads;
  const valueDim = g.stateSize * g.valueHeads;
  const convDim = 2 * keyDim + valueDim;
  const tensors: Tensor[] = [];
  for (let l = 0; l < d.L; l++) {
    tensors.push({ name: `blk.${l}.attn_norm.weight`, ne: [d.E], data: ones(d.E) }, { name: `blk.${l}.post_attention_norm.weight`, ne: [d.E], data: ones(d.E) });
    if ((l + 1) % QWEN35_FULL_ATTENTION_INTERVAL === 0) {
      const qDim = d.headDim * d.H;
      const kvDim = d.headDim * d.HKV;
      tensors.push(
        { name: `blk.${l}.attn_q.weight`, ne: [d.E, 2 * qDim], data: fill(d.E * 2 * qDim, 0.05) },
        { name: `blk.${l}.attn_k.weight`, ne: [d.E, kvDim], data: fill(d.E * kvDim, 0.05) },
        { name: `blk.${l}.attn_v.weight`, ne: [d.E, kvDim], data: fill(d.E * kvDim, 0.05) },
        { name: `blk.${l}.attn_output.weight`, ne: [qDim, d.E], data: fill(qDim * d.E, 0.02) },
        { name: `blk.${l}.attn_q_norm.weight`, ne: [d.headDim], data: ones(d.headDim) },
        { name: `blk.${l}.attn_k_norm.weight`, ne: [d.headDim], data: ones(d.headDim) },
      );
    } else {
      tensors.push(
        { name: `blk.${l}.attn_qkv.weight`, ne: [d.E, convDim], data: fill(d.E * convDim, 0.05) },
        { name: `blk.${l}.attn_gate.weight`, ne: [d.E, valueDim], data: fill(d.E * valueDim, 0.05) },
        { name: `blk.${l}.ssm_conv1d.weight`, ne: [g.convKernel, convDim], data: fill(g.convKernel * convDim, 0.2) },
        { name: `blk.${l}.ssm_dt.bias`, ne: [g.valueHeads], data: fill(g.valueHeads, 0.1) },
        // -exp(A_log), as the converter stores it: a negative decay rate per value head.
        { name: `blk.${l}.ssm_a`, ne: [g.valueHeads], data: fill(g.valueHeads, 0, () => -0.5) },
        { name: `blk.${l}.ssm_beta.weight`, ne: [d.E, g.valueHeads], data: fill(d.E * g.valueHeads, 0.05) },
        { name: `blk.${l}.ssm_alpha.weight`, ne: [d.E, g.valueHeads], data: fill(d.E * g.valueHeads, 0.05) },
        { name: `blk.${l}.ssm_norm.weight`, ne: [g.stateSize], data: ones(g.stateSize) },
        { name: `blk.${l}.ssm_out.weight`, ne: [valueDim, d.E], data: fill(valueDim * d.E, 0.02) },
      );
    }
    tensors.push(...ffnTensors(l, d, fill));
  }
  const ropeDims = Math.max(4, Math.floor(d.headDim / 4)); // partial_rotary_factor 0.25, as the student
  const half = ropeDims / 2;
  const sections = [Math.ceil(half * 0.375), Math.ceil(half * 0.375), 0, 0];
  sections[2] = half - (sections[0] as number) - (sections[1] as number);
  const kvs: [string, KvValue][] = [
    ["qwen35.context_length", { t: T.U32, v: contextLength }],
    ["qwen35.embedding_length", { t: T.U32, v: d.E }],
    ["qwen35.block_count", { t: T.U32, v: d.L }],
    ["qwen35.feed_forward_length", { t: T.U32, v: d.FF }],
    ["qwen35.attention.head_count", { t: T.U32, v: d.H }],
    ["qwen35.attention.head_count_kv", { t: T.U32, v: d.HKV }],
    ["qwen35.attention.key_length", { t: T.U32, v: d.headDim }],
    ["qwen35.attention.value_length", { t: T.U32, v: d.headDim }],
    ["qwen35.attention.layer_norm_rms_epsilon", { t: T.F32, v: 1e-6 }],
    ["qwen35.rope.freq_base", { t: T.F32, v: 10000000 }],
    ["qwen35.rope.dimension_count", { t: T.U32, v: ropeDims }],
    ["qwen35.rope.dimension_sections", { t: T.ARR, of: T.I32, v: sections }],
    ["qwen35.ssm.conv_kernel", { t: T.U32, v: g.convKernel }],
    ["qwen35.ssm.state_size", { t: T.U32, v: g.stateSize }],
    ["qwen35.ssm.group_count", { t: T.U32, v: g.keyHeads }],
    ["qwen35.ssm.time_step_rank", { t: T.U32, v: g.valueHeads }],
    ["qwen35.ssm.inner_size", { t: T.U32, v: valueDim }],
    ["qwen35.full_attention_interval", { t: T.U32, v: QWEN35_FULL_ATTENTION_INTERVAL }],
  ];
  return { tensors, kvs };
}

export function buildTinyGguf(options: TinyGgufOptions): TinyGguf {
  const architecture = options.architecture ?? "llama";
  const E = options.embeddingLength ?? 32;
  const H = options.headCount ?? 4;
  const headDim = options.headDim ?? E / H;
  if (!Number.isInteger(headDim)) throw new Error("embeddingLength must be a multiple of headCount");
  const rand = mulberry32(options.seed ?? 1);
  const normal = gaussian(rand);
  const vocab = buildVocabulary(options);
  const d: Dimensions = {
    E,
    L: options.layers ?? (architecture === "qwen35" ? QWEN35_FULL_ATTENTION_INTERVAL : 2),
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
  const head = headTensors(d, vocab, fill);
  const body =
    architecture === "qwen35"
      ? qwen35Tensors(d, options.linear ?? { stateSize: headDim, keyHeads: 2, valueHeads: 4, convKernel: 4 }, fill, contextLength)
      : llamaTensors(d, fill);
  const tensors = [...head, ...body.tensors];
  const kvs: [string, KvValue][] = [
    ["general.architecture", { t: T.STR, v: architecture }],
    ["general.name", { t: T.STR, v: options.name ?? `tiny-${architecture}-test` }],
    ["general.file_type", { t: T.U32, v: 0 }],
    ...(architecture === "llama" ? ([["llama.context_length", { t: T.U32, v: contextLength }]] as [string, KvValue][]) : []),
    ...body.kvs,
    ...tokenizerKvs(vocab, architecture === "qwen35" ? "qwen35" : "qwen2", options.chatTemplate),
  ];

  const sink = new ByteSink();
  sink.push(utf8.encode("GGUF"));
  sink.u32(3);
  sink.u64(tensors.length);
  sink.u64(kvs.length);
  for (const [k, v] of kvs) writeKv(sink, k, v);
  let offset = 0;
  const offsets: number[] = [];
  for (const t of tensors) {
    sink.str(t.name);
    sink.u32(t.ne.length);
    for (const dim of t.ne) sink.u64(dim);
    sink.u32(0); // GGML_TYPE_F32
    sink.u64(offset);
    offsets.push(offset);
    offset += t.data.byteLength;
    offset += (32 - (offset % 32)) % 32;
  }
  sink.pad(32);
  const dataStart = sink.length;
  for (const [i, t] of tensors.entries()) {
    const pad = dataStart + (offsets[i] as number) - sink.length;
    if (pad > 0) sink.push(new Uint8Array(pad));
    sink.push(new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength));
  }
  return { bytes: sink.concat(), vocabSize: d.V, specialTokens: vocab.specialTokens, parameters: tensors.reduce((n, t) => n + t.data.length, 0), architecture };
}

/** Write the tiny GGUF to `file`. */
export function writeTinyGguf(file: string, options: TinyGgufOptions): TinyGguf & { file: string } {
  const gguf = buildTinyGguf(options);
  writeFileSync(file, gguf.bytes);
  return { ...gguf, file };
}
