// Running the corpus of texts others wrote through the kiosk: each passenger request as typed words,
// each operator notice in force (as a disruption or an announcement) with its trips tapped in, through
// the same policy, taps and interlock as the robustness suite. A passenger who is asked taps what the
// entry says they meant (up to two taps). Outcomes are counted the way the targets read:
// sold right at once, sold right after a question, wrong purchasable offers, and correct offers the
// interlock refused.
import type { DataPack } from "../../tools/data/datapack.ts";
import type { Case, Disruption, KioskEvent } from "../../tools/data/schemas.ts";
import type { Policy } from "../../runtime/session/policy.ts";
import { OFFER_APPLIES_KEY, runWithTaps, type CaseOutcome } from "../robustness/run.ts";
import type { ComputedSale, CorpusEntry, Half } from "./corpus.ts";
import type { OperatorCorpusEntry, OUTCOMES } from "./operators.ts";

export type Expect = (typeof OUTCOMES)[number];

/** What the kiosk did with one text (a passenger request, or one trip under an operator notice). */
export type Result =
  /** A due sale, purchasable and exact, with no question asked. */
  | "sold"
  /** A due sale, purchasable and exact after the passenger answered a question. */
  | "asked_sold"
  /** A due sale the policy offered exactly right and the interlock refused. */
  | "refused"
  /** A due sale the kiosk did not get to (no offer, a question it could not settle, a dead end). */
  | "missed"
  /** Purchasable but wrong, or purchasable where no sale is due. */
  | "wrong_offer"
  /** No sale was due and none was offered (for `ask`: the first answer asked). */
  | "right"
  /** `ask` was due and the kiosk neither asked nor sold (it refused or referred). */
  | "not_asked";

export interface OthersOutcome {
  id: string;
  corpus: "passengers" | "operators";
  system: string;
  half: Half;
  /** The words the kiosk read (the passenger's request or the operator's notice). */
  text: string;
  expect: Expect;
  result: Result;
  kinds: readonly string[];
  problems: string[];
  outcome: CaseOutcome;
}

const SALE_KEY = { expected_outcome: "route_and_fare_ready", expected_kiosk_action: "prompt_purchase", expected_reason_code: "ok" } as const;

/** The answer key of a computed sale in the pack's ground_truth shape (what the strict score reads). */
function saleKey(sale: ComputedSale): Record<string, unknown> {
  return {
    route: sale.route,
    fare: { total: sale.total, currency: sale.currency },
    ...SALE_KEY,
    expected_fare_breakdown: { passenger_summary: { ...sale.riders } },
  };
}

/** A key where no sale is due: the pack's "blocked" shape, so nothing purchasable passes. */
function noSaleKey(expect: Expect): Record<string, unknown> {
  return { route: null, fare: null, expected_outcome: "advisory_only", expected_kiosk_action: expect === "ask" ? "ask_clarification" : expect === "refer" ? "refer_to_staff" : "block_purchase", admissible_kiosk_actions: [] };
}

/** An afternoon on a weekday, inside every system's service hours: when a request names no time. */
const DEFAULT_TIME = "2026-03-10T14:00:00";
const seconds = (at: string): string => (at.length === 16 ? `${at}:00` : at);

export function passengerCase(entry: CorpusEntry): Case {
  const e = entry.entry;
  return {
    id: e.id,
    system: entry.system as Case["system"],
    category: "A",
    events: [{ type: "freetext_input", text: e.text }],
    system_context: { current_time: e.at ? seconds(e.at) : DEFAULT_TIME, active_disruptions: [], framebook: entry.system },
    ground_truth: entry.sale ? saleKey(entry.sale) : noSaleKey("no_sale"),
  };
}

export function operatorCase(pack: DataPack, entry: OperatorCorpusEntry, index: number): Case {
  const { probe, sale } = entry.probes[index]!;
  const e = entry.entry;
  const system = pack.system(entry.system);
  const name = (id: string): string => system.stationById(id)?.name ?? id;
  const events: KioskEvent[] = [
    { type: "station_selected", field: "origin", value: name(probe.origin), station_id: probe.origin },
    { type: "station_selected", field: "destination", value: name(probe.destination), station_id: probe.destination },
    { type: "passenger_count_changed", adults: probe.riders.adults ?? 0, children: probe.riders.children ?? 0, seniors: probe.riders.seniors ?? 0, disabled: probe.riders.disabled ?? 0 },
  ];
  const context: Case["system_context"] = { current_time: seconds(probe.at), active_disruptions: [], framebook: entry.system };
  if ("disruption" in e.notice) {
    const { text_only: _textOnly, ...d } = e.notice.disruption;
    context.active_disruptions = [{ id: e.id, ...d } satisfies Disruption];
  } else context.policy_change = { policy_id: e.id, text: e.notice.policy_change.text };
  const id = `${e.id}#${index + 1}`;
  // The trip the passenger meant, so a question about it is answered with the right tap.
  const intended = { route: { path: [probe.origin, probe.destination] }, expected_fare_breakdown: { passenger_summary: { ...probe.riders } } };
  // A fare offer for whom it names: the key says whether this passenger is one, so they answer
  // "does it apply to you?" as the key does.
  const eligibility = e.reading.fare?.eligible !== undefined ? { [OFFER_APPLIES_KEY]: probe.eligible === true } : {};
  return { id, system: entry.system as Case["system"], category: "C", events, system_context: context, ground_truth: { ...(sale ? saleKey(sale) : { ...noSaleKey(probe.expect), ...intended }), ...eligibility } };
}

function classify(expect: Expect, o: CaseOutcome): Result {
  if (o.strict.wrongOffer) return "wrong_offer";
  if (expect === "sale") {
    if (o.strict.pass) return o.taps === 0 ? "sold" : "asked_sold";
    return o.strict.refusedCorrect ? "refused" : "missed";
  }
  if (expect === "ask") return o.askedFirst ? "right" : "not_asked";
  return "right";
}

/** Runs the passenger requests and the operator notices' trips of the given halves. */
export async function runOthers(
  pack: DataPack,
  passengers: readonly CorpusEntry[],
  operators: readonly OperatorCorpusEntry[],
  policy: Policy,
  onProgress?: (done: number, total: number) => void,
): Promise<OthersOutcome[]> {
  const total = passengers.length + operators.reduce((n, e) => n + e.probes.length, 0);
  const out: OthersOutcome[] = [];
  const step = async (): Promise<void> => {
    onProgress?.(out.length, total);
    await new Promise((resolve) => setImmediate(resolve));
  };
  for (const entry of passengers) {
    const expect: Expect = entry.sale ? "sale" : "no_sale";
    const outcome = await runWithTaps(pack, passengerCase(entry), policy);
    out.push({ id: entry.entry.id, corpus: "passengers", system: entry.system, half: entry.half, text: entry.entry.text, expect, result: classify(expect, outcome), kinds: entry.entry.kinds ?? [], problems: outcome.strict.problems, outcome });
    await step();
  }
  for (const entry of operators) {
    for (const [i, p] of entry.probes.entries()) {
      const kase = operatorCase(pack, entry, i);
      // An `ask` is judged on the first answer: a tap cannot stand in for the passenger's own word.
      const outcome = await runWithTaps(pack, kase, policy, p.probe.expect === "ask" ? 0 : undefined);
      const notice = entry.entry.notice;
      const text = "disruption" in notice ? notice.disruption.message : notice.policy_change.text;
      out.push({ id: kase.id, corpus: "operators", system: entry.system, half: entry.half, text, expect: p.probe.expect, result: classify(p.probe.expect, outcome), kinds: [entry.entry.reading.effect], problems: outcome.strict.problems, outcome });
      await step();
    }
  }
  return out;
}
