// The passenger assistant of a kiosk with a local model (kiosk serve --model, Electron --model):
// the model runs in its own process (models/worker/: a Node child process, or the shell's Electron
// utilityProcess) and is offered to the answer pipeline as the `llm` policy — in `hybrid` mode (the
// router decides, the model checks what needs judgement) or `model` mode (the model answers
// everything). While the model process is down or restarting, the model's breaker is held open:
// passengers are answered by `rule`, and the kiosk's status says so. A model that cannot be found
// or loaded at start is not fatal either: the kiosk answers with `rule`, and the log says why.
import type { LocalModelInfo } from "../models/local.ts";
import type { AssistantMode } from "./assistant-mode.ts";
import { nodeWorkerSpawner, type WorkerSpawner } from "../models/worker/spawn.ts";
import { ModelProcess, type ModelProcessOptions, type ModelProcessStatus } from "../models/worker/supervisor.ts";
import type { ModelBreaker } from "../runtime/answer/breaker.ts";
import type { PrefillResult } from "../runtime/model/backend.ts";
import type { SessionSetup } from "../runtime/session/policy.ts";
import type { ModelAssistant } from "../runtime/answer/pipeline.ts";
import type { ModelHealth } from "../runtime/kiosk/app.ts";
import { liveContext } from "../runtime/kiosk/service.ts";
import { LlmPolicy, systemTurnPrefix } from "../runtime/policies/llm.ts";
import { buildSystemPrompt, toolDefinitions } from "../runtime/prompt/index.ts";
import type { DataPack } from "../tools/data/datapack.ts";
import type { SystemId } from "../tools/data/schemas.ts";

export interface PassengerAssistantSpec {
  /** `model` (the llm policy answers every request) or `hybrid` (rule at once, the model checks what needs judgement). */
  mode: AssistantMode;
  /** A .gguf path or a catalog id (2b, 4b, 9b, 27b). */
  model: string;
  threads?: number;
  /** Hybrid: how long the model may take to check an answer. */
  modelDeadlineMs?: number;
  /**
   * Warm boot: a saved KV state of the kiosk's shared prompt prefix. Loaded when it matches the
   * model file; otherwise the prefix is evaluated once and saved there for the next start.
   */
  warmStateFile?: string;
}

export interface PassengerAssistantOptions {
  /** The model's breaker the kiosk answers by (held open while the model process is not ready). */
  breaker: ModelBreaker;
  /** How the model process is started (default: a Node child process). */
  spawn?: WorkerSpawner;
  /** Supervisor settings (tests: shorter restart delays, engine options for the tiny model). */
  process?: Partial<Omit<ModelProcessOptions, "spawn" | "load" | "warmBoot" | "log">> & { engine?: Record<string, unknown>; gpu?: false | "auto" };
  log: (message: string) => void;
}

export interface PassengerAssistant {
  assistant: ModelAssistant;
  /** The model process (its status goes into the kiosk's). */
  process: ModelProcess;
  /** The process's state as the kiosk's status shows it. */
  health: ModelHealth;
  info: LocalModelInfo;
  /** Prefill the system turn a session with this setup starts with (the prompt warmer's work). */
  prefill(setup: SessionSetup): Promise<PrefillResult | null>;
  close(): Promise<void>;
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

/** The model process's health as the kiosk's status shows it. */
function processHealth(process: ModelProcess): ModelHealth {
  return {
    view: () => {
      const { state, restarts, lastFailure, nextStartAt } = process.status;
      return { state, restarts, lastFailure, nextStartAt: nextStartAt === null ? null : new Date(nextStartAt).toISOString() };
    },
    onChange: (listener) => process.onStatus(() => listener()),
  };
}

/** Why the breaker is held for a model process that is not ready (null: it is ready). */
function downReason(status: ModelProcessStatus): string | null {
  if (status.state === "ready") return null;
  return `model process ${status.state}${status.lastFailure ? `: ${status.lastFailure}` : ""}`;
}

/** Start the model process and load the model; null (and a log line saying why) when it cannot be loaded. */
export async function startPassengerAssistant(pack: DataPack, spec: PassengerAssistantSpec, options: PassengerAssistantOptions): Promise<PassengerAssistant | null> {
  const { log, breaker } = options;
  const { engine, gpu, ...supervision } = options.process ?? {};
  const modelProcess = new ModelProcess({
    ...supervision,
    spawn: options.spawn ?? nodeWorkerSpawner(),
    load: { model: spec.model, ...(spec.threads !== undefined ? { threads: spec.threads } : {}), ...(gpu !== undefined ? { gpu } : {}), ...(engine ? { engine } : {}) },
    ...(spec.warmStateFile ? { warmBoot: { file: spec.warmStateFile, prefix: kioskWarmPrefix(pack, pack.systemIds[0] as SystemId) } } : {}),
    log,
  });
  let loaded;
  try {
    loaded = await modelProcess.start();
  } catch (err) {
    log(`assistant model not available (${(err as Error).message}) — passengers are answered by the rule policy`);
    return null;
  }
  const { info } = loaded;
  log(`assistant: ${spec.mode} with ${info.fileName} (${info.threads} threads, ${info.gpu || "CPU"}) loaded in its own process (pid ${modelProcess.status.pid}) in ${Math.round(info.loadMs)} ms`);
  // The breaker follows the process: held open while it is down or restarting, closed when it is back.
  const unsubscribe = modelProcess.onStatus((status) => {
    const reason = downReason(status);
    if (reason === null) {
      breaker.reset();
      log(`assistant: the model process is back (pid ${status.pid}, restart ${status.restarts})`);
    } else if (status.state !== "stopped") breaker.hold(reason);
  });
  // A hybrid kiosk's model thinks only for what its deadline buys at this machine's measured decode
  // speed (imported here only: models/threads.ts reads node-llama-cpp's types module).
  const thinkingBudget = spec.mode === "hybrid" ? (await import("../models/thinking-budget.ts")).deadlineThinkingBudget(info.file, info.gpu, info.threads) : undefined;
  const policy = new LlmPolicy({ backend: modelProcess, ...(thinkingBudget ? { thinkingBudget } : {}) });
  return {
    assistant: { mode: spec.mode, policy: () => policy, ...(spec.modelDeadlineMs !== undefined ? { modelDeadlineMs: spec.modelDeadlineMs } : {}) },
    process: modelProcess,
    health: processHealth(modelProcess),
    info,
    prefill: (setup) => policy.prefill(setup),
    close: async () => {
      unsubscribe();
      await modelProcess.stop();
    },
  };
}
