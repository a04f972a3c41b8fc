// The generator's own route finder on small hand-made networks: the cost model (minutes, a change
// of line at the station's transfer_min or 5), one-way edges, closures and skipped stations, and
// when it refuses to answer because another route is as fast.
import { describe, expect, it } from "vitest";
import type { GraphEdge, Station } from "../../tools/data/schemas.ts";
import { Network } from "./network.ts";

const station = (id: string, extra: Partial<Station> = {}): Station => ({
  id,
  name: id,
  lines: [],
  type: "underground",
  accessibility: { elevator: true, escalator: true, step_free: true, tactile_paving: true, wide_gate: true },
  connections: [],
  zone: "1",
  ...extra,
});
const edge = (from: string, to: string, line: string, minutes: number, miles = minutes / 2): GraphEdge => ({ from, to, line, travel_time_min: minutes, distance_miles: miles, type: "rail" });

// A cross: line R runs A–B–C, line G runs D–B–E; a slow line S also joins A and E.
const cross = (extra: { directed?: boolean; transferAtB?: number; slow?: number } = {}): Network =>
  new Network({
    stations: ["A", "B", "C", "D", "E"].map((id) => station(id, id === "B" && extra.transferAtB !== undefined ? { transfer_min: extra.transferAtB } : {})),
    edges: [edge("A", "B", "R", 3), edge("B", "C", "R", 4), edge("D", "B", "G", 2), edge("B", "E", "G", 6), edge("A", "E", "S", extra.slow ?? 30)],
    directed: extra.directed ?? false,
  });

describe("the generator's route finder", () => {
  it("rides the fastest route, a change of line costing 5 minutes", () => {
    const answer = cross().route("A", "E");
    expect(answer).toMatchObject({ kind: "route", route: { path: ["A", "B", "E"], line_sequence: ["R", "G"], transfers: 1, estimated_minutes: 14, distance_miles: 4.5 } });
  });

  it("charges the station's own transfer_min, and takes the slow direct line when changing costs more", () => {
    expect(cross({ transferAtB: 1 }).route("A", "E")).toMatchObject({ route: { estimated_minutes: 10, transfers: 1 } });
    expect(cross({ transferAtB: 25 }).route("A", "E")).toMatchObject({ route: { path: ["A", "E"], line_sequence: ["S"], transfers: 0, estimated_minutes: 30 } });
  });

  it("refuses a tie: two routes as fast are no single answer", () => {
    // Through B: 3 + 5 + 6 = 14; direct on S: 14.
    const answer = cross({ slow: 14 }).route("A", "E");
    expect(answer.kind).toBe("ambiguous");
    expect(answer.kind === "ambiguous" && answer.routes.map((r) => r.path.join("")).sort()).toEqual(["ABE", "AE"]);
    // 0.01 minutes apart is not a tie: the data tells them apart.
    expect(cross({ slow: 14.01 }).route("A", "E")).toMatchObject({ kind: "route", route: { path: ["A", "B", "E"] } });
  });

  it("keeps shared track as one route and lists its line labellings", () => {
    const net = new Network({ stations: ["A", "B", "C"].map((id) => station(id)), edges: [edge("A", "B", "red", 2), edge("B", "C", "red", 2), edge("A", "B", "gold", 2), edge("B", "C", "gold", 2)], directed: false });
    const answer = net.route("A", "C");
    expect(answer).toMatchObject({ kind: "route", route: { path: ["A", "B", "C"], line_sequence: ["gold"], transfers: 0 }, lineSequences: [["gold"], ["red"]] });
  });

  it("does not count a there-and-back on a zero-minute edge as another route", () => {
    // X–Y is zero minutes on both lines (CTA's Clark/Lake–State/Lake); changing at X or riding to Y and back is the same trip.
    const net = new Network({
      stations: ["W", "X", "Y", "Z"].map((id) => station(id)),
      edges: [edge("W", "X", "pink", 3), edge("X", "Y", "pink", 0, 0), edge("X", "Y", "brown", 0, 0), edge("X", "Z", "brown", 4)],
      directed: false,
    });
    expect(net.route("W", "Z")).toMatchObject({ kind: "route", route: { path: ["W", "X", "Z"], transfers: 1, estimated_minutes: 12 } });
  });

  it("rides a directed graph only along its edges", () => {
    const net = cross({ directed: true });
    expect(net.route("A", "E")).toMatchObject({ kind: "route", route: { path: ["A", "B", "E"] } });
    expect(net.route("E", "A")).toEqual({ kind: "none", reason: "no path" });
    expect(net.isPath(["A", "B", "E"])).toBe(true);
    expect(net.isPath(["E", "B", "A"])).toBe(false);
    expect(cross().isPath(["E", "B", "A"])).toBe(true);
  });

  it("passes a skipped station without changing there, and goes round a closed one", () => {
    const net = cross({ slow: 40 });
    // B skipped: no change of line there, so the slow line.
    expect(net.route("A", "E", { skip: new Set(["B"]) })).toMatchObject({ route: { path: ["A", "E"], line_sequence: ["S"] } });
    // Riding through a skipped station on one line is fine.
    expect(net.route("A", "C", { skip: new Set(["B"]) })).toMatchObject({ route: { path: ["A", "B", "C"], transfers: 0 } });
    expect(net.route("A", "C", { closed: new Set(["B"]) })).toEqual({ kind: "none", reason: "no line serves the origin or the destination" });
    expect(net.route("A", "E", { closed: new Set(["B"]) })).toMatchObject({ route: { path: ["A", "E"] } });
    expect(net.route("A", "B", { skip: new Set(["B"]) })).toEqual({ kind: "none", reason: "the destination is closed" });
    expect(net.route("A", "D", { dropEdge: (e) => e.line === "G" && e.to === "B" })).toEqual({ kind: "none", reason: "no line serves the origin or the destination" });
    expect(net.route("A", "E", { dropEdge: (e) => e.line === "R" })).toMatchObject({ route: { path: ["A", "E"] } });
  });
});
