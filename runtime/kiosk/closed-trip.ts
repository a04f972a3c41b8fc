// A trip to, from or through a closed station, as the screen shows it: never a dead end. Whatever
// policy answered, the kiosk reads the live closures itself (the interlock's reading,
// interlock/service.ts) and, for the trip the answer shows, says in plain words what is closed
// (with the notice's text, its end time and the alternative it names) and offers tappable choices:
// the open stations nearest the closed one by the network's own track, and the stations the notice
// recommends. A tap replaces the closed end, so the next answer prices and sells normally. The
// terminal state is untouched (the bench scores it); this is the kiosk's extension beside it. Pure.
import type { Disruption, KioskEvent } from "../../tools/data/schemas.ts";
import type { SystemData } from "../../tools/data/system.ts";
import type { AssistantState } from "../contract/index.ts";
import type { ClarificationChoice } from "../contract/clarification.ts";
import { answers } from "../language/answers.ts";
import type { PassengerLanguage } from "../language/types.ts";
import type { ClosedTrip } from "./bridge.ts";
import { hopLines, liveClosures, permanentClosures } from "./interlock/service.ts";
import { mentionedStations } from "./interlock/stations.ts";

export interface ClosedTripInput {
  system: SystemData;
  state: AssistantState;
  /** The session's turns (the ends chosen on screen, when the answer shows no route). */
  turns: readonly (readonly KioskEvent[])[];
  disruptions: readonly Disruption[];
  /** Local ISO time of the kiosk ("2026-03-09T14:00"). */
  now: string;
  language: PassengerLanguage | undefined;
  /** A station's name in the passenger's language. */
  stationName: (id: string) => string;
  /** The fare/policy announcement in force (it may announce a station permanently closed). */
  policyText?: string | null;
}

/** What the passenger is told of one closure: the notice's words, its end and its alternative. */
type Notice = Pick<Disruption, "message" | "alternative" | "valid_until">;

/** At most this many nearby open stations are offered (the notice's own suggestions come on top). */
const MAX_NEAREST = 4;

function chosenEnd(turns: ClosedTripInput["turns"], field: "origin" | "destination"): string | undefined {
  let id: string | undefined;
  for (const e of turns.flat()) if (e.type === "station_selected" && e.field === field && e.station_id) id = e.station_id;
  return id;
}

const neighbourMaps = new WeakMap<SystemData, Map<string, { id: string; minutes: number }[]>>();

/** Each station's neighbours along the track, both ways, with the minutes between them (built once per system). */
function trackNeighbours(system: SystemData): Map<string, { id: string; minutes: number }[]> {
  const cached = neighbourMaps.get(system);
  if (cached) return cached;
  const neighbours = new Map<string, { id: string; minutes: number }[]>();
  for (const e of system.edges) {
    for (const [a, b] of [[e.from, e.to], [e.to, e.from]] as const) {
      const list = neighbours.get(a) ?? [];
      list.push({ id: b, minutes: e.travel_time_min });
      neighbours.set(a, list);
    }
  }
  neighbourMaps.set(system, neighbours);
  return neighbours;
}

/**
 * Open stations nearest `from` by the network's track: the adjacent ones first (on any of its
 * lines), then the next ring out, each ring by travel time. Closed stations are passed over (trains
 * may run through them) but never offered; nor is anything in `exclude`.
 */
export function nearestOpenStations(system: SystemData, from: string, closed: ReadonlySet<string>, exclude: ReadonlySet<string>, max = MAX_NEAREST): string[] {
  const neighbours = trackNeighbours(system);
  const seen = new Set([from]);
  let ring = new Map<string, number>([[from, 0]]);
  const out: string[] = [];
  // Widen ring by ring until there is a choice of two, or the cap is reached.
  while (ring.size > 0 && out.length < 2) {
    const next = new Map<string, number>();
    for (const [id, minutes] of ring) {
      for (const n of neighbours.get(id) ?? []) {
        if (seen.has(n.id)) continue;
        const m = minutes + n.minutes;
        if (m < (next.get(n.id) ?? Infinity)) next.set(n.id, m);
      }
    }
    for (const id of next.keys()) seen.add(id);
    const open = [...next].filter(([id]) => !closed.has(id) && !exclude.has(id)).sort((a, b) => a[1] - b[1] || a[0].localeCompare(b[0]));
    for (const [id] of open) if (out.length < max) out.push(id);
    ring = next;
  }
  return out;
}

/**
 * Stations a passenger can ride to from `from`: trains run through a closed station only where
 * the notice says they skip it (`passable`), so a choice across an impassable closure is no choice.
 */
function reachableFrom(system: SystemData, from: string, blocked: (id: string) => boolean): Set<string> {
  const neighbours = trackNeighbours(system);
  const seen = new Set([from]);
  const queue = [from];
  while (queue.length > 0) {
    const id = queue.shift()!;
    if (id !== from && blocked(id)) continue;
    for (const { id: next } of neighbours.get(id) ?? []) {
      if (!seen.has(next)) {
        seen.add(next);
        queue.push(next);
      }
    }
  }
  return seen;
}

/** "20:00" for a time today, "2026-03-10 20:00" for another day. */
function untilText(validUntil: string | null | undefined, now: string): string | undefined {
  if (!validUntil || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(validUntil)) return undefined;
  return validUntil.slice(0, 10) === now.slice(0, 10) ? validUntil.slice(11, 16) : `${validUntil.slice(0, 10)} ${validUntil.slice(11, 16)}`;
}

/** The closed station's trip as the screen explains it, or undefined when the trip touches no closed station. */
export function closedTripOf(input: ClosedTripInput): ClosedTrip | undefined {
  const { system, state } = input;
  const say = answers(input.language);
  const routeStops = (state.route?.stops ?? []).map((s) => s.station_id).filter((id) => system.hasStationId(id));
  const origin = routeStops[0] ?? chosenEnd(input.turns, "origin");
  const destination = routeStops[routeStops.length - 1] ?? chosenEnd(input.turns, "destination");
  if (!origin && !destination) return undefined;
  const shown = input.turns.flat().flatMap((e) => (e.type === "disruption_update" && e.disruption ? [e.disruption as Disruption] : []));
  const disruptions = [...input.disruptions, ...shown];
  const closures = liveClosures(system, disruptions, input.now);
  // Announced as permanently closed (knowledge base, fare announcement): never an end of a trip.
  const permanent = permanentClosures(system, input.policyText ?? null);
  if (closures.stations.size === 0 && permanent.size === 0) return undefined;
  const closed = new Set([...closures.stations.keys(), ...permanent.keys()]);
  const noticeOf = (id: string): Notice | undefined => {
    const why = closures.stations.get(id)?.why;
    const live = disruptions.find((d) => d.station_id === id && d.type === "station_closure") ?? disruptions.find((d) => why !== undefined && (d.id ?? d.type) === why);
    const clause = permanent.get(id);
    // The interlock keeps the clause; the passenger reads the whole sentence ("…; use Clark/Lake").
    const announced = clause
      ? ([...system.policies.map((p) => p.content), input.policyText ?? ""].flatMap((t) => t.split(/(?<=[.!?])\s+/)).find((t) => t.includes(clause.replace(/[;,:]$/, ""))) ?? clause)
      : undefined;
    // The announcement's own sentence names the station to use instead ("use Clark/Lake").
    return live ?? (announced ? { message: announced, alternative: null, valid_until: null } : undefined);
  };
  /** The open stations a notice recommends: those its alternative (else an announcement's sentence) names. */
  const recommended = (notice: Notice | undefined, id: string): string[] => {
    const text = notice?.alternative ?? (permanent.has(id) ? (notice?.message ?? "") : "");
    return text ? mentionedStations(system, text).map((m) => m.stationId) : [];
  };
  const sentence = (t: string): string => (/[.!?。！？]$/.test(t.trim()) ? t.trim() : `${t.trim()}.`);
  const details = (d: Notice | undefined): string[] => [d?.message ? say.operatorNotice(sentence(d.message)) : "", d?.alternative ? say.noticeAlternative(sentence(d.alternative)) : ""].filter(Boolean);
  const choice = (field: "origin" | "destination", id: string, suggested: boolean): ClarificationChoice => {
    const label = say.insteadChoice(field, input.stationName(id));
    return { label: suggested ? say.suggestedInNotice(label) : label, events: [{ type: "station_selected", field, value: system.stationById(id)?.name ?? id, station_id: id }] };
  };
  // Trains run through a permanently closed station as the interlock reads it (only its ends count).
  const impassable = (id: string): boolean => closures.stations.has(id) && !closures.stations.get(id)?.passThrough;
  /**
   * The notice's recommended stations first, then the nearest open ones: never a closed one, nor
   * `keep` (the trip's other end), nor one that cannot be reached from `keep` past the closures.
   */
  const choicesFor = (field: "origin" | "destination", around: string, keep: string | undefined, notice: Notice | undefined): ClarificationChoice[] => {
    const reach = keep ? reachableFrom(system, keep, impassable) : undefined;
    const exclude = new Set([around, ...(keep ? [keep] : []), ...system.stations.map((s) => s.id).filter((id) => reach && !reach.has(id))]);
    const suggested = recommended(notice, around).filter((id) => !closed.has(id) && !exclude.has(id));
    const nearest = nearestOpenStations(system, around, closed, new Set([...exclude, ...suggested]));
    return [...new Set(suggested)].map((id) => choice(field, id, true)).concat(nearest.map((id) => choice(field, id, false))).slice(0, 8);
  };

  // To or from a closed station.
  const end = [origin, destination].find((id): id is string => !!id && closed.has(id));
  if (end) {
    const field = end === origin ? "origin" : "destination";
    const notice = noticeOf(end);
    const choices = choicesFor(field, end, field === "origin" ? destination : origin, notice);
    return {
      kind: "end",
      stations: [end],
      notice: [say.stationClosed(input.stationName(end), untilText(notice?.valid_until, input.now)), ...details(notice)].join(say.gap),
      question: choices.length > 0 ? say.chooseOpenStation : "",
      choices,
    };
  }

  // Through a closed station: trains must run through it without stopping (the notice says they
  // skip it) and the passenger must not change trains there; else this route cannot be travelled.
  const inner = routeStops.slice(1, -1).map((id, i) => ({ id, before: routeStops[i]!, after: routeStops[i + 2]! })).filter((s) => closures.stations.has(s.id));
  if (inner.length === 0) return undefined;
  const changesAt = (s: (typeof inner)[number]): boolean => ![...hopLines(system, s.before, s.id)].some((l) => hopLines(system, s.id, s.after).has(l));
  const blocked = inner.find((s) => !closures.stations.get(s.id)?.passThrough || changesAt(s));
  if (!blocked) {
    return { kind: "pass_through", stations: inner.map((s) => s.id), notice: say.passThrough(inner.map((s) => input.stationName(s.id))), question: "", choices: [] };
  }
  const notice = noticeOf(blocked.id);
  // Ride as far as the closure allows (the open stops before it), or to what the notice suggests.
  const reach = reachableFrom(system, routeStops[0]!, impassable);
  const reachable = routeStops.slice(0, routeStops.indexOf(blocked.id)).reverse().filter((id) => id !== origin && !closed.has(id)).slice(0, 1);
  const suggested = recommended(notice, blocked.id).filter((id) => !closed.has(id) && id !== origin && reach.has(id));
  const choices = [...new Set(suggested)].map((id) => choice("destination", id, true)).concat(reachable.filter((id) => !suggested.includes(id)).map((id) => choice("destination", id, false)));
  return {
    kind: "through",
    stations: [blocked.id],
    notice: [(closures.stations.get(blocked.id)?.passThrough ? say.closedChange : say.closedOnRoute)(input.stationName(blocked.id), untilText(notice?.valid_until, input.now)), ...details(notice)].join(say.gap),
    question: choices.length > 0 ? say.chooseOpenStation : "",
    choices: choices.slice(0, 8),
  };
}
