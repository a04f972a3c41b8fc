// Who travels by the passenger's words, as the interlock checks a quote against them: the language
// layer's one reading (sessionRiders), over the texts typed after the last on-screen count change
// (the counter supersedes what was typed before it). A sure reading must equal the quote; an
// unsure one — or companions named that it could not read — blocks until the passenger confirms
// the counts on screen. The interlock trusts no policy's answer, but reads the words as the kiosk
// does: it can only ever block. Pure.
import { RIDER_TYPES, type KioskEvent } from "../../../tools/data/schemas.ts";
import type { SystemData } from "../../../tools/data/system.ts";
import { sessionRiders, wordsDisagreeWithCounter, type RiderCounts } from "../../language/index.ts";

/** The texts whose word on riders still holds: those typed after the last on-screen count change. */
export function riderTexts(turns: readonly (readonly KioskEvent[])[]): string[] {
  const events = turns.flat();
  const lastCount = events.findLastIndex((e) => e.type === "passenger_count_changed");
  return events.slice(lastCount + 1).flatMap((e) => (e.type === "freetext_input" && typeof e.text === "string" ? [e.text] : []));
}

/**
 * Where a quoted rider mix disagrees with what the passenger wrote (empty: no disagreement), as the
 * kiosk reads it: with no counts set on screen, a sure reading is the party; with counts set before
 * the words, those are, and the words may not name more riders than they (nor, naming the whole
 * party, another number). Words the reader is unsure of block unless the counter shows a group.
 */
export function riderWordProblems(system: SystemData, turns: readonly (readonly KioskEvent[])[], riders: RiderCounts, screen: RiderCounts | null): string[] {
  const who = sessionRiders(system, riderTexts(turns));
  if (who.sure && who.reading) {
    const read = who.reading.riders;
    if (screen) return wordsDisagreeWithCounter(read, screen, !!who.reading.exclusive) ? [`the passenger wrote ${words(read)}, the counter shows ${words(screen)}`] : [];
    return RIDER_TYPES.filter((k) => read[k] !== riders[k]).map((k) => `${k}: the passenger wrote ${read[k]}, quoted ${riders[k]}`);
  }
  const group = screen !== null && RIDER_TYPES.reduce((n, k) => n + screen[k], 0) >= 2;
  return who.unsure && !group ? ["the passenger's words do not say for sure who travels, and no count was confirmed on screen"] : [];
}

const words = (r: RiderCounts): string => RIDER_TYPES.filter((k) => r[k] > 0).map((k) => `${r[k]} ${k}`).join(", ") || "no one";
