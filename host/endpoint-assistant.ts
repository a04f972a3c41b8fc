// The passenger model behind an OpenAI-compatible endpoint (issue 15): a llama-server beside the
// kiosk (the paper's own serving path) or a depot GPU server (vLLM) for many kiosks. It answers
// through the same answer pipeline as the in-process model — router, provisional answer, deadline,
// purchase interlock, breaker — so a request that fails or misses its deadline counts exactly as a
// crashed or slow model process does. What differs is how the kiosk learns that the model is down
// between passengers: it asks the endpoint's model list every few seconds and holds the breaker
// (passengers answered by `rule`, the status saying why) while the endpoint does not answer.
import type { ModelBreaker } from "../runtime/answer/breaker.ts";
import type { ModelHealth } from "../runtime/kiosk/app.ts";
import type { ModelProcessView } from "../runtime/kiosk/bridge.ts";
import { QWEN_SPECIAL_TEXTS } from "../runtime/model/specials.ts";
import { OpenAiPolicy } from "../runtime/policies/openai.ts";
import { errorCode } from "../tools/util/errors.ts";
import type { AssistantMode } from "./assistant-mode.ts";

export interface EndpointAssistantSpec {
  mode: AssistantMode;
  endpoint: {
    /** Base URL before /chat/completions, e.g. http://127.0.0.1:8080/v1. */
    baseUrl: string;
    /** The model name the endpoint serves (llama-server accepts any; vLLM needs its served name). */
    model: string;
    /** Environment variable holding the API key, if the endpoint wants one (default OPENAI_API_KEY). */
    apiKeyEnv?: string;
  };
  /** Hybrid: how long the model may take to check an answer. */
  modelDeadlineMs?: number;
}

export interface EndpointAssistantOptions {
  breaker: ModelBreaker;
  log: (message: string) => void;
  /** How often the endpoint is asked whether it is up (default 10 s). */
  healthEveryMs?: number;
  /** How long one such question may take (default 3 s). */
  healthTimeoutMs?: number;
  /** Injectable for tests. */
  fetch?: typeof fetch;
  env?: Readonly<Record<string, string | undefined>>;
  now?: () => number;
}

export interface EndpointAssistant {
  assistant: { mode: AssistantMode; policy: () => OpenAiPolicy; modelDeadlineMs?: number };
  health: ModelHealth;
  /** Ask the endpoint now (also done on a timer); resolves to whether it answered. */
  check(): Promise<boolean>;
  close(): Promise<void>;
}

/** `http://host:8080/v1/` → `http://host:8080/v1/models` (the list llama-server and vLLM both serve). */
export function modelsUrl(baseUrl: string): string {
  const url = new URL(baseUrl);
  url.pathname = `${url.pathname.replace(/\/+$/, "")}/models`;
  return url.toString();
}

export async function startEndpointAssistant(spec: EndpointAssistantSpec, options: EndpointAssistantOptions): Promise<EndpointAssistant> {
  const { breaker, log } = options;
  const doFetch = options.fetch ?? globalThis.fetch;
  const now = options.now ?? Date.now;
  const everyMs = options.healthEveryMs ?? 10_000;
  const timeoutMs = options.healthTimeoutMs ?? 3_000;
  const env = options.env ?? process.env;
  const { baseUrl, model } = spec.endpoint;
  const apiKey = env[spec.endpoint.apiKeyEnv ?? "OPENAI_API_KEY"];
  const policy = new OpenAiPolicy({
    id: "llm",
    baseUrl,
    model,
    env,
    ...(spec.endpoint.apiKeyEnv ? { apiKeyEnv: spec.endpoint.apiKeyEnv } : {}),
    // No retries behind a passenger: the answer pipeline's deadline and breaker decide.
    maxAttempts: 1,
    // The server tokenizes the prompt with special tokens parsed: passenger text must not forge them.
    specialTexts: QWEN_SPECIAL_TEXTS,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });

  let view: ModelProcessView = { state: "starting", restarts: 0, lastFailure: null, nextStartAt: null };
  const listeners = new Set<() => void>();
  const setView = (next: ModelProcessView): void => {
    const changed = next.state !== view.state || next.lastFailure !== view.lastFailure;
    view = next;
    if (changed) for (const l of listeners) l();
  };

  let closed = false;
  const check = async (): Promise<boolean> => {
    if (closed) return false;
    let failure: string | null = null;
    try {
      const response = await doFetch(modelsUrl(baseUrl), { headers: apiKey ? { Authorization: `Bearer ${apiKey}` } : {}, signal: AbortSignal.timeout(timeoutMs) });
      await response.body?.cancel();
      if (!response.ok) failure = `HTTP ${response.status}`;
    } catch (err) {
      failure = (err as Error).name === "TimeoutError" ? `no answer within ${timeoutMs} ms` : (errorCode(err) ?? (err as Error).message);
    }
    if (closed) return false;
    if (failure === null) {
      if (view.state !== "ready") {
        breaker.reset();
        log(`assistant: the model endpoint ${baseUrl} answers (${model})`);
      }
      setView({ state: "ready", restarts: view.restarts, lastFailure: view.lastFailure, nextStartAt: null });
      return true;
    }
    const reason = `model endpoint ${baseUrl}: ${failure}`;
    if (view.state !== "restarting") log(`assistant: ${reason} — passengers are answered by the rule policy until it answers`);
    breaker.hold(reason);
    setView({ state: "restarting", restarts: view.state === "ready" ? view.restarts + 1 : view.restarts, lastFailure: reason, nextStartAt: new Date(now() + everyMs).toISOString() });
    return false;
  };

  await check();
  const timer = setInterval(() => void check(), everyMs);
  timer.unref();

  return {
    assistant: { mode: spec.mode, policy: () => policy, ...(spec.modelDeadlineMs !== undefined ? { modelDeadlineMs: spec.modelDeadlineMs } : {}) },
    health: { view: () => view, onChange: (listener) => (listeners.add(listener), () => void listeners.delete(listener)) },
    check,
    close: async () => {
      closed = true;
      clearInterval(timer);
      setView({ ...view, state: "stopped", nextStartAt: null });
      listeners.clear();
    },
  };
}
