// GGUF writing for the models the project generates itself (tests' tiny models, the 4B-shaped
// speed model): the container (GGUF v3 key/values, tensor table, aligned data), a byte-level BPE
// tokenizer with Qwen's conventions (GPT-2 byte↔unicode mapping, merges learned from a corpus, Qwen's
// control and user-defined special tokens), and the qwen35 (Qwen3.5 hybrid) metadata and tensor
// layout as llama.cpp's src/models/qwen35.cpp loads them.
//
// GGUF layout (v3): magic, version, tensor count, kv count, key/values, tensor infos, padding to
// general.alignment (32), tensor data (each tensor aligned to 32). Dimensions are listed innermost
// first (ne[0] = row length).

export const QWEN_CONTROL_TOKENS = ["<|endoftext|>", "<|im_start|>", "<|im_end|>"] as const;
export const QWEN_USER_DEFINED_TOKENS = ["<tool_call>", "</tool_call>", "<think>", "</think>", "<tool_response>", "</tool_response>"] as const;

export interface VocabularyOptions {
  chatTemplate: string;
  /** Text the BPE merges are learned from (prompts tokenize shorter when it resembles them). */
  corpus?: string;
  /** Number of BPE merges to learn (default 800). */
  merges?: number;
  /** Token text → logit bonus (tests' steering). Texts not in the vocabulary are added. */
  preferredTokens?: Record<string, number>;
  /** Pad the vocabulary with unused filler tokens to this size (the real model's vocabulary). */
  padTo?: number;
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
export const BYTE_CHARS = byteToUnicode();
export const utf8 = new TextEncoder();
export const toByteLevel = (text: string): string => Array.from(utf8.encode(text), (b) => BYTE_CHARS[b] as string).join("");

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
// GGUF writer

export const T = { U32: 4, I32: 5, F32: 6, BOOL: 7, STR: 8, ARR: 9 } as const;
export type KvValue =
  | { t: typeof T.U32 | typeof T.I32 | typeof T.F32; v: number }
  | { t: typeof T.BOOL; v: boolean }
  | { t: typeof T.STR; v: string }
  | { t: typeof T.ARR; of: typeof T.STR; v: string[] }
  | { t: typeof T.ARR; of: typeof T.I32; v: number[] };

export class ByteSink {
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

export function writeKv(sink: ByteSink, key: string, value: KvValue): void {
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

export interface Vocabulary {
  tokens: string[];
  types: number[];
  merges: [string, string][];
  specialTokens: Record<string, number>;
  preferred: Map<number, number>;
  /** Token id of a text (special tokens by name, others as byte-level text), if in the vocabulary. */
  idOf(text: string): number | undefined;
}

export function buildVocabulary(options: VocabularyOptions): Vocabulary {
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
  // Filler up to a real vocabulary's size (never produced: no merge leads to it).
  for (let i = tokens.length; i < (options.padTo ?? 0) - QWEN_CONTROL_TOKENS.length - QWEN_USER_DEFINED_TOKENS.length; i++) addToken(`\u0120filler${i}`, 1);
  const preferredTexts = Object.entries(options.preferredTokens ?? {});
  for (const [text] of preferredTexts) if (!specials.includes(text)) addToken(toByteLevel(text), 1);
  const specialTokens: Record<string, number> = {};
  for (const s of QWEN_CONTROL_TOKENS) specialTokens[s] = addToken(s, 3);
  for (const s of QWEN_USER_DEFINED_TOKENS) specialTokens[s] = addToken(s, 4);
  const preferred = new Map<number, number>();
  for (const [text, bonus] of preferredTexts) {
    preferred.set((specials.includes(text) ? specialTokens[text] : index.get(toByteLevel(text))) as number, bonus);
  }
  const idOf = (text: string): number | undefined => (specials.includes(text) ? specialTokens[text] : index.get(toByteLevel(text)));
  return { tokens, types, merges, specialTokens, preferred, idOf };
}

/** Tokenizer key/values shared by both architectures (Qwen's conventions; qwen35 pre-tokenizer for the student). */
export function tokenizerKvs(vocab: Vocabulary, pre: string, chatTemplate: string): [string, KvValue][] {
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


// ---------------------------------------------------------------------------------------------
// qwen35: the student's hybrid layout

/** Hybrid layer pattern of the student (qwen35.full_attention_interval): every 4th layer attends. */
export const QWEN35_FULL_ATTENTION_INTERVAL = 4;

export const isQwen35AttentionLayer = (layer: number): boolean => (layer + 1) % QWEN35_FULL_ATTENTION_INTERVAL === 0;

export interface Qwen35Dimensions {
  embedding: number;
  layers: number;
  feedForward: number;
  heads: number;
  kvHeads: number;
  headDim: number;
  /** Gated DeltaNet: ssm.state_size = linear key/value head dimension. */
  stateSize: number;
  /** ssm.group_count = linear key heads. */
  linearKeyHeads: number;
  /** ssm.time_step_rank = linear value heads. */
  linearValueHeads: number;
  convKernel: number;
  contextLength: number;
  ropeFreqBase: number;
}

/** What a qwen35 tensor is (decides its data and, for a quantized model, its type). */
export type Qwen35TensorRole =
  | "token_embd"
  | "output"
  | "norm"
  | "attn_q"
  | "attn_k"
  | "attn_v"
  | "attn_output"
  | "attn_qkv"
  | "attn_gate"
  | "ssm_conv1d"
  | "ssm_dt"
  | "ssm_a"
  | "ssm_beta"
  | "ssm_alpha"
  | "ssm_out"
  | "ffn_gate"
  | "ffn_up"
  | "ffn_down";

export interface TensorShape {
  name: string;
  ne: number[];
  role: Qwen35TensorRole;
  layer?: number;
}

/**
 * Tensors of a qwen35 model: every layer has attn_norm, post_attention_norm and a SwiGLU FFN;
 * Gated DeltaNet layers have attn_qkv, attn_gate, ssm_conv1d, ssm_dt, ssm_a, ssm_alpha, ssm_beta,
 * ssm_norm, ssm_out; attention layers a joint query+gate projection, K, V, output and Q/K norms.
 * `separateOutput`: an output.weight (else tied to the embedding, as the 4B student).
 */
export function qwen35TensorShapes(d: Qwen35Dimensions, vocabSize: number, separateOutput: boolean): TensorShape[] {
  const E = d.embedding;
  const keyDim = d.stateSize * d.linearKeyHeads;
  const valueDim = d.stateSize * d.linearValueHeads;
  const convDim = 2 * keyDim + valueDim;
  const qDim = d.headDim * d.heads;
  const kvDim = d.headDim * d.kvHeads;
  const shapes: TensorShape[] = [
    { name: "token_embd.weight", ne: [E, vocabSize], role: "token_embd" },
    { name: "output_norm.weight", ne: [E], role: "norm" },
    ...(separateOutput ? [{ name: "output.weight", ne: [E, vocabSize], role: "output" as const }] : []),
  ];
  for (let l = 0; l < d.layers; l++) {
    const t = (suffix: string, ne: number[], role: Qwen35TensorRole): TensorShape => ({ name: `blk.${l}.${suffix}`, ne, role, layer: l });
    shapes.push(t("attn_norm.weight", [E], "norm"), t("post_attention_norm.weight", [E], "norm"));
    if (isQwen35AttentionLayer(l)) {
      shapes.push(
        t("attn_q.weight", [E, 2 * qDim], "attn_q"),
        t("attn_k.weight", [E, kvDim], "attn_k"),
        t("attn_v.weight", [E, kvDim], "attn_v"),
        t("attn_output.weight", [qDim, E], "attn_output"),
        t("attn_q_norm.weight", [d.headDim], "norm"),
        t("attn_k_norm.weight", [d.headDim], "norm"),
      );
    } else {
      shapes.push(
        t("attn_qkv.weight", [E, convDim], "attn_qkv"),
        t("attn_gate.weight", [E, valueDim], "attn_gate"),
        t("ssm_conv1d.weight", [d.convKernel, convDim], "ssm_conv1d"),
        t("ssm_dt.bias", [d.linearValueHeads], "ssm_dt"),
        t("ssm_a", [d.linearValueHeads], "ssm_a"),
        t("ssm_beta.weight", [E, d.linearValueHeads], "ssm_beta"),
        t("ssm_alpha.weight", [E, d.linearValueHeads], "ssm_alpha"),
        t("ssm_norm.weight", [d.stateSize], "norm"),
        t("ssm_out.weight", [valueDim, E], "ssm_out"),
      );
    }
    shapes.push(t("ffn_gate.weight", [E, d.feedForward], "ffn_gate"), t("ffn_up.weight", [E, d.feedForward], "ffn_up"), t("ffn_down.weight", [d.feedForward, E], "ffn_down"));
  }
  return shapes;
}

/** qwen35.* key/values. RoPE: a quarter of the head dimension, sections in the converter's 11:11:10 ratio. */
export function qwen35Kvs(d: Qwen35Dimensions): [string, KvValue][] {
  const ropeDims = Math.max(4, Math.floor(d.headDim / 4));
  const half = ropeDims / 2;
  const side = Math.round((half * 11) / 32);
  const sections = [side, side, half - 2 * side, 0];
  return [
    ["qwen35.context_length", { t: T.U32, v: d.contextLength }],
    ["qwen35.embedding_length", { t: T.U32, v: d.embedding }],
    ["qwen35.block_count", { t: T.U32, v: d.layers }],
    ["qwen35.feed_forward_length", { t: T.U32, v: d.feedForward }],
    ["qwen35.attention.head_count", { t: T.U32, v: d.heads }],
    ["qwen35.attention.head_count_kv", { t: T.U32, v: d.kvHeads }],
    ["qwen35.attention.key_length", { t: T.U32, v: d.headDim }],
    ["qwen35.attention.value_length", { t: T.U32, v: d.headDim }],
    ["qwen35.attention.layer_norm_rms_epsilon", { t: T.F32, v: 1e-6 }],
    ["qwen35.rope.freq_base", { t: T.F32, v: d.ropeFreqBase }],
    ["qwen35.rope.dimension_count", { t: T.U32, v: ropeDims }],
    ["qwen35.rope.dimension_sections", { t: T.ARR, of: T.I32, v: sections }],
    ["qwen35.ssm.conv_kernel", { t: T.U32, v: d.convKernel }],
    ["qwen35.ssm.state_size", { t: T.U32, v: d.stateSize }],
    ["qwen35.ssm.group_count", { t: T.U32, v: d.linearKeyHeads }],
    ["qwen35.ssm.time_step_rank", { t: T.U32, v: d.linearValueHeads }],
    ["qwen35.ssm.inner_size", { t: T.U32, v: d.stateSize * d.linearValueHeads }],
    ["qwen35.full_attention_interval", { t: T.U32, v: QWEN35_FULL_ATTENTION_INTERVAL }],
  ];
}

/** The GGUF header and metadata: magic, version, counts, key/values and the tensor table (offsets aligned to 32). */
export function ggufHeader(kvs: readonly [string, KvValue][], tensors: readonly { name: string; ne: readonly number[]; type: number; bytes: number }[]): { header: Uint8Array; offsets: number[] } {
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
    sink.u32(t.type);
    sink.u64(offset);
    offsets.push(offset);
    offset += t.bytes;
    offset += (32 - (offset % 32)) % 32;
  }
  sink.pad(32);
  return { header: sink.concat(), offsets };
}
