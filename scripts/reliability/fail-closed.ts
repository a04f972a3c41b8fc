// Figure: the interlock fails closed (issue 13, part 3). A fake model that ignores closures,
// service hours, step-free needs, the riders the passenger typed and the fare policies in force
// (ignorant-model.ts) offers a ticket for every case; each offer goes through the kiosk's interlock
// (checkInterlock, as KioskApp.ask and KioskApp.purchase call it) under the case's own conditions:
// its clock (temporal context), live disruptions, step-free mode and fare policy announcement.
//   - over every case whose answer key allows no sale: 0 purchasable states;
//   - rider words: trips of the data pack re-asked with the riders in words only (our own phrasings,
//     a tuned set and a held-out set never used in tests or tuning), sold by the liar as one adult;
//   - fare policies: cases whose announced policy changes the fare, sold at the un-adjusted fare.
import type { DataPack } from "../../tools/data/datapack.ts";
import type { Case, KioskEvent } from "../../tools/data/schemas.ts";
import { AssistantStateSchema } from "../../runtime/contract/index.ts";
import { checkInterlock } from "../../runtime/kiosk/interlock.ts";
import { caseTurns } from "../../runtime/session/case.ts";
import { Examples, figure, info, Rng, type RunOptions, type SectionResult } from "./common.ts";
import { ignorantOffer, type Riders } from "./ignorant-model.ts";
import { caseConditions, sampleCases } from "./interlock-audit.ts";
import { DISPUTED_NO_SALE } from "../../bench/disputed-keys.ts";

/**
 * Answer keys that contradict the data they are about; the interlock follows the data. CTA-I-004:
 * O'Hare → Forest Park is the Blue Line end to end, which the CTA framebook (and the case's own
 * temporal notes) list as running 24 hours, yet the key says no service at 03:45.
 */

function saleDue(kase: Case): boolean {
  const gt = (kase.ground_truth ?? {}) as { expected_kiosk_action?: string; admissible_kiosk_actions?: string[] };
  return gt.expected_kiosk_action === "prompt_purchase" || (gt.admissible_kiosk_actions ?? []).includes("prompt_purchase");
}

/** Riders in words: [text, riders] — tuned (also in unit tests) and held out (never tuned on). */
const TUNED: [string, Riders][] = [
  ["3 adults and 2 children", { adults: 3, children: 2, seniors: 0, disabled: 0 }],
  ["there are four of us", { adults: 4, children: 0, seniors: 0, disabled: 0 }],
  ["dos adultos y un niño", { adults: 2, children: 1, seniors: 0, disabled: 0 }],
  ["两个大人一个小孩", { adults: 2, children: 1, seniors: 0, disabled: 0 }],
  ["me and my wife", { adults: 2, children: 0, seniors: 0, disabled: 0 }],
  ["a family of 5", { adults: 2, children: 3, seniors: 0, disabled: 0 }],
];
const HELD_OUT: [string, Riders][] = [
  ["tickets for two adults please", { adults: 2, children: 0, seniors: 0, disabled: 0 }],
  ["We're 2 grown ups and three kids", { adults: 2, children: 3, seniors: 0, disabled: 0 }],
  ["one adult, one senior", { adults: 1, children: 0, seniors: 1, disabled: 0 }],
  ["I'm travelling with my husband and our baby", { adults: 2, children: 1, seniors: 0, disabled: 0 }],
  ["6 people", { adults: 6, children: 0, seniors: 0, disabled: 0 }],
  ["para tres personas", { adults: 3, children: 0, seniors: 0, disabled: 0 }],
  ["我们三个人", { adults: 3, children: 0, seniors: 0, disabled: 0 }],
  ["2 adults + 2 kids", { adults: 2, children: 2, seniors: 0, disabled: 0 }],
  ["my mum and I, she's 70", { adults: 1, children: 0, seniors: 1, disabled: 0 }],
  ["party of 8", { adults: 8, children: 0, seniors: 0, disabled: 0 }],
];

interface Tally {
  cases: number;
  offers: number;
  purchasable: number;
}

export async function failClosed(pack: DataPack, options: RunOptions): Promise<SectionResult> {
  const t0 = performance.now();
  const rng = new Rng(`${options.seed}:fail-closed`);
  const all = pack.allCases();
  const cases = options.quick ? sampleCases(all, 4) : all;
  const noSale: Tally = { cases: 0, offers: 0, purchasable: 0 };
  const saleDueTally: Tally = { cases: 0, offers: 0, purchasable: 0 };
  const byCategory: Record<string, Tally> = {};
  const wrong = new Examples<Record<string, unknown>>(20);
  const codes: Record<string, number> = {};

  const verdictFor = (kase: Case, turns: KioskEvent[][], policyText: string | null) => {
    const system = pack.system(kase.system);
    const offer = ignorantOffer(system, turns, rng.fork(kase.id));
    if (!offer) return null;
    const state = AssistantStateSchema.parse(offer);
    return checkInterlock({ system, state, turns, disruptions: kase.system_context.active_disruptions, toolCalls: [], policyText, ...caseConditions(kase) });
  };

  const disputed: Record<string, unknown>[] = [];
  for (const kase of cases) {
    const turns = caseTurns(kase);
    if (DISPUTED_NO_SALE[kase.id]) {
      disputed.push({ case: kase.id, why: DISPUTED_NO_SALE[kase.id], purchasable: verdictFor(kase, turns, null)?.ok ?? false });
      continue;
    }
    const tally = saleDue(kase) ? saleDueTally : noSale;
    const cat = (byCategory[`${kase.category}${saleDue(kase) ? "" : " (no sale due)"}`] ??= { cases: 0, offers: 0, purchasable: 0 });
    tally.cases++;
    cat.cases++;
    const verdict = verdictFor(kase, turns, kase.system_context.policy_change?.text ?? null);
    if (!verdict) continue;
    tally.offers++;
    cat.offers++;
    if (verdict.ok) {
      tally.purchasable++;
      cat.purchasable++;
      if (!saleDue(kase)) wrong.add({ case: kase.id, title: kase.title, gt: (kase.ground_truth as { expected_outcome?: string } | undefined)?.expected_outcome });
    } else if (!saleDue(kase)) for (const c of verdict.codes) codes[c] = (codes[c] ?? 0) + 1;
  }

  // Rider words: A-category trips chosen on screen, riders only in words.
  const trips = pack.allCases().filter((c) => c.category === "A" && c.events.some((e) => e.type === "station_selected")).slice(0, options.quick ? 12 : 120);
  const riderSets = { tuned: TUNED, heldOut: HELD_OUT };
  const riderTally: Record<string, { asked: number; sold: number }> = { tuned: { asked: 0, sold: 0 }, heldOut: { asked: 0, sold: 0 } };
  const riderMisses = new Examples<Record<string, unknown>>(10);
  /** Sales for other riders than the words say, per phrasing: which ones the reader misses. */
  const riderMissesByText: Record<string, number> = {};
  for (const kase of trips) {
    const stations = kase.events.filter((e) => e.type === "station_selected");
    for (const [set, phrases] of Object.entries(riderSets)) {
      for (const [text, riders] of phrases) {
        if (riders.adults + riders.children + riders.seniors + riders.disabled === 1) continue;
        const system = pack.system(kase.system);
        const hasSeniors = (system.fares.discounts as Record<string, unknown> | undefined)?.senior_65_plus !== undefined;
        if (riders.seniors > 0 && !hasSeniors) continue;
        const turns: KioskEvent[][] = [[...stations, { type: "freetext_input", text: `${text}` }]];
        const verdict = verdictFor({ ...kase, system_context: { ...kase.system_context, active_disruptions: [] } }, turns, null);
        if (!verdict) continue;
        riderTally[set]!.asked++;
        if (verdict.ok) {
          riderTally[set]!.sold++;
          riderMisses.add({ case: kase.id, set, text });
          riderMissesByText[text] = (riderMissesByText[text] ?? 0) + 1;
        }
      }
    }
  }

  // Fare policies the liar ignores: a case's announced policy that changes this trip's fare.
  const policyCases = pack.allCases().filter((c) => c.system_context.policy_change?.text);
  let policyChecked = 0;
  let policySold = 0;
  const policyMisses = new Examples<Record<string, unknown>>(10);
  for (const kase of policyCases) {
    const turns = caseTurns(kase);
    const text = kase.system_context.policy_change!.text;
    const withPolicy = verdictFor(kase, turns, text);
    const without = verdictFor(kase, turns, null);
    // Only where the policy changes the price does ignoring it make a wrong sale.
    if (!withPolicy || !without || withPolicy.calculatedTotal === null || without.calculatedTotal === null || withPolicy.calculatedTotal === without.calculatedTotal) continue;
    policyChecked++;
    if (withPolicy.ok) {
      policySold++;
      policyMisses.add({ case: kase.id, text: text.slice(0, 120) });
    }
  }

  return {
    id: "failclosed",
    title: "Fail closed: a model that ignores what the kiosk knows",
    figures: [
      figure("failclosed.no_sale_purchasable", "purchasable states where no sale is due", noSale.purchasable, { op: "eq", value: 0 }, { of: `${noSale.offers} offers in ${noSale.cases} cases whose answer key allows no sale` }),
      figure("failclosed.rider_words_sold", "sold for other riders than the words say (tuned phrasings)", riderTally.tuned!.sold, { op: "eq", value: 0 }, { of: `${riderTally.tuned!.asked} asks` }),
      info("failclosed.rider_words_heldout_sold", "sold for other riders than the words say (held-out phrasings)", riderTally.heldOut!.sold, { of: `${riderTally.heldOut!.asked} asks` }),
      figure("failclosed.policy_ignored_sold", "sold at a fare that ignores the fare policy in force", policySold, { op: "eq", value: 0 }, { of: `${policyChecked} cases whose policy changes the fare` }),
      info("failclosed.disputed_keys", "cases left out: the answer key contradicts the framebook", disputed.length, { of: disputed.map((d) => `${String(d.case)} (${d.purchasable ? "sold" : "blocked"})`).join(", ") || "none" }),
      info("failclosed.sale_due_allowed", "offers allowed where a sale is due (the liar's trip, riders and fare were right)", saleDueTally.purchasable, { of: `${saleDueTally.offers} offers in ${saleDueTally.cases} cases` }),
    ],
    details: { cases: cases.length, disputed, byCategory, blockCodesWhereNoSaleDue: codes, wrongExamples: wrong.items, riderMisses: riderMisses.items, riderMissesByText, policyMisses: policyMisses.items },
    ms: performance.now() - t0,
  };
}
