// What the model receives for a case: the system prompt and user turns rendered from the data
// pack's prompt profile, and the tool definitions — byte for byte what the reference sent.
import type { DataPack } from "../../tools/data/datapack.ts";
import type { Case, KioskEvent, PromptProfile, SystemContext, ToolDefinition } from "../../tools/data/schemas.ts";
import type { SystemData } from "../../tools/data/system.ts";
import { pyTruthy } from "../../tools/py/index.ts";
import { buildSystemPrompt } from "./system.ts";
import { eventsToUserMessage } from "./user.ts";

export interface CasePrompt {
  systemPrompt: string;
  userTurns: string[];
}

/** System prompt and user turns of a case; a multi-turn case has one user message per turn. */
export function buildCasePrompt(kase: Case, system: SystemData, profile: PromptProfile): CasePrompt {
  if (kase.system !== system.id) throw new Error(`case ${kase.id} belongs to system '${kase.system}', not '${system.id}'`);
  const systemPrompt = buildSystemPrompt(system, kase.system_context, profile);
  const turns: ReadonlyArray<readonly KioskEvent[]> = pyTruthy(kase.multi_turn_events) ? (kase.multi_turn_events ?? []) : [kase.events];
  return { systemPrompt, userTurns: turns.map((events) => eventsToUserMessage(events, profile)) };
}

/** The tool definitions sent with every request: prompt-profile/tool-definitions.json, in order (a copy). */
export function toolDefinitions(pack: DataPack): readonly ToolDefinition[] {
  // Loaded and validated once per pack; shared read-only by every session.
  return pack.toolDefinitions();
}

export { buildSystemPrompt, eventsToUserMessage };
export type { SystemContext };
export { clockFreeLength, fareRules } from "./system.ts";
export { compileProfile, PromptProfileError, KNOWN_BLOCK_IDS } from "./profile.ts";
export { CONDITIONS } from "./conditions.ts";
