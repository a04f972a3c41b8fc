// The generator's own fare computation on small fare tables: each model's per-ride fare, reduced
// fares, free and paying children, surcharges, and the cases it refuses to price.
import { describe, expect, it } from "vitest";
import type { Fares, Station } from "../../tools/data/schemas.ts";
import { quoteFare, type Riders, type Trip } from "./fares.ts";

const station = (id: string, zone = "1", fare_zones?: string[]): Station => ({
  id,
  name: id,
  lines: [],
  type: "underground",
  accessibility: { elevator: true, escalator: true, step_free: true, tactile_paving: true, wide_gate: true },
  connections: [],
  zone,
  ...(fare_zones ? { fare_zones } : {}),
});
const trip = (o: Station, d: Station, miles = 1): Trip => ({ origin: o, destination: d, distanceMiles: miles, rawMiles: miles });
const party = (p: Partial<Riders>): Riders => ({ adults: 0, children: 0, seniors: 0, disabled: 0, ...p });
const A = station("A", "z1");
const B = station("B", "z2");

const flat: Fares = {
  model: "flat",
  currency: "QAR",
  currency_symbol: "QR",
  base_fare: 2,
  gold_fare: 10,
  payment_methods: { travel_card: { class: "standard" }, gold_travel_card: { class: "gold" } },
  discounts: { children: { fare: 0, max_per_adult: 2, qualifier: "under 5" }, senior_65_plus: { fare: 1 } },
};

describe("the generator's fare computation", () => {
  it("flat: the gold fare for a gold card, fixed reduced fares, two free children per paying rider", () => {
    const q = quoteFare(flat, trip(A, B), party({ adults: 1, children: 3, seniors: 1 }), "gold_travel_card");
    expect(q).toEqual({
      kind: "fare",
      perRide: 10,
      fare: {
        items: [
          { label: "Adult x1", amount: 10, currency: "QAR" },
          { label: "Senior x1", amount: 1, currency: "QAR" },
        ],
        subtotal: 11,
        discounts: [{ label: "Child (under 5, free) x3", amount: 0, currency: "QAR" }],
        total: 11,
        currency: "QAR",
      },
      expected: {
        passenger_summary: { adults: 1, children: 3, seniors: 1, disabled: 0, free_riders: 3 },
        line_items: [
          { rider_type: "adult", count: 1, unit_fare: 10, subtotal: 10, currency: "QAR" },
          { rider_type: "senior", count: 1, unit_fare: 1, subtotal: 1, currency: "QAR" },
        ],
      },
    });
    // Children alone pay the adult fare.
    expect(quoteFare(flat, trip(A, B), party({ children: 2 }), "travel_card")).toMatchObject({ fare: { items: [{ label: "Child (fare required) x2", amount: 4 }], total: 4 } });
  });

  it("flat_with_exceptions: the origin's override first, a payment adjustment unless the override ignores it", () => {
    const fares: Fares = {
      model: "flat_with_exceptions",
      currency: "USD",
      currency_symbol: "$",
      base_fare: 2.5,
      payment_methods: { contactless: { fare_adjustment: 0.5 } },
      station_overrides: { A: { fare: 5, ignores_payment_adjustment: true }, B: { fare: 4 } },
    };
    expect(quoteFare(fares, trip(A, B), party({ adults: 1 }), "contactless")).toMatchObject({ perRide: 5 });
    expect(quoteFare(fares, trip(B, A), party({ adults: 1 }), "contactless")).toMatchObject({ perRide: 4.5 });
    expect(quoteFare(fares, trip(station("C"), station("D")), party({ adults: 2 }), "contactless")).toMatchObject({ perRide: 3, fare: { total: 6 } });
  });

  it("distance: the first bracket the rounded miles fit (≤), surcharges added or replacing the base, multipliers rounded", () => {
    const fares: Fares = {
      model: "distance",
      currency: "USD",
      currency_symbol: "$",
      base_fare: 2,
      fare_brackets: [
        { max_miles: 6, fare: 2 },
        { max_miles: 999, fare: 4 },
      ],
      surcharges: { bridge: { amount: 1.4, description: "Bridge toll", station: "B" }, airport: { amount: 9, description: "Airport flat fare", stations: ["X"], replaces_base: true } },
      discounts: { senior_65_plus: { multiplier: 0.375 } },
    };
    expect(quoteFare(fares, trip(A, station("C"), 6), party({ adults: 1 }))).toMatchObject({ perRide: 2 });
    expect(quoteFare(fares, trip(A, station("C"), 6.01), party({ adults: 1 }))).toMatchObject({ perRide: 4 });
    const withToll = quoteFare(fares, trip(A, B, 3), party({ seniors: 1 }));
    expect(withToll).toMatchObject({ perRide: 3.4, fare: { items: [{ label: "Senior x1", amount: 1.27 }, { label: "Bridge toll", amount: 0 }], total: 1.27 } });
    expect(withToll.kind === "fare" && withToll.expected.line_items.map((i) => i.rider_type)).toEqual(["senior", "bridge toll"]);
    expect(quoteFare(fares, trip(station("X"), B, 3), party({ adults: 1 }))).toMatchObject({ perRide: 9 });
    // Miles on a half-hundredth round either way with the order of addition: no answer.
    expect(quoteFare(fares, { origin: A, destination: B, distanceMiles: 6, rawMiles: 5.995 }, party({ adults: 1 })).kind).toBe("none");
    // A listed surcharge counts as a paid unit in the pack's free-rider figure: with free children that figure has two values.
    expect(quoteFare(fares, trip(A, B, 3), party({ adults: 1, children: 1 }))).toEqual({ kind: "none", reason: "free riders are counted two ways with a surcharge listed" });
  });

  it("distance by stations travelled: the route's path less the boarding station, whatever the miles", () => {
    const fares: Fares = {
      model: "distance",
      currency: "KRW",
      currency_symbol: "₩",
      base_fare: 1500,
      fare_brackets: [
        { max_stations: 2, fare: 1500 },
        { max_stations: 4, fare: 1700 },
      ],
      discounts: { senior_65_plus: { multiplier: 0.5 } },
    };
    const along = (path: string[], miles = 1): Trip => ({ origin: station(path[0] as string), destination: station(path[path.length - 1] as string), distanceMiles: miles, rawMiles: miles, path });
    expect(quoteFare(fares, along(["A", "B"]), party({ adults: 1 }))).toMatchObject({ perRide: 1500 });
    expect(quoteFare(fares, along(["A", "B", "C"], 40), party({ adults: 1 }))).toMatchObject({ perRide: 1500 });
    expect(quoteFare(fares, along(["A", "B", "C", "D"]), party({ adults: 1, seniors: 1 }))).toMatchObject({ perRide: 1700, fare: { total: 2550 } });
    expect(quoteFare(fares, along(["A", "B", "C", "D", "E"]), party({ adults: 1 }))).toMatchObject({ perRide: 1700 });
    // Beyond the last bracket: its fare. Miles on a rounding tie do not matter to a count of stations.
    expect(quoteFare(fares, { ...along(["A", "B", "C", "D", "E", "F"]), rawMiles: 5.995 }, party({ adults: 1 }))).toMatchObject({ perRide: 1700 });
    // Without the route's stations there is no count to price.
    expect(quoteFare(fares, trip(A, B), party({ adults: 1 }))).toEqual({ kind: "none", reason: "the route's stations are not known" });
    // A table mixing stations with a distance has no one scale (the schema refuses it too).
    const mixed: Fares = { ...fares, fare_brackets: [{ max_stations: 2, fare: 1500 }, { max_km: 10, fare: 1700 }] };
    expect(quoteFare(mixed, along(["A", "B", "C", "D"]), party({ adults: 1 }))).toEqual({ kind: "none", reason: "a fare bracket without a limit" });
  });

  it("zone_table: the table's fare between the stations' zones, none where it has none or the platform decides", () => {
    const fares: Fares = {
      model: "zone_table",
      currency: "INR",
      currency_symbol: "₹",
      base_fare: 10,
      discounts: { children: { max_per_adult: 0, qualifier: "none" } },
      zone_fares: { z1: { z2: 30, p1: 20, p2: 25 }, z2: {} },
    };
    expect(quoteFare(fares, trip(A, B), party({ adults: 1, children: 1 }))).toMatchObject({ fare: { total: 60, discounts: [] }, expected: { passenger_summary: { free_riders: 0 } } });
    expect(quoteFare(fares, trip(B, A), party({ adults: 1 })).kind).toBe("none");
    expect(quoteFare(fares, trip(A, station("P", "p1", ["p1", "p2"])), party({ adults: 1 }))).toEqual({ kind: "none", reason: "the fare depends on the platform (a station with a zone per line)" });
  });

  it("does not price children where the table gives them a fare of their own", () => {
    const fares: Fares = { ...flat, discounts: { children: { fare: 1.5, max_per_adult: 2 } } };
    expect(quoteFare(fares, trip(A, B), party({ adults: 1, children: 1 })).kind).toBe("none");
    expect(quoteFare(fares, trip(A, B), party({ adults: 1 })).kind).toBe("fare");
  });
});
