// The two sides of a replay for the drafts an operator makes: a framebook (same conditions, other
// system data) or an alert set (same system data, the disruptions the alerts give at a time).
import type { SystemId } from "../../tools/data/schemas.ts";
import type { SystemData } from "../../tools/data/system.ts";
import { activeDisruptions, type AlertRecordLike } from "../alerts/active.ts";
import { localIso } from "../alerts/model.ts";
import type { ReplaySide } from "./replay.ts";

/** A draft framebook for `system`: every session keeps its own time and disruptions. */
export function framebookDraft(current: (system: SystemId) => SystemData, system: SystemId, draft: SystemData): { baseline: ReplaySide; draft: ReplaySide } {
  return {
    baseline: { systemData: current },
    draft: { systemData: (s) => (s === system ? draft : current(s)) },
  };
}

/**
 * A draft alert set: each session is replayed at `at` (when the draft would be live) with the
 * disruptions of the alerts in force then — today's alerts on one side, the draft's on the other.
 */
export function alertDraft(systemData: (system: SystemId) => SystemData, current: readonly AlertRecordLike[], draft: readonly AlertRecordLike[], at: Date): { baseline: ReplaySide; draft: ReplaySide } {
  const side = (records: readonly AlertRecordLike[]): ReplaySide => ({
    systemData,
    now: () => at,
    disruptions: (session) => activeDisruptions(records, { system: session.system, now: localIso(at), language: session.language, primaryLanguage: systemData(session.system).framebook.primary_language }),
  });
  return { baseline: side(current), draft: side(draft) };
}
