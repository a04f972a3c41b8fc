// The kiosk's verdict on an answer — whether the buy button would be enabled and why not — computed
// the same way for a live passenger (the answer pipeline) and for a benchmark case (every bench
// run records it per case), from what the kiosk knows: the system, the passenger's turns, the live
// disruptions and the policy's own tool calls.
import type { Disruption, KioskEvent } from "../../tools/data/schemas.ts";
import { checkInterlock, type InterlockVerdict, type LocalTime } from "../kiosk/interlock.ts";
import type { StationNames } from "../kiosk/interlock/stations.ts";
import type { SessionSetup } from "../session/policy.ts";
import type { KioskVerdict, SessionRecord } from "../session/record.ts";

export interface VerdictInput {
  setup: Pick<SessionSetup, "system" | "context">;
  turns: readonly (readonly KioskEvent[])[];
  record: SessionRecord;
  /** The disruptions in force (default: the session's context). */
  disruptions?: readonly Disruption[];
  /** The local time the answer is judged at (default: the session's context's time). */
  now?: LocalTime;
  /** Local-language station names the passenger may have typed (the screen's). */
  stationNames?: StationNames;
}

/** The time a session's context gives (a case's temporal context, or the live kiosk clock). */
export function contextTime(context: SessionSetup["context"]): LocalTime {
  return { iso: context.temporal_context?.current_time || context.current_time, day: context.temporal_context?.day_of_week ?? null };
}

/** The purchase interlock on the record's state. */
export function interlockOf(input: VerdictInput): InterlockVerdict {
  return checkInterlock({
    system: input.setup.system,
    state: input.record.kiosk.state,
    turns: input.turns,
    disruptions: [...(input.disruptions ?? input.setup.context.active_disruptions)],
    toolCalls: input.record.tool_calls_made,
    policyText: input.setup.context.policy_change?.text ?? null,
    now: input.now ?? contextTime(input.setup.context),
    accessibilityMode: input.setup.context.accessibility_mode === true,
    ...(input.stationNames ? { stationNames: input.stationNames } : {}),
  });
}

export function kioskVerdict(interlock: InterlockVerdict, record: SessionRecord, decidedBy: KioskVerdict["decidedBy"]): KioskVerdict {
  return { purchasable: interlock.ok, interlockProblems: interlock.offered && !interlock.ok ? [...interlock.problems] : [], decidedBy, fallback: record.kiosk.fallback };
}
