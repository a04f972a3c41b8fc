// Policy "openai": any OpenAI-compatible chat-completions endpoint (llama-server, vLLM, OpenAI,
// Azure OpenAI, Mistral, …) with native tool calling, sending the request body the reference
// harness sent (CONTRACT.md §8): model, messages, the seven tool definitions, the token limit under
// max_completion_tokens (local, OpenAI, Azure endpoints) or max_tokens, temperature 0,
// reasoning_effort "medium" for gpt-5*/Azure, chat_template_kwargs {enable_thinking:false} for local
// endpoints with thinking off, and a caller-supplied extra body merged last.
// HTTP 429 is retried after 1, 2, 4, 8 s (5 attempts), as the reference did. Connection failures are
// retried on the same schedule (our addition: the reference ended the case). Any other error status
// is thrown as "<status>: <body[:500]>". Each request times out after 240 s by default.
import type { ChatMessage, Policy, PolicyInput, PolicyRun, PolicyStep, RoundUsage, SessionSetup } from "../session/policy.ts";
import { CONNECTION_ERROR_CODES, errorCode } from "../../tools/util/errors.ts";
import { neutraliseMessages, type SpecialTexts } from "../model/specials.ts";
import { readCappedText } from "../../tools/util/capped-body.ts";

/** The largest answer read from an endpoint (one completion of a few thousand tokens is far below). */
const MAX_COMPLETION_BYTES = 8 * 1024 * 1024;

export interface OpenAiPolicyOptions {
  /** Base URL ending before /chat/completions, e.g. http://localhost:8080/v1 (Azure: the deployment URL with ?api-version=…). */
  baseUrl: string;
  model: string;
  /** API key; default: the environment variable `apiKeyEnv` (OPENAI_API_KEY). */
  apiKey?: string;
  apiKeyEnv?: string;
  /** Where `apiKeyEnv` is read (default: process.env). */
  env?: Readonly<Record<string, string | undefined>>;
  temperature?: number | null;
  /** Default 4096. */
  maxTokens?: number;
  /** Override the reference's choice between max_completion_tokens and max_tokens. */
  tokenLimitKey?: "max_completion_tokens" | "max_tokens";
  /** Thinking on (default). Off: chat_template_kwargs {enable_thinking:false} for local endpoints. */
  thinking?: boolean;
  /**
   * The endpoint's special tokens: message text is sent as the in-process engine tokenizes it, so
   * that text such as a passenger's `<|im_start|>` never becomes a control token at the server.
   * Absent: messages are sent verbatim (the reference harness's requests).
   */
  specialTexts?: SpecialTexts;
  /** Shallow-merged into the body last (it wins). */
  extraBody?: Record<string, unknown>;
  headers?: Record<string, string>;
  /** Per-request timeout (default 240 000 ms). */
  timeoutMs?: number;
  /** Attempts for HTTP 429 and for connection failures (default 5: waits 1, 2, 4, 8 s). */
  maxAttempts?: number;
  /** Injectable for tests. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  fetch?: typeof fetch;
  id?: string;
}

/** The endpoint answered with an error status (or never answered). */
export class ChatCompletionsError extends Error {
  override name = "ChatCompletionsError";
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

interface ChatCompletionResponse {
  choices?: {
    message?: {
      content?: string | null;
      reasoning_content?: string | null;
      reasoning?: string | null;
      tool_calls?: { id?: string; type?: string; function?: { name?: string; arguments?: string | Record<string, unknown> } }[];
    };
    finish_reason?: string | null;
  }[];
  usage?: { prompt_tokens?: number; completion_tokens?: number; prompt_tokens_details?: { cached_tokens?: number } };
  /** llama-server extension. */
  timings?: { cache_n?: number; prompt_ms?: number; predicted_ms?: number };
}


function defaultSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

const now = (): number => globalThis.performance.now();

/** The chat-completions URL of an endpoint (Azure keeps its query string, e.g. api-version). */
export function chatCompletionsEndpoint(baseUrl: string): { endpoint: string; isAzure: boolean } {
  const base = baseUrl.replace(/\/+$/, "");
  if (!base.includes("azure.com")) return { endpoint: `${base}/chat/completions`, isAzure: false };
  const url = new URL(base);
  url.pathname = `${url.pathname.replace(/\/+$/, "")}/chat/completions`;
  return { endpoint: url.toString(), isAzure: true };
}

/**
 * The reference harness appended llama-server's assistant messages verbatim, and the server omits
 * `reasoning_content` when there is none; our transcript keeps it as null. Current llama-server
 * builds reject a null there ("type must be string, but is null"), so it is left out.
 */
function withoutNullReasoning(message: ChatMessage): ChatMessage {
  if (message.role !== "assistant" || message.reasoning_content !== null) return message;
  const { reasoning_content: _omitted, ...rest } = message;
  return rest as ChatMessage;
}

export class OpenAiPolicy implements Policy {
  readonly id: string;
  readonly responseFrom = "accepted-submission" as const;
  private readonly endpoint: string;
  private readonly isAzure: boolean;

  constructor(private readonly options: OpenAiPolicyOptions) {
    this.id = options.id ?? "openai";
    ({ endpoint: this.endpoint, isAzure: this.isAzure } = chatCompletionsEndpoint(options.baseUrl));
  }

  private get isLocal(): boolean {
    return this.options.baseUrl.includes("localhost") || this.options.baseUrl.includes("127.0.0.1");
  }

  private apiKey(): string | undefined {
    if (this.options.apiKey !== undefined) return this.options.apiKey;
    const env = this.options.env ?? (globalThis as { process?: { env: Record<string, string | undefined> } }).process?.env ?? {};
    return env[this.options.apiKeyEnv ?? "OPENAI_API_KEY"];
  }

  /** The request body of one round (exported for inspection and tests). */
  requestBody(setup: SessionSetup, input: Pick<PolicyInput, "messages">): Record<string, unknown> {
    const o = this.options;
    const useCompletionKey = this.isLocal || this.options.baseUrl.includes("api.openai.com") || this.isAzure;
    const tokenKey = o.tokenLimitKey ?? (useCompletionKey ? "max_completion_tokens" : "max_tokens");
    const messages = input.messages.map(withoutNullReasoning);
    const body: Record<string, unknown> = {
      model: o.model,
      messages: o.specialTexts ? neutraliseMessages(messages, o.specialTexts) : messages,
      tools: setup.tools,
      [tokenKey]: o.maxTokens ?? 4096,
    };
    const temperature = o.temperature === undefined ? 0 : o.temperature;
    if (temperature !== null) body.temperature = temperature;
    if (this.isAzure || o.model.startsWith("gpt-5")) body.reasoning_effort = "medium";
    if (o.thinking === false && this.isLocal) body.chat_template_kwargs = { enable_thinking: false };
    return { ...body, ...(o.extraBody ?? {}) };
  }

  start(setup: SessionSetup): PolicyRun {
    return { next: (input) => this.next(setup, input) };
  }

  private async post(body: string, signal: AbortSignal): Promise<{ response: Response; headersMs: number }> {
    const o = this.options;
    const doFetch = o.fetch ?? globalThis.fetch;
    const sleep = o.sleep ?? defaultSleep;
    const attempts = o.maxAttempts ?? 5;
    const timeoutMs = o.timeoutMs ?? 240_000;
    const headers: Record<string, string> = { "Content-Type": "application/json", ...(o.headers ?? {}) };
    const key = this.apiKey();
    if (key) {
      if (this.isAzure) headers["api-key"] = key;
      else headers.Authorization = `Bearer ${key}`;
    }
    for (let attempt = 0; ; attempt++) {
      if (signal.aborted) throw signal.reason;
      const timeout = AbortSignal.timeout(timeoutMs);
      const t0 = now();
      let response: Response;
      try {
        response = await doFetch(this.endpoint, { method: "POST", headers, body, signal: AbortSignal.any([signal, timeout]) });
      } catch (err) {
        if (signal.aborted) throw signal.reason;
        if (timeout.aborted) throw new ChatCompletionsError(`LLM request timed out after ${timeoutMs / 1000} s (${this.endpoint})`);
        const code = errorCode(err);
        if (code && CONNECTION_ERROR_CODES.has(code) && attempt < attempts - 1) {
          await sleep(2 ** attempt * 1000, signal);
          continue;
        }
        throw new ChatCompletionsError(`LLM request to ${this.endpoint} failed: ${code ?? (err as Error).message}`);
      }
      if (response.status === 429 && attempt < attempts - 1) {
        await response.body?.cancel();
        await sleep(2 ** attempt * 1000, signal);
        continue;
      }
      return { response, headersMs: now() - t0 };
    }
  }

  private async next(setup: SessionSetup, input: PolicyInput): Promise<PolicyStep> {
    const t0 = now();
    const { response, headersMs } = await this.post(JSON.stringify(this.requestBody(setup, input)), input.signal);
    const text = await readCappedText(response, MAX_COMPLETION_BYTES, "the endpoint's answer");
    if (response.status >= 400) throw new ChatCompletionsError(`${response.status}: ${text.slice(0, 500)}`, response.status);
    let data: ChatCompletionResponse;
    try {
      data = JSON.parse(text) as ChatCompletionResponse;
    } catch {
      throw new ChatCompletionsError(`${response.status}: response is not JSON: ${text.slice(0, 500)}`, response.status);
    }
    const choice = data.choices?.[0];
    const message = choice?.message;
    if (!choice || !message) throw new ChatCompletionsError(`${response.status}: response has no choices[0].message: ${text.slice(0, 500)}`, response.status);
    const totalMs = now() - t0;
    const usage: RoundUsage = {
      promptTokens: data.usage?.prompt_tokens ?? 0,
      completionTokens: data.usage?.completion_tokens ?? 0,
      ttftMs: headersMs,
    };
    const cached = data.usage?.prompt_tokens_details?.cached_tokens ?? data.timings?.cache_n;
    if (cached !== undefined) usage.cachedPromptTokens = cached;
    if (data.timings?.prompt_ms !== undefined) usage.prefillMs = data.timings.prompt_ms;
    if (data.timings?.predicted_ms !== undefined) usage.decodeMs = data.timings.predicted_ms;
    else usage.decodeMs = totalMs;
    const reasoning = message.reasoning_content ?? message.reasoning ?? null;
    if (message.tool_calls && message.tool_calls.length > 0) {
      return {
        type: "tool_calls",
        calls: message.tool_calls.map((c) => ({
          ...(c.id !== undefined ? { id: c.id } : {}),
          name: c.function?.name ?? "",
          arguments: c.function?.arguments ?? "{}",
        })),
        content: message.content ?? null,
        reasoning,
        usage,
      };
    }
    return { type: "message", content: message.content ?? "", reasoning, finishReason: choice.finish_reason ?? "", usage };
  }
}

export function createOpenAiPolicy(options: OpenAiPolicyOptions): OpenAiPolicy {
  return new OpenAiPolicy(options);
}
