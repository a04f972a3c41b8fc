// The purchase safety interlock: a terminal state may enable the purchase button only when the
// kiosk itself confirms what the policy (possibly a language model) claims:
//   1. the route's stops are stations of this system and form a real path in the graph (every
//      consecutive pair joined by an edge; stated lines consistent with the edge), from the route's
//      origin to its destination and, when the passenger chose stations on screen, between those;
//   2. the quoted total equals fare_calculator's total for that route, rider mix and payment method
//      (within a cent, same currency), recomputed in a fresh ToolSession — never the policy's own
//      tool results;
//   3. the rider mix matches the passenger's on-screen passenger counts when there are any;
//   4. the trip is one the passenger asked for: each end of the route is the station chosen on
//      screen for it or, when none was chosen, a station the passenger named in their own words
//      (so a model talked into "selling something" cannot offer a trip nobody requested);
//   5. neither end is a station the operator announced as permanently closed (knowledge base or
//      the fare policy announcement in force).
// A temporary fare policy in force (the framebook's fare_policies, e.g. "Seniors ride free today")
// is applied to the kiosk's own fare exactly as the fare engine reads it (tools/fares/policy-change).
// Pure (tools/ only): runs in the kiosk main process, `kiosk serve` and tests alike.
import type { Disruption, KioskEvent } from "../../tools/data/schemas.ts";
import type { SystemData } from "../../tools/data/system.ts";
import { adjustQuote, type PricedItem } from "../../tools/fares/policy-change.ts";
import { ToolSession } from "../../tools/tools/index.ts";
import type { AssistantState } from "../contract/index.ts";
import type { ToolCallRecord } from "../session/policy.ts";
import { findStations } from "../policies/rule/freetext.ts";
import { permanentClosures } from "../policies/rule/closures.ts";

export const FARE_TOLERANCE = 0.01;
/** The largest party one ticket sale may cover (a guard against absurd quotes). */
export const MAX_RIDERS_PER_SALE = 30;

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
}

export interface InterlockVerdict {
  /** The state offers a purchase (route_and_fare_ready + prompt_purchase). */
  offered: boolean;
  /** Offered and every check passed. */
  ok: boolean;
  /** Machine-readable problem codes with details, e.g. "fare_mismatch: quoted 2.4, calculated 2.5". */
  problems: string[];
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

/** Lines joining two stations directly (the graph is undirected). */
function edgeLines(system: SystemData, a: string, b: string): Set<string> {
  const lines = new Set<string>();
  for (const e of system.edges) if ((e.from === a && e.to === b) || (e.from === b && e.to === a)) lines.add(e.line);
  return lines;
}

/** Stations the passenger named in free text, found as the rule policy finds them. */
function namedStations(system: SystemData, turns: InterlockInput["turns"]): Set<string> {
  const named = new Set<string>();
  for (const turn of turns) {
    for (const e of turn) if (e.type === "freetext_input") for (const m of findStations(system, e.text)) named.add(m.station.id);
  }
  return named;
}

export function checkRoute(system: SystemData, state: AssistantState, turns: InterlockInput["turns"]): string[] {
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
    const lines = edgeLines(system, a.station_id, b.station_id);
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
  if (!origin || !destination) {
    const named = namedStations(system, turns);
    if (!origin && !named.has(first)) problems.push(`origin_not_requested: the passenger neither chose nor named ${first}`);
    if (!destination && !named.has(last)) problems.push(`destination_not_requested: the passenger neither chose nor named ${last}`);
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

function checkRiders(riders: RiderMix | null, turns: InterlockInput["turns"]): string[] {
  if (!riders) return ["passenger_summary_missing"];
  const problems: string[] = [];
  const counts = [riders.adults, riders.children, riders.seniors, riders.disabled];
  if (!counts.every(isCount)) return ["invalid_passenger_counts"];
  const total = counts.reduce((a, b) => a + b, 0);
  if (total === 0) problems.push("no_passengers");
  if (total > MAX_RIDERS_PER_SALE) problems.push(`too_many_passengers: ${total}`);
  const screen = screenRiders(turns);
  if (screen) {
    for (const key of ["adults", "children", "seniors", "disabled"] as const) {
      const chosen = screen[key];
      if (chosen !== riders[key]) problems.push(`passengers_mismatch: ${key} chosen ${chosen}, quoted ${riders[key]}`);
    }
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
): { ok: true; total: number; currency: string } | { ok: false; problem: string } {
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
    if (input.policyText && Array.isArray(result.line_items)) {
      const adjusted = adjustQuote({ items: result.line_items, total: result.total }, riders, input.system.fares.base_fare, input.policyText);
      return { ok: true, total: adjusted.total, currency: result.currency };
    }
    return { ok: true, total: result.total, currency: result.currency };
  }
  return { ok: false, problem: "route_not_plannable: the kiosk's route planner does not produce this route" };
}

export function checkInterlock(input: InterlockInput): InterlockVerdict {
  const { state } = input;
  const offered = state.outcome === "route_and_fare_ready" && state.kiosk_action.action === "prompt_purchase";
  const riders = ridersOf(state);
  const paymentMethod = input.paymentMethod ?? defaultPaymentMethod(input);
  const verdict: InterlockVerdict = { offered, ok: false, problems: [], riders, paymentMethod, calculatedTotal: null, currency: null };
  if (!offered) return verdict;
  const problems = [...checkRoute(input.system, state, input.turns), ...checkRiders(riders, input.turns)];
  const stops = state.route?.stops ?? [];
  const closures = stops.length > 0 ? permanentClosures(input.system, { policy_change: input.policyText ? { text: input.policyText } : null }) : new Map<string, string>();
  for (const id of new Set([stops[0]?.station_id, stops[stops.length - 1]?.station_id])) {
    if (id !== undefined && closures.has(id)) problems.push(`station_closed: ${id} is permanently closed`);
  }
  const quote = state.fare_quote;
  if (!quote) problems.push("fare_quote_missing");
  const knownMethods = Object.keys(input.system.fares.payment_methods ?? {});
  if (paymentMethod && knownMethods.length > 0 && !knownMethods.includes(paymentMethod)) problems.push(`unknown_payment_method: ${paymentMethod}`);
  if (quote && riders && problems.length === 0) {
    const fare = kioskFare(input, riders, paymentMethod);
    if (!fare.ok) problems.push(fare.problem);
    else {
      verdict.calculatedTotal = fare.total;
      verdict.currency = fare.currency;
      if (quote.currency.toUpperCase() !== fare.currency.toUpperCase()) problems.push(`currency_mismatch: quoted ${quote.currency}, calculated ${fare.currency}`);
      // Strictly within a cent: a difference of one cent (give or take float noise) is a mismatch.
      if (!(Math.abs(quote.total - fare.total) < FARE_TOLERANCE - 1e-9)) problems.push(`fare_mismatch: quoted ${quote.total}, calculated ${fare.total}`);
    }
  }
  verdict.problems = problems;
  verdict.ok = problems.length === 0;
  return verdict;
}
