// What a *right* ticket is, defined without the kiosk's interlock code, so the interlock can be
// audited against it. A sale of `state` paid with `paymentMethod` is right when:
//   1. the route has at least two stops, every stop is a station of stations.json, and every pair
//      of consecutive stops is joined by a track of graph.json (either direction);
//   2. when the passenger chose stations on screen, the route starts and ends at them;
//   3. the rider mix on the ticket is a real group (whole, non-negative counts, at least one rider)
//      and, when the passenger set counts on screen, exactly those counts — accumulated over every
//      passenger_count_changed event in order, since the screen sends only the counts it changed;
//   4. the payment method is one of the fare table's, the currency is the fare table's, and the
//      total is within a cent of the fare engine's price (tools/fares calculateFare, not the
//      fare_calculator tool) for that rider mix, payment method and route, the route's distance
//      being the sum of its tracks' lengths — with the temporary fare policy in force (the active
//      framebook's fare_policies, or a case's policy_change), if any, applied by the fare engine's
//      own policy reader (tools/fares/policy-change).
import { calculateFare } from "../../tools/fares/fares.ts";
import { adjustQuote } from "../../tools/fares/policy-change.ts";
import { pyRound } from "../../tools/py/number.ts";
import type { KioskEvent } from "../../tools/data/schemas.ts";
import type { SystemData } from "../../tools/data/system.ts";
import type { AssistantState } from "../../runtime/contract/index.ts";

/** "Within a cent": strictly less than one cent apart. */
export const CENT = 0.01;

export type Riders = { adults: number; children: number; seniors: number; disabled: number };
const RIDER_KEYS = ["adults", "children", "seniors", "disabled"] as const;

export interface ScreenChoices {
  origin?: string;
  destination?: string;
  /** Counts the passenger set on screen (accumulated), when they set any. */
  riders?: Riders;
  paymentMethod?: string;
}

/** The passenger's on-screen choices, read from the events the screen sent (all turns, in order). */
export function screenChoices(system: SystemData, turns: readonly (readonly KioskEvent[])[]): ScreenChoices {
  const out: ScreenChoices = {};
  let riders: Riders | undefined;
  for (const event of turns.flat()) {
    if (event.type === "station_selected") {
      const id = event.station_id && system.stationById(event.station_id) ? event.station_id : system.resolveStation(event.value)?.id ?? `?${event.value}`;
      if (event.field === "origin") out.origin = id;
      else out.destination = id;
    } else if (event.type === "passenger_count_changed") {
      riders ??= { adults: 0, children: 0, seniors: 0, disabled: 0 };
      for (const key of RIDER_KEYS) {
        const n = (event as Record<string, unknown>)[key];
        if (n !== undefined) riders[key] = n as number;
      }
    } else if (event.type === "payment_method_selected") {
      out.paymentMethod = event.method;
    }
  }
  if (riders) out.riders = riders;
  return out;
}

const trackCache = new WeakMap<SystemData, Map<string, number>>();

/** Track lengths by unordered station pair, straight from graph.json. */
function tracks(system: SystemData): Map<string, number> {
  let map = trackCache.get(system);
  if (!map) {
    map = new Map();
    for (const e of system.edges) {
      const key = [e.from, e.to].sort().join("|");
      map.set(key, Math.min(map.get(key) ?? Infinity, e.distance_miles));
    }
    trackCache.set(system, map);
  }
  return map;
}

export interface PathCheck {
  ok: boolean;
  problems: string[];
  stops: string[];
  distanceMiles: number;
}

export function checkPath(system: SystemData, state: AssistantState): PathCheck {
  const stops = (state.route?.stops ?? []).map((s) => s.station_id);
  const problems: string[] = [];
  if (stops.length < 2) problems.push("route has fewer than two stops");
  const known = new Set(system.stations.map((s) => s.id));
  for (const id of stops) if (!known.has(id)) problems.push(`not a station: ${id}`);
  let miles = 0;
  const t = tracks(system);
  for (let i = 0; i + 1 < stops.length; i++) {
    const length = t.get([stops[i], stops[i + 1]].sort().join("|"));
    if (length === undefined) problems.push(`no track ${stops[i]}–${stops[i + 1]}`);
    else miles += length;
  }
  return { ok: problems.length === 0, problems, stops, distanceMiles: pyRound(miles, 2) };
}

/** The fare engine's total for a route (by its stops), rider mix and payment method. */
export function engineTotal(
  system: SystemData,
  stops: readonly string[],
  distanceMiles: number,
  riders: Riders,
  paymentMethod: string,
  policyText?: string | null,
): { total: number; currency: string } {
  const fare = calculateFare(system.fares, riders, paymentMethod, { origin: stops[0], destination: stops[stops.length - 1], distance_miles: distanceMiles, stations: stops.length - 1 });
  if (!policyText) return { total: fare.total, currency: fare.currency };
  const adjusted = adjustQuote({ items: fare.items, total: fare.total }, riders, system.fares.base_fare, policyText);
  return { total: adjusted.total, currency: fare.currency };
}

export interface SaleVerdict {
  right: boolean;
  /** Why the sale is wrong (empty when right). */
  reasons: string[];
  /** The fare engine's total for what the ticket says (when it could be priced). */
  engine: number | null;
}

/** Is selling `state` with `paymentMethod` a right sale (see the header)? */
export function judgeSale(
  system: SystemData,
  state: AssistantState,
  turns: readonly (readonly KioskEvent[])[],
  paymentMethod: string | null,
  policyText?: string | null,
): SaleVerdict {
  const reasons: string[] = [];
  const path = checkPath(system, state);
  reasons.push(...path.problems);
  const screen = screenChoices(system, turns);
  if (path.stops.length > 0) {
    if (screen.origin !== undefined && screen.origin !== path.stops[0]) reasons.push(`starts at ${path.stops[0]}, passenger chose ${screen.origin}`);
    if (screen.destination !== undefined && screen.destination !== path.stops[path.stops.length - 1]) {
      reasons.push(`ends at ${path.stops[path.stops.length - 1]}, passenger chose ${screen.destination}`);
    }
  }
  const quote = state.fare_quote;
  const summary = quote?.passenger_summary;
  let riders: Riders | undefined;
  if (!quote) reasons.push("no fare quote");
  if (!summary) reasons.push("no rider mix on the ticket");
  else {
    riders = { adults: summary.adults, children: summary.children, seniors: summary.seniors, disabled: summary.disabled };
    const counts = RIDER_KEYS.map((k) => (riders as Riders)[k]);
    if (!counts.every((n) => Number.isInteger(n) && n >= 0)) reasons.push("rider counts are not whole non-negative numbers");
    else if (counts.reduce((a, b) => a + b, 0) === 0) reasons.push("no riders");
    if (screen.riders) {
      for (const k of RIDER_KEYS) if (screen.riders[k] !== riders[k]) reasons.push(`${k}: ticket ${riders[k]}, passenger chose ${screen.riders[k]}`);
    }
  }
  const methods = Object.keys(system.fares.payment_methods ?? {});
  if (!paymentMethod) reasons.push("no payment method");
  else if (methods.length > 0 && !methods.includes(paymentMethod)) reasons.push(`unknown payment method ${paymentMethod}`);
  let engine: number | null = null;
  if (quote && riders && path.ok && paymentMethod && reasons.length === 0) {
    try {
      const priced = engineTotal(system, path.stops, path.distanceMiles, riders, paymentMethod, policyText);
      engine = priced.total;
      if (quote.currency.toUpperCase() !== priced.currency.toUpperCase()) reasons.push(`currency ${quote.currency}, fare table ${priced.currency}`);
      if (!(Math.abs(quote.total - priced.total) < CENT - 1e-9)) reasons.push(`total ${quote.total}, fare engine ${priced.total}`);
    } catch (err) {
      reasons.push(`fare engine cannot price it: ${(err as Error).message}`);
    }
  }
  return { right: reasons.length === 0, reasons, engine };
}

/** The fare engine's price of the *passenger's* trip (for discount checks), or null when unpriceable. */
export function fullFare(system: SystemData, stops: readonly string[], riders: Riders, paymentMethod: string, policyText?: string | null): number | null {
  const state = { route: { stops: stops.map((station_id) => ({ station_id })) } } as unknown as AssistantState;
  const path = checkPath(system, state);
  if (!path.ok) return null;
  try {
    return engineTotal(system, path.stops, path.distanceMiles, riders, paymentMethod, policyText).total;
  } catch {
    return null;
  }
}
