// Turning a benchmark case (or an operator's case file entry) into a session: the same setup a
// live kiosk interaction gets, with the case's turns scripted. Never reads the answer key.
import type { DataPack } from "../../tools/data/datapack.ts";
import type { Case, KioskEvent } from "../../tools/data/schemas.ts";
import { ensureLanguageData } from "../framebook/local-names.ts";
import { buildSystemPrompt, eventsToUserMessage, toolDefinitions } from "../prompt/index.ts";
import type { Policy, SessionSetup } from "./policy.ts";
import { runSession, type SessionOptions } from "./session.ts";
import type { SessionRecord } from "./record.ts";

/** The user turns of a case: its multi-turn groups, or its single list of events. */
export function caseTurns(kase: Case): KioskEvent[][] {
  return kase.multi_turn_events && kase.multi_turn_events.length > 0 ? kase.multi_turn_events : [kase.events];
}

export function caseSetup(pack: DataPack, kase: Case): SessionSetup {
  const system = pack.system(kase.system);
  ensureLanguageData(pack, system);
  return {
    sessionId: kase.id,
    system,
    context: kase.system_context,
    // The system prompt alone: the session renders each user turn as it sends it (runCase).
    systemPrompt: buildSystemPrompt(system, kase.system_context, pack.promptProfile()),
    tools: toolDefinitions(pack),
    scriptedTurns: caseTurns(kase),
  };
}

export type CaseRunOptions = Omit<SessionOptions, "setup" | "policy" | "userMessage" | "firstTurn">;

export function runCase(pack: DataPack, kase: Case, policy: Policy, options: CaseRunOptions = {}): Promise<SessionRecord> {
  const setup = caseSetup(pack, kase);
  const profile = pack.promptProfile();
  // The case's own fields first, then the options (which have none of them): an object spread
  // followed by more properties costs a bench run's every case a slow copy.
  return runSession({
    setup,
    policy,
    userMessage: (events) => eventsToUserMessage(events, profile),
    firstTurn: setup.scriptedTurns?.[0] ?? [],
    ...options,
  });
}
