// The latency probe's fixed case set: 15 held-out cases, the same on every machine so probe figures
// compare across a MacBook Air, a kiosk and a workstation.
//
// Rule (applied to the data pack in pack order, i.e. systems marta, doha, bart, taipei, cta,
// beijing, each file's order):
//   1. for each category A–K, the first held-out case of that category  (11 cases);
//   2. then the next four held-out compound cases (category K) not taken in step 1  (4 cases).
// Step 1 lands on MARTA for every category (a kiosk serves one system, so the sessions share the
// framebook's prompt prefix as they would at a MARTA kiosk); step 2 adds the hardest prompts
// (disruption + accessibility + service hours at once), three of them on a second system (Doha),
// so the set also contains a framebook switch. bench/probe/set.test.ts checks that the list below
// is what the rule gives on the pack.
import type { DataPack } from "../../tools/data/datapack.ts";
import { CATEGORIES, type Case } from "../../tools/data/schemas.ts";

export const PROBE_SET_IDS: readonly string[] = [
  "MARTA-A-001", // A structured: Airport to Five Points
  "MARTA-B-011", // B structured: fare for 2 adults + 2 children + 1 senior + 1 disabled
  "MARTA-C-004", // C structured: North Springs to Airport (station closure)
  "MARTA-D-002", // D structured: Chamblee to Lindbergh Center (wheelchair accessible)
  "MARTA-E-002", // E structured: cultural, Breeze Card
  "MARTA-F-004", // F structured: policy, luggage elevator
  "MARTA-G-001", // G multi-turn: add a child passenger mid-conversation (2 turns)
  "MARTA-H-010", // H adversarial: exploit child age
  "MARTA-I-002", // I free text: last train
  "MARTA-J-004", // J hallucination trap: refund
  "MARTA-K-001", // K compound: active disruption AND wheelchair user
  "MARTA-K-002", // K compound: late-night trip during a service disruption
  "DOHA-K-001", //  K compound: active disruption AND wheelchair user
  "DOHA-K-004", //  K compound: station closure + wheelchair + near closing
  "DOHA-K-005", //  K compound: all failure modes at once
];

export const PROBE_SET_SIZE = 15;
const COMPOUND_EXTRAS = 4;

/** The probe set as the rule above derives it from `pack` (used to check PROBE_SET_IDS). */
export function deriveProbeSet(pack: DataPack): string[] {
  const holdout = pack.holdoutIds();
  const cases = pack.allCases().filter((c) => holdout.has(c.id));
  const firsts = CATEGORIES.flatMap((category) => {
    const first = cases.find((c) => c.category === category);
    return first ? [first.id] : [];
  });
  const extras = cases.filter((c) => c.category === "K" && !firsts.includes(c.id)).slice(0, COMPOUND_EXTRAS);
  return [...firsts, ...extras.map((c) => c.id)];
}

/** The first `count` cases of the probe set (all 15 by default). */
export function probeCases(pack: DataPack, count: number = PROBE_SET_SIZE): Case[] {
  if (!Number.isInteger(count) || count < 1 || count > PROBE_SET_IDS.length) {
    throw new RangeError(`the probe set has ${PROBE_SET_IDS.length} cases: --cases must be 1..${PROBE_SET_IDS.length}, got ${count}`);
  }
  return PROBE_SET_IDS.slice(0, count).map((id) => {
    const kase = pack.caseById(id);
    if (!kase) throw new Error(`probe case ${id} is not in the data pack at ${pack.root}`);
    return kase;
  });
}
