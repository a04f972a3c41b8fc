// The passenger-language layer: what a typed request means — which stations (with confidence and
// candidates), who travels, which language — for the rule policy and the hybrid router. Pure
// domain code: no Node I/O (the host loads local names and registers them).
import type { SystemData } from "../../tools/data/system.ts";
import { lexiconFor } from "./lexicon.ts";
import { freeChildAge, MAX_READ_CHARS, mentionsTravellers, readRiders, type RiderReading } from "./riders.ts";
import { detectLanguage } from "./text.ts";
import { readTrip, type TripReading } from "./trip.ts";
import type { PassengerLanguage, RiderCounts, StationMatch } from "./types.ts";

export { lexiconFor, registerLanguageData, hasLanguageData, StationLexicon } from "./lexicon.ts";
export { detectLanguage, fold } from "./text.ts";
export { readRiders, freeChildAge, mentionsTravellers, statedAges } from "./riders.ts";
export { readTrip } from "./trip.ts";
export { childLimitOf, messages, type ChildLimit, type Messages } from "./messages.ts";
export type { LanguageData, PassengerLanguage, RiderCounts, StationMatch } from "./types.ts";

/** A station reading the kiosk may act on without asking: one candidate, confident enough. */
export const SURE = 0.85;

export interface Understanding {
  trip: TripReading;
  riders?: RiderReading;
  language?: PassengerLanguage;
  /** Words that look like a place the passenger wants but match no station. */
  unknownPlace?: string;
}

const PLACE_AFTER = /\b(?:to|towards|for|a|hasta|para)\s+((?:the\s+)?[A-Z0-9][\w'’./-]*(?:\s+[A-Z0-9][\w'’./-]*)*)/gu;
/** 到/去/往 and the Chinese words after them ("从北京南站到纽约时代广场"): a destination named in Chinese. */
/** (Not a verb or particle: "去买票", "到了", "往哪里".) */
const PLACE_AFTER_ZH = /(?:到|去|往|至)(?![买買坐乘搭换換哪那了的这這看上下办辦问問找])([\p{Script=Han}]{3,})/gu;

/** "Search for the Train from …": a word for the ride itself, not a place the kiosk does not serve. */
const TRANSPORT_WORDS = /^(?:the\s+)?(?:next\s+|first\s+|last\s+)?(?:trains?|tickets?|metro|subway|rides?|trips?|journeys?)$/iu;

/** Read a passenger's typed request against a system's names and rider rules. */
export function understand(system: SystemData, whole: string): Understanding {
  const text = whole.slice(0, MAX_READ_CHARS);
  const lexicon = lexiconFor(system);
  const mentions = lexicon.find(text);
  const trip = readTrip(text, mentions);
  const out: Understanding = { trip };
  const riders = readRiders(text, freeChildAge(system.fares.discounts?.children?.qualifier));
  if (riders) out.riders = riders;
  const language = detectLanguage(text);
  if (language) out.language = language;
  if (!trip.destination) {
    for (const m of [...text.matchAll(PLACE_AFTER), ...text.matchAll(PLACE_AFTER_ZH)]) {
      const place = (m[1] ?? "").trim();
      const at = (m.index ?? 0) + m[0].length - place.length;
      // A station named inside the place's words ("北京东城的雍和宫") covers it too.
      const covered = mentions.some((x) => (x.start <= at && x.end > at) || (x.start >= at && x.start < at + place.length));
      if (!covered && place.length > 2 && !lexicon.isLineWord(place.toLowerCase()) && !TRANSPORT_WORDS.test(place)) {
        out.unknownPlace = place;
        break;
      }
    }
  }
  return out;
}

/** A rider reading the kiosk may quote from without asking. */
export const SURE_RIDERS = 0.6;
/** Words that make a statement of riders the whole party ("just 2 adults"). */
const EXCLUSIVE = /\b(just|only|alone|by myself|solo)\b|只有|仅|僅|فقط|solo|sólo/iu;

export interface SessionRiders {
  /** The latest reading of who travels, if any text says. */
  reading?: RiderReading;
  /** Sure enough to quote from. */
  sure: boolean;
  /** Said, but not surely read (or companions named that could not be): the passenger is asked. */
  unsure: boolean;
}

/**
 * Who travels, from a session's texts in order — the latest text that says so wins ("3 adults" …
 * "no wait, just 1"). The one reading the policy answers with and the purchase interlock checks
 * an answer against.
 */
export function sessionRiders(system: SystemData, texts: readonly string[]): SessionRiders {
  const childAge = freeChildAge(system.fares.discounts?.children?.qualifier);
  let reading: RiderReading | undefined;
  for (const t of texts) {
    const r = readRiders(t, childAge);
    if (r) reading = { ...r, exclusive: EXCLUSIVE.test(t) };
  }
  // Said across texts only ("two adults" split over turns): the texts read as one.
  if (!reading && texts.length > 1) reading = readRiders(texts.join(" "), childAge);
  const sure = !!reading && reading.confidence >= SURE_RIDERS;
  const unsure = !sure && (reading !== undefined || texts.some(mentionsTravellers));
  return { ...(reading ? { reading } : {}), sure, unsure };
}

/**
 * Counts set on screen before the words, and the words' sure reading: do they disagree? A partial
 * mention ("my child is 4") agrees with a counter that has at least those riders; words that name
 * the whole party ("just 2 adults") must match its size.
 */
export function wordsDisagreeWithCounter(typed: RiderCounts, screen: RiderCounts, exclusive: boolean): boolean {
  const keys = ["adults", "children", "seniors", "disabled"] as const;
  const total = (r: RiderCounts): number => keys.reduce((n, k) => n + r[k], 0);
  if (total(typed) === 0) return false;
  return keys.some((k) => typed[k] > screen[k]) || (exclusive && total(typed) !== total(screen));
}

/** The single station a match stands for when it is unambiguous and sure enough. */
export function sureStation(match: StationMatch | undefined): string | undefined {
  return match && match.candidates.length === 1 && match.confidence >= SURE ? match.candidates[0] : undefined;
}
