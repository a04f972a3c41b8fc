// Fare models of the six systems. Expected figures were produced by the Python reference.
import { describe, expect, it } from "vitest";
import { DataPack } from "../data/datapack.ts";
import { FaresFileSchema, type Fares } from "../data/schemas.ts";
import { FARE_MESSAGES } from "../wire/messages.ts";
import { routeEngineFor } from "../network/router.ts";
import { SHARED_DATA_DIR } from "../../test/paths.ts";
import { calculateFare, FareError, type FareRoute, type PassengerCounts } from "./index.ts";

const pack = new DataPack(SHARED_DATA_DIR);
const pax = (adults = 0, children = 0, seniors = 0, disabled = 0): PassengerCounts => ({ adults, children, seniors, disabled });
const line = (label: string, amount: number, currency: string) => ({ label, amount, currency });

/** Route context as route_planner caches it. */
function routeOf(system: string, origin: string, destination: string): FareRoute {
  const r = routeEngineFor(pack.system(system)).route(origin, destination);
  return { distance_miles: r.distance_miles, origin: r.path[0], destination: r.path[r.path.length - 1] };
}

describe("flat (MARTA, Doha)", () => {
  const marta = pack.system("marta").fares;
  const doha = pack.system("doha").fares;

  it("prices adults at base fare, seniors/disabled at their fixed fare, children free up to 2 per paying rider", () => {
    expect(calculateFare(marta, pax(2, 3, 1, 1), "breeze_card")).toEqual({
      items: [line("Adult x2", 5.0, "USD"), line("Senior x1", 1.25, "USD"), line("Disabled x1", 1.25, "USD")],
      subtotal: 7.5,
      discounts: [line("Child (under 5, free) x3", 0.0, "USD")],
      total: 7.5,
      currency: "USD",
    });
  });

  it("caps free children and charges the rest at the full fare", () => {
    const fare = calculateFare(marta, pax(1, 5), "breeze_card");
    expect(fare.items).toEqual([line("Adult x1", 2.5, "USD"), line("Child (fare required) x3", 7.5, "USD")]);
    expect(fare.discounts).toEqual([line("Child (under 5, free) x2", 0.0, "USD")]);
    expect(fare.total).toBe(10.0);
  });

  it("counts seniors (and disabled riders) as paying riders for the free-child allowance", () => {
    const fare = calculateFare(marta, pax(0, 3, 1), "breeze_card");
    expect(fare.items).toEqual([line("Senior x1", 1.25, "USD"), line("Child (fare required) x1", 2.5, "USD")]);
    expect(fare.discounts).toEqual([line("Child (under 5, free) x2", 0.0, "USD")]);
    expect(fare.total).toBe(3.75);
  });

  it("charges unaccompanied children in full", () => {
    const fare = calculateFare(marta, pax(0, 2), "breeze_card");
    expect(fare.items).toEqual([line("Child (fare required) x2", 5.0, "USD")]);
    expect(fare.discounts).toEqual([]);
  });

  it("returns an empty quote for zero passengers", () => {
    expect(calculateFare(marta, pax(), "breeze_card")).toEqual({ items: [], subtotal: 0, discounts: [], total: 0, currency: "USD" });
  });

  it("uses Doha's gold fare for a gold-class method or any method named *gold*, and full fare for seniors", () => {
    expect(calculateFare(doha, pax(2, 1, 1), "gold_travel_card")).toEqual({
      items: [line("Adult x2", 20, "QAR"), line("Senior x1", 10, "QAR")],
      subtotal: 30,
      discounts: [line("Child (under 5, free) x1", 0.0, "QAR")],
      total: 30,
      currency: "QAR",
    });
    expect(calculateFare(doha, pax(1), "my_gold_pass").total).toBe(10);
    expect(calculateFare(doha, pax(1, 0, 1, 1), "travel_card").items).toEqual([
      line("Adult x1", 2, "QAR"),
      line("Senior x1", 2, "QAR"),
      line("Disabled x1", 2, "QAR"),
    ]);
  });
});

describe("flat_with_exceptions (CTA)", () => {
  const cta = pack.system("cta").fares;

  it("adds the payment adjustment to the base fare; seniors pay their fixed 1.25", () => {
    expect(calculateFare(cta, pax(1, 0, 1), "contactless").items).toEqual([
      line("Adult x1", 3.0, "USD"),
      line("Senior x1", 1.25, "USD"),
    ]);
    expect(calculateFare(cta, pax(1), "disposable_ticket").total).toBe(3.5);
    expect(calculateFare(cta, pax(1), "ventra").total).toBe(2.5);
    expect(calculateFare(cta, pax(1), "unknown_method").total).toBe(2.5);
  });

  it("charges the O'Hare override from either end, ignoring the payment adjustment", () => {
    expect(calculateFare(cta, pax(2), "contactless", routeOf("cta", "O'Hare", "Clark/Lake")).items).toEqual([
      line("Adult x2", 10.0, "USD"),
    ]);
    expect(calculateFare(cta, pax(1), "contactless", routeOf("cta", "Clark/Lake", "O'Hare")).total).toBe(5.0);
    // An unknown route id gives no stations: the override is not checked.
    expect(calculateFare(cta, pax(1), "contactless", {}).total).toBe(3.0);
  });

  it("adds the adjustment to the override when the override does not ignore it", () => {
    const overrides = structuredClone(cta.station_overrides) as NonNullable<Fares["station_overrides"]>;
    (overrides["CTA-ORD"] as { ignores_payment_adjustment?: boolean }).ignores_payment_adjustment = false;
    const fares: Fares = { ...cta, station_overrides: overrides };
    expect(calculateFare(fares, pax(1), "contactless", routeOf("cta", "O'Hare", "Clark/Lake")).total).toBe(5.5);
  });
});

describe("distance (BART, Taipei, Beijing)", () => {
  const bart = pack.system("bart").fares;
  const taipei = pack.system("taipei").fares;
  const beijing = pack.system("beijing").fares;

  it("BART: bracket + transbay + SFO surcharges, listed as zero items; seniors/disabled × 0.375", () => {
    const route = routeOf("bart", "BART-SFO", "BART-12TH");
    expect(route.distance_miles).toBe(22.12);
    expect(calculateFare(bart, pax(1, 0, 1, 1), "clipper_card", route)).toEqual({
      items: [
        line("Adult x1", 13.1, "USD"),
        line("Senior x1", 4.91, "USD"),
        line("Disabled x1", 4.91, "USD"),
        line("Transbay tube crossing", 0.0, "USD"),
        line("SFO Airport surcharge", 0.0, "USD"),
      ],
      subtotal: 22.92,
      discounts: [],
      total: 22.92,
      currency: "USD",
    });
    expect(calculateFare(bart, pax(1), "clipper_card", routeOf("bart", "BART-EMBR", "BART-WOAK")).items).toEqual([
      line("Adult x1", 3.55, "USD"),
      line("Transbay tube crossing", 0.0, "USD"),
    ]);
    expect(calculateFare(bart, pax(1), "clipper_card", routeOf("bart", "BART-COLS", "BART-OAKL")).total).toBe(8.85);
  });

  it("Beijing: airport express fares replace the base (the highest wins); seniors ride at 0.0", () => {
    expect(calculateFare(beijing, pax(2, 1, 1, 1), "yikatong", routeOf("beijing", "BJM-2HH", "Wangfujing"))).toEqual({
      items: [
        line("Adult x2", 50, "CNY"),
        line("Senior x1", 0.0, "CNY"),
        line("Disabled x1", 0.0, "CNY"),
        line("Capital Airport Express flat fare (replaces base fare)", 0.0, "CNY"),
      ],
      subtotal: 50,
      discounts: [line("Child (under 120cm, free) x1", 0.0, "CNY")],
      total: 50,
      currency: "CNY",
    });
    const both = calculateFare(beijing, pax(1), "yikatong", routeOf("beijing", "BJM-DAJ3", "BJM-2HH"));
    expect(both.items[0]).toEqual(line("Adult x1", 35, "CNY"));
    expect(both.items).toHaveLength(3);
    expect(calculateFare(beijing, pax(1), "yikatong", routeOf("beijing", "Wangfujing", "Xidan")).total).toBe(3);
  });

  it("Taipei: first bracket whose max_miles is not exceeded, else the last; seniors × 0.5", () => {
    expect(calculateFare(taipei, pax(1, 0, 1), "easycard", { distance_miles: 3.1 }).items).toEqual([
      line("Adult x1", 20, "TWD"),
      line("Senior x1", 10.0, "TWD"),
    ]);
    expect(calculateFare(taipei, pax(1), "easycard", { distance_miles: 3.11 }).total).toBe(25);
    expect(calculateFare(taipei, pax(1), "easycard", { distance_miles: 1500 }).total).toBe(65);
  });

  it("needs a route distance", () => {
    expect(() => calculateFare(taipei, pax(1), "easycard", {})).toThrow(FareError);
    expect(() => calculateFare(taipei, pax(1), "easycard")).toThrow("route_distance_miles required for distance fare model");
  });
});

describe("distance by stations travelled (an operator's model)", () => {
  // Up to 5 stations 1,500, 6 to 10 stations 1,700, beyond 1,900; seniors half, disabled riders free.
  const fares = FaresFileSchema.parse({
    model: "distance",
    currency: "KRW",
    currency_symbol: "₩",
    base_fare: 1500,
    fare_brackets: [
      { max_stations: 5, fare: 1500 },
      { max_stations: 10, fare: 1700 },
      { max_stations: 20, fare: 1900 },
    ],
    surcharges: { airport: { amount: 300, description: "Airport surcharge", station: "AIR" } },
    discounts: { senior_65_plus: { multiplier: 0.5 }, disabled: { fare: 0 } },
  });
  const adultFare = (stations: number, route: FareRoute = {}): number => calculateFare(fares, pax(1), "card", { stations, ...route }).total;

  it("prices a trip at the first bracket whose max_stations it does not exceed: exactly N stations, then N+1", () => {
    expect(adultFare(1)).toBe(1500);
    expect(adultFare(5)).toBe(1500);
    expect(adultFare(6)).toBe(1700);
    expect(adultFare(10)).toBe(1700);
    expect(adultFare(11)).toBe(1900);
    // Beyond the last bracket: the last bracket's fare, as for miles.
    expect(adultFare(21)).toBe(1900);
  });

  it("reads the station count, not the miles, and keeps surcharges and reduced fares", () => {
    expect(adultFare(3, { distance_miles: 500 })).toBe(1500);
    const fare = calculateFare(fares, pax(1, 0, 1, 1), "card", { stations: 6, origin: "AIR", destination: "X" });
    expect(fare.items).toEqual([line("Adult x1", 2000, "KRW"), line("Senior x1", 1000, "KRW"), line("Disabled x1", 0, "KRW"), line("Airport surcharge", 0.0, "KRW")]);
  });

  it("needs the route's station count, with its own message (miles alone do not price it)", () => {
    expect(() => calculateFare(fares, pax(1), "card", {})).toThrow(FareError);
    expect(() => calculateFare(fares, pax(1), "card", { distance_miles: 3 })).toThrow(FARE_MESSAGES.stationsNeeded);
    // A table in miles still asks for the miles, whatever the route knows of its stations.
    expect(() => calculateFare(pack.system("taipei").fares, pax(1), "easycard", { stations: 3 })).toThrow(FARE_MESSAGES.distanceNeeded);
  });

  it("refuses a fare table that mixes units across brackets, and a bracket that is not a whole number of stations from 1", () => {
    const table = (fare_brackets: unknown[]) => FaresFileSchema.safeParse({ model: "distance", currency: "KRW", currency_symbol: "₩", base_fare: 1, fare_brackets });
    const mixed = table([{ max_stations: 5, fare: 1 }, { max_km: 10, fare: 2 }]);
    expect(mixed.success).toBe(false);
    expect(mixed.error?.issues.map((i) => [i.path, i.message])).toEqual([
      [["fare_brackets"], "the fare brackets mix units (max_stations in bracket 1; max_km in bracket 2); every bracket of a table gives the same one of max_miles, max_km or max_stations"],
    ]);
    expect(table([{ max_miles: 5, fare: 1 }, { max_km: 10, fare: 2 }]).error?.issues[0]?.message).toMatch(/^the fare brackets mix units \(max_miles in bracket 1; max_km in bracket 2\)/);
    expect(table([{ max_stations: 5, max_km: 3, fare: 1 }]).error?.issues[0]?.message).toBe("a fare bracket gives max_miles, max_km or max_stations (exactly one of the three)");
    expect(table([{ max_stations: 0, fare: 1 }]).success).toBe(false);
    expect(table([{ max_stations: 2.5, fare: 1 }]).success).toBe(false);
    expect(table([{ max_stations: 1, fare: 1 }]).success).toBe(true);
    // A table that reaches the engine without the schema is refused there too, not read on two scales.
    const unchecked = { ...fares, fare_brackets: [{ max_stations: 5, fare: 1 }, { max_km: 10, fare: 2 }] } as Fares;
    for (const stations of [3, 7]) expect(() => calculateFare(unchecked, pax(1), "card", { stations, distance_miles: 1 })).toThrow(/mix max_stations with a distance/);
  });
});

describe("zone_table (an imported feed's origin-destination fares)", () => {
  const fares: Fares = {
    model: "zone_table",
    currency: "INR",
    currency_symbol: "₹",
    base_fare: 12,
    zone_fares: { A: { B: 30, C: 40 }, A2: { B: 30, C: 45 } },
    discounts: { children: { max_per_adult: 0, qualifier: "no free child fare in the feed" }, senior_65_plus: { multiplier: 0.5 } },
  };

  it("prices the fare between the stations' zones; children pay, seniors take their multiplier", () => {
    const fare = calculateFare(fares, pax(1, 1, 1), "contactless", { origin_zones: ["A"], destination_zones: ["B"] });
    expect(fare.items).toEqual([line("Adult x1", 30, "INR"), line("Senior x1", 15, "INR"), line("Child (fare required) x1", 30, "INR")]);
    expect(fare.total).toBe(75);
  });

  it("takes a station's zones together when they agree, and refuses when the fare depends on the platform", () => {
    expect(calculateFare(fares, pax(1), "contactless", { origin_zones: ["A", "A2"], destination_zones: ["B"] }).total).toBe(30);
    expect(() => calculateFare(fares, pax(1), "contactless", { origin_zones: ["A", "A2"], destination_zones: ["C"] })).toThrow(/differs by platform \(40, 45\)/);
  });

  it("refuses a pair the table lacks, and a route without zones", () => {
    expect(() => calculateFare(fares, pax(1), "contactless", { origin_zones: ["B"], destination_zones: ["A"] })).toThrow(FareError);
    expect(() => calculateFare(fares, pax(1), "contactless", { origin: "X", destination: "Y" })).toThrow(/zones\) are required/);
  });
});
