import type { SystemData } from "../../tools/data/system.ts";
import { lexiconFor } from "./lexicon.ts";

// What a service notice's words say of a closed station: whether trains still run through it
// ("trains skip it", "will not stop there", "Blue and Brown trains go straight through it") or the
// line is cut there ("trains cannot pass through"). One reading for the policies and the purchase
// interlock alike: a weaker copy in one of them re-plans or blocks what the other sells.

const SKIPS = /\b(?:skip|skips|skipping|bypass|bypasses|pass(?:es)? through without stopping|(?:will not|won'?t|do not|don'?t|does not|doesn'?t|not) stop (?:there|here|at)|(?:not|no longer) stopping (?:there|here|at))\b/i;
const PASS_THROUGH = /\b(?:trains?|services?) (?:\w+ )?(?:pass|run|go)(?:es)? (?:straight |right |directly )?through\b/i;
const NO_PASSING = /\b(?:cannot|can'?t|not|unable to|won'?t|will not) (?:pass|run|go) through\b/i;

/** The notice says trains still run through the closed station (without stopping). */
export function trainsRunThrough(message: string): boolean {
  return SKIPS.test(message) || (PASS_THROUGH.test(message) && !NO_PASSING.test(message));
}

const LIFT_OUT =
  /\bno step[- ]free access\b|\bstep[- ]free access is (?:not|no longer) available\b|\b(?:elevators?|lifts?)\b[^.]{0,60}\b(?:out of service|out-of-service|not working|broken|unavailable|not available|closed|faulty|out of order)\b|\bfaulty (?:lift|elevator)\b|(?:电梯|電梯|升降机|升降機)[^。]{0,20}(?:停用|故障|暂停|暫停|维修|維修)|المصعد[^.]{0,30}(?:معطل|متوقف)/iu;

/**
 * The notice says a station's lift or step-free access is out ("No Step Free Access", "the
 * elevator … is temporarily out-of-service", "a faulty lift"): the station still serves riders who
 * can use stairs, so it is no closure — whether the trip suits a rider is the rider's question.
 */
export function saysLiftOut(message: string): boolean {
  return LIFT_OUT.test(message);
}

const SKIP_VERB = /\b(?:skip|skips|skipping|bypass|bypasses|bypassing)\b/giu;
/** What may stand between the names of a list: commas, "and", a line in brackets ("Kedzie (Pink)"). */
const LIST_GAP = /^\)?(?:\s|,|&|\band\b|\([^)]*\))*$/iu;

/**
 * The stations a notice says trains skip, as a list after the verb ("Millbrae-bound trains skip
 * Pleasant Hill and Walnut Creek", "Trains skip Western (Pink), Damen (Pink) and 18th in both
 * directions"); the list ends at the first words that are no station ("skip Avondale All trains
 * board at … Decatur": Avondale only). A name several stations share is read on the notice's `line`
 * where it gives one, else as each of them (skipping too many only refuses a sale). Trains still
 * run through a skipped station: nobody boards or leaves there.
 */
export function skippedStations(system: SystemData, message: string, line?: string | null): string[] {
  const out = new Set<string>();
  const onLine = line ? new Set(system.lineById(system.aliasLine(line))?.stations ?? []) : undefined;
  for (const verb of message.matchAll(SKIP_VERB)) {
    // The list ends where its names do, not at a full stop ("Shahe Univ. Park").
    const clause = message.slice((verb.index ?? 0) + verb[0].length).slice(0, 400);
    let from = 0;
    for (const m of lexiconFor(system).find(clause)) {
      if (!LIST_GAP.test(clause.slice(from, m.start).replace(/^\s*the\s+/iu, ""))) break;
      const onIt = onLine ? m.candidates.filter((id) => onLine.has(id)) : [];
      for (const id of onIt.length > 0 ? onIt : m.candidates) out.add(id);
      from = m.end;
    }
  }
  return [...out];
}
