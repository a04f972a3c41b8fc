// Judge "openai": any OpenAI-compatible chat-completions endpoint (llama-server, vLLM, OpenAI,
// Azure OpenAI, …) as the judge. One request per judgment: the rubric's system instruction and
// filled prompt as two messages, temperature and token limit from the rubric file (0 and 150), no
// tools. The reply's content is parsed the reference's way ("Score: N | reason"; anything else
// scores 1). HTTP 429 and connection failures are retried after 1, 2, 4, 8 s; any other error
// status fails the judgment (the case is then stored unscored with the reason).
// API key: $METRO_JUDGE_API_KEY, else $OPENAI_API_KEY (a local server needs none).
import { BenchError } from "../errors.ts";
import type { DisposableJudge, JudgeFactory } from "../judges.ts";
import { parseJudgeReply, type JudgeRequest, type Judgment } from "../scorer/index.ts";
import { judgeAnswerText, judgeIdPart } from "./llm.ts";
import { CONNECTION_ERROR_CODES, errorCode } from "../../tools/util/errors.ts";
import { chatCompletionsEndpoint } from "../../runtime/policies/openai.ts";

export const JUDGE_API_KEY_ENVS = ["METRO_JUDGE_API_KEY", "OPENAI_API_KEY"] as const;

export interface OpenAiJudgeOptions {
  /** Base URL ending before /chat/completions, e.g. http://localhost:8080/v1. */
  baseUrl: string;
  model: string;
  apiKey?: string;
  /** Where the API key is read (default: process.env). */
  env?: Readonly<Record<string, string | undefined>>;
  /** Per-request timeout (default 120 000 ms). */
  timeoutMs?: number;
  /** Attempts for HTTP 429 and connection failures (default 5). */
  maxAttempts?: number;
  sleep?: (ms: number) => Promise<void>;
  fetch?: typeof fetch;
}

/** The endpoint failed the judgment. */
export class JudgeEndpointError extends Error {
  override name = "JudgeEndpointError";
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}


interface ChatReply {
  choices?: { message?: { content?: string | null } }[];
}

export class OpenAiJudge implements DisposableJudge {
  readonly id: string;
  readonly settings: Record<string, unknown>;
  private readonly endpoint: string;
  private readonly isAzure: boolean;

  constructor(private readonly options: OpenAiJudgeOptions) {
    this.id = judgeIdPart(`openai:${options.model}`);
    ({ endpoint: this.endpoint, isAzure: this.isAzure } = chatCompletionsEndpoint(options.baseUrl));
    this.settings = { base_url: options.baseUrl, model: options.model, api_key_set: this.apiKey() !== undefined };
  }

  private apiKey(): string | undefined {
    if (this.options.apiKey !== undefined) return this.options.apiKey;
    const env = this.options.env ?? process.env;
    for (const name of JUDGE_API_KEY_ENVS) if (env[name]) return env[name];
    return undefined;
  }

  /** The request body of one judgment (the policy's rule for the token-limit key). */
  requestBody(request: JudgeRequest): Record<string, unknown> {
    const base = this.options.baseUrl;
    const completionKey = base.includes("localhost") || base.includes("127.0.0.1") || base.includes("api.openai.com") || this.isAzure;
    return {
      model: this.options.model,
      messages: [
        { role: "system", content: request.system },
        { role: "user", content: request.prompt },
      ],
      temperature: request.temperature,
      [completionKey ? "max_completion_tokens" : "max_tokens"]: request.maxTokens,
    };
  }

  async judge(request: JudgeRequest): Promise<Judgment> {
    const o = this.options;
    const doFetch = o.fetch ?? globalThis.fetch;
    const sleep = o.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
    const attempts = o.maxAttempts ?? 5;
    const timeoutMs = o.timeoutMs ?? 120_000;
    const headers: Record<string, string> = { "Content-Type": "application/json" };
    const key = this.apiKey();
    if (key) {
      if (this.isAzure) headers["api-key"] = key;
      else headers.Authorization = `Bearer ${key}`;
    }
    const body = JSON.stringify(this.requestBody(request));
    for (let attempt = 0; ; attempt++) {
      const timeout = AbortSignal.timeout(timeoutMs);
      let response: Response;
      try {
        response = await doFetch(this.endpoint, { method: "POST", headers, body, signal: timeout });
      } catch (err) {
        if (timeout.aborted) throw new JudgeEndpointError(`judge request timed out after ${timeoutMs / 1000} s (${this.endpoint})`);
        const code = errorCode(err);
        if (code && CONNECTION_ERROR_CODES.has(code) && attempt < attempts - 1) {
          await sleep(2 ** attempt * 1000);
          continue;
        }
        throw new JudgeEndpointError(`judge request to ${this.endpoint} failed: ${code ?? (err as Error).message}`);
      }
      if (response.status === 429 && attempt < attempts - 1) {
        await response.body?.cancel();
        await sleep(2 ** attempt * 1000);
        continue;
      }
      const text = await response.text();
      if (response.status >= 400) throw new JudgeEndpointError(`judge endpoint: ${response.status}: ${text.slice(0, 500)}`, response.status);
      let data: ChatReply;
      try {
        data = JSON.parse(text) as ChatReply;
      } catch {
        throw new JudgeEndpointError(`judge endpoint: response is not JSON: ${text.slice(0, 500)}`, response.status);
      }
      const message = data.choices?.[0]?.message;
      if (!message) throw new JudgeEndpointError(`judge endpoint: response has no choices[0].message: ${text.slice(0, 500)}`, response.status);
      return parseJudgeReply(judgeAnswerText(message.content ?? ""));
    }
  }
}

/** `--judge openai --judge-base-url URL --judge-model NAME`. */
export function openAiJudgeFactory(overrides: Partial<Omit<OpenAiJudgeOptions, "baseUrl" | "model">> = {}): JudgeFactory {
  return {
    name: "openai",
    description: "an OpenAI-compatible endpoint (--judge-base-url URL --judge-model NAME; API key from $METRO_JUDGE_API_KEY or $OPENAI_API_KEY)",
    accepts: ["model", "baseUrl"],
    create: (options) => {
      if (options.baseUrl === undefined) throw new BenchError("judge 'openai' needs --judge-base-url (e.g. http://localhost:8080/v1)");
      if (options.model === undefined) throw new BenchError("judge 'openai' needs --judge-model (the endpoint's model name)");
      return new OpenAiJudge({ ...overrides, baseUrl: options.baseUrl, model: options.model });
    },
  };
}
