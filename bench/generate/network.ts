// The generator's own route finder. Ground truth must not inherit a mistake of the kiosk's planner
// (tools/network), so this is a separate Dijkstra over (station, line) states with the same cost
// model: an edge costs its travel_time_min, changing lines at a station costs the station's
// transfer_min or 5 minutes, and a directed graph is ridden only along its edges. It also says when
// the data leaves the answer open: another route (other stations, transfers, miles or minutes) as
// fast to the data's precision.
import type { GraphEdge, Station } from "../../tools/data/schemas.ts";
import { pyRound } from "../../tools/py/number.ts";

export const DEFAULT_TRANSFER_MIN = 5;
/** Routes whose minutes differ by less than this are equally fast: the data gives minutes to the hundredth. */
export const TIE_MIN = 0.005;

export interface NetworkData {
  stations: readonly Station[];
  edges: readonly GraphEdge[];
  directed: boolean;
}

/** A route as the pack's ground truth writes it. */
export interface GtRoute {
  path: string[];
  line_sequence: string[];
  transfers: number;
  distance_miles: number;
  estimated_minutes: number;
}

export interface Restrictions {
  /** Stations out of use: no train calls and no track through them is ridden. */
  closed?: ReadonlySet<string>;
  /** Stations trains run through without stopping: no boarding, alighting or changing lines. */
  skip?: ReadonlySet<string>;
  /** Track out of use (an edge of graph.json that may not be ridden). */
  dropEdge?: (edge: GraphEdge) => boolean;
}

export type RouteAnswer =
  | {
      kind: "route";
      route: GtRoute;
      /** Every line labelling of the route that is as fast (shared track), smallest first. */
      lineSequences: string[][];
      /** The route's miles before rounding (a distance fare's bracket reads the rounded figure). */
      rawMiles: number;
    }
  | { kind: "none"; reason: string }
  | { kind: "ambiguous"; reason: string; routes: GtRoute[] };

interface Arc {
  from: number;
  to: number;
  minutes: number;
  miles: number;
  transfer: boolean;
}

interface StateGraph {
  stationOf: string[];
  lineOf: string[];
  statesAt: Map<string, number[]>;
  out: Arc[][];
  into: Arc[][];
}

/** A binary heap of (distance, insertion order) so that equal distances pop in a fixed order. */
class Heap {
  private items: { d: number; seq: number; node: number }[] = [];
  private seq = 0;
  get size(): number {
    return this.items.length;
  }
  push(d: number, node: number): void {
    const items = this.items;
    items.push({ d, seq: this.seq++, node });
    let i = items.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.less(i, p)) break;
      [items[i], items[p]] = [items[p]!, items[i]!];
      i = p;
    }
  }
  pop(): { d: number; node: number } {
    const items = this.items;
    const top = items[0]!;
    const last = items.pop()!;
    if (items.length > 0) {
      items[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < items.length && this.less(l, m)) m = l;
        if (r < items.length && this.less(r, m)) m = r;
        if (m === i) break;
        [items[i], items[m]] = [items[m]!, items[i]!];
        i = m;
      }
    }
    return top;
  }
  private less(a: number, b: number): boolean {
    const x = this.items[a]!;
    const y = this.items[b]!;
    return x.d < y.d || (x.d === y.d && x.seq < y.seq);
  }
}

function dijkstra(graph: StateGraph, sources: readonly number[], backward: boolean): { dist: Float64Array; via: (Arc | null)[] } {
  const n = graph.stationOf.length;
  const dist = new Float64Array(n).fill(Infinity);
  const via: (Arc | null)[] = new Array<Arc | null>(n).fill(null);
  const done = new Uint8Array(n);
  const heap = new Heap();
  for (const s of sources) {
    dist[s] = 0;
    heap.push(0, s);
  }
  while (heap.size > 0) {
    const { d, node } = heap.pop();
    if (done[node]) continue;
    done[node] = 1;
    for (const arc of backward ? graph.into[node]! : graph.out[node]!) {
      const next = backward ? arc.from : arc.to;
      const nd = d + arc.minutes;
      if (nd < dist[next]!) {
        dist[next] = nd;
        via[next] = arc;
        heap.push(nd, next);
      }
    }
  }
  return { dist, via };
}

export class Network {
  readonly stationIds: readonly string[];
  private readonly stations = new Map<string, Station>();
  private readonly unrestricted: StateGraph;

  constructor(private readonly data: NetworkData) {
    for (const s of data.stations) this.stations.set(s.id, s);
    this.stationIds = data.stations.map((s) => s.id);
    this.unrestricted = this.build({});
  }

  get directed(): boolean {
    return this.data.directed;
  }

  station(id: string): Station | undefined {
    return this.stations.get(id);
  }

  /** Lines with an edge at the station (what "serves" means in the pack). */
  linesAt(id: string): string[] {
    return [...new Set((this.unrestricted.statesAt.get(id) ?? []).map((s) => this.unrestricted.lineOf[s] as string))];
  }

  /** Stations one edge away (either direction), in graph.json order. */
  neighbours(id: string): string[] {
    const out = new Set<string>();
    for (const e of this.data.edges) {
      if (e.from === id) out.add(e.to);
      if (e.to === id) out.add(e.from);
    }
    out.delete(id);
    return [...out];
  }

  /** The edges of one line, as graph.json lists them. */
  lineEdges(line: string): GraphEdge[] {
    return this.data.edges.filter((e) => e.line === line);
  }

  /** Whether each consecutive pair of the path has an edge of graph.json (in its direction when directed). */
  isPath(path: readonly string[]): boolean {
    for (let i = 1; i < path.length; i++) {
      const a = path[i - 1];
      const b = path[i];
      if (!this.data.edges.some((e) => (e.from === a && e.to === b) || (!this.data.directed && e.from === b && e.to === a))) return false;
    }
    return path.length > 0;
  }

  /** The fastest route, or why there is none or more than one. */
  route(origin: string, destination: string, restrictions: Restrictions = {}): RouteAnswer {
    if (!this.stations.has(origin) || !this.stations.has(destination)) return { kind: "none", reason: "unknown station" };
    if (origin === destination) return { kind: "none", reason: "origin and destination are the same station" };
    for (const [id, what] of [[origin, "origin"], [destination, "destination"]] as const) {
      if (restrictions.closed?.has(id) || restrictions.skip?.has(id)) return { kind: "none", reason: `the ${what} is closed` };
    }
    const restricted = restrictions.closed !== undefined || restrictions.skip !== undefined || restrictions.dropEdge !== undefined;
    const graph = restricted ? this.build(restrictions) : this.unrestricted;
    const sources = graph.statesAt.get(origin) ?? [];
    const targets = graph.statesAt.get(destination) ?? [];
    if (sources.length === 0 || targets.length === 0) return { kind: "none", reason: "no line serves the origin or the destination" };
    const fwd = dijkstra(graph, sources, false);
    const bwd = dijkstra(graph, targets, true);
    let best = Infinity;
    for (const t of targets) best = Math.min(best, fwd.dist[t]!);
    if (!Number.isFinite(best)) return { kind: "none", reason: "no path" };

    // Every route within TIE_MIN of the best passes through an arc whose best route through it is
    // that fast; those routes are all the answers the data allows.
    const found = new Map<string, { route: GtRoute; raw: number; labels: Map<string, string[]> }>();
    let detours = 0;
    for (const arcs of graph.out) {
      for (const arc of arcs) {
        const through = fwd.dist[arc.from]! + arc.minutes + bwd.dist[arc.to]!;
        if (!(through <= best + TIE_MIN)) continue;
        const arcsOnPath = [...this.walkBack(fwd.via, arc.from), arc, ...this.walkForward(bwd.via, arc.to)];
        // A walk that comes back to a station it could have changed lines at (or stayed on) rides
        // there and back for nothing, possible only on zero-minute edges (CTA's Clark/Lake–State/Lake):
        // the same trip, not another route. Coming back past a station trains skip is a real route.
        if (this.isDetour(graph, arcsOnPath)) {
          detours++;
          continue;
        }
        const described = this.describe(graph, arcsOnPath);
        const key = JSON.stringify([described.route.path, described.route.transfers, described.route.distance_miles, described.route.estimated_minutes]);
        const entry = found.get(key) ?? { route: described.route, raw: described.rawMiles, labels: new Map<string, string[]>() };
        entry.labels.set(described.route.line_sequence.join("\u0000"), described.route.line_sequence);
        found.set(key, entry);
      }
    }
    const answers = [...found.values()];
    if (answers.length === 0 && detours > 0) return { kind: "ambiguous", reason: "the fastest way rides to a station and back for nothing", routes: [] };
    if (answers.length !== 1) {
      return { kind: "ambiguous", reason: `${answers.length} routes within ${TIE_MIN} min of the fastest`, routes: answers.map((a) => a.route) };
    }
    const only = answers[0]!;
    const lineSequences = [...only.labels.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, seq]) => seq);
    return { kind: "route", route: { ...only.route, line_sequence: lineSequences[0] ?? [] }, lineSequences, rawMiles: only.raw };
  }

  private walkBack(via: readonly (Arc | null)[], node: number): Arc[] {
    const arcs: Arc[] = [];
    for (let arc = via[node]; arc; arc = via[arc.from]) arcs.push(arc);
    return arcs.reverse();
  }

  private walkForward(via: readonly (Arc | null)[], node: number): Arc[] {
    const arcs: Arc[] = [];
    for (let arc = via[node]; arc; arc = via[arc.to]) arcs.push(arc);
    return arcs;
  }

  private isDetour(graph: StateGraph, arcs: readonly Arc[]): boolean {
    const states = [arcs[0]!.from, ...arcs.map((a) => a.to)];
    const minutesTo = [0];
    for (const a of arcs) minutesTo.push((minutesTo[minutesTo.length - 1] as number) + a.minutes);
    const visits = new Map<string, { first: number; last: number; runs: number }>();
    states.forEach((state, k) => {
      const station = graph.stationOf[state] as string;
      const v = visits.get(station);
      if (!v) visits.set(station, { first: k, last: k, runs: 1 });
      else {
        // Consecutive states at one station are a change of lines there, not a second visit.
        if (graph.stationOf[states[k - 1] as number] !== station) v.runs++;
        v.last = k;
      }
    });
    for (const v of visits.values()) {
      if (v.runs < 2) continue;
      const from = states[v.first] as number;
      const to = states[v.last] as number;
      const loop = (minutesTo[v.last] as number) - (minutesTo[v.first] as number);
      const shortcut = from === to ? 0 : (graph.out[from]!.find((a) => a.transfer && a.to === to)?.minutes ?? Infinity);
      if (shortcut <= loop + TIE_MIN) return true;
    }
    return false;
  }

  /** The pack's route record: stations ridden, lines in first-use order, transfers, rounded miles and minutes. */
  private describe(graph: StateGraph, arcs: readonly Arc[]): { route: GtRoute; rawMiles: number } {
    const first = arcs[0] as Arc;
    const path = [graph.stationOf[first.from] as string];
    const lines = [graph.lineOf[first.from] as string];
    let transfers = 0;
    let miles = 0;
    let minutes = 0;
    for (const arc of arcs) {
      minutes += arc.minutes;
      if (arc.transfer) {
        transfers++;
        const line = graph.lineOf[arc.to] as string;
        if (!lines.includes(line)) lines.push(line);
      } else {
        miles += arc.miles;
        path.push(graph.stationOf[arc.to] as string);
      }
    }
    return {
      route: { path, line_sequence: lines, transfers, distance_miles: pyRound(miles, 2), estimated_minutes: pyRound(minutes, 1) },
      rawMiles: miles,
    };
  }

  private build(r: Restrictions): StateGraph {
    const graph: StateGraph = { stationOf: [], lineOf: [], statesAt: new Map(), out: [], into: [] };
    const index = new Map<string, number>();
    const state = (station: string, line: string): number => {
      const key = `${station}\u0000${line}`;
      let i = index.get(key);
      if (i === undefined) {
        i = graph.stationOf.length;
        index.set(key, i);
        graph.stationOf.push(station);
        graph.lineOf.push(line);
        graph.out.push([]);
        graph.into.push([]);
        graph.statesAt.set(station, [...(graph.statesAt.get(station) ?? []), i]);
      }
      return i;
    };
    const add = (arc: Arc): void => {
      graph.out[arc.from]!.push(arc);
      graph.into[arc.to]!.push(arc);
    };
    for (const e of this.data.edges) {
      if (r.closed?.has(e.from) || r.closed?.has(e.to) || r.dropEdge?.(e)) continue;
      const a = state(e.from, e.line);
      const b = state(e.to, e.line);
      add({ from: a, to: b, minutes: e.travel_time_min, miles: e.distance_miles, transfer: false });
      if (!this.data.directed) add({ from: b, to: a, minutes: e.travel_time_min, miles: e.distance_miles, transfer: false });
    }
    for (const [station, states] of graph.statesAt) {
      if (r.skip?.has(station)) continue;
      const minutes = this.stations.get(station)?.transfer_min ?? DEFAULT_TRANSFER_MIN;
      for (const a of states) for (const b of states) if (a !== b) add({ from: a, to: b, minutes, miles: 0, transfer: true });
    }
    // A skipped station keeps its track but is no place to board or alight.
    if (r.skip) for (const station of r.skip) graph.statesAt.delete(station);
    return graph;
  }
}
