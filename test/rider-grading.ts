// How each rider reader fares on a phrasing of test/rider-phrasings.ts (used by the readers' tests
// and by scripts/rider-phrasings.ts, which prints the pass rates of both tables).
//   - the interlock: the right quote passes, every wrong quote blocks; a text that states no riders
//     blocks none of one adult, two adults, one senior (a text the reader is unsure of blocks every
//     quote until the passenger confirms the counts on screen: the right one too, "wrongly blocked");
//   - the language layer, read as the rule policy reads it (one text, confidence ≥ 0.6): the right
//     counts, or nothing ("ask"), never other counts ("wrong"); a text that states no riders gives none.
import type { DataPack } from "../tools/data/datapack.ts";
import { freeChildAge, readRiders } from "../runtime/language/index.ts";
import { riderWordProblems } from "../runtime/kiosk/interlock/riders.ts";
import { counts, wrongQuotes, type RiderPhrasing } from "./rider-phrasings.ts";

type Quote = ReturnType<typeof counts>;
const ONE_ADULT: Quote = { adults: 1, children: 0, seniors: 0, disabled: 0 };
const NEUTRAL: Quote[] = [ONE_ADULT, { ...ONE_ADULT, adults: 2 }, { ...ONE_ADULT, adults: 0, seniors: 1 }];

export interface InterlockGrade {
  ok: boolean;
  /** Quotes that passed though they disagree with the text (a wrong sale). */
  wronglyPassed: Quote[];
  /** Quotes that blocked though they agree with it (an unneeded question). */
  wronglyBlocked: Quote[];
}

export function gradeInterlock(pack: DataPack, phrasing: RiderPhrasing): InterlockGrade {
  const turns = [[{ type: "freetext_input" as const, text: phrasing.text }]];
  const blocks = (q: Quote): boolean => riderWordProblems(pack.system(phrasing.system), turns, q, null).length > 0;
  const fine = phrasing.party ? [counts(phrasing.party)] : NEUTRAL;
  const wrong = phrasing.party ? wrongQuotes(phrasing.party) : [];
  const wronglyPassed = wrong.filter((q) => !blocks(q));
  const wronglyBlocked = fine.filter(blocks);
  return { ok: wronglyPassed.length === 0 && wronglyBlocked.length === 0, wronglyPassed, wronglyBlocked };
}

export type LanguageGrade = { verdict: "right" | "ask" | "wrong"; read?: Quote };

export function gradeLanguage(pack: DataPack, phrasing: RiderPhrasing): LanguageGrade {
  const system = pack.system(phrasing.system);
  const r = readRiders(phrasing.text, freeChildAge(system.fares.discounts?.children?.qualifier));
  const read = r && r.confidence >= 0.6 ? r.riders : undefined;
  if (!phrasing.party) return read ? { verdict: "wrong", read } : { verdict: "right" };
  if (!read) return { verdict: "ask" };
  const want = counts(phrasing.party);
  const same = (["adults", "children", "seniors", "disabled"] as const).every((k) => read[k] === want[k]);
  return same ? { verdict: "right", read } : { verdict: "wrong", read };
}
