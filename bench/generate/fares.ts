// The generator's own fare computation from fares.json, kept apart from the kiosk's fare engine
// (tools/fares) so that ground truth does not inherit its mistakes. Same semantics as the pack's
// reference (CONTRACT.md §4): flat, flat_with_exceptions, distance brackets in miles (or an
// operator's km, or stations travelled counted on the generator's own route) and zone_table;
// children free up to `max_per_adult` per paying rider, the rest at the adult fare; seniors and
// disabled riders at a multiplier or a fixed fare. Where the fare table leaves the price open, the
// answer is "none" with the reason, and no case is written.
import type { Fares, Station } from "../../tools/data/schemas.ts";
import { pyRound } from "../../tools/py/number.ts";
import { KM_PER_MILE } from "../../tools/util/units.ts";

export interface Riders {
  adults: number;
  children: number;
  seniors: number;
  disabled: number;
}

export interface FareLine {
  label: string;
  amount: number;
  currency: string;
}

/** The pack's `ground_truth.fare` for a fare case. */
export interface GtFare {
  items: FareLine[];
  subtotal: number;
  discounts: FareLine[];
  total: number;
  currency: string;
}

/** The pack's `expected_fare_breakdown`: what the screen's quote must show. */
export interface ExpectedBreakdown {
  passenger_summary: { adults: number; children: number; seniors: number; disabled: number; free_riders: number };
  line_items: { rider_type: string; count: number; unit_fare: number; subtotal: number; currency: string }[];
}

export interface Trip {
  origin: Station;
  destination: Station;
  /** The route's miles as the route reports them (two decimals). */
  distanceMiles: number;
  /** The same before rounding, to refuse a trip whose rounding is a coin toss. */
  rawMiles: number;
  /** The stations the route visits in order (GtRoute.path), for brackets in stations travelled. */
  path?: readonly string[];
}

export type FareAnswer = { kind: "fare"; fare: GtFare; expected: ExpectedBreakdown; perRide: number } | { kind: "none"; reason: string };

type Dict = Record<string, unknown>;
const isDict = (v: unknown): v is Dict => v !== null && typeof v === "object" && !Array.isArray(v);
const numberAt = (obj: unknown, key: string): number | undefined => (isDict(obj) && typeof obj[key] === "number" ? obj[key] : undefined);
/** Python truthiness of a config block: present and not empty. */
const given = (v: unknown): v is Dict => isDict(v) && Object.keys(v).length > 0;

interface PerRider {
  adult: number;
  senior: number;
  disabled: number;
  surcharges: string[];
}

/** A fare table's price for one trip and party, or why there is none. */
export function quoteFare(fares: Fares, trip: Trip, riders: Riders, paymentMethod?: string): FareAnswer {
  const per = perRider(fares, trip, paymentMethod, riders);
  if ("reason" in per) return { kind: "none", reason: per.reason };
  const currency = fares.currency;
  const discounts = (fares.discounts ?? {}) as Dict;
  const children = isDict(discounts.children) ? discounts.children : {};
  // The engine gives paying children the adult fare; a table with a child fare of its own says otherwise.
  const childFare = numberAt(children, "fare");
  if (riders.children > 0 && childFare !== undefined && childFare !== 0) return { kind: "none", reason: "the fare table gives children a fare of their own" };
  const maxPerAdult = numberAt(children, "max_per_adult") ?? 2;
  const qualifier = typeof children.qualifier === "string" ? children.qualifier : "free";

  const items: FareLine[] = [];
  const lineItems: ExpectedBreakdown["line_items"] = [];
  const add = (label: string, riderType: string, count: number, unit: number): void => {
    const amount = pyRound(unit * count, 2);
    items.push({ label: `${label} x${count}`, amount, currency });
    lineItems.push({ rider_type: riderType, count, unit_fare: unit, subtotal: amount, currency });
  };
  if (riders.adults > 0) add("Adult", "adult", riders.adults, per.adult);
  if (riders.seniors > 0) add("Senior", "senior", riders.seniors, per.senior);
  if (riders.disabled > 0) add("Disabled", "disabled", riders.disabled, per.disabled);
  const paying = riders.adults + riders.seniors + riders.disabled;
  const free = paying > 0 ? Math.min(riders.children, paying * maxPerAdult) : 0;
  const paidChildren = riders.children - free;
  const discountLines: FareLine[] = free > 0 ? [{ label: `Child (${qualifier}, free) x${free}`, amount: 0, currency }] : [];
  if (paidChildren > 0) {
    const amount = pyRound(per.adult * paidChildren, 2);
    items.push({ label: `Child (fare required) x${paidChildren}`, amount, currency });
    lineItems.push({ rider_type: "child", count: paidChildren, unit_fare: per.adult, subtotal: amount, currency });
  }
  for (const label of per.surcharges) {
    items.push({ label, amount: 0, currency });
    lineItems.push({ rider_type: label.toLowerCase(), count: 1, unit_fare: 0, subtotal: 0, currency });
  }
  // The pack counts a listed surcharge as a paid unit when it works out free riders; where that and
  // the free children disagree, the screen's "free riders" has no single right value.
  const riderCount = riders.adults + riders.children + riders.seniors + riders.disabled;
  if (Math.max(0, riderCount - (paying + paidChildren + per.surcharges.length)) !== free) {
    return { kind: "none", reason: "free riders are counted two ways with a surcharge listed" };
  }
  let sum = 0;
  for (const i of items) sum += i.amount;
  const subtotal = pyRound(sum, 2);
  // The only discount lines are free children at 0.0, so the total is the subtotal.
  const total = subtotal;
  return {
    kind: "fare",
    fare: { items, subtotal, discounts: discountLines, total, currency },
    expected: {
      passenger_summary: { adults: riders.adults, children: riders.children, seniors: riders.seniors, disabled: riders.disabled, free_riders: free },
      line_items: lineItems,
    },
    perRide: per.adult,
  };
}

function perRider(fares: Fares, trip: Trip, paymentMethod: string | undefined, riders: Riders): PerRider | { reason: string } {
  const methods = (fares.payment_methods ?? {}) as Dict;
  const method = paymentMethod !== undefined && isDict(methods[paymentMethod]) ? (methods[paymentMethod] as Dict) : {};
  const discounts = (fares.discounts ?? {}) as Dict;
  const needsReduced = riders.seniors > 0 || riders.disabled > 0;
  switch (fares.model) {
    case "flat": {
      const gold = fares.gold_fare !== undefined && paymentMethod !== undefined && (method.class === "gold" || paymentMethod.toLowerCase().includes("gold"));
      const adult = gold ? (fares.gold_fare as number) : fares.base_fare;
      // A flat table lists a reduced fare as a fixed fare; a multiplier there is not something it prices.
      const fixed = (key: string): number | { reason: string } => {
        const cfg = discounts[key];
        if (!given(cfg)) return adult;
        const fare = numberAt(cfg, "fare");
        return fare ?? { reason: `${key} has no fixed fare in a flat table` };
      };
      const senior = fixed("senior_65_plus");
      const disabled = fixed("disabled");
      if (needsReduced && typeof senior !== "number") return senior;
      if (needsReduced && typeof disabled !== "number") return disabled;
      return { adult, senior: typeof senior === "number" ? senior : adult, disabled: typeof disabled === "number" ? disabled : adult, surcharges: [] };
    }
    case "flat_with_exceptions": {
      const overrides = (fares.station_overrides ?? {}) as Dict;
      const adjustment = numberAt(method, "fare_adjustment") ?? 0;
      // The origin's override wins over the destination's.
      const override = [trip.origin.id, trip.destination.id].map((id) => overrides[id]).find(isDict);
      let adult: number;
      if (override !== undefined) {
        const fare = numberAt(override, "fare");
        if (fare === undefined) return { reason: "a station override without a fare" };
        adult = override.ignores_payment_adjustment === true ? fare : fare + adjustment;
      } else adult = fares.base_fare + adjustment;
      adult = pyRound(adult, 2);
      const fixed = (key: string): number => {
        const cfg = discounts[key];
        return given(cfg) ? (numberAt(cfg, "fare") ?? adult) : adult;
      };
      return { adult, senior: fixed("senior_65_plus"), disabled: fixed("disabled"), surcharges: [] };
    }
    case "distance": {
      const brackets = fares.fare_brackets ?? [];
      const byStations = brackets.some((b) => numberAt(b, "max_stations") !== undefined);
      let measure: number;
      let limit: (b: Dict) => number | undefined;
      if (byStations) {
        // Stations travelled: every station after the one boarded at, the destination included.
        if (trip.path === undefined || trip.path.length === 0) return { reason: "the route's stations are not known" };
        measure = trip.path.length - 1;
        limit = (b) => numberAt(b, "max_stations");
      } else {
        // The bracket reads the route's miles to the hundredth; a sum that sits on a half-hundredth
        // rounds either way with the order of addition.
        const cents = trip.rawMiles * 100;
        if (Math.abs(cents - Math.floor(cents) - 0.5) < 1e-6) return { reason: "the route's miles sit on a rounding tie" };
        measure = trip.distanceMiles;
        limit = (b) => numberAt(b, "max_miles") ?? ((k) => (k === undefined ? undefined : k / KM_PER_MILE))(numberAt(b, "max_km"));
      }
      let base: number | undefined;
      for (const b of brackets) {
        // In a table by stations, a bracket in miles or km has no limit on its scale (the schema refuses such a table).
        const max = limit(b as Dict);
        if (max === undefined) return { reason: "a fare bracket without a limit" };
        if (measure <= max) {
          base = b.fare;
          break;
        }
      }
      base ??= brackets[brackets.length - 1]?.fare;
      if (base === undefined) return { reason: "no fare brackets" };
      const matched: { label: string; amount: number; replaces: boolean }[] = [];
      for (const cfg of Object.values(fares.surcharges ?? {})) {
        const o = trip.origin.id;
        const d = trip.destination.id;
        let hit = false;
        if (cfg.sf_side !== undefined && cfg.east_bay_side !== undefined) {
          const a = new Set(cfg.sf_side);
          const b = new Set(cfg.east_bay_side);
          hit = (a.has(o) && b.has(d)) || (b.has(o) && a.has(d));
        } else if (cfg.station !== undefined) hit = o === cfg.station || d === cfg.station;
        else if (cfg.stations !== undefined) hit = cfg.stations.includes(o) || cfg.stations.includes(d);
        if (hit) matched.push({ label: cfg.description, amount: cfg.amount, replaces: cfg.replaces_base === true });
      }
      const replacing = matched.filter((m) => m.replaces);
      let added = 0;
      for (const m of matched) added += m.amount;
      const adult = replacing.length > 0 ? Math.max(...replacing.map((m) => m.amount)) : pyRound(base + added, 2);
      return { ...reduced(discounts, adult), surcharges: matched.map((m) => m.label) };
    }
    case "zone_table": {
      const zonesOf = (s: Station): readonly string[] => s.fare_zones ?? [s.zone];
      const found = new Set<number>();
      for (const a of zonesOf(trip.origin)) for (const b of zonesOf(trip.destination)) {
        const fare = fares.zone_fares?.[a]?.[b];
        if (fare !== undefined) found.add(fare);
      }
      if (found.size === 0) return { reason: "the fare table has no fare between the stations' zones" };
      if (found.size > 1) return { reason: "the fare depends on the platform (a station with a zone per line)" };
      return { ...reduced(discounts, [...found][0] as number), surcharges: [] };
    }
    default:
      return { reason: `fare model '${String(fares.model)}' is not known` };
  }
}

/** Seniors and disabled riders: a multiplier of the adult fare, else a fixed fare, else the adult fare. */
function reduced(discounts: Dict, adult: number): { adult: number; senior: number; disabled: number } {
  const one = (key: string): number => {
    const cfg = discounts[key];
    if (!given(cfg)) return adult;
    const multiplier = numberAt(cfg, "multiplier");
    if (multiplier !== undefined) return pyRound(adult * multiplier, 2);
    return numberAt(cfg, "fare") ?? adult;
  };
  return { adult, senior: one("senior_65_plus"), disabled: one("disabled") };
}
