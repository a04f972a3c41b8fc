// The strict kiosk score: did the kiosk do exactly the right thing? Tier 1 never checks the end
// stations and passes fares within ±0.5; here a case passes only with the exact end stations, the
// exact total to the cent and the exact riders when a sale is due, and with no purchasable state
// where none is due. "Purchasable" is what the kiosk would do: the state offers a purchase AND the
// kiosk's safety interlock (runtime/kiosk/interlock.ts) confirms it.
import type { Case, KioskEvent } from "../../tools/data/schemas.ts";
import type { SystemData } from "../../tools/data/system.ts";
import { checkInterlock, ridersOf } from "../../runtime/kiosk/interlock.ts";
import type { StationNames } from "../../runtime/kiosk/interlock/stations.ts";
import { contextTime } from "../../runtime/answer/verdict.ts";
import type { SessionRecord } from "../../runtime/session/record.ts";

export interface StrictResult {
  pass: boolean;
  /** A purchase is due by the answer key. */
  due: boolean;
  purchasable: boolean;
  /** Purchasable but wrong (stations, total, riders) or not due at all. */
  wrongOffer: boolean;
  /** A due sale the policy offered exactly right (ends, total, riders) that the interlock refused. */
  refusedCorrect: boolean;
  problems: string[];
}

const KEYS = ["adults", "children", "seniors", "disabled"] as const;

export function strictScore(kase: Case, record: SessionRecord, system: SystemData, turns: readonly (readonly KioskEvent[])[], stationNames?: StationNames): StrictResult {
  const gt = (kase.ground_truth ?? {}) as Record<string, unknown>;
  const state = record.kiosk.state;
  const admissible = (gt.admissible_kiosk_actions as string[] | undefined) ?? [];
  const due = gt.expected_kiosk_action === "prompt_purchase" || (admissible.includes("prompt_purchase") && gt.expected_outcome === "route_and_fare_ready");
  const verdict = checkInterlock({
    system,
    state,
    turns,
    disruptions: kase.system_context.active_disruptions,
    toolCalls: record.tool_calls_made,
    policyText: kase.system_context.policy_change?.text ?? null,
    now: contextTime(kase.system_context),
    accessibilityMode: kase.system_context.accessibility_mode === true,
    ...(stationNames ? { stationNames } : {}),
  });
  const purchasable = verdict.ok;
  const offerProblems = verdict.offered ? keyProblems(gt, state) : [];
  const problems: string[] = [];
  if (purchasable) {
    problems.push(...offerProblems);
    if (!due) problems.push("purchasable, but no sale is due");
  } else if (due) problems.push(verdict.offered ? `not purchasable: ${verdict.problems.join("; ")}` : `no sale offered (${state.outcome})`);
  return { pass: problems.length === 0, due, purchasable, wrongOffer: purchasable && problems.length > 0, refusedCorrect: due && verdict.offered && !purchasable && offerProblems.length === 0, problems };
}

/** How an offered state differs from the answer key's end stations, total and riders. */
function keyProblems(gt: Record<string, unknown>, state: SessionRecord["kiosk"]["state"]): string[] {
  const problems: string[] = [];
  const path = ((gt.route as { path?: string[] } | null)?.path ?? []) as string[];
  const stops = state.route?.stops ?? [];
  if (path.length > 0 && (stops[0]?.station_id !== path[0] || stops[stops.length - 1]?.station_id !== path[path.length - 1])) {
    problems.push(`ends: ${stops[0]?.station_id}→${stops[stops.length - 1]?.station_id}, expected ${path[0]}→${path[path.length - 1]}`);
  }
  const total = (gt.fare as { total?: number } | null)?.total;
  if (typeof total === "number" && Math.abs((state.fare_quote?.total ?? NaN) - total) >= 0.005) problems.push(`total: ${state.fare_quote?.total}, expected ${total}`);
  const expected = (gt.expected_fare_breakdown as { passenger_summary?: Record<string, number> } | undefined)?.passenger_summary;
  const riders = ridersOf(state);
  if (expected && riders && KEYS.some((k) => (expected[k] ?? 0) !== riders[k])) problems.push(`riders: ${KEYS.map((k) => riders[k]).join("/")}, expected ${KEYS.map((k) => expected[k] ?? 0).join("/")}`);
  return problems;
}
