// The bench's model policies: `llm` (the student GGUF in-process through LlamaEngine), `openai` (an
// OpenAI-compatible endpoint) and `hybrid` (the router in front of `rule` and the in-process model).
// bench/policies.ts registers them. The local ones resolve `--model` (a path, or 2b/4b/9b/27b in
// the models directory) with ModelManager.locate, load ONE engine per run (once, before the first
// case) and unload it when the run ends (PolicyHandle.dispose). What the run records about the model
// (file, size, quantisation, threads, GPU, load time) is in the handle's settings.
//
// None of them is marked deterministic. The llm policy decodes greedily, but (1) tool-call ids are
// random (llama-server style) and are stored in the transcript, so no two runs store the same
// transcript; (2) with KV prefix reuse a prompt is evaluated in batches that depend on the session
// before it, which may change the logits in the last bits and flip a greedy choice (not observed
// with the tiny test model, whose steering bonuses dominate; not ruled out for a real one). The
// hybrid policy adds a wall-clock model deadline, so its answers depend on the machine's speed.
//
// node-llama-cpp is imported on first use only, so rule runs never load it.
import path from "node:path";
import type { LlamaEngine, LlamaEngineOptions } from "../models/engine.ts";
import type { GpuSetting } from "../models/llama.ts";
import type { GgufInspection } from "../models/gguf.ts";
import type { PrimaryPolicy } from "../runtime/kiosk/app.ts";
import { decideRoute, HybridPolicy, type HybridOptions } from "../runtime/policies/hybrid.ts";
import { LlmPolicy, systemTurnPrefix, type LlmPolicyOptions } from "../runtime/policies/llm.ts";
import { liveContext } from "../runtime/kiosk/service.ts";
import { buildSystemPrompt, toolDefinitions } from "../runtime/prompt/index.ts";
import type { DataPack } from "../tools/data/datapack.ts";
import type { SystemId } from "../tools/data/schemas.ts";
import { OpenAiPolicy, type OpenAiPolicyOptions } from "../runtime/policies/openai.ts";
import { rulePolicy } from "../runtime/policies/rule/index.ts";
import { BenchError } from "./errors.ts";
import type { PolicyFactory, PolicyHandle, PolicyOptions } from "./policies.ts";

/** The catalog model used when `--model` is not given. */
export const DEFAULT_LOCAL_MODEL = "4b";

/** What a run records about the local model it used. */
export interface LocalModelInfo {
  /** Absolute path of the GGUF file. */
  file: string;
  fileName: string;
  bytes: number;
  /** Short quantisation name (e.g. Q4_K_M), when the file says. */
  quantization: string | null;
  architecture: string | null;
  parameters: number;
  /** Catalog id (2b/4b/9b/27b) when the file is a catalog model. */
  catalogId: string | null;
  contextSize: number;
  threads: number;
  /** GPU backend in use ("cuda", "metal", "vulkan") or false for CPU only. */
  gpu: string | false;
  /** Hybrid/recurrent architecture (prefix reuse through checkpoints). */
  recurrent: boolean;
  loadMs: number;
}

export interface LocalModelOptions {
  /** A .gguf path, or a catalog id (2b, 4b, 9b, 27b) in the models directory. Default 4b. */
  model?: string;
  /** CPU threads (always passed to node-llama-cpp). Default: measured on first use (models/threads.ts). */
  threads?: number;
  gpu?: GpuSetting;
  /** Models directory (default: $METRO_MODELS_DIR, else ./models/cache). */
  modelsDir?: string;
  /** Extra engine options (tests: forcedOutputPrefix, a smaller context). */
  engine?: Partial<Omit<LlamaEngineOptions, "modelPath" | "threads">>;
}

export interface LoadedLocalModel {
  engine: LlamaEngine;
  info: LocalModelInfo;
  inspection: GgufInspection;
}

/** The model could not be found or loaded; the message says what to do. */
export class LocalModelError extends BenchError {
  override name = "LocalModelError";
}

/** Where `--model` points: an existing file, else the models directory. Throws LocalModelError. */
export async function locateLocalModel(spec: string = DEFAULT_LOCAL_MODEL, modelsDir?: string): Promise<{ file: string; catalogId: string | null }> {
  const [{ ModelManager }, { catalogEntry, catalogEntryForFile, DEFAULT_MODEL_ID }, { ModelNotFoundError }] = await Promise.all([
    import("../models/manager.ts"),
    import("../models/catalog.ts"),
    import("../models/errors.ts"),
  ]);
  const manager = new ModelManager(modelsDir ? { modelsDir } : {});
  try {
    const file = manager.locate(spec);
    return { file, catalogId: catalogEntryForFile(path.basename(file))?.id ?? null };
  } catch (err) {
    if (!(err instanceof ModelNotFoundError)) throw err;
    const entry = catalogEntry(spec);
    if (entry) {
      throw new LocalModelError(
        `model '${entry.id}' is not downloaded (no ${err.path}): run \`kiosk model pull ${entry.id}\` first, or pass --model PATH to a .gguf file`,
      );
    }
    const pathLike = spec.includes("/") || spec.includes("\\");
    throw new LocalModelError(
      `model file not found: ${pathLike ? spec : `${spec} (not a file here nor in ${path.dirname(err.path)})`}: pass --model PATH to a .gguf file or a downloaded catalog model (2b, 4b, 9b, 27b); the kiosk's default model is downloaded with \`kiosk model pull ${DEFAULT_MODEL_ID}\``,
    );
  }
}

/** Locate, inspect and load a local model into one engine. Throws LocalModelError. */
export async function loadLocalModel(options: LocalModelOptions = {}): Promise<LoadedLocalModel> {
  const { file, catalogId } = await locateLocalModel(options.model ?? DEFAULT_LOCAL_MODEL, options.modelsDir);
  const [{ LlamaEngine }, { inspectGgufFile }, { catalogEntry }, { ModelError }, { chooseThreads }] = await Promise.all([
    import("../models/engine.ts"),
    import("../models/gguf.ts"),
    import("../models/catalog.ts"),
    import("../models/errors.ts"),
    import("../models/threads.ts"),
  ]);
  try {
    const threads = options.threads ?? (await chooseThreads(file, { gpu: options.gpu ?? "auto" })).threads;
    const { inspection } = await inspectGgufFile(file);
    const contextSize = options.engine?.contextSize ?? (catalogId ? catalogEntry(catalogId)?.defaultContextSize : undefined) ?? 16384;
    const engine = new LlamaEngine({ gpu: options.gpu ?? "auto", ...options.engine, contextSize, modelPath: file, threads });
    const t0 = performance.now();
    await engine.load();
    const loadMs = performance.now() - t0;
    const info = engine.info;
    return {
      engine,
      inspection,
      info: {
        file,
        fileName: path.basename(file),
        bytes: inspection.fileSize,
        quantization: inspection.quantization ?? null,
        architecture: inspection.architecture ?? null,
        parameters: inspection.parameters,
        catalogId,
        contextSize: info.contextSize,
        threads: info.threads,
        gpu: info.gpu,
        recurrent: inspection.recurrent,
        loadMs,
      },
    };
  } catch (err) {
    if (err instanceof ModelError) throw new LocalModelError(err.message, { cause: err });
    throw err;
  }
}

/** What the run stores about the model (JSON-ready). */
export function modelSettings(info: LocalModelInfo): Record<string, unknown> {
  return {
    model_file: info.file,
    model_bytes: info.bytes,
    quantization: info.quantization,
    architecture: info.architecture,
    parameters: info.parameters,
    catalog_id: info.catalogId,
    context_size: info.contextSize,
    threads: info.threads,
    gpu: info.gpu,
    load_ms: Math.round(info.loadMs),
  };
}

export interface LocalFactoryOverrides {
  /** Engine options merged into every engine the factory builds (tests: forcedOutputPrefix). */
  engine?: LocalModelOptions["engine"];
  gpu?: GpuSetting;
  modelsDir?: string;
  /** Policy options (tests: a smaller token budget). */
  llm?: Partial<Omit<LlmPolicyOptions, "backend">>;
  /** Hybrid options (tests: fewer model rounds). */
  hybrid?: Partial<Omit<HybridOptions, "rule" | "model">>;
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

function llmPolicyOn(engine: LlamaEngine, overrides: LocalFactoryOverrides): { policy: LlmPolicy; settings: Record<string, unknown> } {
  const policy = new LlmPolicy({ ...overrides.llm, backend: engine });
  return { policy, settings: { thinking: overrides.llm?.thinking ?? true, max_tokens: overrides.llm?.maxTokens ?? 4096, protocol: overrides.llm?.profile ?? "b8642" } };
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

/** `--policy hybrid`: decideRoute in front of `rule` and the in-process model. */
export function hybridPolicyFactory(overrides: LocalFactoryOverrides = {}): PolicyFactory {
  return {
    name: "hybrid",
    description: "router: structured requests to the rule policy, judgement cases to the in-process model (falls back to rule); --model, --threads as for llm",
    deterministic: false,
    accepts: ["model", "threads"],
    create: async (options): Promise<PolicyHandle> => {
      const loaded = await localModel(options, overrides);
      const { policy: model, settings } = llmPolicyOn(loaded.engine, overrides);
      const hybrid: HybridOptions = { modelDeadlineMs: 20_000, maxModelRounds: 14, ...overrides.hybrid, rule: rulePolicy, model };
      return {
        policy: new HybridPolicy(hybrid),
        model: loaded.info.fileName,
        settings: {
          ...modelSettings(loaded.info),
          ...settings,
          rule_policy: rulePolicy.id,
          model_deadline_ms: hybrid.modelDeadlineMs,
          max_model_rounds: hybrid.maxModelRounds,
        },
        dispose: () => loaded.engine.unload(),
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

/** Who answers passengers at a kiosk with a local model (kiosk serve --model, Electron --model). */
export interface PassengerAssistantSpec {
  /** `llm`: the model answers every request; `hybrid`: rule at once, the model checks what needs judgement. */
  mode: "llm" | "hybrid";
  /** A .gguf path or a catalog id (2b, 4b, 9b, 27b). */
  model: string;
  threads?: number;
  /** Hybrid: how long the model may take to check an answer. */
  modelDeadlineMs?: number;
  /**
   * Warm boot: a saved KV state of the shared prompt prefix. Loaded when it matches this model
   * file; otherwise the prefix is evaluated once and saved there for the next start.
   */
  warmState?: { file: string; prefix: (chatTemplate: string) => string };
}

export interface PassengerAssistant {
  primary: PrimaryPolicy;
  router?: typeof decideRoute;
  unload(): Promise<void>;
}

async function warmBoot(engine: LlamaEngine, warm: NonNullable<PassengerAssistantSpec["warmState"]>, log: (message: string) => void): Promise<void> {
  try {
    if (await engine.loadWarmState(warm.file)) {
      log(`warm boot: the shared prompt prefix was restored from ${warm.file}`);
      return;
    }
    const template = engine.chatTemplate();
    if (!template) return;
    const t0 = performance.now();
    const saved = await engine.saveWarmState(warm.file, warm.prefix(template));
    log(`warm boot: evaluated the shared prompt prefix (${saved.tokens} tokens, ${Math.round(performance.now() - t0)} ms) and saved it to ${warm.file}`);
  } catch (err) {
    log(`warm boot skipped (${(err as Error).message})`);
  }
}

/**
 * Load the passenger assistant's model. A model that cannot be found or loaded is not fatal: the
 * kiosk keeps answering with the rule policy, and the log says why (null is returned).
 */
export async function loadPassengerAssistant(spec: PassengerAssistantSpec, log: (message: string) => void): Promise<PassengerAssistant | null> {
  try {
    const loaded = await loadLocalModel({ model: spec.model, ...(spec.threads !== undefined ? { threads: spec.threads } : {}) });
    const { deadlineThinkingBudget } = await import("../models/thinking-budget.ts");
    const policy = new LlmPolicy({ backend: loaded.engine, ...(spec.mode === "hybrid" ? { thinkingBudget: deadlineThinkingBudget(loaded.info.file, loaded.info.gpu, loaded.info.threads) } : {}) });
    if (spec.warmState) await warmBoot(loaded.engine, spec.warmState, log);
    log(`assistant: ${spec.mode} with ${loaded.info.fileName} (${loaded.info.threads} threads, ${loaded.info.gpu || "CPU"}) loaded in ${Math.round(loaded.info.loadMs)} ms`);
    return {
      primary: { kind: "model", policy: () => policy },
      ...(spec.mode === "hybrid" ? { router: decideRoute } : {}),
      unload: () => loaded.engine.unload(),
    };
  } catch (err) {
    log(`assistant model not available (${(err as Error).message}) — passengers are answered by the rule policy`);
    return null;
  }
}

/**
 * The warm-boot prefix of a kiosk for `system`: its rendered system turn for a live context without
 * disruptions (the tools block, which all systems share, comes first).
 */
export function kioskWarmPrefix(pack: DataPack, system: SystemId, now: Date = new Date()): (chatTemplate: string) => string {
  return (chatTemplate) => {
    const data = pack.system(system);
    const context = liveContext(data, { now, disruptions: [], accessibilityMode: false });
    return systemTurnPrefix(chatTemplate, buildSystemPrompt(data, context, pack.promptProfile()), toolDefinitions(pack));
  };
}
