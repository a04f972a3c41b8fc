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
}

// Cues right before a name.
const ORIGIN_BEFORE =
  /(?:\bfrom|\bat|\bleaving|\bstarting(?: (?:at|from))?|\bcoming from|\bi'?m (?:at|in)|\bi am (?:at|in)|\bstuck at|\bdeparting(?: from)?|\bout of|\bdesde(?: el| la)?|\bde(?:l| la| el)?|\bsalgo de|从|從|由|自|在)\s*(?:the\s+)?$/iu;
const DEST_BEFORE =
  /(?:\bto|\btowards|\bfor|\breach|\bget to|\bgo to|\bheading(?: to)?|\bhead to|\barrive (?:at|in)|\barriving (?:at|in)|\bbe (?:in|at)|\bgoing to|\binto|\bvisit|\bhasta(?: el| la)?|\ba(?:l| la)?|\bpara(?: el| la)?|\bdao|到|去|往|至|前往|搭到|->|>|→|=>)\s*(?:the\s+)?$/iu;
// Cues right after a name: "Powell St from Fremont" (the first is the destination).
const FROM_AFTER = /^\s*[,.]?\s*(?:-\s*)?(?:coming\s+)?from\b/iu;
const TO_AFTER = /^\s*(?:to|->|>|→|=>|-|dao|到|去|往)\s*/iu;
const ROUND_TRIP = /\b(round[- ]?trip|return(?: ticket| trip| journey)?|and back|there and back|ida y vuelta)\b|往返|來回|来回|ذهاب وعودة/iu;

const ARABIC_FROM = /(?:^|\s)من\s*$/u;
const ARABIC_TO = /(?:^|\s)(?:الي|إلى|الى|ل)\s*$/u;

function before(text: string, m: StationMatch): string {
  return text.slice(Math.max(0, m.start - 28), m.start);
}

export function readTrip(text: string, mentions: readonly StationMatch[]): TripReading {
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
    if (DEST_BEFORE.test(lead)) roles.set(m, "destination");
    else if (ORIGIN_BEFORE.test(lead)) roles.set(m, "origin");
  }
  // "X to Y": a mention followed by a "to" cue is the origin when the next mention follows it.
  for (let i = 0; i + 1 < mentions.length; i++) {
    const a = mentions[i]!;
    const b = mentions[i + 1]!;
    if (roles.has(a) && roles.get(a) !== "destination") continue;
    const between = text.slice(a.end, b.start);
    if (!roles.has(a) && TO_AFTER.test(between) && between.length < 12) roles.set(a, "origin");
    if (FROM_AFTER.test(between) && !roles.has(a)) {
      roles.set(a, "destination");
      roles.set(b, "origin");
    }
  }
  let origin = [...roles].find(([, r]) => r === "origin")?.[0];
  let destination = [...roles].find(([, r]) => r === "destination")?.[0];
  if (origin && destination && origin === destination) destination = undefined;
  const rest = mentions.filter((m) => m !== origin && m !== destination && !roles.has(m));
  if (!origin && !destination && rest.length >= 2) {
    origin = rest[0];
    destination = rest[1];
  } else if (origin && !destination && rest.length >= 1) destination = rest.find((m) => m.start > origin!.start) ?? rest[0];
  else if (!origin && destination && rest.length >= 1) origin = rest[0];
  if (origin) reading.origin = origin;
  if (destination) reading.destination = destination;
  return reading;
}
