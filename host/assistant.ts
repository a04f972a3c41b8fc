// The passenger assistant of a kiosk with a local model (kiosk serve --model, Electron --model):
// the model loaded, warm-booted, and offered to the answer pipeline as the `llm` policy — in
// `hybrid` mode (the router decides, the model checks what needs judgement) or `llm` mode (the
// model answers everything). A model that cannot be found or loaded is not fatal: the kiosk keeps
// answering with the rule policy, and the log says why.
import { loadLocalModel, warmBoot } from "../models/local.ts";
import type { ModelAssistant } from "../runtime/answer/pipeline.ts";
import { liveContext } from "../runtime/kiosk/service.ts";
import { LlmPolicy, systemTurnPrefix } from "../runtime/policies/llm.ts";
import { buildSystemPrompt, toolDefinitions } from "../runtime/prompt/index.ts";
import type { DataPack } from "../tools/data/datapack.ts";
import type { SystemId } from "../tools/data/schemas.ts";

export interface PassengerAssistantSpec {
  /** `llm` (the llm policy answers every request) or `hybrid` (rule at once, the model checks what needs judgement). */
  mode: "llm" | "hybrid";
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

export interface PassengerAssistant {
  assistant: ModelAssistant;
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

/** Load the passenger assistant's model; null (and a log line saying why) when it cannot be loaded. */
export async function startPassengerAssistant(pack: DataPack, spec: PassengerAssistantSpec, log: (message: string) => void): Promise<PassengerAssistant | null> {
  try {
    const loaded = await loadLocalModel({ model: spec.model, ...(spec.threads !== undefined ? { threads: spec.threads } : {}) });
    const policy = new LlmPolicy({ backend: loaded.engine });
    if (spec.warmStateFile) await warmBoot(loaded.engine, spec.warmStateFile, kioskWarmPrefix(pack, pack.systemIds[0] as SystemId), log);
    log(`assistant: ${spec.mode} with ${loaded.info.fileName} (${loaded.info.threads} threads, ${loaded.info.gpu || "CPU"}) loaded in ${Math.round(loaded.info.loadMs)} ms`);
    return {
      assistant: { mode: spec.mode === "llm" ? "model" : "hybrid", policy: () => policy, ...(spec.modelDeadlineMs !== undefined ? { modelDeadlineMs: spec.modelDeadlineMs } : {}) },
      close: () => loaded.engine.unload(),
    };
  } catch (err) {
    log(`assistant model not available (${(err as Error).message}) — passengers are answered by the rule policy`);
    return null;
  }
}
