// Does the passenger need step-free access? The on-screen mode says so for certain; their own
// words may too ("I use a wheelchair", "I can't use stairs", "silla de ruedas", "轮椅"). The
// interlock's own reader (no policy code): the latest statement wins, so "Actually I can use
// stairs, no wheelchair needed" withdraws an earlier need. It only ever adds a check.
import type { KioskEvent } from "../../../tools/data/schemas.ts";
import { normalize } from "./text.ts";

const NEED = /\b(wheelchair|wheel chair|step free|stepfree|no stairs|cant (?:use|climb|do|manage) (?:the )?(?:stairs|steps|escalators?)|cannot (?:use|climb|do|manage) (?:the )?(?:stairs|steps|escalators?)|need (?:an |a |working )?(?:elevators?|lifts?|elevator access|lift access)|mobility (?:impairment|aid|scooter)|walker|crutches|stroller|pram|buggy|silla de ruedas|sin escaleras|ascensor)\b|轮椅|輪椅|无障碍|無障礙|电梯|電梯|كرسي متحرك|كرسي|مصعد/u;
const WITHDRAWN = new RegExp(
  [
    String.raw`(?:no|not|dont|do not|without)(?: \w+){0,2} (?:wheelchair|step free|elevators?|lifts?)(?: access)?(?: (?:needed|required|necessary))?`,
    String.raw`no need for (?:a |an |the )?(?:wheelchair|step free|elevators?|lifts?)`,
    String.raw`can (?:use|climb|take|manage|do|handle) (?:the )?(?:stairs|steps|escalators?)`,
    String.raw`(?:wheelchair|step free access|elevator|lift)s?(?: route)? (?:is |are )?not (?:needed|required|necessary)`,
    String.raw`(?:stairs|steps) (?:are|is) (?:fine|ok|okay|no problem)`,
    // Not "im not fine with stairs".
    String.raw`(?<!\bnot )(?:fine|ok|okay) with (?:the )?(?:stairs|steps)`,
    String.raw`forget (?:about )?the (?:wheelchair|step free|elevators?|lifts?)`,
    String.raw`no longer need`,
  ].map((p) => String.raw`\b${p}\b`).join("|"),
);

/** The passenger's latest word on access: step-free travel needed, not needed, or never said. */
export function stepFreeStatement(turns: readonly (readonly KioskEvent[])[]): "needed" | "not_needed" | undefined {
  let said: "needed" | "not_needed" | undefined;
  for (const e of turns.flat()) {
    if (e.type !== "freetext_input" || typeof e.text !== "string") continue;
    const text = normalize(e.text);
    if (WITHDRAWN.test(text)) said = "not_needed";
    else if (NEED.test(text) || NEED.test(e.text)) said = "needed";
  }
  return said;
}

/** Whether the passenger's latest word on access asks for step-free travel. */
export function needsStepFree(turns: readonly (readonly KioskEvent[])[]): boolean {
  return stepFreeStatement(turns) === "needed";
}
