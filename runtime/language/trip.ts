// Trip grammar: which named station is the origin and which the destination, in any order and
// phrasing ("X to Y", "to Y from X", "I'm at X heading to Y", "arrive at Y from X", 从X到Y,
// من X إلى Y, "de X a Y"), plus round trips. Pure.
import { foldArabic, hasArabic } from "./text.ts";
import type { StationMatch } from "./types.ts";

export type Role = "origin" | "destination";

export interface TripReading {
  origin?: StationMatch;
  destination?: StationMatch;
  /** Every mention, in text order (roles or not). */
  mentions: StationMatch[];
  /** The passenger asked for a return journey too. */
  roundTrip: boolean;
  /** Two stations are named with no word to say which is the start: the order is the passenger's to say. */
  orderUnsure?: boolean;
  /** A word right before or after a name says it is where the trip starts or ends ("from X", "para X", "X怎么走"). */
  cued?: boolean;
}

// Cues right before a name.
const ORIGIN_BEFORE =
  /(?:\bfrom|\bfro\b|\bat|\bleaving|\bstarting(?: out)?(?: (?:at|from|in))?|\bstart(?: out)? (?:at|from|in)|\bmov(?:e|ing) from|\bcutting out from|\bcoming from|\bi'?m (?:at|in)|\bi am (?:at|in)|\bstuck at|\bdeparting(?: from)?|\bout of|\bdesde(?: el| la)?|\bde(?:l| la| el)?|\bsalgo de|从|從|由|自|在)\s*(?:the\s+)?$/iu;
const DEST_BEFORE =
  /(?:\bto|\btowards|\bfor|\breach|\bget to|\bgo to|\bheading(?: to)?|\bhead to|\barrive (?:at|in)|\barriving (?:at|in)|\bbe (?:in|at)|\bgoing to|\bend up (?:in|at)|\binto|\bvisit(?:ing)?|\bhasta(?: el| la)?|\ba(?:l| la)?|\bpara(?: el| la)?|\bdao|到|去|往|至|前往|搭到|->|>|→|=>)\s*(?:the\s+)?$/iu;
/** Cues that say a trip's end outright ("from X", "para X", "end up in X", "I'm visiting X"), unlike "at X" ("the weather at X"). */
const STRONG_CUE = /(?:\bfrom|\bdesde|\bpara|\bto|\btowards|\bhasta|\bgoing to|\bheading(?: to)?|\bend up (?:in|at)|\b(?:i'?m|i am|we'?re|we are) visiting|从|從|到|去|往|前往)\s*(?:the\s+)?$/iu;
/** Spanish "(punto de) salida a/de/en X": X is where the trip starts. */
const SALIDA_BEFORE = /\bsalida (?:a|de|en|desde)(?: el| la)?\s*$/iu;
// Cues right after a name: "Powell St from Fremont" (the first is the destination).
const FROM_AFTER = /^\s*[,.]?\s*(?:-\s*)?(?:coming\s+)?from\b/iu;
const TO_AFTER = /^\s*(?:to|->|>|→|=>|-|dao|到|去|往)\s*/iu;
/** "X怎么走" (how do I get to X): X is where the trip ends ("X怎么去Y" is from X to Y). */
const HOW_TO_GET_AFTER = /^\s*站?\s*(?:怎么走|怎麼走|(?:怎么去|怎麼去)\s*(?:[？?。！!]|$))/u;
const ROUND_TRIP = /\b(round[- ]?trip|return(?: ticket| trip| journey)?|and back|there and back|ida y vuelta)\b|往返|來回|来回|ذهاب وعودة/iu;

const ARABIC_FROM = /(?:^|\s)من\s*$/u;
const ARABIC_TO = /(?:^|\s)(?:الي|إلى|الى|ل)\s*$/u;

/** The words before a name, less a city written before it ("去新北板桥", "从台北松山"): the cue is before the city. */
function before(text: string, m: StationMatch): string {
  return text.slice(Math.max(0, m.start - 28), m.start).replace(/(?:新北|台北|臺北|北京|上海)市?$/u, "");
}

/** Words that take a station back: "not from X", "instead of X", "rather than X", "en vez de X". */
const NEGATED_BEFORE = /(?:\bnot(?:\s+(?:from|to|at|going to|leaving|heading to))?|\binstead of|\brather than|\bno longer(?:\s+(?:from|to))?|\ben (?:vez|lugar) de(?:l| la| el)?|不是|而不是|不去)\s*(?:the\s+)?$/iu;
/** Where a message corrects itself: the trip it states after the last one wins. */
const CORRECTION = /\b(?:no,? wait|wait|actually|sorry|i mean|i meant|make (?:it|that)|correction|scratch that|perd[oó]n|mejor dicho)\b|\bno\s*[,.;:!—–-]|不对|不對|其实|其實/giu;
/** A station a correction names without saying which end: read, but not sure enough to act on without asking. */
const UNROLED_CORRECTION = 0.6;

/**
 * The trip a message names. A station taken back ("not from X", "instead of X") is no mention; after
 * a correction ("…, no wait, to Y", "Sorry, I meant Y") the ends it states replace the earlier ones
 * and the replaced stations are no longer mentions; "B <- A" runs from A.
 */
export function readTrip(text: string, mentions: readonly StationMatch[]): TripReading {
  // A station taken back anywhere is not wanted at all ("From A to B, not from A but from C").
  const negated = new Set(mentions.filter((m) => NEGATED_BEFORE.test(before(text, m))).flatMap((m) => m.candidates));
  const kept = mentions.filter((m) => !m.candidates.some((id) => negated.has(id)));
  const firstEnd = kept[0]?.end ?? Infinity;
  const markers = [...text.matchAll(CORRECTION)].map((m) => m.index ?? 0).filter((at) => at >= firstEnd);
  const cut = markers.at(-1);
  const tail = cut === undefined ? [] : kept.filter((m) => m.start > cut);
  if (cut === undefined || tail.length === 0) return readRoles(text, kept);
  const head = readRoles(text, kept.filter((m) => m.start < cut));
  const fix = readRoles(text, tail);
  // A station named after the correction with no "from"/"to": most likely the new end, but asked.
  const loose = !fix.origin && !fix.destination && tail.length === 1 ? { ...tail[0]!, confidence: Math.min(tail[0]!.confidence, UNROLED_CORRECTION) } : undefined;
  const origin = fix.origin ?? head.origin;
  const destination = fix.destination ?? loose ?? head.destination;
  const reading: TripReading = { mentions: [...new Set([origin, destination, ...tail].filter((m): m is StationMatch => m !== undefined))].sort((a, b) => a.start - b.start), roundTrip: ROUND_TRIP.test(text) };
  if (origin) reading.origin = origin;
  if (destination && destination !== origin) reading.destination = destination;
  return reading;
}

function readRoles(text: string, given: readonly StationMatch[]): TripReading {
  // One station named twice ("مكتبه قطر الوطنيه مكتبه قطر الوطنيه", "到台北101…") is one end, not
  // a trip from it to itself: its first mention stands, with the cue it has.
  // ("Five Points to Five Points" says both ends: kept, and refused as the same station.)
  const repeats = (earlier: StationMatch, m: StationMatch): boolean => {
    const between = text.slice(earlier.end, m.start);
    return sameStation(earlier, m) && !TO_AFTER.test(between) && !FROM_AFTER.test(between) && !DEST_BEFORE.test(before(text, m)) && !ORIGIN_BEFORE.test(before(text, m));
  };
  const mentions = given.filter((m, i) => !given.slice(0, i).some((earlier) => repeats(earlier, m)));
  const reading: TripReading = { mentions: [...mentions], roundTrip: ROUND_TRIP.test(text) };
  const arabicText = hasArabic(text) ? ` ${foldArabic(text)} ` : "";
  const roles = new Map<StationMatch, Role>();
  for (const m of mentions) {
    const lead = m.kind !== "name" && hasArabic(m.words) ? arabicText.slice(Math.max(0, m.start - 12), m.start) : before(text, m);
    if (hasArabic(m.words)) {
      if (ARABIC_FROM.test(lead)) roles.set(m, "origin");
      else if (ARABIC_TO.test(lead)) roles.set(m, "destination");
      continue;
    }
    // "con punto de salida a Midtown y llegada a Airport": the departure point, though "a" precedes it.
    if (SALIDA_BEFORE.test(lead)) roles.set(m, "origin");
    // "松山机场怎么走", "清河站怎么走": how to get there.
    else if (HOW_TO_GET_AFTER.test(text.slice(m.end))) roles.set(m, "destination");
    else if (DEST_BEFORE.test(lead)) roles.set(m, "destination");
    else if (ORIGIN_BEFORE.test(lead)) roles.set(m, "origin");
  }
  // "X to Y": a mention followed by a "to" cue is the origin when the next mention follows it.
  for (let i = 0; i + 1 < mentions.length; i++) {
    const a = mentions[i]!;
    const b = mentions[i + 1]!;
    if (roles.has(a) && roles.get(a) !== "destination") continue;
    const between = text.slice(a.end, b.start);
    // "Airport <- Five Points": from the second.
    if (!roles.has(a) && !roles.has(b) && /^\s*(?:<-|←|<=)\s*$/u.test(between)) {
      roles.set(a, "destination");
      roles.set(b, "origin");
      continue;
    }
    if (!roles.has(a) && TO_AFTER.test(between) && between.length < 12) roles.set(a, "origin");
    if (FROM_AFTER.test(between) && !roles.has(a)) {
      roles.set(a, "destination");
      roles.set(b, "origin");
    }
  }
  if (mentions.some((m) => roles.has(m) && STRONG_CUE.test(before(text, m)))) reading.cued = true;
  let origin = [...roles].find(([, r]) => r === "origin")?.[0];
  let destination = [...roles].find(([, r]) => r === "destination")?.[0];
  if (origin && destination && origin === destination) destination = undefined;
  const rest = mentions.filter((m) => m !== origin && m !== destination && !roles.has(m));
  if (!origin && !destination && rest.length >= 2) {
    origin = rest[0];
    destination = rest[1];
    // "أربعه السد البدع آ البدع السد": the same two stations named again the other way round, with
    // no word to say which ends: the order is the passenger's to say.
    if (namedBothWays(given)) {
      origin = { ...origin!, confidence: Math.min(origin!.confidence, UNROLED_CORRECTION) };
      destination = { ...destination!, confidence: Math.min(destination!.confidence, UNROLED_CORRECTION) };
      reading.orderUnsure = true;
    }
  } else if (origin && !destination && rest.length >= 1) destination = rest.find((m) => m.start > origin!.start) ?? rest[0];
  else if (!origin && destination && rest.length >= 1) {
    origin = rest[0];
    // "para Balboa Park 16th St Mission": a name right after the destination's, with no word between,
    // may as well be where the trip ends: the order is the passenger's to say.
    if (origin!.start > destination.end && /^\s*$/u.test(text.slice(destination.end, origin!.start))) {
      origin = { ...origin!, confidence: Math.min(origin!.confidence, UNROLED_CORRECTION) };
      destination = { ...destination, confidence: Math.min(destination.confidence, UNROLED_CORRECTION) };
      reading.orderUnsure = true;
    }
  }
  if (origin) reading.origin = origin;
  if (destination) reading.destination = destination;
  return reading;
}

/** Bare mentions that name two stations, and name them later in the other order (A … B … B … A). */
function namedBothWays(mentions: readonly StationMatch[]): boolean {
  const ids = mentions.map((m) => m.candidates.join("|"));
  const distinct = [...new Set(ids)];
  if (distinct.length !== 2) return false;
  const [a, b] = distinct as [string, string];
  return ids.lastIndexOf(a) > ids.lastIndexOf(b);
}

/** Two mentions that name the same station(s). */
function sameStation(a: StationMatch, b: StationMatch): boolean {
  return a.candidates.length === b.candidates.length && a.candidates.every((id) => b.candidates.includes(id));
}
