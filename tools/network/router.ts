// Route planning on one system: unrestricted routes on a cached expanded graph, restricted routes
// (closed / skipped / no-transfer stations, closed segments, closed lines) on a graph rebuilt per
// request, and the line metadata (terminals, loops) that line closures and line_info need.
import type { SystemData } from "../data/system.ts";
import { pyRound } from "../py/number.ts";
import { ExpandedGraph, NodeKind, type LineOrder, type TrackEdge } from "./expanded.ts";
import { ROUTE_MESSAGES } from "../wire/messages.ts";

/** A failure the reference reports to the caller as HTTP 404 with this message as detail. */
export class RouteError extends Error {
  override name = "RouteError";
}

export interface RouteStop {
  station_id: string;
  station_name: string;
  line: string | null;
  is_transfer: boolean;
  transfer_to: string | null;
}

/**
 * The stations a rider walks through, not merely rides past: the ends and where they change lines
 * (a stop flagged as a transfer, or one where the next stop's line differs). A lift out elsewhere on
 * the way concerns nobody on this trip.
 */
export function stationsUsed(stops: readonly { station_id: string; line?: string | null; is_transfer?: boolean | null }[]): string[] {
  return stops
    .filter((s, i) => i === 0 || i === stops.length - 1 || s.is_transfer === true || (i + 1 < stops.length && !!s.line && !!stops[i + 1]!.line && stops[i + 1]!.line !== s.line))
    .map((s) => s.station_id);
}

export interface RouteResult {
  /** Station ids in travel order. */
  path: string[];
  stops: RouteStop[];
  transfers: number;
  estimated_minutes: number;
  distance_miles: number;
  line_sequence: string[];
}

export interface StationRestriction {
  station: string;
  /** "closed", "skip" or "no_transfer"; any other value is recorded but has no effect. */
  restriction: string;
}

export interface LineClosure {
  line: string;
  from_station?: string;
  to_station?: string;
}

interface LineShape {
  /** Stations in first-appearance order over the line's own edges. */
  nodes: string[];
  degree: Map<string, number>;
  /** The line's own edges as [from, to], in graph.json order. */
  edges: [string, string][];
}

const RESOLVE_MEMO_LIMIT = 10_000;

export class RouteEngine {
  readonly lineOrder: LineOrder;
  private readonly stationIndex = new Map<string, number>();
  private readonly stationIds: string[] = [];
  private readonly lineIds: string[] = [];
  private readonly tracks: TrackEdge[] = [];
  /** stations.json ids (first occurrence), as indices. */
  private readonly knownStations: number[] = [];
  private readonly graph: ExpandedGraph;
  private readonly lineShapes = new Map<string, LineShape>();
  private readonly resolved = new Map<string, string | null>();
  /** Stations whose own minimum transfer time replaces the default penalty (an imported feed's transfers.txt). */
  private readonly transferMinutes = new Map<number, number>();

  constructor(
    readonly system: SystemData,
    lineOrder: LineOrder = "python-hash-13",
  ) {
    this.lineOrder = lineOrder;
    for (const s of system.stations) {
      if (this.stationIndex.has(s.id)) continue;
      this.knownStations.push(this.indexOfStation(s.id));
    }
    const lineIndex = new Map<string, number>();
    for (const e of system.edges) {
      let l = lineIndex.get(e.line);
      if (l === undefined) {
        l = this.lineIds.length;
        this.lineIds.push(e.line);
        lineIndex.set(e.line, l);
      }
      this.tracks.push({
        from: this.indexOfStation(e.from),
        to: this.indexOfStation(e.to),
        line: l,
        minutes: e.travel_time_min,
        miles: e.distance_miles,
      });
    }
    for (const s of system.stations) if (s.transfer_min !== undefined) this.transferMinutes.set(this.indexOfStation(s.id), s.transfer_min);
    this.graph = this.buildGraph();
  }

  private indexOfStation(id: string): number {
    let i = this.stationIndex.get(id);
    if (i === undefined) {
      i = this.stationIds.length;
      this.stationIds.push(id);
      this.stationIndex.set(id, i);
    }
    return i;
  }

  private buildGraph(restrictions?: {
    closedPairs: ReadonlySet<string>;
    closed: ReadonlySet<number>;
    noEntryExit: ReadonlySet<number>;
    noTransfer: ReadonlySet<number>;
  }): ExpandedGraph {
    const base = {
      stationCount: this.stationIds.length,
      stations: this.knownStations,
      lineIds: this.lineIds,
      edges: this.tracks,
      lineOrder: this.lineOrder,
      directed: this.system.directed,
      transferMinutes: this.transferMinutes,
    };
    if (!restrictions) return ExpandedGraph.build(base);
    const { closedPairs, closed } = restrictions;
    return ExpandedGraph.build({
      ...base,
      dropEdge: (e) => closedPairs.has(pairKey(e.from, e.to)) || closed.has(e.from) || closed.has(e.to),
      closed,
      noEntryExit: restrictions.noEntryExit,
      noTransfer: restrictions.noTransfer,
    });
  }

  /** The reference's name/id resolution, failing with its message (memoised: names scan the list). */
  resolve(input: string): string {
    let id = this.resolved.get(input);
    if (id === undefined) {
      if (this.resolved.size >= RESOLVE_MEMO_LIMIT) this.resolved.clear();
      id = this.system.resolveStation(input)?.id ?? null;
      this.resolved.set(input, id);
    }
    if (id === null) throw new RouteError(ROUTE_MESSAGES.unknownStation(input));
    return id;
  }

  /** Fastest route (minutes, with the transfer penalty) on the full network. */
  route(origin: string, destination: string): RouteResult {
    const originId = this.resolve(origin);
    const destId = this.resolve(destination);
    if (originId === destId) {
      const station = this.system.stationById(originId);
      return {
        path: [originId],
        stops: [{ station_id: originId, station_name: station?.name ?? originId, line: null, is_transfer: false, transfer_to: null }],
        transfers: 0,
        estimated_minutes: 0,
        distance_miles: 0,
        line_sequence: [],
      };
    }
    const o = this.stationIndex.get(originId) as number;
    const d = this.stationIndex.get(destId) as number;
    const source = this.graph.enterNode(o);
    const target = this.graph.exitNode(d);
    if (source === -1) throw new RouteError(ROUTE_MESSAGES.notInGraph(originId));
    if (target === -1) throw new RouteError(ROUTE_MESSAGES.notInGraph(destId));
    const nodes = this.graph.shortestPath(source, target);
    if (!nodes) throw new RouteError(ROUTE_MESSAGES.noPath(originId, destId));
    return this.describe(this.graph, nodes);
  }

  /**
   * Route under restrictions. Without any station restriction or segment this is `route`.
   * Checks run in the reference's order: endpoints, restricted stations, closed endpoints,
   * then segments (a segment with fewer than two stations is a crash there, a TypeError here).
   */
  routeWithRestrictions(
    origin: string,
    destination: string,
    restrictions: readonly StationRestriction[],
    segments: readonly (readonly string[])[],
  ): RouteResult {
    if (restrictions.length === 0 && segments.length === 0) return this.route(origin, destination);
    const originId = this.resolve(origin);
    const destId = this.resolve(destination);

    const byStation = new Map<string, string>();
    for (const r of restrictions) byStation.set(this.resolve(r.station), r.restriction);
    for (const [label, id, name] of [
      ["Origin", originId, origin],
      ["Destination", destId, destination],
    ] as const) {
      const restriction = byStation.get(id);
      if (restriction === "closed" || restriction === "skip") {
        throw new RouteError(ROUTE_MESSAGES.endpointRestricted(label, name, restriction));
      }
    }

    const closedPairs = new Set<string>();
    for (const seg of segments) {
      if (seg.length < 2) throw new TypeError("segment closure needs two stations (IndexError in the reference)");
      const u = this.stationIndex.get(this.resolve(seg[0] as string));
      const v = this.stationIndex.get(this.resolve(seg[1] as string));
      // A resolvable station always has an index (every stations.json id is indexed).
      closedPairs.add(pairKey(u as number, v as number));
      closedPairs.add(pairKey(v as number, u as number));
    }

    const closed = new Set<number>();
    const noEntryExit = new Set<number>();
    const noTransfer = new Set<number>();
    for (const [id, restriction] of byStation) {
      const s = this.stationIndex.get(id) as number;
      if (restriction === "closed") closed.add(s);
      if (restriction === "closed" || restriction === "skip") noEntryExit.add(s);
      if (restriction === "closed" || restriction === "skip" || restriction === "no_transfer") noTransfer.add(s);
    }

    const graph = this.buildGraph({ closedPairs, closed, noEntryExit, noTransfer });
    const noPath = (): RouteError =>
      new RouteError(ROUTE_MESSAGES.noPathWithRestrictions(origin, destination));
    const source = graph.enterNode(this.stationIndex.get(originId) as number);
    const target = graph.exitNode(this.stationIndex.get(destId) as number);
    if (source === -1 || target === -1) throw noPath();
    const nodes = graph.shortestPath(source, target);
    if (!nodes) throw noPath();
    return this.describe(graph, nodes);
  }

  /**
   * Line closures as closed station pairs: per closure, the span of its line it takes out of
   * service, then the line's own graph edges inside that span (graph.json order). The pairs are
   * later closed for every line. `line` must already be alias-resolved.
   */
  expandLineClosures(closures: readonly LineClosure[]): [string, string][] {
    return closures.flatMap((closure) => {
      const span = this.closedSpan(closure);
      return this.lineShape(closure.line)
        .edges.filter(([from, to]) => span.has(from) && span.has(to))
        .map(([from, to]): [string, string] => [from, to]);
    });
  }

  /**
   * The stations a closure covers: its whole line, or the stretch between its two ends. Checks in
   * the reference's order: the line, its stations, both ends given, not a loop, ends on the line.
   */
  private closedSpan({ line: lineId, from_station: from, to_station: to }: LineClosure): ReadonlySet<string> {
    const stations = lineId ? this.system.lineById(lineId)?.stations : undefined;
    if (!stations) throw new RouteError(ROUTE_MESSAGES.unknownLine(String(lineId)));
    if (stations.length === 0) throw new RouteError(ROUTE_MESSAGES.lineWithoutStations(lineId));
    if (from === undefined && to === undefined) return new Set(stations);
    if (from === undefined || to === undefined) throw new RouteError(ROUTE_MESSAGES.partialClosureNeedsBothEnds(lineId));
    if (this.isLoopLine(lineId)) throw new RouteError(ROUTE_MESSAGES.partialClosureOnLoop(lineId));
    const ends = [this.resolve(from), this.resolve(to)].map((id) => stations.indexOf(id));
    const [first, last] = [Math.min(...ends), Math.max(...ends)];
    if (first === -1) throw new RouteError(ROUTE_MESSAGES.closureEndsNotOnLine(from, to, lineId));
    return new Set(stations.slice(first, last + 1));
  }

  private lineShape(lineId: string): LineShape {
    let shape = this.lineShapes.get(lineId);
    if (shape) return shape;
    const neighbours = new Map<string, Set<string>>();
    const touch = (s: string): Set<string> => {
      let set = neighbours.get(s);
      if (!set) neighbours.set(s, (set = new Set()));
      return set;
    };
    const edges: [string, string][] = [];
    for (const e of this.system.edges) {
      if (e.line !== lineId) continue;
      touch(e.from).add(e.to);
      touch(e.to).add(e.from);
      edges.push([e.from, e.to]);
    }
    // Undirected simple graph degree: distinct neighbours, a self-loop counting twice.
    const degree = new Map<string, number>();
    for (const [s, set] of neighbours) degree.set(s, set.size + (set.has(s) ? 1 : 0));
    shape = { nodes: [...neighbours.keys()], degree, edges };
    this.lineShapes.set(lineId, shape);
    return shape;
  }

  /** True when every station of the line's own edge subgraph has degree ≥ 2 (and it has one). */
  isLoopLine(lineId: string): boolean {
    const shape = this.lineShape(lineId);
    if (shape.nodes.length === 0) return false;
    return shape.nodes.every((s) => (shape.degree.get(s) as number) >= 2);
  }

  /** Degree-1 stations of the line's own subgraph, in first-appearance order over graph.json. */
  lineTerminals(lineId: string): string[] {
    const shape = this.lineShape(lineId);
    return shape.nodes.filter((s) => shape.degree.get(s) === 1);
  }

  /** Turn a node path into stops, transfers, line sequence and rounded totals. */
  private describe(graph: ExpandedGraph, nodes: readonly number[]): RouteResult {
    const path: string[] = [];
    const stops: RouteStop[] = [];
    const lineSequence: string[] = [];
    let miles = 0.0;
    let minutes = 0.0;
    let transfers = 0;
    let current: string | null = null;
    const stop = (stationIdx: number): void => {
      const id = this.stationIds[stationIdx] as string;
      const station = this.system.stationById(id);
      // The reference indexes stations.json here and would crash on an unknown id.
      if (!station) throw new TypeError(`station '${id}' of graph.json is not in stations.json`);
      path.push(id);
      stops.push({ station_id: id, station_name: station.name, line: current, is_transfer: false, transfer_to: null });
    };
    for (let i = 0; i + 1 < nodes.length; i++) {
      const u = nodes[i] as number;
      const v = nodes[i + 1] as number;
      const kindU = graph.kind[u];
      const kindV = graph.kind[v];
      if (kindU === NodeKind.Enter) {
        current = this.lineIds[graph.line[v] as number] as string;
        if (!lineSequence.includes(current)) lineSequence.push(current);
        stop(graph.station[u] as number);
      } else if (kindU === NodeKind.Track && kindV === NodeKind.Track) {
        const attrs = graph.edge(u, v) as { weight: number; miles: number };
        const sameLine = graph.line[u] === graph.line[v];
        if (sameLine) {
          miles += attrs.miles;
          minutes += attrs.weight;
          stop(graph.station[v] as number);
        } else {
          const next = this.lineIds[graph.line[v] as number] as string;
          transfers += 1;
          minutes += attrs.weight;
          if (!lineSequence.includes(next)) lineSequence.push(next);
          const last = stops[stops.length - 1];
          if (last) {
            last.is_transfer = true;
            last.transfer_to = next;
          }
          current = next;
        }
      }
      // Exit edges add nothing.
    }
    return {
      path,
      stops,
      transfers,
      estimated_minutes: pyRound(minutes, 1),
      distance_miles: pyRound(miles, 2),
      line_sequence: lineSequence,
    };
  }
}

function pairKey(u: number, v: number): string {
  return `${u}:${v}`;
}

const engines = new WeakMap<SystemData, Map<LineOrder, RouteEngine>>();

/** The engine for a system and line order, built once (the expanded graph is cached with it). */
export function routeEngineFor(system: SystemData, lineOrder: LineOrder = "python-hash-13"): RouteEngine {
  let bySystem = engines.get(system);
  if (!bySystem) engines.set(system, (bySystem = new Map()));
  let engine = bySystem.get(lineOrder);
  if (!engine) bySystem.set(lineOrder, (engine = new RouteEngine(system, lineOrder)));
  return engine;
}
