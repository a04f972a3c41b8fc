// Running the robustness suite: each variant and its original pack case through the same policy,
// scored by Tier 1 (no judge) and the strict kiosk score. A kiosk that asks a question gets an
// answer from a simulated passenger who taps the choice meaning what they meant (the stations and
// riders of the answer key), up to two taps; the final answer is scored, and whether the first
// answer asked is recorded (the clarifying share on ambiguous requests).
import type { DataPack } from "../../tools/data/datapack.ts";
import type { Case, KioskEvent } from "../../tools/data/schemas.ts";
import type { SystemData } from "../../tools/data/system.ts";
import { clarificationOf, type Clarification } from "../../runtime/contract/clarification.ts";
import { checkInterlock } from "../../runtime/kiosk/interlock.ts";
import { contextTime } from "../../runtime/answer/verdict.ts";
import { loadLanguageData } from "../../runtime/framebook/local-names.ts";
import { offerAnswer } from "../../runtime/language/offers.ts";
import type { StationNames } from "../../runtime/kiosk/interlock/stations.ts";
import { caseTurns, runCase } from "../../runtime/session/case.ts";
import type { Policy } from "../../runtime/session/policy.ts";
import type { SessionRecord } from "../../runtime/session/record.ts";
import { scoreCaseNoJudge } from "../scorer/index.ts";
import { strictScore, type StrictResult } from "./strict.ts";
import type { SuiteCase } from "./suite.ts";

export const MAX_TAPS = 2;

export interface CaseOutcome {
  tier1: number;
  strict: StrictResult;
  /** The first answer asked a question (not a confirmation). */
  askedFirst: boolean;
  taps: number;
  record: SessionRecord;
}

export interface VariantOutcome {
  entry: SuiteCase;
  original: CaseOutcome;
  variant: CaseOutcome;
}

/** The answer key's word on whether a fare offer in force applies to this passenger (a boolean), where it has one. */
export const OFFER_APPLIES_KEY = "offer_applies_to_passenger";

/** The choice a passenger who meant the answer key's trip and riders would tap, if any. */
export function intendedChoice(kase: Case, c: Clarification): KioskEvent[] | undefined {
  const gt = (kase.ground_truth ?? {}) as Record<string, unknown>;
  // A need or an offer is the passenger's own to state: only a key that says it answers for them.
  if (c.kind === "offer") {
    const applies = gt[OFFER_APPLIES_KEY];
    if (typeof applies !== "boolean") return undefined;
    const wanted = applies ? "applies" : "does_not_apply";
    return c.choices.find((ch) => offerAnswer(ch.events.flatMap((e) => (e.type === "freetext_input" ? [e.text] : []))) === wanted)?.events;
  }
  if (c.kind === "need") return undefined;
  const path = ((gt.route as { path?: string[] } | null)?.path ?? []) as string[];
  const riders = (gt.expected_fare_breakdown as { passenger_summary?: Record<string, number> } | undefined)?.passenger_summary;
  const fits = (events: readonly KioskEvent[]): boolean =>
    events.every((e) => {
      if (e.type === "station_selected") return path.length > 0 && e.station_id === (e.field === "origin" ? path[0] : path[path.length - 1]);
      if (e.type === "passenger_count_changed") return !riders || (["adults", "children", "seniors", "disabled"] as const).every((k) => (e[k] ?? 0) === (riders[k] ?? 0));
      return true;
    });
  const choice = c.choices.find((ch) => fits(ch.events));
  if (choice) return choice.events;
  // "Who is travelling?": the passenger sets the counter to the party they meant.
  if (c.select === "riders") {
    if (!riders) return undefined;
    return [{ type: "passenger_count_changed", adults: riders.adults ?? 0, children: riders.children ?? 0, seniors: riders.seniors ?? 0, disabled: riders.disabled ?? 0 }];
  }
  // A missing start or end: the passenger picks it in the station list the screen opens.
  if (c.select && path.length > 0) {
    const id = c.select === "origin" ? path[0]! : path[path.length - 1]!;
    return [{ type: "station_selected", field: c.select, value: id, station_id: id }];
  }
  return undefined;
}

const namesBySystem = new WeakMap<SystemData, StationNames>();

/** The local-language station names the kiosk gives its interlock (app.ts), so the suite checks what a kiosk would sell. */
function kioskStationNames(pack: DataPack, system: SystemData): StationNames {
  let names = namesBySystem.get(system);
  if (!names) namesBySystem.set(system, (names = loadLanguageData(pack.root, system).localNames));
  return names;
}

export async function runWithTaps(pack: DataPack, kase: Case, policy: Policy, maxTaps = MAX_TAPS): Promise<CaseOutcome> {
  const system = pack.system(kase.system);
  const stationNames = kioskStationNames(pack, system);
  let current = kase;
  let record = await runCase(pack, current, policy);
  const first = clarificationOf(record.tool_calls_made);
  const askedFirst = !!first && first.kind !== "confirm";
  let taps = 0;
  for (; taps < maxTaps; taps++) {
    const c = clarificationOf(record.tool_calls_made);
    if (!c) break;
    const turns = caseTurns(current);
    const purchasable = checkInterlock({ system, state: record.kiosk.state, turns, disruptions: current.system_context.active_disruptions, toolCalls: record.tool_calls_made, policyText: current.system_context.policy_change?.text ?? null, now: contextTime(current.system_context), accessibilityMode: current.system_context.accessibility_mode === true, stationNames }).ok;
    if (purchasable) break;
    const tap = intendedChoice(kase, c);
    if (!tap) break;
    current = { ...current, multi_turn_events: [...turns, tap], events: turns[0] ?? [] };
    record = await runCase(pack, current, policy);
  }
  const score = scoreCaseNoJudge(kase, record, system);
  return { tier1: score.tier1_pct, strict: strictScore(kase, record, system, caseTurns(current), stationNames), askedFirst, taps, record };
}

export async function runSuite(pack: DataPack, entries: readonly SuiteCase[], policy: Policy, onProgress?: (done: number, total: number) => void): Promise<VariantOutcome[]> {
  const originals = new Map<string, CaseOutcome>();
  const out: VariantOutcome[] = [];
  for (const [i, entry] of entries.entries()) {
    let original = originals.get(entry.base.id);
    if (!original) originals.set(entry.base.id, (original = await runWithTaps(pack, entry.base, policy)));
    out.push({ entry, original, variant: await runWithTaps(pack, entry.kase, policy) });
    onProgress?.(i + 1, entries.length);
    await new Promise((resolve) => setImmediate(resolve));
  }
  return out;
}
