// The seam between the runtime (pure) and a text-completion engine (models/engine.ts wraps
// node-llama-cpp behind it; tests use fakes). A request is one llama-server round: the fully
// rendered prompt, a token budget and the lazy tool-call grammar; the engine decodes greedily
// (temperature 0) and stops at end-of-generation.
import type { LazyToolCallGrammar } from "./grammar.ts";

export const DEFAULT_MAX_TOKENS = 4096;

/** A half-open character range [start, end) of a prompt. */
export interface TextRange {
  start: number;
  end: number;
  /**
   * The model's own earlier output (assistant content, reasoning, tool-call arguments): it may hold
   * the tokenizer's user-defined tokens it wrote (`<tool_call>`, `<think>`…, re-tokenized as
   * llama-server does), never control tokens (`<|im_start|>`…), which a passenger could otherwise
   * smuggle in by having the model echo them.
   */
  modelOutput?: boolean;
}

/** The ranges as they fall in the prompt's first `end` characters (for a prefix of it). */
export function rangesBefore(ranges: readonly TextRange[], end: number): TextRange[] {
  return ranges.filter((r) => r.start < end).map((r) => ({ ...r, end: Math.min(r.end, end) }));
}

/**
 * Stop thinking after `tokens` generated tokens: if the model is still inside its reasoning block
 * (no `endText` written yet), the engine writes `endText` itself and generation continues with the
 * answer. A latency lever for passengers; bench runs keep the paper's unlimited thinking.
 */
export interface ReasoningBudget {
  tokens: number;
  /** The text that closes the reasoning block (Qwen: "\n</think>\n\n"). */
  endText: string;
  /** The marker whose presence in the output means reasoning already ended (Qwen: "</think>"). */
  endMarker: string;
}

export interface CompletionRequest {
  /** The rendered prompt; special tokens appear as text and must be tokenized as special tokens. */
  prompt: string;
  /** New-token budget for this round (llama-server max_completion_tokens). Default 4096. */
  maxTokens?: number;
  /**
   * Two-phase constrained decoding: unconstrained until one of `lazyGrammar.triggers` appears in
   * the generated text, then continue from the exact tokens under
   * `lazyGrammar.continueAfter(textFromTrigger)` until end-of-generation.
   */
  lazyGrammar?: LazyToolCallGrammar;
  /**
   * Characters at the start of `prompt` that every session of this framebook shares (the system
   * turn with the tools block). Engines keep or checkpoint this prefix for reuse.
   */
  sharedPrefixChars?: number;
  /**
   * Characters at the start of `prompt` that every session shares whatever its framebook and live
   * conditions (the tools block). Hybrid engines checkpoint this prefix too.
   */
  stablePrefixChars?: number;
  /**
   * Live sessions: characters at the start of `prompt` that do not change with the clock (the system
   * turn up to the stated time). Hybrid engines checkpoint there, so a prompt for another minute
   * evaluates only what follows the time.
   */
  livePrefixChars?: number;
  /**
   * Ranges of `prompt` holding message text (passenger input, tool results, framebook text, the
   * model's own earlier output) rather than the chat template's structure: text there is always
   * tokenized as plain text, so it can never become a control token such as `<|im_start|>`.
   */
  literalRanges?: readonly TextRange[];
  /** Cap on thinking tokens this round (absent: think as long as the model wants, as in the paper). */
  reasoningBudget?: ReasoningBudget;
  signal?: AbortSignal;
}

export interface CompletionUsage {
  promptTokens: number;
  completionTokens: number;
  /** Prompt tokens whose KV state was reused instead of evaluated. */
  cachedPromptTokens: number;
  /**
   * Hybrid/recurrent models: prompt tokens the engine had to evaluate again because the recurrent
   * state could only be restored from an earlier checkpoint (counted in prefill, not in cached).
   */
  checkpointReplayTokens?: number;
  /**
   * Hybrid/recurrent models: taking the checkpoint at the end of the prompt (in the prefill, before
   * the first token). The end-of-generation checkpoint is taken after the answer is returned.
   */
  checkpointMs?: number;
  /** Request start → first generated token. */
  ttftMs: number;
  /** Evaluating the uncached prompt tokens. */
  prefillMs: number;
  /** Generating (everything after the first token). */
  decodeMs: number;
  totalMs: number;
  /** Time spent deriving and compiling the post-trigger grammar. */
  grammarMs?: number;
}

export interface CompletionResult {
  /** Generated text (special tokens as text), everything after the prompt. */
  text: string;
  /** "length": the token budget ran out before end-of-generation. */
  finishReason: "stop" | "length";
  /** The lazy grammar's trigger appeared and the rest was generated under the grammar. */
  grammarTriggered: boolean;
  /**
   * The grammar rejected text the model had already written when the trigger completed (llama.cpp
   * throws "Unexpected empty grammar stack…" and llama-server fails the request).
   */
  grammarError?: string;
  /** The reasoning budget ran out and the engine closed the reasoning block. */
  reasoningTruncated?: boolean;
  /** The token budget was cut short because the context had no more room. */
  contextLimited?: boolean;
  usage: CompletionUsage;
}

/**
 * Evaluate a prompt prefix ahead of time (the system turn the next passenger will get), so that a
 * completion starting with it finds it cached. Background work: it gives way to a completion that
 * is waiting for the model.
 */
export interface PrefillRequest {
  prompt: string;
  literalRanges?: readonly TextRange[];
  /** Prefix ends to checkpoint on the way (hybrid engines), as in CompletionRequest. */
  stablePrefixChars?: number;
  livePrefixChars?: number;
}

export interface PrefillResult {
  promptTokens: number;
  /** Tokens already in the cache (nothing to evaluate). */
  cachedTokens: number;
  /** Tokens evaluated now (checkpoint replays included). */
  evaluatedTokens: number;
  ms: number;
  /** False when the prefill stopped early to let a waiting completion run. */
  complete: boolean;
}

export interface CompletionBackend {
  complete(request: CompletionRequest): Promise<CompletionResult>;
  /** Background prefill of a coming prompt's prefix (engines without a prompt cache leave it out). */
  prefill?(request: PrefillRequest): Promise<PrefillResult>;
  /** The chat template embedded in the loaded model (GGUF tokenizer.chat_template), if any. */
  chatTemplate(): string | undefined;
}
