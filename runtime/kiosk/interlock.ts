// The purchase safety interlock: whatever policy or model answered, a terminal state may enable
// the purchase button only when the kiosk itself confirms the facts. It imports nothing from any
// policy (runtime/policies/**): it reads the passenger's words with the language layer's one reader
// (runtime/language: stations, riders — interlock/stations.ts, interlock/riders.ts), so it reads
// them as the kiosk does, and trusts no policy's or model's answer; everything else comes from what
// the kiosk knows for certain. It blocks unless:
//   1. the route's stops are stations of this system forming a real path in the graph (every
//      consecutive pair joined by track, stated lines consistent with it), from the route's origin
//      to its destination;
//   2. each end is the station chosen on screen for it or, when none was chosen, a station the
//      passenger named unambiguously in their own words (not reversed, not the same station);
//   3. there is service: inside the framebook's service hours (else only on its 24-hour lines), no
//      live disruption closing a station, line or track of the trip or suspending the system, no
//      permanently closed end station, and — when the passenger needs step-free access (on-screen
//      mode, or their words) — lifts and step-free access at every stop (interlock/service.ts);
//   4. the rider mix is a real group, matches the on-screen counts, and is what the passenger's
//      words say (a sure reading; an unsure one blocks until the counts are confirmed on screen);
//   5. the quote is in the framebook's currency, equals (within a cent) what fare_calculator
//      gives for that route, rider mix and payment method under the active fare policies
//      (recomputed in a fresh ToolSession, never the policy's own tool results), and is within
//      bounds: 0 ≤ total ≤ the framebook's maximum, 0 only where an active fare rule makes the
//      trip free (tools/fares/bounds.ts).
// Problems are "code: detail" strings whose codes (INTERLOCK_CODES, runtime/kiosk/bridge.ts) the
// screen explains and the operator log records. Pure (tools/ only, plus its own readers).
import { stepFreeProblem } from "../../tools/data/accessibility.ts";
import type { Disruption, KioskEvent } from "../../tools/data/schemas.ts";
import type { SystemData } from "../../tools/data/system.ts";
import { freeByRule, MAX_RIDERS_PER_SALE, totalOutOfBounds } from "../../tools/fares/bounds.ts";
import { adjustQuote, unpriceableFareAnnouncement, type PricedItem } from "../../tools/fares/policy-change.ts";
import { stationsUsed } from "../../tools/network/index.ts";
import { ToolSession } from "../../tools/tools/index.ts";
import type { AssistantState } from "../contract/index.ts";
import type { ToolCallRecord } from "../session/policy.ts";
import type { InterlockCode } from "./bridge.ts";
import { needsStepFree, stepFreeStatement } from "./interlock/access.ts";
import { riderWordProblems } from "./interlock/riders.ts";
import { allNightLines, clockDay, hopLines, linesNamedIn, liveClosures, pairKey, permanentClosures, serviceHours, usualClose, type LocalTime } from "./interlock/service.ts";
import { mentionedStations, type StationNames } from "./interlock/stations.ts";
import { sureStation, understand, type StationMatch } from "../language/index.ts";
import { endedEarlyAt, exceptedWords, ridesSkipWay, runsOutsideUsualHoursAt } from "../language/notices.ts";
import { announcementInForce, disruptionInForceTonight } from "../language/when.ts";
import { farePricing, offerAnswer } from "../language/offers.ts";
import { quoteWithEffect, type FareEffect } from "../../tools/fares/fare-effect.ts";

export const FARE_TOLERANCE = 0.01;
export { MAX_RIDERS_PER_SALE };
export type { LocalTime };

export interface RiderMix {
  adults: number;
  children: number;
  seniors: number;
  disabled: number;
}

export interface InterlockInput {
  system: SystemData;
  state: AssistantState;
  /** Every user turn of the passenger session so far (the on-screen choices). */
  turns: readonly (readonly KioskEvent[])[];
  /** The live disruptions the session ran under (the planner honours none by itself; kept for replays). */
  disruptions: readonly Disruption[];
  /** The policy's tool calls: its route_planner arguments are replayed to price the same route. */
  toolCalls: readonly ToolCallRecord[];
  /** Payment method to price with; default: the passenger's choice, the policy's, or the system's first. */
  paymentMethod?: string;
  /** The fare policy announcement the session ran under (its context's policy_change text), if any. */
  policyText?: string | null;
  /** The kiosk's local time (service hours and the validity of disruptions are judged at it). */
  now: LocalTime;
  /** The passenger asked for step-free access on screen. */
  accessibilityMode?: boolean;
  /** Local-language station names (the screen's), so "从西单到国贸" names its stations. */
  stationNames?: StationNames;
}

export interface InterlockVerdict {
  /** The state offers a purchase (route_and_fare_ready + prompt_purchase). */
  offered: boolean;
  /** Offered and every check passed. */
  ok: boolean;
  /** Machine-readable problems, "code: detail", e.g. "fare_mismatch: quoted 2.4, calculated 2.5". */
  problems: string[];
  /** The problems' codes, each once, in order (what the screen explains). */
  codes: InterlockCode[];
  riders: RiderMix | null;
  paymentMethod: string | null;
  /** The kiosk's own fare for the route (when it could be computed). */
  calculatedTotal: number | null;
  currency: string | null;
}

function lastEvent<T extends KioskEvent["type"]>(turns: InterlockInput["turns"], type: T, pred?: (e: Extract<KioskEvent, { type: T }>) => boolean): Extract<KioskEvent, { type: T }> | undefined {
  let found: Extract<KioskEvent, { type: T }> | undefined;
  for (const turn of turns) {
    for (const e of turn) {
      if (e.type === type && (!pred || pred(e as Extract<KioskEvent, { type: T }>))) found = e as Extract<KioskEvent, { type: T }>;
    }
  }
  return found;
}

/** The payment method the passenger picked on screen, else the policy's last priced one, else the system's first. */
export function defaultPaymentMethod(input: Pick<InterlockInput, "system" | "turns" | "toolCalls">): string | null {
  const chosen = lastEvent(input.turns, "payment_method_selected")?.method;
  if (chosen) return chosen;
  for (let i = input.toolCalls.length - 1; i >= 0; i--) {
    const call = input.toolCalls[i];
    if (call?.name !== "fare_calculator" || call.error !== null) continue;
    const args = call.arguments as Record<string, unknown> | null;
    if (args && typeof args.payment_method === "string" && args.payment_method) return args.payment_method;
  }
  return Object.keys(input.system.fares.payment_methods ?? {})[0] ?? null;
}

function isCount(n: unknown): n is number {
  return typeof n === "number" && Number.isInteger(n) && n >= 0;
}

/** Whether a station reference (id or name, as a policy or the screen wrote it) denotes station `id`. */
function denotes(system: SystemData, input: string | undefined, id: string): boolean {
  if (input === undefined) return false;
  if (input === id) return true;
  const station = system.stationById(id);
  if (station && station.name.toLowerCase() === input.toLowerCase().trim()) return true;
  return system.resolveStation(input)?.id === id;
}

/** Kinds of match by one of a station's names (its name, the name without a parenthetical, a local name). */
const BY_NAME: ReadonlySet<StationMatch["kind"]> = new Set(["name", "part", "local"]);

/**
 * Stations the passenger named unambiguously in their own words, with the roles the words give
 * them — read by the kiosk's one reader of passenger words (runtime/language), the same reading the
 * policies get. A station counts as named when the reader is sure of it by one of its names;
 * another word for it (an alias, a landmark, pinyin, a near spelling) needs the passenger's tap on
 * the confirmation first. Names the caller's screen shows (`extra`: local names) count when written whole.
 */
function namedStations(system: SystemData, turns: InterlockInput["turns"], extra: StationNames | null): Map<string, Set<"origin" | "destination" | null>> {
  const named = new Map<string, Set<"origin" | "destination" | null>>();
  const add = (id: string, role: "origin" | "destination" | null): void => void (named.get(id) ?? named.set(id, new Set()).get(id)!).add(role);
  for (const turn of turns) {
    for (const e of turn) {
      if (e.type !== "freetext_input" || typeof e.text !== "string") continue;
      const { trip } = understand(system, e.text);
      for (const m of trip.mentions) {
        const id = BY_NAME.has(m.kind) ? sureStation(m) : undefined;
        if (id) add(id, m === trip.origin ? "origin" : m === trip.destination ? "destination" : null);
      }
      if (extra) for (const m of mentionedStations(system, e.text, extra)) if (!named.has(m.stationId)) add(m.stationId, m.role);
    }
  }
  return named;
}

export function checkRoute(system: SystemData, state: AssistantState, turns: InterlockInput["turns"], stationNames: StationNames | null = null): string[] {
  const problems: string[] = [];
  const route = state.route;
  if (!route) return ["route_missing"];
  const stops = route.stops;
  if (stops.length < 2) return ["route_too_short"];
  for (const s of stops) if (!system.hasStationId(s.station_id)) problems.push(`unknown_station: ${s.station_id}`);
  if (problems.length > 0) return problems;
  for (let i = 0; i + 1 < stops.length; i++) {
    const a = stops[i]!;
    const b = stops[i + 1]!;
    const lines = hopLines(system, a.station_id, b.station_id);
    if (lines.size === 0) {
      problems.push(`not_a_path: no track between ${a.station_id} and ${b.station_id}`);
      continue;
    }
    const claimed = [a.line, b.line].filter((l): l is string => typeof l === "string" && l !== "").map((l) => system.aliasLine(l));
    if (claimed.length > 0 && !claimed.some((l) => lines.has(l))) {
      problems.push(`line_mismatch: ${a.station_id}-${b.station_id} is not on ${claimed.join("/")}`);
    }
  }
  const first = stops[0]!.station_id;
  const last = stops[stops.length - 1]!.station_id;
  if (!denotes(system, route.origin, first)) problems.push(`origin_mismatch: route.origin ${route.origin} but first stop ${first}`);
  if (!denotes(system, route.destination, last)) problems.push(`destination_mismatch: route.destination ${route.destination} but last stop ${last}`);
  const origin = lastEvent(turns, "station_selected", (e) => e.field === "origin");
  const destination = lastEvent(turns, "station_selected", (e) => e.field === "destination");
  if (origin && !denotes(system, origin.station_id ?? origin.value, first)) {
    problems.push(`not_the_chosen_origin: passenger chose ${origin.station_id ?? origin.value}, route starts at ${first}`);
  }
  if (destination && !denotes(system, destination.station_id ?? destination.value, last)) {
    problems.push(`not_the_chosen_destination: passenger chose ${destination.station_id ?? destination.value}, route ends at ${last}`);
  }
  if (first === last) problems.push(`same_station: the trip starts and ends at ${first}`);
  if (!origin || !destination) {
    const named = namedStations(system, turns, stationNames);
    if (!origin && !named.has(first)) problems.push(`origin_not_requested: the passenger neither chose nor named ${first}`);
    if (!destination && !named.has(last)) problems.push(`destination_not_requested: the passenger neither chose nor named ${last}`);
    // "from A to B" sold as B → A.
    const roles = (id: string): Set<string | null> => named.get(id) ?? new Set();
    if (!origin && !destination && roles(first).has("destination") && !roles(first).has("origin") && roles(last).has("origin") && !roles(last).has("destination")) {
      problems.push(`trip_reversed: the passenger asked from ${last} to ${first}`);
    }
  }
  return problems;
}

export function ridersOf(state: AssistantState): RiderMix | null {
  const s = state.fare_quote?.passenger_summary;
  if (!s) return null;
  return { adults: s.adults, children: s.children, seniors: s.seniors, disabled: s.disabled };
}

/**
 * The passenger counts chosen on screen, or null when none were. The screen sends only the counts
 * that changed (a follow-up adding a child is `{children: 1}`), so every passenger_count_changed
 * event of every turn is applied in order, each setting the counts it carries.
 */
export function screenRiders(turns: InterlockInput["turns"]): RiderMix | null {
  let mix: RiderMix | null = null;
  for (const turn of turns) {
    for (const e of turn) {
      if (e.type !== "passenger_count_changed") continue;
      mix ??= { adults: 0, children: 0, seniors: 0, disabled: 0 };
      for (const key of ["adults", "children", "seniors", "disabled"] as const) {
        const n = e[key];
        if (n !== undefined) mix[key] = n;
      }
    }
  }
  return mix;
}

function checkRiders(system: SystemData, riders: RiderMix | null, turns: InterlockInput["turns"]): string[] {
  if (!riders) return ["passenger_summary_missing"];
  const problems: string[] = [];
  const counts = [riders.adults, riders.children, riders.seniors, riders.disabled];
  if (!counts.every(isCount)) return ["invalid_passenger_counts"];
  const total = counts.reduce((a, b) => a + b, 0);
  if (total === 0) problems.push("no_passengers");
  if (total > MAX_RIDERS_PER_SALE) problems.push(`too_many_passengers: ${total}`);
  const screen = screenRiders(turns);
  if (screen) {
    if (![screen.adults, screen.children, screen.seniors, screen.disabled].every(isCount)) problems.push("invalid_passenger_counts: the counts chosen on screen are not whole non-negative numbers");
    for (const key of ["adults", "children", "seniors", "disabled"] as const) {
      const chosen = screen[key];
      if (chosen !== riders[key]) problems.push(`passengers_mismatch: ${key} chosen ${chosen}, quoted ${riders[key]}`);
    }
  }
  for (const d of riderWordProblems(system, turns, riders, screen)) problems.push(`riders_differ_from_text: ${d}`);
  return problems;
}

/** Hours, live closures, permanent closures and step-free access along the route (interlock/service.ts). */
export function checkService(input: Pick<InterlockInput, "system" | "state" | "turns" | "disruptions" | "now" | "accessibilityMode" | "policyText">): string[] {
  const { system } = input;
  const stops = (input.state.route?.stops ?? []).map((s) => s.station_id).filter((id) => system.hasStationId(id));
  if (stops.length === 0) return [];
  const problems: string[] = [];
  const hops: [string, string][] = [];
  for (let i = 0; i + 1 < stops.length; i++) hops.push([stops[i]!, stops[i + 1]!]);
  const hours = serviceHours(system, input.now);
  // A notice in force that keeps trains running later ("末班车延长至次日0:30") or starts them earlier
  // ("commence at 5 am"), on the lines it names (every hop of the route on one of them) or, naming
  // none, on every line — but never on a line it excepts ("except the Capital Airport Express line").
  const clock = /T(\d{2}):(\d{2})/.exec(input.now.iso);
  const minutes = clock ? Number(clock[1]) * 60 + Number(clock[2]) : undefined;
  const close = usualClose(system, input.now);
  // In the early hours, a notice of the evening the night's service began counts too.
  const messages = [
    ...input.disruptions.filter((d) => d && typeof d === "object" && disruptionInForceTonight(d, input.now.iso)).map((d) => (typeof d.message === "string" ? d.message : "")),
    ...(input.policyText ? [input.policyText] : []),
  ];
  const day = clockDay(input.now);
  const runsLate =
    minutes !== undefined &&
    messages.some((m) => {
      if (!runsOutsideUsualHoursAt([m], minutes, close, day)) return false;
      const except = new Set(exceptedWords(m).flatMap((words) => linesNamedIn(system, words)));
      const lines = new Set(linesNamedIn(system, m).filter((l) => !except.has(l)));
      return hops.every(([a, b]) => [...hopLines(system, a, b)].some((l) => (lines.size === 0 || lines.has(l)) && !except.has(l)));
    });
  // A notice in force that ends service early ("will end at 10pm today"): nothing runs after it.
  if (minutes !== undefined && endedEarlyAt(messages, minutes, close)) problems.push(`outside_service_hours: a notice in force ends service before ${input.now.iso.slice(11, 16)}`);
  if (!hours.open && !runsLate) {
    // Outside service hours only the framebook's 24-hour lines run.
    const night = allNightLines(system);
    const dark = hours.reason === "service_hours_unknown" || night.size === 0 || hops.some(([a, b]) => ![...hopLines(system, a, b)].some((l) => night.has(l)));
    if (dark) problems.push(`${hours.reason}: ${hours.detail}`);
  }
  // Disruptions of the feed and those shown on screen during the session.
  const shown = input.turns.flat().flatMap((e) => (e.type === "disruption_update" && e.disruption ? [e.disruption as Disruption] : []));
  const closed = liveClosures(system, [...input.disruptions, ...shown], input.now.iso);
  if (closed.systemSuspended) problems.push(`system_suspended: ${closed.systemSuspended}`);
  // A notice whose words the kiosk could not map: only the trips of the lines it names, or every
  // trip where it names none.
  const routeLines = new Set([...hops.flatMap(([a, b]) => [...hopLines(system, a, b)]), ...(input.state.route?.stops ?? []).flatMap((s) => (typeof s.line === "string" && s.line !== "" ? [system.aliasLine(s.line)] : []))]);
  for (const u of closed.unread) {
    if (u.lines !== null && !u.lines.some((l) => routeLines.has(l))) continue;
    const where = u.lines === null ? "but not where" : `on ${u.lines.join(", ")}, but not where`;
    problems.push(u.decision === "block" ? `disruption_blocked: the notice ${u.notice} says service stops ${where}; the operator blocked the trips it may touch` : `disruption_unmapped: the notice ${u.notice} says service stops, ${where}`);
  }
  const ends = new Set([stops[0]!, stops[stops.length - 1]!]);
  stops.forEach((id, i) => {
    const station = closed.stations.get(id);
    if (!station) return;
    // Skipped one way only, and the rider takes the line the other way here.
    if (station.bound && !ridesSkipWay(system, station.bound, id, stops[i - 1], stops[i + 1])) return;
    // A closed station can be passed through when trains skip it, but not boarded, left or changed at.
    const change = i > 0 && i + 1 < stops.length && ![...hopLines(system, stops[i - 1]!, id)].some((l) => hopLines(system, id, stops[i + 1]!).has(l));
    if (ends.has(id) || change || !station.passThrough) problems.push(`station_closed: ${id} (${station.why})`);
  });
  for (const id of ends) {
    const why = permanentClosures(system, input.policyText ?? null).get(id);
    if (why) problems.push(`station_closed: ${id} is permanently closed`);
  }
  const stated = input.state.route?.stops ?? [];
  hops.forEach(([a, b], i) => {
    const track = closed.tracks.get(pairKey(a, b));
    if (track) problems.push(`track_closed: ${a}-${b} (${track})`);
    // A suspended line closes its track for every line sharing it (as the benchmark's planner
    // treats a line closure): when in doubt whether the other line still runs there, do not sell.
    const lines = [...hopLines(system, a, b)];
    const ridden = [stated[i + 1]?.line, stated[i]?.line].map((l) => (typeof l === "string" && l !== "" ? system.aliasLine(l) : "")).find((l) => closed.lines.has(l));
    const out = lines.find((l) => closed.lines.has(l)) ?? ridden ?? null;
    if (out !== null) problems.push(`line_suspended: ${out} between ${a} and ${b} (${closed.lines.get(out)})`);
  });
  if (input.accessibilityMode || needsStepFree(input.turns)) {
    for (const id of stops) {
      const a = system.stationById(id)?.accessibility;
      const problem = stepFreeProblem(a);
      if (problem !== null) problems.push(`not_step_free: ${id} has ${problem}`);
      else if (closed.liftsOut.has(id)) problems.push(`not_step_free: the lift at ${id} is out of service (${closed.liftsOut.get(id)})`);
    }
  } else if ((ridersOf(input.state)?.disabled ?? 0) > 0 && stepFreeStatement(input.turns) !== "not_needed") {
    // A rider counted disabled may need the lift that is out where they board, change or leave:
    // not sold until the passenger says.
    const used = new Set(stationsUsed(input.state.route?.stops ?? []));
    for (const id of stops) if (used.has(id) && closed.liftsOut.has(id)) problems.push(`step_free_unconfirmed: the lift at ${id} is out of service (${closed.liftsOut.get(id)}) and a rider is counted disabled`);
  }
  return problems;
}

function stopIds(result: unknown): string[] | undefined {
  const stops = (result as { stops?: unknown } | null)?.stops;
  if (!Array.isArray(stops)) return undefined;
  return stops.map((s) => String((s as { station_id?: unknown }).station_id));
}

/**
 * Price the state's route with the kiosk's own tools: replay the policy's route_planner calls (so
 * a detour planned around a closure is priced as that detour) and use the one whose stops are the
 * state's stops; otherwise plan from the first to the last stop.
 */
export function kioskFare(
  input: Pick<InterlockInput, "system" | "state" | "disruptions" | "toolCalls" | "policyText">,
  riders: RiderMix,
  paymentMethod: string | null,
  offer: FareEffect | null = null,
): { ok: true; total: number; currency: string; engineTotal: number; freeByRule: boolean } | { ok: false; problem: string } {
  const route = input.state.route;
  if (!route || route.stops.length === 0) return { ok: false, problem: "route_missing" };
  const wanted = route.stops.map((s) => s.station_id).join(">");
  const candidates: Record<string, unknown>[] = [];
  for (const call of input.toolCalls) {
    if (call.name === "route_planner" && call.arguments && typeof call.arguments === "object" && !Array.isArray(call.arguments)) {
      candidates.push(call.arguments as Record<string, unknown>);
    }
  }
  candidates.push({ origin: route.stops[0]!.station_id, destination: route.stops[route.stops.length - 1]!.station_id });
  for (const args of candidates) {
    const tools = new ToolSession(input.system);
    tools.setDisruptions(input.disruptions);
    const planned = tools.call("route_planner", args);
    if (!planned.ok || stopIds(planned.result)?.join(">") !== wanted) continue;
    const routeId = (planned.result as { route_id: string }).route_id;
    const fareArgs: Record<string, unknown> = { route_id: routeId, passengers: { ...riders } };
    if (paymentMethod) fareArgs.payment_method = paymentMethod;
    const fare = tools.call("fare_calculator", fareArgs);
    if (!fare.ok) return { ok: false, problem: `fare_unavailable: ${fare.status} ${fare.body}` };
    const result = fare.result as { total: number; currency: string; line_items?: PricedItem[] };
    if ((offer || input.policyText) && Array.isArray(result.line_items)) {
      const engine = { items: result.line_items, total: result.total };
      const adjusted = offer ? quoteWithEffect(engine, riders, input.system.fares.base_fare, offer) : adjustQuote(engine, riders, input.system.fares.base_fare, input.policyText);
      // A free trip needs a rule that says so ("Seniors ride free"), not a cap at zero.
      return { ok: true, total: adjusted.total, currency: result.currency, engineTotal: result.total, freeByRule: freeByRule(adjusted.applied) };
    }
    // Without a policy the fare table's own discounts (children under the limit) are the rules.
    return { ok: true, total: result.total, currency: result.currency, engineTotal: result.total, freeByRule: true };
  }
  return { ok: false, problem: "route_not_plannable: the kiosk's route planner does not produce this route" };
}

/** "code: detail" → code. */
export function problemCode(problem: string): InterlockCode {
  return problem.split(":")[0]!.trim() as InterlockCode;
}

export function checkInterlock(given: InterlockInput): InterlockVerdict {
  // A fare announcement whose own words say it has not begun or has ended prices nothing, nor one
  // whose offer the passenger said does not apply to them (they pay the usual fare).
  const texts = given.turns.flat().flatMap((e) => (e.type === "freetext_input" && typeof e.text === "string" ? [e.text] : []));
  const announced = announcementInForce(given.policyText, given.now.iso);
  const pricing = farePricing(given.system, given.policyText, announced, offerAnswer(texts), given.now.iso);
  const effect = pricing.kind === "effect" ? pricing.effect : null;
  // Asked about, or for staff: the announcement stays, unpriceable, so nothing is sold.
  const input: InterlockInput = { ...given, policyText: pricing.kind === "rules" ? pricing.text : announced };
  const { state, system } = input;
  const offered = state.outcome === "route_and_fare_ready" && state.kiosk_action.action === "prompt_purchase";
  const riders = ridersOf(state);
  const paymentMethod = input.paymentMethod ?? defaultPaymentMethod(input);
  const verdict: InterlockVerdict = { offered, ok: false, problems: [], codes: [], riders, paymentMethod, calculatedTotal: null, currency: null };
  if (!offered) return verdict;
  const problems = [...checkRoute(system, state, input.turns, input.stationNames ?? null), ...checkService(input), ...checkRiders(system, riders, input.turns)];
  // An announcement about fares the kiosk cannot price (reworded, new kinds of offer): any quote is a guess, so no sale.
  if (!effect && unpriceableFareAnnouncement(input.policyText)) problems.push("fare_announcement_unpriceable: a fare announcement is in force that the kiosk cannot price");
  const quote = state.fare_quote;
  if (!quote) problems.push("fare_quote_missing");
  const knownMethods = Object.keys(system.fares.payment_methods ?? {});
  if (paymentMethod && knownMethods.length > 0 && !knownMethods.includes(paymentMethod)) problems.push(`unknown_payment_method: ${paymentMethod}`);
  if (quote) {
    const currency = system.framebook.currency_code;
    if (quote.currency.toUpperCase() !== currency.toUpperCase()) problems.push(`currency_mismatch: quoted ${quote.currency}, the framebook's currency is ${currency}`);
    const count = riders ? riders.adults + riders.children + riders.seniors + riders.disabled : 0;
    const bounds = totalOutOfBounds(quote.total, count, system.fares, system.framebook);
    if (bounds) problems.push(`fare_out_of_bounds: quoted ${bounds}`);
  }
  if (quote && riders && problems.length === 0) {
    const fare = kioskFare(input, riders, paymentMethod, effect);
    if (!fare.ok) problems.push(fare.problem);
    else {
      verdict.calculatedTotal = fare.total;
      verdict.currency = fare.currency;
      if (quote.currency.toUpperCase() !== fare.currency.toUpperCase()) problems.push(`currency_mismatch: quoted ${quote.currency}, calculated ${fare.currency}`);
      // Strictly within a cent: a difference of one cent (give or take float noise) is a mismatch.
      if (!(Math.abs(quote.total - fare.total) < FARE_TOLERANCE - 1e-9)) problems.push(`fare_mismatch: quoted ${quote.total}, calculated ${fare.total}`);
      const count = riders.adults + riders.children + riders.seniors + riders.disabled;
      const bounds = totalOutOfBounds(fare.total, count, system.fares, system.framebook);
      if (bounds) problems.push(`fare_out_of_bounds: the fare policies in force give ${bounds}`);
      if (fare.total === 0 && fare.engineTotal > 0 && !fare.freeByRule) problems.push("free_without_rule: the fare policies make this trip free without a rule saying it is free");
    }
  }
  verdict.problems = problems;
  verdict.codes = [...new Set(problems.map(problemCode))];
  verdict.ok = problems.length === 0;
  return verdict;
}
