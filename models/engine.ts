// LlamaEngine: the student model in-process through node-llama-cpp 3.21.1, behind the runtime's
// CompletionBackend. One model, one context, a few sequences; greedy decoding (temperature 0), at
// most `maxTokens` new tokens per round, stop at end-of-generation, special tokens parsed when
// tokenizing and kept when detokenizing (MODEL-PROTOCOL.md §4.2, §5).
//
// Lazy tool-call grammar (b8642): phase 1 samples unconstrained and watches the generated text for
// a trigger; when one appears, phase 2 continues from the exact tokens (the last sampled token is
// fed back, nothing is re-tokenized) under the grammar that remains after the text the model wrote
// from the trigger's first character on (LazyToolCallGrammar.continueAfter).
//
// KV prefix reuse: every request compares its tokens with the sequence's and keeps the common
// prefix (node-llama-cpp erases the rest), so consecutive rounds of a session and the next
// session on the same framebook skip the shared system turn. Hybrid models (the qwen35 student:
// Gated DeltaNet layers with a recurrent state, every 4th layer full attention) cannot cut their
// recurrent state at an arbitrary token: node-llama-cpp restores the nearest earlier checkpoint and
// evaluates the rest again. The engine takes three kinds of checkpoint (recurrent state only, about
// 53 MB each for the 4B): the ends of the shared prefixes — the tools block every session shares,
// a live system turn up to its stated time, and the whole system turn — (named checkpoints that
// survive the sessions' own), the end of every prompt but its last token (the next round of the
// session starts there) and the end of every generation (reused when the next prompt re-renders
// the output token for token; taken after the answer has been returned, so no passenger waits for
// it). Each costs node-llama-cpp 0.15–0.25 s on the 4B here (a copy of the recurrent state). A
// llama-architecture model reuses any common prefix; a hybrid one only what ends at a checkpoint.
// Tokens evaluated again after a restore are reported as checkpointReplayTokens, not as cached. A
// warm-boot state file saves the evaluated shared prefix; `prefill` evaluates the next passenger's
// system turn in the background.
//
// Message text (passenger input, tool results, framebook text) never becomes a control token:
// see models/prompt-tokens.ts.
import { availableParallelism } from "node:os";
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import type { Llama, LlamaContext, LlamaContextSequence, LlamaGrammar, LlamaLogLevel, LlamaModel, Token } from "node-llama-cpp";
import { DEFAULT_MAX_TOKENS, rangesBefore, type CompletionBackend, type CompletionRequest, type CompletionResult, type PrefillRequest, type PrefillResult, type TextRange } from "../runtime/model/backend.ts";
import { AdaptiveThreads, type AdaptiveThreadsOptions } from "./adaptive-threads.ts";
import { ModelContextOverflowError, ModelError, ModelNotLoadedError } from "./errors.ts";
import { inspectGgufFile } from "./gguf.ts";
import { llamaCpp } from "./llama-cpp.ts";
import { sharedLlama, type GpuSetting } from "./llama.ts";
import { Mutex } from "./lock.ts";
import { specialTokenTexts, tokenizePrompt, type PromptTokenizer } from "./prompt-tokens.ts";
import type { ThreadDecision, ThreadGovernorStatus } from "./thread-governor.ts";
import { measureThreadsOnModel } from "./threads.ts";

export type { GpuSetting };

export interface LlamaEngineOptions {
  modelPath: string;
  /** CPU threads for evaluation (always passed to node-llama-cpp). Default: cores − 1, at least 1. */
  threads?: number;
  /**
   * Watch the decode speed of real answers and switch the thread count when it falls well below the
   * measured figure (models/thread-governor.ts). Off unless given.
   */
  adaptiveThreads?: AdaptiveThreadsOptions;
  /** GPU backend: "auto" (default) falls back to CPU when none works; false forces CPU. */
  gpu?: GpuSetting;
  /**
   * Context size in tokens (default 16384, the reference's setting for the 4B and about twice the
   * paper's p99 conversation of 8,747 tokens; capped by the model). When that much does not fit in
   * memory, the engine falls back to the largest size down to `minContextSize` that does, and says so
   * in `info.contextFallback`.
   */
  contextSize?: number;
  /** Smallest context accepted by the memory fallback (default 4096). */
  minContextSize?: number;
  batchSize?: number;
  /** Parallel sequences (sessions decoding at once). Default 1. */
  sequences?: number;
  logLevel?: LlamaLogLevel;
  /**
   * Token prediction (speculative evaluation whose guesses greedy sampling then validates, so the
   * output is unchanged): "input-lookup" predicts the continuation by finding the last generated
   * tokens in the prompt (tool arguments copy station names, route ids…). Default "off": on the
   * 4B-shaped random model it was slower (0.81×, `npm run perf:levers`); real weights need measuring.
   */
  tokenPrediction?: TokenPrediction;
  /** Hybrid models: checkpoints kept per sequence besides the shared-prefix one (default 4). */
  maxCheckpoints?: number;
  /**
   * Test-only: the first generated tokens of every round are forced to this text (tokenized with
   * special tokens, counted as completion tokens). A random-weight test model cannot otherwise be
   * made to open a tool call; production never sets it.
   */
  forcedOutputPrefix?: string;
}

export type TokenPrediction = "off" | "input-lookup";

/** A background prefill checks for a waiting completion after each chunk of this many tokens. */
const PREFILL_CHUNK_TOKENS = 64;

/** Name of the hybrid models' shared-prefix checkpoint (kept apart from the rolling ones). */
const SHARED_PREFIX_CHECKPOINT = "metro-kiosk:shared-prefix";

export interface EngineState {
  loaded: boolean;
  loading: boolean;
  /** Load progress 0..1. */
  progress: number;
  error?: string;
  modelPath: string;
}

export interface EngineInfo {
  modelPath: string;
  threads: number;
  gpu: string | false;
  /** The CPU runtime in use: node-llama-cpp's prebuilt binary, or the source build measured faster here. */
  engineBuild: "prebuilt" | "source";
  contextSize: number;
  sequences: number;
  /** Hybrid/recurrent model: prefix reuse relies on checkpoints. */
  needsCheckpoints: boolean;
  vocabularyType: string;
  tokenPrediction: TokenPrediction;
  /** Why the context is smaller than asked (memory), when it is. */
  contextFallback?: string;
}

interface SequenceSlot {
  sequence: LlamaContextSequence;
  lock: Mutex;
}

export function defaultThreads(): number {
  return Math.max(1, availableParallelism() - 1);
}

const now = (): number => performance.now();

function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason : new DOMException("The operation was aborted", "AbortError");
}

/** Incremental detokenizer: keeps bytes of an unfinished UTF-8 character pending. */
class TextAccumulator {
  text = "";
  private pending: Token[] = [];
  private context: Token[] = [];
  constructor(private readonly model: LlamaModel) {}
  push(token: Token): void {
    this.pending.push(token);
    const piece = this.model.detokenize(this.pending, true, this.context);
    if (piece.endsWith("\uFFFD") && this.pending.length < 8) return;
    this.text += piece;
    this.context = [...this.context, ...this.pending].slice(-8);
    this.pending = [];
  }
  flush(): string {
    if (this.pending.length > 0) {
      this.text += this.model.detokenize(this.pending, true, this.context);
      this.pending = [];
    }
    return this.text;
  }
}

/** The model fingerprint stored next to a warm-boot state file. */
interface WarmStateMeta {
  model: { path: string; size: number; mtimeMs: number };
  contextSize: number;
  tokens: number;
}

export class LlamaEngine implements CompletionBackend {
  private llama: Llama | undefined;
  private model: LlamaModel | undefined;
  private context: LlamaContext | undefined;
  private slots: SequenceSlot[] = [];
  private readonly lifecycle = new Mutex();
  private readonly listeners = new Set<(state: EngineState) => void>();
  private readonly grammarCache = new Map<string, Promise<LlamaGrammar>>();
  private current: EngineState;
  private gpuInUse: string | false = false;
  private contextFallback: string | undefined;
  private promptTokenizer: PromptTokenizer<Token> | undefined;
  private threadCount: number;
  private adaptive: AdaptiveThreads | undefined;
  private readonly threadListeners = new Set<(decision: ThreadDecision) => void>();

  constructor(readonly options: LlamaEngineOptions) {
    this.threadCount = options.threads ?? defaultThreads();
    this.current = { loaded: false, loading: false, progress: 0, modelPath: options.modelPath };
  }

  /** The thread count evaluations use now (it changes when threads adapt, or by `setThreads`). */
  get threads(): number {
    return this.threadCount;
  }

  get state(): EngineState {
    return { ...this.current };
  }

  /** Subscribe to lifecycle changes (for the UI); returns an unsubscribe function. */
  onStateChange(listener: (state: EngineState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private setState(patch: Partial<EngineState>): void {
    this.current = { ...this.current, ...patch };
    for (const l of this.listeners) l(this.state);
  }

  get info(): EngineInfo {
    const model = this.requireModel();
    const context = this.context as LlamaContext;
    return {
      modelPath: this.options.modelPath,
      threads: this.threads,
      gpu: this.gpuInUse,
      engineBuild: this.llama?.buildType === "localBuild" ? "source" : "prebuilt",
      contextSize: context.contextSize,
      sequences: this.slots.length,
      needsCheckpoints: this.slots[0]?.sequence.needsCheckpoints ?? false,
      vocabularyType: String(model.vocabularyType),
      tokenPrediction: this.options.tokenPrediction ?? "off",
      ...(this.contextFallback ? { contextFallback: this.contextFallback } : {}),
    };
  }

  /** Load the model and create the context (serialized with other lifecycle steps). */
  load(): Promise<void> {
    return this.lifecycle.run(async () => {
      if (this.model) return;
      this.setState({ loading: true, progress: 0, error: undefined });
      try {
        const path = this.options.modelPath;
        await inspectGgufFile(path); // typed errors for a missing, truncated or foreign file
        const { InputLookupTokenPredictor } = await llamaCpp();
        this.llama = await sharedLlama(this.options.gpu ?? "auto", this.options.logLevel);
        this.gpuInUse = this.llama.gpu;
        this.model = await this.llama.loadModel({
          modelPath: path,
          gpuLayers: this.gpuInUse === false ? 0 : "auto",
          onLoadProgress: (progress) => this.setState({ progress }),
        });
        this.context = await this.createContext(this.model);
        const context = this.context;
        const prediction = this.options.tokenPrediction ?? "off";
        this.slots = Array.from({ length: context.totalSequences }, () => ({
          sequence: context.getSequence({
            checkpoints: { max: this.options.maxCheckpoints ?? 4, interval: false },
            ...(prediction === "input-lookup" ? { tokenPredictor: new InputLookupTokenPredictor() } : {}),
          }),
          lock: new Mutex(),
        }));
        const adaptive = this.options.adaptiveThreads;
        if (adaptive) {
          const model = this.model;
          this.adaptive = new AdaptiveThreads(adaptive, this.threadCount, {
            exclusive: (fn) => this.exclusive(fn),
            measure: (candidates, workload) => {
              // The scratch contexts share the runtime's thread splitter: the idle context's leftover
              // reservation would otherwise cut their share.
              this.threadInternals()?._freeReservedThreads();
              return measureThreadsOnModel(model, candidates, workload);
            },
            switchTo: async (threads) => this.switchThreads(threads),
            onDecision: (decision) => {
              for (const listener of this.threadListeners) listener(decision);
            },
          });
        }
        this.setState({ loaded: true, loading: false, progress: 1 });
      } catch (err) {
        await this.disposeAll();
        const message = err instanceof Error ? err.message : String(err);
        this.setState({ loaded: false, loading: false, error: message });
        throw err instanceof ModelError ? err : new ModelError(`Could not load ${this.options.modelPath}: ${message}`, { cause: err });
      }
    });
  }

  /** Release the model and context (waits for running completions). */
  unload(): Promise<void> {
    return this.lifecycle.run(async () => {
      await this.adaptive?.idle();
      await Promise.all(this.slots.map((s) => s.lock.run(() => undefined)));
      await this.disposeAll();
      this.setState({ loaded: false, loading: false, progress: 0 });
    });
  }

  /** The asked context size, or — when memory does not allow it — the largest that fits (≥ minContextSize). */
  private async createContext(model: LlamaModel): Promise<LlamaContext> {
    const trainContext = model.trainContextSize;
    const wanted = Math.min(this.options.contextSize ?? 16384, trainContext > 0 ? trainContext : Number.MAX_SAFE_INTEGER);
    const base = { sequences: this.options.sequences ?? 1, threads: this.threads, batchSize: this.options.batchSize };
    try {
      return await model.createContext({ ...base, contextSize: wanted });
    } catch (err) {
      const min = Math.min(this.options.minContextSize ?? 4096, wanted);
      if (min >= wanted) throw err;
      const context = await model.createContext({ ...base, contextSize: { min, max: wanted } });
      this.contextFallback = `a context of ${wanted} tokens did not fit (${err instanceof Error ? err.message : String(err)}); using ${context.contextSize}`;
      return context;
    }
  }

  private async disposeAll(): Promise<void> {
    this.grammarCache.clear();
    this.adaptive = undefined;
    this.promptTokenizer = undefined;
    this.contextFallback = undefined;
    await this.context?.dispose();
    await this.model?.dispose();
    // The Llama runtime is shared (models/llama.ts) and stays alive.
    this.slots = [];
    this.context = undefined;
    this.model = undefined;
    this.llama = undefined;
  }

  private requireModel(): LlamaModel {
    if (!this.model) throw new ModelNotLoadedError(`Model not loaded${this.current.error ? `: ${this.current.error}` : ""} (${this.options.modelPath})`);
    return this.model;
  }

  /** Token predictions checked so far over all sequences (node-llama-cpp's counters). */
  tokenPredictionStats(): { used: number; unused: number; validated: number; refuted: number } {
    const total = { used: 0, unused: 0, validated: 0, refuted: 0 };
    for (const { sequence } of this.slots) {
      const p = sequence.tokenPredictions;
      total.used += p.used;
      total.unused += p.unused;
      total.validated += p.validated;
      total.refuted += p.refuted;
    }
    return total;
  }

  chatTemplate(): string | undefined {
    const template = this.requireModel().fileInfo.metadata.tokenizer?.chat_template;
    return typeof template === "string" ? template : undefined;
  }

  tokenize(text: string, specialTokens = true): Token[] {
    return this.requireModel().tokenize(text, specialTokens);
  }

  /** A prompt's tokens; special-token text inside `literalRanges` stays plain text (models/prompt-tokens.ts). */
  tokenizePrompt(prompt: string, literalRanges?: readonly TextRange[]): Token[] {
    return tokenizePrompt(prompt, literalRanges, this.tokenizer()).tokens;
  }

  private tokenizer(): PromptTokenizer<Token> {
    if (this.promptTokenizer) return this.promptTokenizer;
    const model = this.requireModel();
    const ggml = (model.fileInfo.metadata.tokenizer as unknown as { ggml?: { tokens?: readonly string[]; token_type?: readonly number[] } } | undefined)?.ggml;
    const [tokens, types] = [ggml?.tokens ?? [], ggml?.token_type ?? []];
    return (this.promptTokenizer = {
      tokenize: (text, special) => model.tokenize(text, special),
      specialTexts: specialTokenTexts(tokens, types),
      controlTexts: specialTokenTexts(tokens, types, 3),
    });
  }

  detokenize(tokens: readonly Token[], specialTokens = true): string {
    return this.requireModel().detokenize(tokens, specialTokens);
  }

  /** Pick the idle sequence sharing the longest prefix with `tokens` (else the best busy one). */
  private pickSlot(tokens: Token[]): SequenceSlot {
    let best: SequenceSlot | undefined;
    let bestScore = -1;
    for (const slot of this.slots) {
      const shared = slot.sequence.compareContextTokens(tokens).firstDifferentIndex;
      const score = (slot.lock.waiting === 0 ? 1e9 : 0) + shared;
      if (score > bestScore) [best, bestScore] = [slot, score];
    }
    if (!best) throw new ModelNotLoadedError("Model not loaded");
    return best;
  }

  private grammarFor(gbnf: string, rootRuleName: string): Promise<LlamaGrammar> {
    const key = `${rootRuleName}\n${gbnf}`;
    let grammar = this.grammarCache.get(key);
    if (!grammar) {
      grammar = (this.llama as Llama).createGrammar({ grammar: gbnf, rootRuleName });
      grammar.catch(() => this.grammarCache.delete(key));
      if (this.grammarCache.size > 32) this.grammarCache.clear();
      this.grammarCache.set(key, grammar);
    }
    return grammar;
  }

  complete(request: CompletionRequest): Promise<CompletionResult> {
    const model = this.requireModel();
    const tokens = this.tokenizePrompt(request.prompt, request.literalRanges);
    const slot = this.pickSlot(tokens);
    return new Promise<CompletionResult>((resolve, reject) => {
      void slot.lock.run(async () => {
        const threads = this.threadCount;
        let result: CompletionResult;
        try {
          result = await this.completeOn(slot.sequence, model, tokens, request);
        } catch (err) {
          reject(err);
          return;
        }
        // The answer goes out now; what only the next request needs runs after it: a hybrid model's
        // end-of-generation checkpoint (still holding the sequence), and a thread re-measurement
        // this round may ask for (it waits for every sequence, so for the checkpoint too).
        resolve(result);
        this.adaptive?.afterRound({ threads, completionTokens: result.usage.completionTokens, decodeMs: result.usage.decodeMs - (result.usage.grammarMs ?? 0) });
        if (slot.sequence.needsCheckpoints) await slot.sequence.takeCheckpoint().catch(() => undefined);
      });
    });
  }

  /**
   * Use `threads` CPU threads from the next evaluation on (waits for running evaluations). False
   * when this node-llama-cpp cannot switch a context's threads; the count then stays as it was.
   */
  setThreads(threads: number): Promise<boolean> {
    if (!Number.isInteger(threads) || threads < 1) throw new RangeError(`threads must be a positive integer, got ${threads}`);
    return this.exclusive(async () => this.switchThreads(threads));
  }

  /** Every re-measurement of the adaptive thread count, with its table and what it decided. */
  onThreadDecision(listener: (decision: ThreadDecision) => void): () => void {
    this.threadListeners.add(listener);
    return () => this.threadListeners.delete(listener);
  }

  /** What the adaptive thread count sees now (undefined: the count is fixed). */
  adaptiveThreadsStatus(): ThreadGovernorStatus | undefined {
    return this.adaptive?.status();
  }

  /** Resolves when no thread re-measurement is in flight. */
  async threadsSettled(): Promise<void> {
    await this.adaptive?.idle();
  }

  /** Run `fn` holding every sequence's lock, so no evaluation runs beside it. */
  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    // Always taken in the same order, and a completion holds only one: no two callers wait in a cycle.
    const run = this.slots.reduceRight<() => Promise<T>>((inner, slot) => () => slot.lock.run(inner), fn);
    return run();
  }

  /**
   * node-llama-cpp 3.21.1 has no public way to change a context's threads (internal API): each
   * evaluation reserves `_idealThreads` (at least `_minThreads`) from the runtime's thread splitter
   * and sets the native context's threads from that reservation, released after the evaluation.
   * Undefined when a later version renamed them.
   */
  private threadInternals(): { _idealThreads: number; _minThreads: number; _freeReservedThreads: () => void } | undefined {
    const internals = this.context as unknown as { _idealThreads?: unknown; _minThreads?: unknown; _freeReservedThreads?: unknown } | undefined;
    if (typeof internals?._idealThreads !== "number" || typeof internals._minThreads !== "number" || typeof internals._freeReservedThreads !== "function") return undefined;
    return internals as { _idealThreads: number; _minThreads: number; _freeReservedThreads: () => void };
  }

  private switchThreads(threads: number): boolean {
    const internals = this.threadInternals();
    if (!internals) return false;
    // Changed between evaluations, the next one reserves (and runs with) the new count.
    internals._idealThreads = threads;
    internals._minThreads = Math.min(internals._minThreads, threads);
    // A reservation made with the old count would otherwise serve the next evaluation.
    internals._freeReservedThreads();
    this.threadCount = threads;
    return true;
  }

  /** The shared-prefix checkpoint of a hybrid sequence, unless one exists at this very position. */
  private async checkpointSharedPrefix(sequence: LlamaContextSequence): Promise<void> {
    // node-llama-cpp 3.21.1 keeps named checkpoints apart from the rolling ones (internal API); fall
    // back to a plain checkpoint if a later version renames it.
    const named = (sequence as unknown as { _takeNamedCheckpoint?: (name: string, max: number) => Promise<void> })._takeNamedCheckpoint;
    if (typeof named === "function") await named.call(sequence, SHARED_PREFIX_CHECKPOINT, 4);
    else await sequence.takeCheckpoint();
  }

  /**
   * Token positions where the given character prefixes of the prompt end, ascending; a prefix whose
   * tokens are not the prompt's own first tokens (a token straddles its end) is left out.
   */
  private prefixEnds(request: { prompt: string; literalRanges?: readonly TextRange[] | undefined }, tokens: readonly Token[], ends: readonly (number | undefined)[]): number[] {
    const positions = new Set<number>();
    for (const chars of ends) {
      if (chars === undefined) continue;
      const prefix = this.tokenizePrompt(request.prompt.slice(0, chars), request.literalRanges && rangesBefore(request.literalRanges, chars));
      if (prefix.length <= tokens.length && prefix.every((t, i) => tokens[i] === t)) positions.add(prefix.length);
    }
    return [...positions].sort((a, b) => a - b);
  }

  /**
   * Evaluate a coming prompt's prefix in the background (the kiosk's prompt warmer). It runs in
   * chunks and stops between two of them when a completion is waiting for the sequence: a
   * passenger never waits behind a warm-up. On a hybrid model the prefix ends
   * given and the prompt's end are checkpointed as shared prefixes.
   */
  prefill(request: PrefillRequest): Promise<PrefillResult> {
    this.requireModel();
    const tokens = this.tokenizePrompt(request.prompt, request.literalRanges);
    const slot = this.pickSlot(tokens);
    return slot.lock.run(() => this.prefillOn(slot, tokens, request));
  }

  private async prefillOn(slot: SequenceSlot, tokens: Token[], request: PrefillRequest): Promise<PrefillResult> {
    const t0 = now();
    const sequence = slot.sequence;
    if (tokens.length >= sequence.contextSize) throw new ModelContextOverflowError(tokens.length, sequence.contextSize);
    const evaluatedBefore = sequence.tokenMeter.usedInputTokens;
    const keep = sequence.compareContextTokens(tokens).firstDifferentIndex;
    if (keep < sequence.nextTokenIndex) await sequence.eraseContextTokenRanges([{ start: keep, end: sequence.nextTokenIndex }]);
    const cachedTokens = Math.max(0, sequence.nextTokenIndex - (sequence.tokenMeter.usedInputTokens - evaluatedBefore));
    // The lock counts its holder (this prefill) and those waiting behind it.
    const someoneWaits = (): boolean => slot.lock.waiting > 1;
    const result = (complete: boolean): PrefillResult => ({
      promptTokens: tokens.length,
      cachedTokens,
      evaluatedTokens: sequence.tokenMeter.usedInputTokens - evaluatedBefore,
      ms: now() - t0,
      complete,
    });
    const targets = [...this.prefixEnds(request, tokens, [request.stablePrefixChars, request.livePrefixChars]).filter((end) => end < tokens.length), tokens.length];
    for (const end of targets) {
      if (end < sequence.nextTokenIndex) continue;
      while (sequence.nextTokenIndex < end) {
        if (someoneWaits()) return result(false);
        await sequence.evaluateWithoutGeneratingNewTokens(tokens.slice(sequence.nextTokenIndex, Math.min(end, sequence.nextTokenIndex + PREFILL_CHUNK_TOKENS)));
      }
      if (sequence.needsCheckpoints) await this.checkpointSharedPrefix(sequence);
    }
    return result(true);
  }

  private async completeOn(sequence: LlamaContextSequence, model: LlamaModel, tokens: Token[], request: CompletionRequest): Promise<CompletionResult> {
    const t0 = now();
    const signal = request.signal;
    if (signal?.aborted) throw abortError(signal);
    const contextSize = sequence.contextSize;
    if (tokens.length >= contextSize) throw new ModelContextOverflowError(tokens.length, contextSize);
    const wantedTokens = request.maxTokens ?? DEFAULT_MAX_TOKENS;
    const maxTokens = Math.min(wantedTokens, contextSize - tokens.length);
    const hybrid = sequence.needsCheckpoints;
    let checkpointMs = 0;

    // Keep the common prefix (always re-evaluate at least the last prompt token to get logits). A
    // hybrid model restores its nearest checkpoint and replays the tokens after it (metered).
    const prefillStart = now();
    const evaluatedBefore = sequence.tokenMeter.usedInputTokens;
    const keep = Math.min(sequence.compareContextTokens(tokens).firstDifferentIndex, tokens.length - 1);
    if (keep < sequence.nextTokenIndex) await sequence.eraseContextTokenRanges([{ start: keep, end: sequence.nextTokenIndex }]);
    const replayed = sequence.tokenMeter.usedInputTokens - evaluatedBefore;
    const cached = Math.max(0, sequence.nextTokenIndex - replayed);

    if (hybrid) {
      // Checkpoint the ends of the shared prefixes (tools block, the live system turn up to its
      // clock, the system turn) so the next session can restore them…
      for (const end of this.prefixEnds(request, tokens, [request.stablePrefixChars, request.livePrefixChars, request.sharedPrefixChars])) {
        if (end >= tokens.length || end < sequence.nextTokenIndex) continue;
        if (end > sequence.nextTokenIndex) await sequence.evaluateWithoutGeneratingNewTokens(tokens.slice(sequence.nextTokenIndex, end));
        await this.checkpointSharedPrefix(sequence);
      }
      // …and the prompt but its last token, where the next round of this session starts (its
      // re-rendered assistant turn replaces the generation prompt's last tokens).
      if (sequence.nextTokenIndex < tokens.length - 1) {
        await sequence.evaluateWithoutGeneratingNewTokens(tokens.slice(sequence.nextTokenIndex, tokens.length - 1));
        const c0 = now();
        await sequence.takeCheckpoint();
        checkpointMs = now() - c0;
      }
      if (signal?.aborted) throw abortError(signal);
    }

    // Input lookup guesses the next tokens from this prompt (the station names and ids a call copies
    // from the passenger's words and the tool results). node-llama-cpp's own chat and completion
    // classes hand the predictor its input; this loop evaluates the sequence directly, so it must.
    sequence.tokenPredictor?.updateInputTokens(tokens);

    const out = new TextAccumulator(model);
    const generated: Token[] = [];
    let pending: Token[] = tokens.slice(sequence.nextTokenIndex);
    const force = (text: string): void => {
      const forced = model.tokenize(text, true);
      for (const t of forced) {
        generated.push(t);
        out.push(t);
      }
      pending = [...pending, ...forced];
    };
    if (this.options.forcedOutputPrefix) force(this.options.forcedOutputPrefix);

    const lazy = request.lazyGrammar;
    const budget = request.reasoningBudget;
    let reasoningTruncated = false;
    let firstTokenAt: number | undefined;
    const status: { finishReason: "stop" | "length" } = { finishReason: "stop" };
    let triggerAt = lazy ? lazy.findTrigger(out.text) : -1;
    let grammarMs = 0;

    /** "budget": the reasoning budget ran out (the caller closes the block and continues). */
    const run = async (evaluation: AsyncGenerator<Token, void, void | Token | Token[]>, watchTrigger: boolean, watchBudget: boolean): Promise<"done" | "budget"> => {
      for await (const token of evaluation) {
        if (firstTokenAt === undefined) firstTokenAt = now();
        generated.push(token);
        pending = [token];
        const before = out.text.length;
        out.push(token);
        if (signal?.aborted) throw abortError(signal);
        if (watchTrigger && lazy && out.text.length > before) {
          const at = lazy.findTrigger(out.text, Math.max(0, before - lazy.maxTriggerLength + 1));
          if (at >= 0) {
            triggerAt = at;
            return "done";
          }
        }
        if (generated.length >= maxTokens) {
          status.finishReason = "length";
          return "done";
        }
        if (watchBudget && budget && generated.length >= budget.tokens && !out.text.includes(budget.endMarker)) return "budget";
      }
      return "done";
    };

    if (triggerAt < 0 && generated.length < maxTokens) {
      let watchBudget = budget !== undefined && !out.text.includes(budget.endMarker);
      for (;;) {
        const outcome = await run(sequence.evaluate(pending, { temperature: 0 }), lazy !== undefined, watchBudget);
        if (outcome !== "budget" || !budget) break;
        // Thinking ran out of budget: close the reasoning block as the model would, then go on.
        reasoningTruncated = true;
        watchBudget = false;
        const beforeClose = out.text.length;
        force(budget.endText);
        if (lazy && triggerAt < 0) triggerAt = lazy.findTrigger(out.text, Math.max(0, beforeClose - lazy.maxTriggerLength + 1));
        if (triggerAt >= 0) break;
        if (generated.length >= maxTokens) {
          status.finishReason = "length";
          break;
        }
      }
    } else if (generated.length >= maxTokens) status.finishReason = "length";

    let grammarError: string | undefined;
    const triggered = triggerAt >= 0;
    if (lazy && triggered && status.finishReason !== "length") {
      const g0 = now();
      const next = lazy.continueAfter(out.flush().slice(triggerAt));
      if (!next.ok) {
        grammarError = next.message;
        grammarMs = now() - g0;
      } else if (next.canContinue) {
        const grammar = await this.grammarFor(next.gbnf, next.rootRule);
        const { LlamaGrammarEvaluationState } = await llamaCpp();
        const state = new LlamaGrammarEvaluationState({ model, grammar });
        grammarMs = now() - g0;
        await run(sequence.evaluate(pending, { temperature: 0, grammarEvaluationState: state }), false, false);
      }
    }

    const end = now();
    const first = firstTokenAt ?? end;
    return {
      text: out.flush(),
      finishReason: status.finishReason,
      grammarTriggered: triggered,
      ...(grammarError !== undefined ? { grammarError } : {}),
      ...(reasoningTruncated ? { reasoningTruncated } : {}),
      ...(maxTokens < wantedTokens ? { contextLimited: true } : {}),
      usage: {
        promptTokens: tokens.length,
        completionTokens: generated.length,
        cachedPromptTokens: cached,
        ...(hybrid ? { checkpointReplayTokens: replayed, checkpointMs } : {}),
        ttftMs: first - t0,
        prefillMs: first - prefillStart,
        decodeMs: end - first,
        totalMs: end - t0,
        grammarMs,
      },
    };
  }

  /**
   * Warm boot: evaluate `prefixText` (e.g. the shared system turn) on the first sequence and save
   * its state to `file` (+ `file.json` with the model's fingerprint).
   */
  saveWarmState(file: string, prefixText: string, literalRanges?: readonly TextRange[]): Promise<{ fileSize: number; tokens: number }> {
    return this.lifecycle.run(async () => {
      this.requireModel();
      const slot = this.slots[0] as SequenceSlot;
      return slot.lock.run(async () => {
        const tokens = this.tokenizePrompt(prefixText, literalRanges);
        const sequence = slot.sequence;
        const keep = sequence.compareContextTokens(tokens).firstDifferentIndex;
        if (keep < sequence.nextTokenIndex) await sequence.eraseContextTokenRanges([{ start: keep, end: sequence.nextTokenIndex }]);
        if (sequence.nextTokenIndex < tokens.length) await sequence.evaluateWithoutGeneratingNewTokens(tokens.slice(sequence.nextTokenIndex));
        if (sequence.needsCheckpoints) await this.checkpointSharedPrefix(sequence);
        const { fileSize } = await sequence.saveStateToFile(file);
        const meta: WarmStateMeta = { model: this.fingerprint(), contextSize: sequence.contextSize, tokens: tokens.length };
        writeFileSync(`${file}.json`, JSON.stringify(meta, null, 2));
        return { fileSize, tokens: tokens.length };
      });
    });
  }

  /** Load a warm-boot state saved for this very model file; false when absent or stale. */
  loadWarmState(file: string): Promise<boolean> {
    return this.lifecycle.run(async () => {
      this.requireModel();
      const slot = this.slots[0] as SequenceSlot;
      if (!existsSync(file) || !existsSync(`${file}.json`)) return false;
      let meta: WarmStateMeta;
      try {
        meta = JSON.parse(readFileSync(`${file}.json`, "utf8")) as WarmStateMeta;
      } catch {
        return false;
      }
      const fp = this.fingerprint();
      if (meta.model.size !== fp.size || meta.model.mtimeMs !== fp.mtimeMs || meta.tokens > slot.sequence.contextSize) return false;
      await slot.lock.run(async () => {
        await slot.sequence.loadStateFromFile(file, { acceptRisk: true });
        // A hybrid model needs a checkpoint here, or the first session's prompt would overwrite the
        // restored recurrent state and the next session could not reuse it.
        if (slot.sequence.needsCheckpoints) await this.checkpointSharedPrefix(slot.sequence);
      });
      return true;
    });
  }

  private fingerprint(): WarmStateMeta["model"] {
    const stat = statSync(this.options.modelPath);
    return { path: this.options.modelPath, size: stat.size, mtimeMs: stat.mtimeMs };
  }
}
