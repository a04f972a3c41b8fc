// Policy "llm": the local student model as the kiosk's policy, driven exactly like the paper's
// llama-server b8642 (MODEL-PROTOCOL.md §4): every round re-renders the whole conversation with the
// model's chat template (tools block first, enable_thinking explicit, generation prompt), decodes
// greedily up to 4096 new tokens with the lazy tool-call grammar, and parses the output with the
// server's rules. A parse failure is what the harness saw as HTTP 500: it is thrown, and the
// session records the error. The model engine sits behind CompletionBackend (no node-llama-cpp here).
import type { ToolDefinition } from "../../tools/data/schemas.ts";
import { DEFAULT_MAX_TOKENS, rangesBefore, type CompletionBackend, type CompletionResult, type PrefillResult, type TextRange } from "../model/backend.ts";
import { LazyToolCallGrammar } from "../model/grammar.ts";
import { parseModelOutput, type ParsedAssistantMessage } from "../model/parse.ts";
import { DEFAULT_PROFILE, type ProtocolProfile } from "../model/profile.ts";
import { ChatTemplateRenderer } from "../model/render.ts";
import type { ChatMessage, Policy, PolicyInput, PolicyRun, PolicyStep, RoundUsage, SessionSetup } from "../session/policy.ts";

export interface LlmPolicyOptions {
  backend: CompletionBackend;
  /** Chat template; default: the one embedded in the loaded model (tokenizer.chat_template). */
  chatTemplate?: string;
  /** llama-server build whose parsing/grammar to reproduce. Default "b8642" (the paper's). */
  profile?: ProtocolProfile;
  /** enable_thinking (the paper: true). */
  thinking?: boolean;
  /** New-token budget per round (the paper: 4096). */
  maxTokens?: number;
  /** parallel_tool_calls; default: the profile's server default (b8642: false). */
  parallelToolCalls?: boolean;
  /** Policy id (default "llm"). */
  id?: string;
  /** Tool-call id generator (default: llama-server-style random ids). */
  newToolCallId?: () => string;
  /** Observe each round (prompt, raw output, parsed message, timings) — for probes and debugging. */
  onRound?: (round: LlmRoundInfo) => void;
  /**
   * Thinking budget. "paper" (default): think as long as the model wants (the paper's setting, kept
   * for bench runs). "deadline": when the round has a deadline (PolicyInput.deadlineAt, e.g. the
   * hybrid kiosk's model deadline), the model may think for what the remaining time buys at
   * `decodeTokS`, minus `reserveTokens` for the tool call or answer that follows; then the engine
   * closes the think block. A number: a fixed token budget per round. The deadline's decode speed
   * follows the model's recent rounds where they decode slower (another process took a core).
   */
  thinkingBudget?: "paper" | number | { deadline: { decodeTokS: number; reserveTokens?: number } };
}

/** The deadline's decode speed follows the median of this many recent rounds of at least so many tokens. */
const OBSERVED_ROUNDS = 3;
const MIN_OBSERVED_TOKENS = 8;

/** Tokens the deadline-derived thinking budget leaves for the call or answer after the reasoning. */
export const DEFAULT_RESERVE_TOKENS = 160;

/** The reasoning budget of one round (undefined: unlimited, as in the paper). */
export function thinkingTokens(budget: LlmPolicyOptions["thinkingBudget"], deadlineAt: number | undefined, nowMs: number = Date.now()): number | undefined {
  if (budget === undefined || budget === "paper") return undefined;
  if (typeof budget === "number") return Math.max(1, Math.floor(budget));
  if (deadlineAt === undefined) return undefined;
  const seconds = Math.max(0, (deadlineAt - nowMs) / 1000);
  return Math.max(1, Math.floor(seconds * budget.deadline.decodeTokS) - (budget.deadline.reserveTokens ?? DEFAULT_RESERVE_TOKENS));
}

/** How the Qwen template's reasoning block ends (MODEL-PROTOCOL.md §2). */
const QWEN_THINK_END = { endText: "\n</think>\n\n", endMarker: "</think>" };

export interface LlmRoundInfo {
  sessionId: string;
  prompt: string;
  result: CompletionResult;
  message?: ParsedAssistantMessage;
  error?: string;
  /** Runtime overhead of this round, outside the engine. */
  renderMs: number;
  parseMs: number;
  /** Building the tool-call grammar (first round of a tool set only; cached afterwards). */
  grammarBuildMs: number;
}

/** The model's output could not be turned into a llama-server response (the harness got HTTP 500). */
export class LlmRoundError extends Error {
  override name = "LlmRoundError";
  constructor(
    message: string,
    readonly rawText: string,
  ) {
    super(message);
  }
}

const now = (): number => globalThis.performance.now();

/** The end of the system turn in a rendered prompt: what every session of a framebook shares. */
export function sharedPrefixLength(prompt: string): number | undefined {
  const end = prompt.indexOf("<|im_end|>\n");
  return end < 0 ? undefined : end + "<|im_end|>\n".length;
}

/**
 * The part of the system turn every session shares whatever its framebook: everything before the
 * first message text (the system prompt), i.e. the tools block. Undefined when the system turn
 * holds no message text.
 */
export function stablePrefixLength(prompt: string, literalRanges: readonly TextRange[]): number | undefined {
  const shared = sharedPrefixLength(prompt);
  const first = literalRanges[0];
  return shared !== undefined && first !== undefined && first.start < shared ? first.start : undefined;
}

/**
 * Live sessions: the end of the part of the system turn that does not change with the clock (the
 * system prompt up to its stated time), where the system message's text sits in the prompt.
 */
function livePrefixLength(prompt: string, literalRanges: readonly TextRange[], setup: SessionSetup): number | undefined {
  const system = literalRanges[0];
  if (setup.systemPromptClockAt === undefined || system === undefined) return undefined;
  // The chat template trims the system message: find its clock-free head where the text starts.
  const head = setup.systemPrompt.slice(0, setup.systemPromptClockAt).trimStart();
  return prompt.startsWith(head, system.start) ? system.start + head.length : undefined;
}

/**
 * A session's system turn alone (tools block and system prompt), with its message-text ranges. The
 * Qwen template refuses a conversation without a user turn: one is rendered and cut off.
 */
function renderSystemTurn(renderer: ChatTemplateRenderer, systemPrompt: string, tools: readonly ToolDefinition[], thinking: boolean): { prompt: string; literalRanges: TextRange[] } {
  const messages: ChatMessage[] = [
    { role: "system", content: systemPrompt },
    { role: "user", content: "." },
  ];
  const { prompt, literalRanges } = renderer.renderWithLiterals(messages, { tools, enableThinking: thinking });
  const end = sharedPrefixLength(prompt) ?? prompt.length;
  return { prompt: prompt.slice(0, end), literalRanges: rangesBefore(literalRanges, end) };
}

/**
 * The text every session of a system prompt starts with — the rendered system turn (tools block and
 * kiosk instructions) — for saving a warm-boot KV state.
 */
export function systemTurnPrefix(chatTemplate: string, systemPrompt: string, tools: readonly ToolDefinition[], thinking = true): string {
  return renderSystemTurn(new ChatTemplateRenderer(chatTemplate), systemPrompt, tools, thinking).prompt;
}

export class LlmPolicy implements Policy {
  readonly id: string;
  readonly responseFrom = "accepted-submission" as const;
  private renderer: ChatTemplateRenderer | undefined;
  private readonly grammars = new WeakMap<readonly ToolDefinition[], LazyToolCallGrammar>();
  /** Decode speeds of the last rounds long enough to say (tok/s), newest last. */
  private readonly decodeSpeeds: number[] = [];

  constructor(private readonly options: LlmPolicyOptions) {
    this.id = options.id ?? "llm";
  }

  private template(): ChatTemplateRenderer {
    if (this.renderer) return this.renderer;
    const source = this.options.chatTemplate ?? this.options.backend.chatTemplate();
    if (!source) throw new Error("policy llm: the model has no embedded chat template (tokenizer.chat_template); pass chatTemplate");
    return (this.renderer = new ChatTemplateRenderer(source));
  }

  private grammar(tools: readonly ToolDefinition[]): { grammar: LazyToolCallGrammar; ms: number } {
    const cached = this.grammars.get(tools);
    if (cached) return { grammar: cached, ms: 0 };
    const t0 = now();
    const grammar = new LazyToolCallGrammar(tools, { profile: this.options.profile ?? DEFAULT_PROFILE, parallelToolCalls: this.options.parallelToolCalls });
    this.grammars.set(tools, grammar);
    return { grammar, ms: now() - t0 };
  }

  /**
   * Prefill the system turn a session with this setup will start with (its tools block and system
   * prompt), checkpointing where live prompts diverge; null when the backend keeps no prompt cache.
   */
  async prefill(setup: SessionSetup): Promise<PrefillResult | null> {
    const backend = this.options.backend;
    if (!backend.prefill) return null;
    const { prompt, literalRanges } = renderSystemTurn(this.template(), setup.systemPrompt, setup.tools, this.options.thinking ?? true);
    // A template whose system turn does not end where the Qwen one does: nothing to prefill.
    if (!prompt.endsWith("<|im_end|>\n")) return null;
    return backend.prefill({
      prompt,
      literalRanges,
      stablePrefixChars: stablePrefixLength(prompt, literalRanges),
      livePrefixChars: livePrefixLength(prompt, literalRanges, setup),
    });
  }

  /** The thinking budget, its deadline's decode speed lowered to what recent rounds decoded at. */
  private currentBudget(): LlmPolicyOptions["thinkingBudget"] {
    const budget = this.options.thinkingBudget;
    if (typeof budget !== "object" || this.decodeSpeeds.length === 0) return budget;
    const sorted = [...this.decodeSpeeds].sort((a, b) => a - b);
    const recent = sorted[Math.floor(sorted.length / 2)] as number;
    return { deadline: { ...budget.deadline, decodeTokS: Math.min(budget.deadline.decodeTokS, recent) } };
  }

  private observeDecode(result: CompletionResult): void {
    const { completionTokens, decodeMs } = result.usage;
    if (completionTokens < MIN_OBSERVED_TOKENS || decodeMs <= 0) return;
    this.decodeSpeeds.push((completionTokens - 1) / (decodeMs / 1000));
    if (this.decodeSpeeds.length > OBSERVED_ROUNDS) this.decodeSpeeds.shift();
  }

  start(setup: SessionSetup): PolicyRun {
    return { next: (input) => this.next(setup, input) };
  }

  private async next(setup: SessionSetup, input: PolicyInput): Promise<PolicyStep> {
    const opts = this.options;
    const thinking = opts.thinking ?? true;
    const t0 = now();
    // Message text is reported with its ranges so the engine never turns it into control tokens.
    const { prompt, literalRanges } = this.template().renderWithLiterals(input.messages, { tools: setup.tools, enableThinking: thinking });
    const renderMs = now() - t0;
    const { grammar, ms: grammarBuildMs } = this.grammar(setup.tools);
    const reasoningTokens = thinking ? thinkingTokens(this.currentBudget(), input.deadlineAt) : undefined;
    const result = await opts.backend.complete({
      prompt,
      literalRanges,
      maxTokens: opts.maxTokens ?? DEFAULT_MAX_TOKENS,
      lazyGrammar: setup.tools.length > 0 ? grammar : undefined,
      sharedPrefixChars: sharedPrefixLength(prompt),
      stablePrefixChars: stablePrefixLength(prompt, literalRanges),
      livePrefixChars: livePrefixLength(prompt, literalRanges, setup),
      ...(reasoningTokens !== undefined ? { reasoningBudget: { tokens: reasoningTokens, ...QWEN_THINK_END } } : {}),
      signal: input.signal,
    });
    this.observeDecode(result);
    const usage: RoundUsage = {
      promptTokens: result.usage.promptTokens,
      completionTokens: result.usage.completionTokens,
      cachedPromptTokens: result.usage.cachedPromptTokens,
      ttftMs: result.usage.ttftMs,
      prefillMs: result.usage.prefillMs,
      decodeMs: result.usage.decodeMs,
    };
    const round = { sessionId: setup.sessionId, prompt, result, renderMs, grammarBuildMs };
    if (result.grammarError) {
      const error = `model output rejected by the tool-call grammar (llama-server: HTTP 500): ${result.grammarError}`;
      opts.onRound?.({ ...round, parseMs: 0, error });
      throw new LlmRoundError(error, result.text);
    }
    const t1 = now();
    const outcome = parseModelOutput(result.text, {
      tools: setup.tools,
      profile: opts.profile ?? DEFAULT_PROFILE,
      thinking,
      parallelToolCalls: opts.parallelToolCalls,
      newToolCallId: opts.newToolCallId,
    });
    const parseMs = now() - t1;
    if (!outcome.ok) {
      const error = `model output could not be parsed (llama-server: HTTP 500): ${outcome.error.slice(0, 500)}`;
      opts.onRound?.({ ...round, parseMs, error });
      throw new LlmRoundError(error, result.text);
    }
    const message = outcome.message;
    opts.onRound?.({ ...round, parseMs, message });
    const reasoning = message.reasoning_content ?? null;
    if (message.tool_calls.length > 0) {
      return {
        type: "tool_calls",
        calls: message.tool_calls.map((c) => ({ id: c.id, name: c.function.name, arguments: c.function.arguments })),
        content: message.content,
        reasoning,
        usage,
      };
    }
    return { type: "message", content: message.content, reasoning, finishReason: result.finishReason, usage };
  }
}

export function createLlmPolicy(options: LlmPolicyOptions): LlmPolicy {
  return new LlmPolicy(options);
}
