// The transfer-aware "expanded" routing graph and the search over it.
//
// Every station s becomes an entry node, an exit node and one track node per line serving it.
// Riding between stations follows track edges (weight = travel minutes), changing lines at a
// station follows a transfer edge (TRANSFER_PENALTY_MIN), and a journey starts on an entry edge and
// ends on an exit edge (both free). The search is a replica of networkx's bidirectional Dijkstra:
// which of several equal-cost paths it returns depends on the order in which edges were inserted,
// so the builder inserts them in exactly the reference's order and the search keeps its exact
// alternation, heap tie-breaking and relaxation rules.
import { pySetOrder } from "../py/pyhash.ts";

export const TRANSFER_PENALTY_MIN = 5.0;

/**
 * How the lines of one station are ordered when its entry and exit edges are inserted; this only
 * decides which of two equal-cost parallel lines labels a route.
 * - "python-hash-13": CPython's set iteration order under PYTHONHASHSEED=13, the order in which the
 *   reference produced the published oracle (identical labels).
 * - "sorted": plain sorted line ids; deterministic without hash emulation, but labels on shared
 *   track may differ from the oracle (stations, transfers, minutes and miles never do).
 */
export type LineOrder = "python-hash-13" | "sorted";
export const LINE_ORDERS: readonly LineOrder[] = ["python-hash-13", "sorted"];

export const NodeKind = { Enter: 0, Exit: 1, Track: 2 } as const;
export type NodeKind = (typeof NodeKind)[keyof typeof NodeKind];

/** A travel edge of graph.json, resolved to dense indices. */
export interface TrackEdge {
  from: number;
  to: number;
  line: number;
  minutes: number;
  miles: number;
}

interface EdgeAttrs {
  weight: number;
  miles: number;
}

/** A station-line set in insertion order, iterated as the configured line order says. */
const setOrderMemo = new Map<string, readonly string[]>();
const SET_ORDER_MEMO_LIMIT = 50_000;

function orderedLines(insertion: readonly string[], order: LineOrder): readonly string[] {
  if (order === "sorted") return [...insertion].sort(comparePyStrings);
  if (insertion.length < 2) return insertion;
  const key = insertion.join("\u0000");
  let hit = setOrderMemo.get(key);
  if (!hit) {
    if (setOrderMemo.size >= SET_ORDER_MEMO_LIMIT) setOrderMemo.clear();
    hit = pySetOrder(insertion, 13);
    setOrderMemo.set(key, hit);
  }
  return hit;
}

/** Python's str ordering (by code point; differs from UTF-16 order only for astral characters). */
export function comparePyStrings(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const ca = a.codePointAt(i) as number;
    const cb = b.codePointAt(i) as number;
    if (ca !== cb) return ca < cb ? -1 : 1;
    if (ca > 0xffff) i++;
  }
  return a.length < b.length ? -1 : 1;
}

export interface ExpandedGraphSpec {
  stationCount: number;
  /** Station indices that get entry/exit/transfer edges (stations.json, in any order). */
  stations: readonly number[];
  lineIds: readonly string[];
  edges: readonly TrackEdge[];
  lineOrder: LineOrder;
  /** Each edge runs one way only (an imported timetable times each direction); else both ways. */
  directed?: boolean;
  /** Minutes to change lines at a station, where the network says (else TRANSFER_PENALTY_MIN). */
  transferMinutes?: ReadonlyMap<number, number>;
  /** Track edges to leave out (restricted routing). */
  dropEdge?: (edge: TrackEdge) => boolean;
  /** Stations with no node at all (closed). */
  closed?: ReadonlySet<number>;
  /** Stations without entry/exit edges (closed or skipped). */
  noEntryExit?: ReadonlySet<number>;
  /** Stations without transfer edges. */
  noTransfer?: ReadonlySet<number>;
}

/**
 * An immutable directed graph in compressed form: for each node its successors and its
 * predecessors, each in the order the edges were first inserted (Python dict order).
 */
export class ExpandedGraph {
  readonly nodeCount: number;
  readonly kind: Uint8Array;
  readonly station: Int32Array;
  readonly line: Int32Array;
  readonly succStart: Int32Array;
  readonly succNode: Int32Array;
  readonly succWeight: Float64Array;
  readonly succMiles: Float64Array;
  readonly predStart: Int32Array;
  readonly predNode: Int32Array;
  readonly predWeight: Float64Array;
  private readonly enterOf: Int32Array;
  private readonly exitOf: Int32Array;
  private scratch: SearchScratch | undefined;

  private constructor(
    kind: number[],
    station: number[],
    line: number[],
    succ: Map<number, EdgeAttrs>[],
    pred: Map<number, EdgeAttrs>[],
    enterOf: Int32Array,
    exitOf: Int32Array,
  ) {
    const n = kind.length;
    this.nodeCount = n;
    this.kind = Uint8Array.from(kind);
    this.station = Int32Array.from(station);
    this.line = Int32Array.from(line);
    this.enterOf = enterOf;
    this.exitOf = exitOf;
    let succTotal = 0;
    let predTotal = 0;
    for (let v = 0; v < n; v++) {
      succTotal += (succ[v] as Map<number, EdgeAttrs>).size;
      predTotal += (pred[v] as Map<number, EdgeAttrs>).size;
    }
    this.succStart = new Int32Array(n + 1);
    this.succNode = new Int32Array(succTotal);
    this.succWeight = new Float64Array(succTotal);
    this.succMiles = new Float64Array(succTotal);
    this.predStart = new Int32Array(n + 1);
    this.predNode = new Int32Array(predTotal);
    this.predWeight = new Float64Array(predTotal);
    let s = 0;
    let p = 0;
    for (let v = 0; v < n; v++) {
      this.succStart[v] = s;
      for (const [w, attrs] of succ[v] as Map<number, EdgeAttrs>) {
        this.succNode[s] = w;
        this.succWeight[s] = attrs.weight;
        this.succMiles[s] = attrs.miles;
        s++;
      }
      this.predStart[v] = p;
      for (const [u, attrs] of pred[v] as Map<number, EdgeAttrs>) {
        this.predNode[p] = u;
        this.predWeight[p] = attrs.weight;
        p++;
      }
    }
    this.succStart[n] = s;
    this.predStart[n] = p;
  }

  /** Build the graph, inserting edges in the reference's order (see the file comment). */
  static build(spec: ExpandedGraphSpec): ExpandedGraph {
    const kind: number[] = [];
    const station: number[] = [];
    const line: number[] = [];
    const succ: Map<number, EdgeAttrs>[] = [];
    const pred: Map<number, EdgeAttrs>[] = [];
    const trackNodes = new Map<number, number>(); // station * lineCount + line → node
    const lineCount = spec.lineIds.length;
    const enterOf = new Int32Array(spec.stationCount).fill(-1);
    const exitOf = new Int32Array(spec.stationCount).fill(-1);

    const newNode = (k: NodeKind, s: number, l: number): number => {
      kind.push(k);
      station.push(s);
      line.push(l);
      succ.push(new Map());
      pred.push(new Map());
      return kind.length - 1;
    };
    const track = (s: number, l: number): number => {
      const key = s * lineCount + l;
      let node = trackNodes.get(key);
      if (node === undefined) trackNodes.set(key, (node = newNode(NodeKind.Track, s, l)));
      return node;
    };
    // networkx add_edge: a repeated edge keeps its place and takes the new attributes.
    const addEdge = (u: number, v: number, weight: number, miles: number): void => {
      const existing = (succ[u] as Map<number, EdgeAttrs>).get(v);
      if (existing) {
        existing.weight = weight;
        existing.miles = miles;
        return;
      }
      const attrs = { weight, miles };
      (succ[u] as Map<number, EdgeAttrs>).set(v, attrs);
      (pred[v] as Map<number, EdgeAttrs>).set(u, attrs);
    };

    // Lines per station, in first-insertion order (the insertion history of a Python set).
    const stationLines: number[][] = Array.from({ length: spec.stationCount }, () => []);
    const noteLine = (s: number, l: number): void => {
      const list = stationLines[s] as number[];
      if (!list.includes(l)) list.push(l);
    };

    for (const e of spec.edges) {
      if (spec.dropEdge?.(e)) continue;
      noteLine(e.from, e.line);
      noteLine(e.to, e.line);
      addEdge(track(e.from, e.line), track(e.to, e.line), e.minutes, e.miles);
      if (!spec.directed) addEdge(track(e.to, e.line), track(e.from, e.line), e.minutes, e.miles);
    }

    const lineIndex = new Map(spec.lineIds.map((id, i) => [id, i]));
    for (const s of spec.stations) {
      if (spec.closed?.has(s)) continue;
      const insertion = (stationLines[s] as number[]).map((l) => spec.lineIds[l] as string);
      if (!spec.noEntryExit?.has(s)) {
        for (const id of orderedLines(insertion, spec.lineOrder)) {
          const t = track(s, lineIndex.get(id) as number);
          if (enterOf[s] === -1) enterOf[s] = newNode(NodeKind.Enter, s, -1);
          if (exitOf[s] === -1) exitOf[s] = newNode(NodeKind.Exit, s, -1);
          addEdge(enterOf[s] as number, t, 0, 0);
          addEdge(t, exitOf[s] as number, 0, 0);
        }
      }
      if (!spec.noTransfer?.has(s)) {
        const sorted = [...insertion].sort(comparePyStrings).map((id) => track(s, lineIndex.get(id) as number));
        const penalty = spec.transferMinutes?.get(s) ?? TRANSFER_PENALTY_MIN;
        for (let i = 0; i < sorted.length; i++) {
          for (let j = i + 1; j < sorted.length; j++) {
            addEdge(sorted[i] as number, sorted[j] as number, penalty, 0);
            addEdge(sorted[j] as number, sorted[i] as number, penalty, 0);
          }
        }
      }
    }
    return new ExpandedGraph(kind, station, line, succ, pred, enterOf, exitOf);
  }

  /** The entry node of a station, or -1 when the graph has none. */
  enterNode(stationIndex: number): number {
    return this.enterOf[stationIndex] ?? -1;
  }

  exitNode(stationIndex: number): number {
    return this.exitOf[stationIndex] ?? -1;
  }

  /** Weight and miles of the edge u → v (the last attributes inserted for it). */
  edge(u: number, v: number): { weight: number; miles: number } | undefined {
    for (let i = this.succStart[u] as number, end = this.succStart[u + 1] as number; i < end; i++) {
      if (this.succNode[i] === v) return { weight: this.succWeight[i] as number, miles: this.succMiles[i] as number };
    }
    return undefined;
  }

  /**
   * networkx `bidirectional_dijkstra(G, source, target)` node path, or undefined when there is no
   * path. Both frontiers alternate (forward first), heap ties break on one shared push counter,
   * stale heap entries still use up their turn, and only strictly shorter distances update.
   */
  shortestPath(source: number, target: number): number[] | undefined {
    if (source === target) return [source];
    const sc = (this.scratch ??= new SearchScratch(this.nodeCount));
    sc.reset();
    const { seenDist, finalStamp, seenStamp, pred } = sc;
    const stamp = sc.stamp;
    const heaps = sc.heaps;
    let counter = 0;
    (seenDist[0] as Float64Array)[source] = 0;
    (seenStamp[0] as Uint32Array)[source] = stamp;
    (pred[0] as Int32Array)[source] = -1;
    (seenDist[1] as Float64Array)[target] = 0;
    (seenStamp[1] as Uint32Array)[target] = stamp;
    (pred[1] as Int32Array)[target] = -1;
    heaps[0].push(0, counter++, source);
    heaps[1].push(0, counter++, target);
    let bestTotal = 0;
    let meet = -1;
    let dir = 1;
    while (heaps[0].size > 0 && heaps[1].size > 0) {
      dir = 1 - dir;
      const heap = heaps[dir] as MinHeap;
      const dist = heap.topDist();
      const v = heap.pop();
      const myFinal = finalStamp[dir] as Uint32Array;
      if (myFinal[v] === stamp) continue;
      myFinal[v] = stamp;
      if ((finalStamp[1 - dir] as Uint32Array)[v] === stamp) {
        return this.joinPath(meet, pred[0] as Int32Array, pred[1] as Int32Array);
      }
      const mySeen = seenStamp[dir] as Uint32Array;
      const myDist = seenDist[dir] as Float64Array;
      const myPred = pred[dir] as Int32Array;
      const otherSeen = seenStamp[1 - dir] as Uint32Array;
      const otherDist = seenDist[1 - dir] as Float64Array;
      const start = dir === 0 ? this.succStart : this.predStart;
      const nodes = dir === 0 ? this.succNode : this.predNode;
      const weights = dir === 0 ? this.succWeight : this.predWeight;
      for (let i = start[v] as number, end = start[v + 1] as number; i < end; i++) {
        const w = nodes[i] as number;
        if (myFinal[w] === stamp) continue; // weights are never negative
        const length = dist + (weights[i] as number);
        if (mySeen[w] !== stamp || length < (myDist[w] as number)) {
          mySeen[w] = stamp;
          myDist[w] = length;
          heap.push(length, counter++, w);
          myPred[w] = v;
          if (otherSeen[w] === stamp) {
            const total = length + (otherDist[w] as number);
            if (meet === -1 || bestTotal > total) {
              bestTotal = total;
              meet = w;
            }
          }
        }
      }
    }
    return undefined;
  }

  private joinPath(meet: number, forward: Int32Array, backward: Int32Array): number[] {
    const head: number[] = [];
    for (let v = meet; v !== -1; v = forward[v] as number) head.push(v);
    head.reverse();
    for (let v = backward[meet] as number; v !== -1; v = backward[v] as number) head.push(v);
    return head;
  }
}

/** Reusable per-graph search state; a stamp marks which entries belong to the current search. */
class SearchScratch {
  stamp = 0;
  readonly seenDist: [Float64Array, Float64Array];
  readonly seenStamp: [Uint32Array, Uint32Array];
  readonly finalStamp: [Uint32Array, Uint32Array];
  readonly pred: [Int32Array, Int32Array];
  readonly heaps: [MinHeap, MinHeap] = [new MinHeap(), new MinHeap()];

  constructor(n: number) {
    this.seenDist = [new Float64Array(n), new Float64Array(n)];
    this.seenStamp = [new Uint32Array(n), new Uint32Array(n)];
    this.finalStamp = [new Uint32Array(n), new Uint32Array(n)];
    this.pred = [new Int32Array(n), new Int32Array(n)];
  }

  reset(): void {
    this.stamp++;
    if (this.stamp === 0xffffffff) {
      for (const a of [...this.seenStamp, ...this.finalStamp]) a.fill(0);
      this.stamp = 1;
    }
    this.heaps[0].clear();
    this.heaps[1].clear();
  }
}

/** Binary min-heap on (distance, sequence); sequences are unique, so the order is total. */
class MinHeap {
  private dist: number[] = [];
  private seq: number[] = [];
  private node: number[] = [];

  get size(): number {
    return this.node.length;
  }

  clear(): void {
    this.dist.length = 0;
    this.seq.length = 0;
    this.node.length = 0;
  }

  private less(i: number, j: number): boolean {
    const di = this.dist[i] as number;
    const dj = this.dist[j] as number;
    return di < dj || (di === dj && (this.seq[i] as number) < (this.seq[j] as number));
  }

  private swap(i: number, j: number): void {
    const d = this.dist[i] as number;
    this.dist[i] = this.dist[j] as number;
    this.dist[j] = d;
    const s = this.seq[i] as number;
    this.seq[i] = this.seq[j] as number;
    this.seq[j] = s;
    const n = this.node[i] as number;
    this.node[i] = this.node[j] as number;
    this.node[j] = n;
  }

  push(dist: number, seq: number, node: number): void {
    this.dist.push(dist);
    this.seq.push(seq);
    this.node.push(node);
    let i = this.node.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.less(i, parent)) break;
      this.swap(i, parent);
      i = parent;
    }
  }

  topDist(): number {
    return this.dist[0] as number;
  }

  pop(): number {
    const top = this.node[0] as number;
    const last = this.node.length - 1;
    this.swap(0, last);
    this.dist.pop();
    this.seq.pop();
    this.node.pop();
    let i = 0;
    const n = this.node.length;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let smallest = i;
      if (l < n && this.less(l, smallest)) smallest = l;
      if (r < n && this.less(r, smallest)) smallest = r;
      if (smallest === i) break;
      this.swap(i, smallest);
      i = smallest;
    }
    return top;
  }
}
