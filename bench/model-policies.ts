// The bench's model policies: `llm` (the student GGUF in-process through LlamaEngine), `openai` (an
// OpenAI-compatible endpoint) and `hybrid` (the kiosk's answer pipeline over `rule` and the model).
// bench/policies.ts registers them. The local ones load ONE engine per run (models/local.ts: once,
// before the first case) and unload it when the run ends (PolicyHandle.dispose). What the run
// records about the model (file, size, quantisation, threads, GPU, load time) is in the handle's settings.
//
// None of them is marked deterministic. The llm policy decodes greedily, but (1) tool-call ids are
// random (llama-server style) and are stored in the transcript, so no two runs store the same
// transcript; (2) with KV prefix reuse a prompt is evaluated in batches that depend on the session
// before it, which may change the logits in the last bits and flip a greedy choice (not observed
// with the tiny test model, whose steering bonuses dominate; not ruled out for a real one). The
// hybrid policy adds a wall-clock model deadline, so its answers depend on the machine's speed.
//
// node-llama-cpp is imported on first use only (models/local.ts), so rule runs never load it.
import type { LlamaEngine } from "../models/engine.ts";
import type { GpuSetting } from "../models/llama.ts";
import { loadLocalModel, LocalModelError, modelSettings, DEFAULT_LOCAL_MODEL, type LoadedLocalModel, type LocalModelOptions } from "../models/local.ts";
import { nodeWorkerSpawner, type WorkerSpawner } from "../models/worker/spawn.ts";
import { ModelProcess } from "../models/worker/supervisor.ts";
import { answerCase } from "../runtime/answer/case.ts";
import { AnswerPipeline, DEFAULT_MODEL_DEADLINE_MS, type ModelAssistant } from "../runtime/answer/pipeline.ts";
import type { Policy } from "../runtime/session/policy.ts";
import { LlmPolicy, type LlmPolicyOptions } from "../runtime/policies/llm.ts";
import { OpenAiPolicy, type OpenAiPolicyOptions } from "../runtime/policies/openai.ts";
import { rulePolicy } from "../runtime/policies/rule/index.ts";
import { BenchError } from "./errors.ts";
import type { PolicyFactory, PolicyHandle, PolicyOptions } from "./policies.ts";

export interface LocalFactoryOverrides {
  /** Engine options merged into every engine the factory builds (tests: forcedOutputPrefix). */
  engine?: LocalModelOptions["engine"];
  gpu?: GpuSetting;
  modelsDir?: string;
  /** Policy options (tests: a smaller token budget). */
  llm?: Partial<Omit<LlmPolicyOptions, "backend">>;
  /** Hybrid options (tests: a shorter model deadline). */
  hybrid?: KioskHybridOptions;
  /** Hybrid: how the model process is started (default: a Node child process). */
  spawn?: WorkerSpawner;
}

async function localModel(options: PolicyOptions, overrides: LocalFactoryOverrides): Promise<LoadedLocalModel> {
  return loadLocalModel({
    ...(options.model !== undefined ? { model: options.model } : {}),
    ...(options.threads !== undefined ? { threads: options.threads } : {}),
    ...(overrides.gpu !== undefined ? { gpu: overrides.gpu } : {}),
    ...(overrides.modelsDir !== undefined ? { modelsDir: overrides.modelsDir } : {}),
    ...(overrides.engine ? { engine: overrides.engine } : {}),
  });
}

/** What a run records about the llm policy's protocol settings. */
function llmSettings(overrides: LocalFactoryOverrides): Record<string, unknown> {
  return { thinking: overrides.llm?.thinking ?? true, max_tokens: overrides.llm?.maxTokens ?? 4096, protocol: overrides.llm?.profile ?? "b8642" };
}

function llmPolicyOn(engine: LlamaEngine, overrides: LocalFactoryOverrides): { policy: LlmPolicy; settings: Record<string, unknown> } {
  return { policy: new LlmPolicy({ ...overrides.llm, backend: engine }), settings: llmSettings(overrides) };
}

/** `--policy llm`: the student model in-process. */
export function llmPolicyFactory(overrides: LocalFactoryOverrides = {}): PolicyFactory {
  return {
    name: "llm",
    description: `the student model in-process (--model PATH or 2b/4b/9b/27b, default ${DEFAULT_LOCAL_MODEL}; --threads N, default measured on first use)`,
    deterministic: false,
    accepts: ["model", "threads"],
    create: async (options): Promise<PolicyHandle> => {
      const loaded = await localModel(options, overrides);
      const { policy, settings } = llmPolicyOn(loaded.engine, overrides);
      return {
        policy,
        model: loaded.info.fileName,
        settings: { ...modelSettings(loaded.info), ...settings },
        dispose: () => loaded.engine.unload(),
      };
    },
  };
}

export interface KioskHybridOptions {
  /** How long the model may take to check an answer (default: the kiosk's, 20 s). */
  modelDeadlineMs?: number;
  /** The deterministic policy (default `rule`). */
  rule?: Policy;
}

/**
 * The kiosk's answer pipeline in hybrid mode over `model` (runtime/answer/pipeline.ts): the bench
 * answers every case exactly as a kiosk with this model answers a passenger — router, provisional
 * answer, the model's check, fallback, circuit breaker — and records the kiosk's verdict per case.
 */
export function kioskHybridHandle(model: Policy, options: KioskHybridOptions = {}): Pick<PolicyHandle, "policy" | "answerCase" | "settings"> {
  const rule = options.rule ?? rulePolicy;
  const modelDeadlineMs = options.modelDeadlineMs ?? DEFAULT_MODEL_DEADLINE_MS;
  const assistant: ModelAssistant = { mode: "hybrid", policy: () => model, modelDeadlineMs };
  let pipeline: AnswerPipeline | undefined;
  return {
    policy: model,
    // One pipeline (and so one breaker) per run, as one kiosk has one.
    answerCase: (pack, kase, caseOptions) => answerCase((pipeline ??= new AnswerPipeline({ rule, assistant, profile: pack.promptProfile(), log: () => undefined })), pack, kase, caseOptions),
    settings: { pipeline: "kiosk", mode: "hybrid", rule_policy: rule.id, model_deadline_ms: modelDeadlineMs },
  };
}

/**
 * `--policy hybrid`: the kiosk's answer pipeline (router, rule, the model's check, breaker) with the
 * model in its own process, exactly as `kiosk serve --model` runs it (models/worker/).
 */
export function hybridPolicyFactory(overrides: LocalFactoryOverrides = {}): PolicyFactory {
  return {
    name: "hybrid",
    description: "the kiosk's answer pipeline: structured requests to the rule policy, judgement cases checked by the model in its own process (rule when it cannot); --model, --threads as for llm",
    deterministic: false,
    accepts: ["model", "threads"],
    create: async (options): Promise<PolicyHandle> => {
      const modelProcess = new ModelProcess({
        spawn: overrides.spawn ?? nodeWorkerSpawner(),
        load: {
          ...(options.model !== undefined ? { model: options.model } : {}),
          ...(options.threads !== undefined ? { threads: options.threads } : {}),
          ...(overrides.gpu !== undefined ? { gpu: overrides.gpu } : {}),
          ...(overrides.modelsDir !== undefined ? { modelsDir: overrides.modelsDir } : {}),
          ...(overrides.engine ? { engine: overrides.engine as Record<string, unknown> } : {}),
        },
        log: () => undefined,
      });
      let loaded;
      try {
        loaded = await modelProcess.start();
      } catch (err) {
        throw err instanceof Error && err.name === "LocalModelError" ? new LocalModelError(err.message) : err;
      }
      const policy = new LlmPolicy({ ...overrides.llm, backend: modelProcess });
      const hybrid = kioskHybridHandle(policy, overrides.hybrid);
      return {
        ...hybrid,
        model: loaded.info.fileName,
        settings: { ...modelSettings(loaded.info), ...llmSettings(overrides), ...hybrid.settings, model_process: true },
        dispose: () => modelProcess.stop(),
      };
    },
  };
}

/** The environment variable the openai policy reads its API key from. */
export const OPENAI_API_KEY_ENV = "OPENAI_API_KEY";

/** `--policy openai`: an OpenAI-compatible chat-completions endpoint. */
export function openAiPolicyFactory(overrides: Partial<Omit<OpenAiPolicyOptions, "baseUrl" | "model">> = {}): PolicyFactory {
  return {
    name: "openai",
    description: `an OpenAI-compatible endpoint (--base-url URL --model NAME; API key from $${OPENAI_API_KEY_ENV})`,
    deterministic: false,
    accepts: ["model", "baseUrl"],
    create: (options): PolicyHandle => {
      if (options.baseUrl === undefined) throw new BenchError("policy 'openai' needs --base-url (e.g. http://localhost:8080/v1)");
      if (options.model === undefined) throw new BenchError("policy 'openai' needs --model (the endpoint's model name)");
      const env = overrides.env ?? process.env;
      const keyEnv = overrides.apiKeyEnv ?? OPENAI_API_KEY_ENV;
      const policy = new OpenAiPolicy({ ...overrides, baseUrl: options.baseUrl, model: options.model, apiKeyEnv: keyEnv, env });
      return {
        policy,
        model: options.model,
        // Never the key itself: only where it comes from and whether it was set.
        settings: { base_url: options.baseUrl, api_key_env: keyEnv, api_key_set: overrides.apiKey !== undefined || Boolean(env[keyEnv]), temperature: 0, max_tokens: overrides.maxTokens ?? 4096 },
      };
    },
  };
}

/** The factories bench/policies.ts registers. */
export function modelPolicyFactories(): PolicyFactory[] {
  return [llmPolicyFactory(), openAiPolicyFactory(), hybridPolicyFactory()];
}
