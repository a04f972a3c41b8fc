// Routing engine: unrestricted routes, every restriction type, line closures and their errors.
// Expected routes were produced by the Python reference (PYTHONHASHSEED=13).
import { describe, expect, it } from "vitest";
import { DataPack } from "../data/datapack.ts";
import { SystemData } from "../data/system.ts";
import { SHARED_DATA_DIR } from "../../test/paths.ts";
import { RouteEngine, RouteError, routeEngineFor, stationsUsed, type RouteResult } from "./index.ts";

const pack = new DataPack(SHARED_DATA_DIR);
const marta = routeEngineFor(pack.system("marta"));
const beijing = routeEngineFor(pack.system("beijing"));

const summary = (r: RouteResult) => ({
  stations: r.path,
  lines: r.stops.map((s) => s.line),
  transferTo: r.stops.filter((s) => s.is_transfer).map((s) => s.transfer_to),
  transfers: r.transfers,
  minutes: r.estimated_minutes,
  miles: r.distance_miles,
  sequence: r.line_sequence,
});

const SOUTH_TRUNK = ["MARTA-AP", "MARTA-CP", "MARTA-EP", "MARTA-LF", "MARTA-OC", "MARTA-WE", "MARTA-GA", "MARTA-FP"];

describe("unrestricted routing", () => {
  it("finds the fastest route and labels shared track as the reference does", () => {
    const r = marta.route("Airport", "Doraville");
    expect(summary(r)).toEqual({
      stations: [...SOUTH_TRUNK, "MARTA-PC", "MARTA-CV", "MARTA-NA", "MARTA-MT", "MARTA-AC", "MARTA-LC", "MARTA-LX", "MARTA-BO", "MARTA-CH", "MARTA-DO"],
      lines: Array(18).fill("gold"),
      transferTo: [],
      transfers: 0,
      minutes: 43.1,
      miles: 21.51,
      sequence: ["gold"],
    });
  });

  it("counts a transfer (5 minutes) and marks the stop where it happens", () => {
    const r = marta.route("West End", "Inman Park/Reynoldstown");
    expect(summary(r)).toEqual({
      stations: ["MARTA-WE", "MARTA-GA", "MARTA-FP", "MARTA-GS", "MARTA-KM", "MARTA-IR"],
      lines: ["red", "red", "red", "green", "green", "green"],
      transferTo: ["green"],
      transfers: 1,
      minutes: 13.3,
      miles: 4.19,
      sequence: ["red", "green"],
    });
    expect(r.stops[2]).toEqual({ station_id: "MARTA-FP", station_name: "Five Points", line: "red", is_transfer: true, transfer_to: "green" });
  });

  it("answers an origin equal to the destination with one stop and no line", () => {
    expect(marta.route("Airport", "MARTA-AP")).toEqual({
      path: ["MARTA-AP"],
      stops: [{ station_id: "MARTA-AP", station_name: "Airport", line: null, is_transfer: false, transfer_to: null }],
      transfers: 0,
      estimated_minutes: 0,
      distance_miles: 0,
      line_sequence: [],
    });
  });

  it("rejects unknown stations with the reference's message", () => {
    expect(() => marta.route("Nowhere", "Airport")).toThrow(new RouteError("Unknown station: 'Nowhere'"));
  });

  it("builds the unrestricted graph once per system and line order", () => {
    expect(routeEngineFor(pack.system("marta"))).toBe(marta);
    expect(routeEngineFor(pack.system("marta"), "sorted")).not.toBe(marta);
  });

  it("offers the sorted line order: same stations, transfers and totals, possibly other labels", () => {
    const sorted = new RouteEngine(pack.system("marta"), "sorted").route("Airport", "Midtown");
    const hashed = marta.route("Airport", "Midtown");
    expect(sorted.path).toEqual(hashed.path);
    expect([sorted.transfers, sorted.estimated_minutes, sorted.distance_miles]).toEqual([
      hashed.transfers,
      hashed.estimated_minutes,
      hashed.distance_miles,
    ]);
  });
});

describe("restricted routing", () => {
  const noPath = (o: string, d: string) => new RouteError(`No path between '${o}' and '${d}' with current restrictions`);

  it("skip: trains pass through the station", () => {
    const r = marta.routeWithRestrictions("Airport", "Midtown", [{ station: "Five Points", restriction: "skip" }], []);
    expect(summary(r)).toMatchObject({ transfers: 0, minutes: 21.5, miles: 10.76, sequence: ["red"] });
    expect(r.path).toContain("MARTA-FP");
  });

  it("closed: no entry, exit, transfer or pass-through", () => {
    expect(() => marta.routeWithRestrictions("Airport", "Midtown", [{ station: "Five Points", restriction: "closed" }], [])).toThrow(
      noPath("Airport", "Midtown"),
    );
  });

  it("no_transfer: passengers may not change lines there", () => {
    expect(marta.route("West End", "Inman Park/Reynoldstown").transfers).toBe(1);
    expect(() =>
      marta.routeWithRestrictions("West End", "Inman Park/Reynoldstown", [{ station: "Five Points", restriction: "no_transfer" }], []),
    ).toThrow(noPath("West End", "Inman Park/Reynoldstown"));
  });

  it("a later restriction of the same station wins; unknown restriction types do nothing", () => {
    const r = marta.routeWithRestrictions(
      "Airport",
      "Midtown",
      [
        { station: "Peachtree Center", restriction: "closed" },
        { station: "MARTA-PC", restriction: "no_transfer" },
        { station: "Garnett", restriction: "delayed" },
      ],
      [],
    );
    expect(r.path).toContain("MARTA-PC");
    expect(r.estimated_minutes).toBe(21.5);
  });

  it("a closed or skipped origin/destination is an error naming the raw input", () => {
    expect(() => marta.routeWithRestrictions("Five Points", "Midtown", [{ station: "MARTA-FP", restriction: "closed" }], [])).toThrow(
      new RouteError("Origin station 'Five Points' is closed by disruption"),
    );
    expect(() => marta.routeWithRestrictions("Airport", "five points", [{ station: "Five Points", restriction: "skip" }], [])).toThrow(
      new RouteError("Destination station 'five points' is skip by disruption"),
    );
  });

  it("segment closures close the track for every line", () => {
    expect(() => marta.routeWithRestrictions("Airport", "Midtown", [], [["Five Points", "Peachtree Center"]])).toThrow(
      noPath("Airport", "Midtown"),
    );
  });

  it("a segment closure with fewer than two stations is a crash (TypeError), after the endpoint checks", () => {
    expect(() => marta.routeWithRestrictions("Airport", "Midtown", [], [["Five Points"]])).toThrow(TypeError);
    expect(() => marta.routeWithRestrictions("Nowhere", "Midtown", [], [["Five Points"]])).toThrow(RouteError);
  });

  it("restricted origin == destination rides one line's stop", () => {
    const r = marta.routeWithRestrictions("Airport", "Airport", [{ station: "Doraville", restriction: "no_transfer" }], []);
    expect(summary(r)).toEqual({
      stations: ["MARTA-AP"],
      lines: ["red"],
      transferTo: [],
      transfers: 0,
      minutes: 0,
      miles: 0,
      sequence: ["red"],
    });
  });

  it("reroutes around a closed line on another line (Beijing line 1)", () => {
    const segments = beijing.expandLineClosures([{ line: "1" }]);
    const r = beijing.routeWithRestrictions("Guomao", "Xidan", [], segments);
    expect(summary(r)).toEqual({
      stations: ["BJM-GUO", "BJM-SHU", "BJM-GUW", "BJM-GUN2", "BJM-CIK", "BJM-QIA2", "BJM-ZHU", "BJM-HUF", "BJM-CAK", "BJM-XUM", "BJM-XID"],
      lines: ["10", "10", "7", "7", "7", "7", "7", "7", "7", "4", "4"],
      transferTo: ["7", "4"],
      transfers: 2,
      minutes: 23.9,
      miles: 6.93,
      sequence: ["10", "7", "4"],
    });
    expect(beijing.route("Guomao", "Xidan").line_sequence).toEqual(["1"]);
  });
});

describe("line closures", () => {
  it("a full closure emits every edge of the line, which also blocks other lines on shared track", () => {
    const pairs = marta.expandLineClosures([{ line: "red" }]);
    expect(pairs).toContainEqual(["MARTA-PC", "MARTA-FP"]);
    expect(() => marta.routeWithRestrictions("Airport", "Midtown", [], pairs)).toThrow(
      "No path between 'Airport' and 'Midtown' with current restrictions",
    );
  });

  it("a partial closure keeps the stretch between the endpoints (inclusive)", () => {
    const pairs = marta.expandLineClosures([{ line: "red", from_station: "North Avenue", to_station: "Lindbergh Center" }]);
    const stations = new Set(pairs.flat());
    expect([...stations].sort()).toEqual(["MARTA-AC", "MARTA-LC", "MARTA-MT", "MARTA-NA"]);
    expect(() => marta.routeWithRestrictions("Airport", "Doraville", [], pairs)).toThrow(/No path between 'Airport' and 'Doraville'/);
    const north = marta.expandLineClosures([{ line: "red", from_station: "North Springs", to_station: "Medical Center" }]);
    expect(marta.routeWithRestrictions("Airport", "Doraville", [], north).distance_miles).toBe(21.51);
  });

  it("rejects bad closures with the reference's messages", () => {
    const fails = (closure: Parameters<RouteEngine["expandLineClosures"]>[0][0]) => () => marta.expandLineClosures([closure]);
    expect(fails({ line: "red", from_station: "Airport" })).toThrow(
      new RouteError("Partial closure on line 'red' requires both from_station and to_station"),
    );
    expect(fails({ line: "red", from_station: "Airport", to_station: "Doraville" })).toThrow(
      new RouteError("Endpoints 'Airport'/'Doraville' are not on line 'red'"),
    );
    expect(fails({ line: "nope" })).toThrow(new RouteError("Unknown line: nope"));
    expect(fails({ line: "red", from_station: "Nowhere", to_station: "Airport" })).toThrow(new RouteError("Unknown station: 'Nowhere'"));
  });

  it("refuses partial closures of loop lines (Beijing 2 and 10)", () => {
    expect(beijing.isLoopLine("2")).toBe(true);
    expect(beijing.isLoopLine("10")).toBe(true);
    expect(beijing.lineTerminals("2")).toEqual([]);
    expect(beijing.lineTerminals("1")).toEqual(["BJM-FUS", "BJM-UNR"]);
    expect(() => beijing.expandLineClosures([{ line: "2", from_station: "Xizhimen", to_station: "Dongzhimen" }])).toThrow(
      new RouteError("Partial closure on loop line '2' is ambiguous — use whole-line closure or specify segments"),
    );
  });
});

describe("an imported network: one-way edges and its own transfer times", () => {
  const base = pack.system("marta");
  /** MARTA with each edge one way only, timed differently each way, and Five Points' transfer at 2 minutes. */
  const oneWay = new SystemData({
    id: "oneway",
    stations: base.stations.map((s) => (s.id === "MARTA-FP" ? { ...s, transfer_min: 2 } : s)),
    lines: [...base.lines],
    edges: base.edges.flatMap((e) => [e, { ...e, from: e.to, to: e.from, travel_time_min: e.travel_time_min + 1 }]),
    directed: true,
    fares: base.fares,
    faresPy: base.faresPy,
    policies: [...base.policies],
    framebook: base.framebook,
    framebookPy: base.framebookPy,
  });
  const engine = new RouteEngine(oneWay);

  it("times each direction on its own edges", () => {
    const north = engine.route("MARTA-AP", "MARTA-CP");
    const south = engine.route("MARTA-CP", "MARTA-AP");
    expect(Math.abs(south.estimated_minutes - north.estimated_minutes)).toBeCloseTo(1, 5);
    expect(marta.route("MARTA-AP", "MARTA-CP").estimated_minutes).toBe(marta.route("MARTA-CP", "MARTA-AP").estimated_minutes);
  });

  it("charges a transfer the station's own minutes instead of the default five", () => {
    const trip = ["West End", "Inman Park/Reynoldstown"] as const;
    const here = engine.route(...trip);
    const undirected = new RouteEngine(new SystemData({ ...oneWay, id: "oneway2", stations: [...base.stations], edges: base.edges.flatMap((e) => [e, { ...e, from: e.to, to: e.from, travel_time_min: e.travel_time_min + 1 }]), lines: [...oneWay.lines], policies: [...oneWay.policies] }));
    const there = undirected.route(...trip);
    expect(here.transfers).toBe(1);
    expect(there.estimated_minutes - here.estimated_minutes).toBeCloseTo(3, 5);
  });
});

describe("the stations a rider walks through", () => {
  it("are the ends and the stations where the route changes lines, not those it rides past", () => {
    // A line change at B: the rider walks there; C is ridden past
    expect(stationsUsed([{ station_id: "A", line: null }, { station_id: "B", line: "red" }, { station_id: "C", line: "blue" }, { station_id: "D", line: "blue" }])).toEqual(["A", "B", "D"]);
    expect(stationsUsed([{ station_id: "A", line: null }, { station_id: "B", line: "red", is_transfer: true }, { station_id: "C", line: "red" }])).toEqual(["A", "B", "C"]);
    const r = marta.route("Airport", "Doraville");
    const used = stationsUsed(r.stops);
    expect(used[0]).toBe("MARTA-AP");
    expect(used.at(-1)).toBe("MARTA-DO");
    expect(used.length).toBeLessThan(r.stops.length);
  });
});
