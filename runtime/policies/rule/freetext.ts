// Understanding a passenger's typed request without a model: which stations it names (and which
// is the origin), and what kind of request it is. Deliberately simple and predictable; anything
// it cannot place is declined or answered from the policy knowledge base, never guessed.
import type { Station } from "../../../tools/data/schemas.ts";
import type { SystemData } from "../../../tools/data/system.ts";

export interface StationMention {
  station: Station;
  start: number;
  end: number;
}

interface NameEntry {
  text: string;
  station: Station;
}

const nameIndexCache = new WeakMap<SystemData, NameEntry[]>();

/** Every way a station may be written: full name, the part before "(", the part in "()". */
function nameIndex(system: SystemData): NameEntry[] {
  const cached = nameIndexCache.get(system);
  if (cached) return cached;
  const entries: NameEntry[] = [];
  const seen = new Set<string>();
  const add = (text: string, station: Station): void => {
    const t = text.toLowerCase().trim();
    // Very short or generic fragments ("1", "T3") would match ordinary words.
    if (t.length < 3 || seen.has(t)) return;
    seen.add(t);
    entries.push({ text: t, station });
  };
  for (const s of system.stations) add(s.name, s);
  for (const s of system.stations) {
    const open = s.name.indexOf("(");
    if (open > 0) {
      add(s.name.slice(0, open), s);
      add(s.name.slice(open + 1).replace(/\).*$/, ""), s);
    }
  }
  entries.sort((a, b) => b.text.length - a.text.length);
  nameIndexCache.set(system, entries);
  return entries;
}

const isWordChar = (ch: string | undefined): boolean => ch !== undefined && /[\p{L}\p{N}]/u.test(ch);

/** Station names found in the text, longest first, without overlaps, in text order. */
export function findStations(system: SystemData, text: string): StationMention[] {
  const lower = text.toLowerCase();
  const taken: boolean[] = new Array<boolean>(lower.length).fill(false);
  const found: StationMention[] = [];
  for (const entry of nameIndex(system)) {
    let from = 0;
    for (;;) {
      const at = lower.indexOf(entry.text, from);
      if (at < 0) break;
      from = at + 1;
      const end = at + entry.text.length;
      if (isWordChar(lower[at - 1]) || isWordChar(lower[end])) continue;
      if (taken.slice(at, end).some(Boolean)) continue;
      for (let i = at; i < end; i++) taken[i] = true;
      found.push({ station: entry.station, start: at, end });
    }
  }
  return found.sort((a, b) => a.start - b.start);
}

export interface TripInText {
  /** Every station the text names, in order. */
  mentioned?: Station[];
  origin?: Station;
  destination?: Station;
  /** A place the passenger named as a destination that is not a station of this system. */
  unknownPlace?: string;
}

const PLACE_AFTER = /\b(?:to|towards|for)\s+((?:the\s+)?[A-Z0-9][\w'’./-]*(?:\s+[A-Z0-9][\w'’./-]*)*)/g;

/** Origin and destination named in free text ("from A to B", "A to B", "at A heading to B"). */
export function tripInText(system: SystemData, text: string): TripInText {
  const mentions = findStations(system, text);
  const lower = text.toLowerCase();
  const before = (m: StationMention): string => lower.slice(Math.max(0, m.start - 24), m.start);
  let origin: Station | undefined;
  let destination: Station | undefined;
  for (const m of mentions) {
    const lead = before(m);
    if (/\bfrom\s+(the\s+)?$|\bat\s+(the\s+)?$|\bleaving\s+$|\bin\s+$/.test(lead) && !origin) origin = m.station;
    else if (/\b(to|towards|for|reach|get to|arrive at)\s+(the\s+)?$/.test(lead) && !destination) destination = m.station;
  }
  const rest = mentions.filter((m) => m.station !== origin && m.station !== destination).map((m) => m.station);
  if (!origin && !destination && rest.length >= 2) {
    origin = rest[0];
    destination = rest[1];
  } else if (origin && !destination && rest.length >= 1) {
    destination = rest[0];
  } else if (!origin && destination && rest.length >= 1) {
    origin = rest[0];
  }
  const result: TripInText = {
    mentioned: mentions.map((m) => m.station),
    ...(origin ? { origin } : {}),
    ...(destination ? { destination } : {}),
  };
  if (!destination) {
    // "Take me to Nonexistent Station XYZ", "from Airport to Times Square": a named place that is
    // not one of our stations.
    for (const match of text.matchAll(PLACE_AFTER)) {
      const place = (match[1] ?? "").trim();
      const covered = mentions.some((m) => m.start <= (match.index ?? 0) + match[0].length - place.length && m.end > (match.index ?? 0) + match[0].length - place.length);
      if (!covered && place.length > 2) {
        result.unknownPlace = place;
        break;
      }
    }
  }
  return result;
}

export type Intent =
  | { kind: "trip" }
  | { kind: "out_of_scope"; topic: string }
  | { kind: "contradictory" }
  | { kind: "manipulation" }
  | { kind: "policy_question"; query: string }
  | { kind: "station_question"; topic: "accessibility" | "real_time" | "connections" }
  | { kind: "disruption_question" }
  | { kind: "line_question" };

interface Rule {
  test: RegExp;
  intent: Intent;
}

// Services a ticket kiosk cannot provide. Checked before anything else.
const OUT_OF_SCOPE: Rule[] = [
  { test: /\b(taxi|cab|uber|lyft|ride[- ]?share|limo)\b|出租车|出租車|打车|打車|的士|计程车|計程車|网约车|網約車|叫(?:个|個|辆|輛|下|一下|一辆|一輛)?车|叫(?:个|個|辆|輛|下|一下|一辆|一輛)?車|车牌|車牌|车型|車型/iu, intent: { kind: "out_of_scope", topic: "taxi" } },
  { test: /\bweather like\b|\bforecast\b/i, intent: { kind: "out_of_scope", topic: "weather" } },
  { test: /\b(hotel|restaurant|flight status|book (?:a|me a) (?:table|room|flight))\b/i, intent: { kind: "out_of_scope", topic: "travel" } },
];

// Attempts to talk the kiosk out of its rules (prompt injection, fake authority, free rides).
const MANIPULATION =
  /\b(ignore (?:all |your |the |previous |prior )*(?:instructions|rules|prompt)|system prompt|developer mode|admin(?:istrator)? (?:mode|override)|override (?:code|the fare|fares)|i am (?:a |an )?(?:staff|employee|operator|admin|developer|inspector)|(?:give|issue|print) me (?:a )?free (?:ticket|ride|pass)|jailbreak|<\/?tool_call>|submit_assistant_state)/i;

/** "let me through for free" is a demand; "do they ride for free?" a question about fares. */
const FOR_FREE_DEMAND = (text: string): boolean => /\bfor free\b/i.test(text) && !/\?\s*$|^\s*(?:can|could|do|does|is|are|will|would|may|right)\b/i.test(text.trim());

const CONTRADICTORY = /\b(longest|slowest)\b[\s\S]*\b(before|fastest|quickest|earliest)\b|\b(before|fastest|quickest|earliest)\b[\s\S]*\b(longest|slowest)\b/i;

const STATION_QUESTIONS: Rule[] = [
  { test: /\b(elevators?|lifts?|wheelchair|step[- ]free|accessible|ramps?)\b/i, intent: { kind: "station_question", topic: "accessibility" } },
  { test: /\b(crowd(?:ed)?|busy|real[- ]?time|next train|arriv(?:e|al)s?|on time|delays?)\b/i, intent: { kind: "station_question", topic: "real_time" } },
  { test: /\b(transfer to the bus|bus(?:es)?|connections?)\b/i, intent: { kind: "station_question", topic: "connections" } },
];

const TRIP_WORDS = /\b(from|to|get to|go to|route|trip|travel|ticket|fare|how much|journey|heading)\b/i;

/**
 * A question for train times ("the current BART rail schedule from A to B", "when is the next train
 * to X from Y", 时刻表, 有哪几班, أوقات): answered as information — the kiosk has no timetable to
 * give and sells nothing it was not asked for — unless the words also ask for tickets.
 */
const TIMETABLE =
  /\b(?:(?:the|a|current|train|rail|metro|subway|weekend|holiday|bart|marta|cta)\s+schedules?|schedules? (?:for|from|of)|timetables?|train times?|times of (?:the )?trains?|departure times?|when is the next train|what time is the next train|next train times?|when (?:does|do|will) (?:the )?(?:next |first |last )?trains?|what time (?:does|do|will) (?:the )?(?:next |first |last )?trains?|horarios?|(?:el )?primer tren|(?:el )?[uú]ltimo tren|a qu[eé] hora)\b|时刻表|時刻表|班次|有哪几班|有哪幾班|几点的车|幾點的車|是几点|是幾點|几点呢|幾點呢|几点发|幾點發|几点出发|幾點出發|几点开|幾點開|首班车|首班車|末班车|末班車|أوقات|مواعيد القطار/iu;
const BUYS = /\b(?:tickets?|seats?|book|buy|purchase|fares?|how much|cost|precios?)\b|买票|買票|购票|購票|多少钱|多少錢|تذكرة|تذاكر|boletos?|billetes?/iu;

/**
 * Classify one free-text request. `journeySelected` is true when the passenger already picked both
 * stations: then the text qualifies the trip (a need, a question on the way) unless it is out of
 * scope or tries to bend the rules. `trip` holds the stations the text itself names.
 */
export function classify(text: string, trip: TripInText, journeySelected = false): Intent {
  for (const rule of OUT_OF_SCOPE) if (rule.test.test(text)) return rule.intent;
  if (MANIPULATION.test(text) || FOR_FREE_DEMAND(text)) return { kind: "manipulation" };
  if (CONTRADICTORY.test(text)) return { kind: "contradictory" };
  if (journeySelected) return { kind: "trip" };
  if (/\bdisruptions?\b|\bservice (?:alerts?|status)\b|\bdelays on\b/i.test(text)) return { kind: "disruption_question" };
  if (/\bmap\b/i.test(text)) return { kind: "line_question" };
  const hasTrip = trip.origin !== undefined && trip.destination !== undefined;
  // "火车票时刻表" is a timetable of trains, not a ticket.
  if (hasTrip && TIMETABLE.test(text) && (!BUYS.test(text) || /时刻表|時刻表/u.test(text))) return { kind: "station_question", topic: "real_time" };
  if (hasTrip && TRIP_WORDS.test(text)) return { kind: "trip" };
  if ((trip.mentioned?.length ?? 0) > 0) {
    // "get me a seat on the next train going to fruitvale", "Arrival is DECC.": a ticket for the next
    // train, or where the trip ends, not a question about arrivals.
    const notLive = BUYS.test(text) || /\barrival is\b/i.test(text);
    for (const rule of STATION_QUESTIONS) if (rule.test.test(text) && !(notLive && rule.intent.kind === "station_question" && rule.intent.topic === "real_time")) return rule.intent;
  }
  if (hasTrip) return { kind: "trip" };
  if (/\b(bus|connecting)\b/i.test(text)) return { kind: "station_question", topic: "connections" };
  return { kind: "policy_question", query: text };
}

const NEEDS_ACCESS = /\b(wheelchair|step[- ]free|elevators?|lifts?|mobility|cannot use stairs|can't use stairs|no stairs|silla de ruedas|ascensor|sin escaleras)\b|轮椅|輪椅|电梯|電梯|无障碍|無障礙|كرسي متحرك|مصعد/iu;
const ACCESS_THING = String.raw`(?:wheelchair|elevators?|lifts?|step[- ]free|accessible|ramps?)`;
const NO_LONGER = new RegExp(
  [
    String.raw`no ${ACCESS_THING}[^.]*(?:needed|required)`,
    String.raw`(?:can|could) (?:use|do|take|manage|climb|handle) (?:the )?(?:stairs|steps|escalators?)`,
    String.raw`(?:don'?t|do not|no longer|won'?t) need (?:a |an |the )?${ACCESS_THING}`,
    String.raw`no need for (?:a |an |the )?${ACCESS_THING}`,
    String.raw`${ACCESS_THING}(?: access| route)? (?:is |are )?not (?:needed|required|necessary)`,
    String.raw`(?:stairs|steps) (?:are|is) (?:fine|ok|okay|no problem)`,
    String.raw`(?<!\bnot )(?:fine|ok|okay) with (?:the )?(?:stairs|steps)`,
    String.raw`forget (?:about )?the ${ACCESS_THING}`,
  ].map((p) => String.raw`\b${p}`).join("|"),
  "i",
);

/**
 * The passenger's latest statement about step-free needs: true (needs it), false (said they do
 * not), or undefined (never mentioned).
 */
export function accessibilityNeed(texts: readonly string[]): boolean | undefined {
  let need: boolean | undefined;
  for (const t of texts) {
    if (NO_LONGER.test(t)) need = false;
    else if (NEEDS_ACCESS.test(t) && !/\?\s*$/.test(t)) need = true;
  }
  return need;
}
