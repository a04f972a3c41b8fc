// Fare engine for the three fare models of the data pack (flat, flat_with_exceptions, distance).
// Amounts are rounded with pyRound at the same points as the reference, and sums are accumulated in
// the same order, so every figure is bit-identical to the Python result. Beyond the reference: the
// zone_table model and distance brackets in km or in stations travelled (operators' own models).
import type { Fares, Surcharge } from "../data/schemas.ts";
import { hasKey, pyTruthy } from "../py/text.ts";
import { pyRound } from "../py/number.ts";
import { MILES_PER_KM } from "../util/units.ts";
import { FARE_MESSAGES } from "../wire/messages.ts";

/** A failure the reference reports as HTTP 422 with this message as detail. */
export class FareError extends Error {
  override name = "FareError";
}

export interface PassengerCounts {
  adults: number;
  children: number;
  seniors: number;
  disabled: number;
}

/** What the route cache knows about the priced route (all undefined for an unknown route id). */
export interface FareRoute {
  distance_miles?: number;
  origin?: string;
  destination?: string;
  /** Stations travelled: the route's stops minus one (the next station is 1), for brackets in max_stations. */
  stations?: number;
  /** The fare zones of origin and destination (a station may have one per line), for the zone_table model. */
  origin_zones?: readonly string[];
  destination_zones?: readonly string[];
}

export interface FareLine {
  label: string;
  amount: number;
  currency: string;
}

export interface FareBreakdown {
  items: FareLine[];
  subtotal: number;
  discounts: FareLine[];
  total: number;
  currency: string;
}

type Dict = Record<string, unknown>;

/** dict.get(key, default): the default only when the key is absent (a null stays null). */
function get<T>(obj: unknown, key: string, fallback: T): unknown {
  return hasKey(obj, key) ? (obj as Dict)[key] : fallback;
}

/** dict[key]: a missing key is a crash (KeyError) in the reference. */
function need(obj: unknown, key: string): unknown {
  if (!hasKey(obj, key)) throw new TypeError(`fares.json: missing key '${key}'`);
  return (obj as Dict)[key];
}

function num(value: unknown, what: string): number {
  if (typeof value !== "number") throw new TypeError(`fares.json: ${what} is not a number`);
  return value;
}

/** Python sum(): left to right, starting from 0. */
function sum(values: readonly number[]): number {
  let total = 0;
  for (const v of values) total += v;
  return total;
}

/** Per-rider fares of one journey, before children are split into free and paying. */
interface RiderFares {
  perRide: number;
  senior: number;
  disabled: number;
}

export function calculateFare(
  fares: Fares,
  passengers: PassengerCounts,
  paymentMethod: string,
  route: FareRoute = {},
): FareBreakdown {
  const currency = String(get(fares, "currency", "USD"));
  switch (fares.model) {
    case "flat":
      return breakdown(fares, passengers, currency, flatRiders(fares, paymentMethod), []);
    case "flat_with_exceptions":
      return breakdown(fares, passengers, currency, exceptionRiders(fares, paymentMethod, route), []);
    case "distance": {
      if (pricedByStations(fares)) {
        if (route.stations === undefined || route.stations === null) throw new FareError(FARE_MESSAGES.stationsNeeded);
        const surcharges = matchSurcharges(fares, route.origin, route.destination);
        return breakdown(fares, passengers, currency, distanceRiders(fares, { stations: route.stations }, surcharges), surcharges);
      }
      if (route.distance_miles === undefined || route.distance_miles === null) {
        throw new FareError(FARE_MESSAGES.distanceNeeded);
      }
      const surcharges = matchSurcharges(fares, route.origin, route.destination);
      return breakdown(fares, passengers, currency, distanceRiders(fares, { miles: route.distance_miles }, surcharges), surcharges);
    }
    case "zone_table":
      return breakdown(fares, passengers, currency, zoneRiders(fares, route), []);
    default:
      throw new TypeError(`Fare model '${String(fares.model)}' not yet implemented`);
  }
}

function isGoldMethod(fares: Fares, paymentMethod: string): boolean {
  const info = get(get(fares, "payment_methods", {}), paymentMethod, {});
  if (get(info, "class", undefined) === "gold") return true;
  return paymentMethod.toLowerCase().includes("gold");
}

function discountsOf(fares: Fares): unknown {
  return get(fares, "discounts", {});
}

/** flat (MARTA, Doha): base or gold fare; a listed senior/disabled discount is a fixed fare. */
function flatRiders(fares: Fares, paymentMethod: string): RiderFares {
  const perRide =
    hasKey(fares, "gold_fare") && isGoldMethod(fares, paymentMethod)
      ? num(fares.gold_fare, "gold_fare")
      : num(need(fares, "base_fare"), "base_fare");
  const discounts = discountsOf(fares);
  const fixed = (key: string): number => {
    const cfg = get(discounts, key, undefined);
    return pyTruthy(cfg) ? num(need(cfg, "fare"), `${key}.fare`) : perRide;
  };
  return { perRide, senior: fixed("senior_65_plus"), disabled: fixed("disabled") };
}

/** flat_with_exceptions (CTA): payment adjustments, and station overrides such as O'Hare. */
function exceptionRiders(fares: Fares, paymentMethod: string, route: FareRoute): RiderFares {
  const overrides = get(fares, "station_overrides", {});
  let override: unknown;
  for (const stationId of [route.origin, route.destination]) {
    if (pyTruthy(stationId) && hasKey(overrides, stationId as string)) {
      override = (overrides as Dict)[stationId as string];
      break;
    }
  }
  const adjustment = (): number => {
    const info = get(get(fares, "payment_methods", {}), paymentMethod, {});
    return num(get(info, "fare_adjustment", 0.0), "fare_adjustment");
  };
  let perRide: number;
  if (override !== undefined) {
    const fare = num(need(override, "fare"), "station override fare");
    perRide = pyTruthy(get(override, "ignores_payment_adjustment", false)) ? fare : fare + adjustment();
  } else {
    perRide = num(need(fares, "base_fare"), "base_fare") + adjustment();
  }
  perRide = pyRound(perRide, 2);
  const discounts = discountsOf(fares);
  const fixed = (key: string): number => {
    const cfg = get(discounts, key, undefined);
    return pyTruthy(cfg) && hasKey(cfg, "fare") ? num((cfg as Dict).fare, `${key}.fare`) : perRide;
  };
  return { perRide, senior: fixed("senior_65_plus"), disabled: fixed("disabled") };
}

/** zone_table (an imported feed): the table's fare between the two zones. */
function zoneRiders(fares: Fares, route: FareRoute): RiderFares {
  const { origin_zones: from, destination_zones: to } = route;
  if (!from?.length || !to?.length) throw new FareError(FARE_MESSAGES.zonesNeeded);
  const found = new Set<number>();
  for (const a of from) for (const b of to) {
    const fare = fares.zone_fares?.[a]?.[b];
    if (fare !== undefined) found.add(fare);
  }
  const [perRide, ...others] = found;
  if (perRide === undefined) throw new FareError(FARE_MESSAGES.noZoneFare(from.join("/"), to.join("/")));
  // A station with a zone per line whose fares disagree: the price depends on the platform, which a ticket cannot know.
  if (others.length > 0) throw new FareError(FARE_MESSAGES.zoneFareByPlatform(from.join("/"), to.join("/"), [...found].join(", ")));
  return withReducedFares(fares, perRide);
}

interface MatchedSurcharge {
  label: string;
  amount: number;
  replacesBase: boolean;
}

/** Surcharges in fares.json key order: transbay crossing, single station, station list. */
function matchSurcharges(fares: Fares, origin: string | undefined, destination: string | undefined): MatchedSurcharge[] {
  const config = get(fares, "surcharges", {});
  const matched: MatchedSurcharge[] = [];
  if (config === null || typeof config !== "object") return matched;
  for (const [key, raw] of Object.entries(config as Record<string, unknown>)) {
    if (raw === null || typeof raw !== "object" || Array.isArray(raw)) continue;
    const cfg = raw as Surcharge;
    const hit = (): void => {
      matched.push({
        label: String(get(cfg, "description", `${key} surcharge`)),
        amount: num(need(cfg, "amount"), `${key}.amount`),
        replacesBase: pyTruthy(get(cfg, "replaces_base", false)),
      });
    };
    if (hasKey(cfg, "sf_side") && hasKey(cfg, "east_bay_side")) {
      if (pyTruthy(origin) && pyTruthy(destination)) {
        const sf = new Set(cfg.sf_side ?? []);
        const eb = new Set(cfg.east_bay_side ?? []);
        const o = origin as string;
        const d = destination as string;
        if ((sf.has(o) && eb.has(d)) || (eb.has(o) && sf.has(d))) hit();
      }
      continue;
    }
    let isMatch = false;
    if (hasKey(cfg, "station")) {
      isMatch = origin === cfg.station || destination === cfg.station;
    } else if (hasKey(cfg, "stations")) {
      const set = new Set(cfg.stations ?? []);
      isMatch = (origin !== undefined && set.has(origin)) || (destination !== undefined && set.has(destination));
    }
    if (isMatch) hit();
  }
  return matched;
}

type Bracket = { max_miles?: number; max_km?: number; max_stations?: number; fare: number };

/** Whether the table's brackets count stations travelled (the schema keeps a table to one unit). */
function pricedByStations(fares: Fares): boolean {
  const brackets = get(fares, "fare_brackets", undefined);
  return Array.isArray(brackets) && brackets.some((b) => hasKey(b, "max_stations"));
}

/** What a trip measures on the table's scale: the route's miles, or the stations it travels. */
type TripMeasure = { miles: number } | { stations: number };

/** distance (BART, Taipei, Beijing; an operator's km or stations): bracket fare plus surcharges, or a base-replacing flat fare. */
function distanceRiders(fares: Fares, measure: TripMeasure, surcharges: readonly MatchedSurcharge[]): RiderFares {
  const brackets = need(fares, "fare_brackets") as Bracket[];
  let base: number | undefined;
  if ("stations" in measure) {
    // A table that is not all in stations has no one scale to read a trip on (FareBracketsSchema refuses it).
    if (brackets.some((b) => b.max_stations === undefined)) throw new TypeError("fares.json: fare_brackets mix max_stations with a distance");
    for (const b of brackets) {
      if (measure.stations <= (b.max_stations as number)) {
        base = b.fare;
        break;
      }
    }
  } else {
    const { miles } = measure;
    for (const b of brackets) {
      if (miles <= (b.max_miles ?? (b.max_km as number) * MILES_PER_KM)) {
        base = b.fare;
        break;
      }
    }
  }
  if (base === undefined) {
    const last = brackets[brackets.length - 1];
    if (!last) throw new TypeError("fares.json: fare_brackets is empty");
    base = last.fare;
  }
  const replacing = surcharges.filter((s) => s.replacesBase);
  const perRide =
    replacing.length > 0
      ? Math.max(...replacing.map((s) => s.amount))
      : pyRound(base + sum(surcharges.map((s) => s.amount)), 2);
  return withReducedFares(fares, perRide);
}

/** Senior and disabled fares as a multiplier of, or a fixed replacement for, the adult fare. */
function withReducedFares(fares: Fares, perRide: number): RiderFares {
  const discounts = discountsOf(fares);
  const reduced = (key: string): number => {
    const cfg = get(discounts, key, undefined);
    if (pyTruthy(cfg) && hasKey(cfg, "multiplier")) return pyRound(perRide * num((cfg as Dict).multiplier, `${key}.multiplier`), 2);
    if (pyTruthy(cfg) && hasKey(cfg, "fare")) return num((cfg as Dict).fare, `${key}.fare`);
    return perRide;
  };
  return { perRide, senior: reduced("senior_65_plus"), disabled: reduced("disabled") };
}

/** Line items, free-child discount and totals, common to every model. */
function breakdown(
  fares: Fares,
  passengers: PassengerCounts,
  currency: string,
  riders: RiderFares,
  surcharges: readonly MatchedSurcharge[],
): FareBreakdown {
  const { adults, children, seniors, disabled } = passengers;
  const items: FareLine[] = [];
  const discounts: FareLine[] = [];
  const item = (label: string, amount: number): void => {
    items.push({ label, amount, currency });
  };
  if (adults > 0) item(`Adult x${adults}`, pyRound(riders.perRide * adults, 2));
  if (seniors > 0) item(`Senior x${seniors}`, pyRound(riders.senior * seniors, 2));
  if (disabled > 0) item(`Disabled x${disabled}`, pyRound(riders.disabled * disabled, 2));

  const childCfg = get(discountsOf(fares), "children", {});
  const qualifier = String(get(childCfg, "qualifier", "free"));
  const maxPerAdult = num(get(childCfg, "max_per_adult", 2), "children.max_per_adult");
  const paying = adults + seniors + disabled;
  const freeChildren = paying > 0 ? Math.min(children, paying * maxPerAdult) : 0;
  const paidChildren = children - freeChildren;
  if (freeChildren > 0) discounts.push({ label: `Child (${qualifier}, free) x${freeChildren}`, amount: 0.0, currency });
  if (paidChildren > 0) item(`Child (fare required) x${paidChildren}`, pyRound(riders.perRide * paidChildren, 2));

  // Surcharges are already inside the per-ride fare; they are listed for transparency.
  for (const s of surcharges) item(s.label, 0.0);

  const subtotal = pyRound(sum(items.map((i) => i.amount)), 2);
  const discountTotal = pyRound(sum(discounts.map((d) => d.amount)), 2);
  return { items, subtotal, discounts, total: pyRound(subtotal - discountTotal, 2), currency };
}
