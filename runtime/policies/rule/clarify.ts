// The rule policy's reading of typed text through the passenger-language layer, and the questions
// it asks instead of guessing: which of several stations, where the trip starts, who travels, and
// a confirmation of a trip read from words (the tap turns it into on-screen choices).
import type { KioskEvent, Station } from "../../../tools/data/schemas.ts";
import type { SystemData } from "../../../tools/data/system.ts";
import type { Clarification } from "../../contract/clarification.ts";
import { answers } from "../../language/answers.ts";
import { travelWish } from "../../language/intent.ts";
import { childLimitOf, messages, sessionRiders, understand, wordsDisagreeWithCounter, type ChildLimit, type PassengerLanguage, type RiderCounts, type StationMatch } from "../../language/index.ts";
import type { TripInText } from "./freetext.ts";
import type { Intent } from "./freetext.ts";

export type { Clarification } from "../../contract/clarification.ts";

const SURE = 0.85;
const MAX_CHOICES = 6;
const TRIP_WORDS = /\b(from|to|get to|go to|route|trip|travel|ticket|fare|how much|cost|price|journey|heading|going)\b|到|去|票|多少钱|多少錢|إلى|تذكرة|boleto|cuánto|cuanto|ir a/iu;

export interface TextRequest {
  trip: TripInText;
  riders?: RiderCounts;
  /** The rider statement names the whole party ("just me"). */
  ridersExclusive?: boolean;
  /**
   * The words speak of who travels but no sure reading came of them ("me and my mum", "a mom, a
   * dad and twins of 3"): ask, offering the unsure reading, if any, beside the counter.
   */
  ridersUnsure?: { reading?: RiderCounts };
  language?: PassengerLanguage;
  /** The words want a trip but name one end or none: the question for the missing end, if so. */
  missingEnd(originName: string | undefined, hasDestination: boolean): Clarification | undefined;
  /** A question to ask before anything else (ambiguous, unsure or missing station), if any. */
  /** `originName`: the start, chosen or read, as the passenger's screen names it. */
  question(intent: Intent["kind"], hasOrigin: boolean, hasDestination: boolean, originName?: string): Clarification | undefined;
  /** A confirmation to show with a trip the passenger typed rather than chose on screen. */
  /** `names`: the ends as the passenger's screen names them (else the pack's names). */
  confirm(
    origin: Station,
    destination: Station,
    riders: RiderCounts,
    onScreen: { origin: boolean; destination: boolean; riders: boolean },
    ridersText: string,
    names?: { origin: string; destination: string },
  ): Clarification | undefined;
}

function stationEvent(system: SystemData, field: "origin" | "destination", id: string): KioskEvent {
  return { type: "station_selected", field, value: system.stationById(id)?.name ?? id, station_id: id };
}

const sure = (m: StationMatch | undefined): boolean => !!m && m.candidates.length === 1 && m.confidence >= SURE;

export function readTextRequest(system: SystemData, texts: readonly string[], selected: { origin: boolean; destination: boolean; originId?: string; destinationId?: string }): TextRequest {
  const text = texts.join(" ");
  if (!text) return { trip: {}, missingEnd: () => undefined, question: () => undefined, confirm: () => undefined };
  const u = understand(system, text);
  const who = sessionRiders(system, texts);
  const { origin: om, destination: dm } = u.trip;
  const stationOf = (m: StationMatch | undefined): Station | undefined => (sure(m) ? system.stationById(m!.candidates[0]!) : undefined);
  const trip: TripInText = { mentioned: u.trip.mentions.flatMap((m) => (m.candidates.length === 1 ? [system.stationById(m.candidates[0]!)!] : [])) };
  const o = stationOf(om);
  const d = stationOf(dm);
  if (o) trip.origin = o;
  if (d) trip.destination = d;
  // A station's name alone ("cermak/chinatown") once the other end is chosen on screen: the end not chosen.
  // (Not the station chosen: "Tucheng for 3 people" with Tucheng tapped as the start still lacks an end.)
  const lone = !om && !dm && u.trip.mentions.length === 1 ? stationOf(u.trip.mentions[0]) : undefined;
  if (lone && selected.origin && !selected.destination && lone.id !== selected.originId) trip.destination = lone;
  if (lone && selected.destination && !selected.origin && lone.id !== selected.destinationId) trip.origin = lone;
  if (u.unknownPlace) trip.unknownPlace = u.unknownPlace;
  const say = messages(u.language);
  const ask = (field: "origin" | "destination", m: StationMatch): Clarification => {
    const ids = m.candidates.slice(0, MAX_CHOICES);
    const names = ids.map((id) => system.stationById(id)?.name ?? id);
    return { kind: "station", question: say.whichStation(field, names), choices: ids.map((id, i) => ({ label: names[i]!, events: [stationEvent(system, field, id)] })) };
  };
  const wish = travelWish(text, u.trip.mentions.map((m) => m.words), who.sure, u.trip.cued === true);
  /** Where the words want a trip and name one end or none ("I need 3 tickets", "leaving from X"): ask for the missing end. */
  const missingEnd = (originName: string | undefined, hasDestination: boolean): Clarification | undefined => {
    if (!wish.travels || u.unknownPlace || hasDestination) return undefined;
    return originName === undefined ? { kind: "origin", question: say.whereFrom(), choices: [], select: "origin" } : { kind: "destination", question: say.whereTo(originName), choices: [], select: "destination" };
  };
  return {
    trip,
    ...(who.sure && who.reading ? { riders: who.reading.riders, ridersExclusive: !!who.reading.exclusive } : {}),
    ...(who.unsure ? { ridersUnsure: who.reading ? { reading: who.reading.riders } : {} } : {}),
    ...(u.language ? { language: u.language } : {}),
    missingEnd,
    question(intent, hasOrigin, hasDestination, originName) {
      if (intent === "out_of_scope" || intent === "manipulation" || intent === "contradictory") return undefined;
      // Two stations named with no word to say which is the start: the start is asked, with both as
      // choices (the other is the end).
      if (u.trip.orderUnsure && om && dm && !selected.origin && !selected.destination && om.candidates.length === 1 && dm.candidates.length === 1) {
        const ids = [om.candidates[0]!, dm.candidates[0]!];
        const names = ids.map((id) => system.stationById(id)?.name ?? id);
        return { kind: "station", question: say.whichStation("origin", names), choices: ids.map((id, i) => ({ label: names[i]!, events: [stationEvent(system, "origin", id), stationEvent(system, "destination", ids[1 - i]!)] })) };
      }
      // A station the text names but cannot pin down (several candidates, or a near spelling).
      if (!selected.origin && om && !sure(om)) return ask("origin", om);
      if (!selected.destination && dm && !sure(dm) && !(intent !== "trip" && !hasOrigin)) return ask("destination", dm);
      if (intent !== "trip" && intent !== "policy_question") return undefined;
      // A trip or fare request with a destination and no start: ask where from.
      if (hasDestination && !hasOrigin && !selected.origin && dm && (TRIP_WORDS.test(text) || wish.travels)) {
        const name = system.stationById(dm.candidates[0]!)?.name ?? dm.words;
        return { kind: "origin", question: say.startFrom(name), choices: [], select: "origin" };
      }
      // Words about nothing but the trip: ask for the missing end at once. Others ("…with my bike")
      // are asked only when no knowledge-base article answers them (missingEnd, from the policy).
      if (!wish.only || (hasOrigin && originName === undefined)) return undefined;
      return missingEnd(originName, hasDestination);
    },
    confirm(originStation, destinationStation, riders, onScreen, ridersText, names) {
      const fromWords = (!onScreen.origin && om?.kind !== "name") || (!onScreen.destination && dm?.kind !== "name");
      if (!fromWords || (onScreen.origin && onScreen.destination)) return undefined;
      const events: KioskEvent[] = [stationEvent(system, "origin", originStation.id), stationEvent(system, "destination", destinationStation.id)];
      if (!onScreen.riders) events.push({ type: "passenger_count_changed", ...riders });
      const label = say.confirmTrip(names?.origin ?? originStation.name, names?.destination ?? destinationStation.name, ridersText);
      return { kind: "confirm", question: label, choices: [{ label, events }] };
    },
  };
}

/** Who travels, for the question and its buttons: the benchmark-era English, else the passenger's language. */
const ONE_RIDER = { adults: "adult", children: "child", seniors: "senior", disabled: "disabled" } as const;
const riderWords = (r: RiderCounts, language: PassengerLanguage | undefined = undefined): string =>
  language && language !== "en"
    ? answers(language).riders(r)
    : (["adults", "children", "seniors", "disabled"] as const)
        .filter((k) => r[k] > 0)
        .map((k) => `${r[k]} ${r[k] === 1 ? ONE_RIDER[k] : k}`)
        .join(", ") || "no passengers";

/**
 * Who travels could not be read for sure: buttons for the unsure reading and what the counter
 * shows (each once, if any), and the counter itself.
 */
/** The fare table's free-child rule as a sentence can state it (none where children pay a fare). */
export function freeChildLimit(system: SystemData): ChildLimit | undefined {
  const children = system.fares.discounts?.children;
  return children && children.fare === 0 ? childLimitOf(children.qualifier) : undefined;
}

/** The question, with who rides free as a child where children are in it (a parent cannot know the band otherwise). */
function withChildBand(question: string, children: boolean, childLimit: ChildLimit | undefined, language: PassengerLanguage | undefined): string {
  return children && childLimit ? `${question} ${messages(language).childBand(childLimit)}` : question;
}

export function ridersQuestion(reading: RiderCounts | undefined, counter: RiderCounts | undefined, language: PassengerLanguage | undefined, childLimit?: ChildLimit): Clarification {
  const say = messages(language);
  const keys = ["adults", "children", "seniors", "disabled"] as const;
  const offered: Clarification["choices"] = [];
  for (const r of [reading, counter]) {
    if (!r || !keys.some((k) => r[k] > 0)) continue;
    if (offered.some((c) => c.events.some((e) => e.type === "passenger_count_changed" && keys.every((k) => (e[k] ?? 0) === r[k])))) continue;
    offered.push({ label: riderWords(r, language), events: [{ type: "passenger_count_changed", ...r }] });
  }
  const children = (reading?.children ?? 0) > 0 || (counter?.children ?? 0) > 0;
  return { kind: "riders", question: withChildBand(say.whoTravelsUnsure(), children, childLimit, language), choices: offered, select: "riders" };
}

/** The counter and the typed words disagree about who travels: ask which is right. */
export function ridersConflict(screen: RiderCounts, typed: RiderCounts, exclusive: boolean, language: PassengerLanguage | undefined, childLimit?: ChildLimit): Clarification | undefined {
  if (!wordsDisagreeWithCounter(typed, screen, exclusive)) return undefined;
  const say = messages(language);
  return {
    kind: "riders",
    question: withChildBand(say.whoTravels(riderWords(screen, language), riderWords(typed, language)), screen.children + typed.children > 0, childLimit, language),
    choices: [
      { label: riderWords(screen, language), events: [{ type: "passenger_count_changed", ...screen }] },
      { label: riderWords(typed, language), events: [{ type: "passenger_count_changed", ...typed }] },
    ],
  };
}
