// C: disruptions, written as the pack writes them in `system_context.active_disruptions` and a
// `disruption_update` event. Two kinds, with the pack's reading of each:
//  - a station closure: trains run through the station without stopping ("skip"): no boarding,
//    alighting or changing lines there;
//  - a line suspension: the line's track is out of use for every line that shares it (the pack's
//    line closures are line-agnostic). Where reading it as "only that line's trains stop" would
//    give another answer (shared track), the case is not written.
// The answer key: a sale on the fastest route that avoids the disruption, else advice and no sale.
import type { GraphEdge, KioskEvent } from "../../tools/data/schemas.ts";
import { ONE_ADULT, SALE, difficultyOf, passengerEvent, selectStation, shortFare, type CategoryResult, type DraftCase, type GenerationContext, type PricedTrip } from "./common.ts";
import type { GtRoute, Restrictions, RouteAnswer } from "./network.ts";

const STATION_REASONS = [
  { text: "a police investigation", keyword: "police" },
  { text: "an emergency structural inspection", keyword: "structural" },
  { text: "flooding at the entrance", keyword: "flooding" },
  { text: "a power failure", keyword: "power" },
  { text: "a fire alarm", keyword: "fire alarm" },
];
const LINE_REASONS = [
  { text: "a signal failure", keyword: "signal" },
  { text: "a power outage", keyword: "power" },
  { text: "a track fault", keyword: "track" },
];

const pairKey = (a: string, b: string): string => (a < b ? `${a}\u0000${b}` : `${b}\u0000${a}`);

/** Two answers agree when both are "no route" or both name the same route. */
function sameAnswer(a: RouteAnswer, b: RouteAnswer): boolean {
  if (a.kind === "route" && b.kind === "route") return JSON.stringify([a.route.path, a.route.transfers, a.route.distance_miles]) === JSON.stringify([b.route.path, b.route.transfers, b.route.distance_miles]);
  return a.kind === "none" && b.kind === "none";
}

interface Disruption {
  record: Record<string, unknown>;
  restrictions: Restrictions;
  /** The original route crosses it. */
  affects: (route: GtRoute) => boolean;
  post: Record<string, unknown>;
  /** A second reading whose answer must agree. */
  otherReading?: Restrictions;
}

function stationClosure(ctx: GenerationContext, stationId: string): Disruption {
  const station = ctx.station(stationId);
  const reason = ctx.rng.pick(STATION_REASONS);
  const severity = ctx.rng.next() < 0.5 ? "critical" : "warning";
  const around = ctx.net.neighbours(stationId).map((id) => ctx.station(id).name);
  const alternative = around.length > 0 ? `Use ${around.slice(0, 2).join(" or ")} instead` : null;
  return {
    record: {
      id: `sc-${stationId.toLowerCase()}`,
      line: null,
      segment: null,
      type: "station_closure",
      severity,
      message: `${station.name} station closed due to ${reason.text}. Trains will skip this station.${alternative ? ` ${alternative}.` : ""}`,
      alternative,
      eta_resolution: "2-3 hours",
      // The schema's structured pointer to the closed station (the reference's feed drops it;
      // the kiosk's interlock reads it rather than guess from the words).
      station_id: stationId,
    },
    restrictions: { skip: new Set([stationId]) },
    affects: (route) => route.path.includes(stationId),
    post: {
      restriction_type: "skip",
      expected_restrictions: [{ station: stationId, restriction: "skip" }],
      expected_segment_closures: [],
      expected_line_closures: [],
      advisory_required: true,
      advisory_severity: severity,
      advisory_must_mention: [station.name.toLowerCase(), "closed", reason.keyword],
    },
  };
}

/** The station pairs a line's edges join (either direction). */
function linePairs(ctx: GenerationContext, lineId: string): Set<string> {
  return new Set(ctx.net.lineEdges(lineId).map((e) => pairKey(e.from, e.to)));
}

const crosses = (route: GtRoute, pairs: ReadonlySet<string>): boolean => route.path.some((s, i) => i > 0 && pairs.has(pairKey(route.path[i - 1] as string, s)));

function lineSuspension(ctx: GenerationContext, lineId: string): Disruption {
  const line = ctx.system.lineById(lineId);
  const name = line?.name ?? lineId;
  const reason = ctx.rng.pick(LINE_REASONS);
  const edges = ctx.net.lineEdges(lineId);
  const closed = linePairs(ctx, lineId);
  const segments: [string, string][] = [];
  const listed = new Set<string>();
  for (const e of edges) {
    const key = pairKey(e.from, e.to);
    if (listed.has(key)) continue;
    listed.add(key);
    segments.push([e.from, e.to]);
  }
  return {
    record: {
      id: `ls-${lineId.toLowerCase()}`,
      line: lineId,
      segment: null,
      type: "line_suspension",
      severity: "critical",
      message: `${name} suspended due to ${reason.text}. No service on the whole line.`,
      alternative: "Use other lines where possible",
      eta_resolution: "Until further notice",
    },
    restrictions: { dropEdge: (e: GraphEdge) => closed.has(pairKey(e.from, e.to)) },
    otherReading: { dropEdge: (e: GraphEdge) => e.line === lineId },
    affects: (route) => crosses(route, closed),
    post: {
      restriction_type: "closed",
      expected_restrictions: [],
      expected_segment_closures: segments,
      expected_line_closures: [{ line: lineId }],
      advisory_required: true,
      advisory_severity: "critical",
      advisory_must_mention: [name.toLowerCase(), "suspended"],
    },
  };
}

function draft(ctx: GenerationContext, kind: string, original: PricedTrip, disruption: Disruption, answer: RouteAnswer): DraftCase | undefined {
  const stillValid = !disruption.affects(original.route);
  let shown = original;
  let alternative: GtRoute | null = null;
  if (!stillValid && answer.kind === "route") {
    const priced = ctx.priced(answer.route, answer.rawMiles, ONE_ADULT);
    if (!priced) return undefined;
    shown = priced;
    alternative = answer.route;
  }
  const sale = stillValid || alternative !== null;
  const events: KioskEvent[] = [
    selectStation("origin", original.origin),
    selectStation("destination", original.destination),
    passengerEvent({ adults: 1 }),
    { type: "disruption_update", disruption: disruption.record },
  ];
  return {
    difficulty: sale ? difficultyOf(shown.route) : "hard",
    interaction_mode: "structured",
    kind: { disruption_type: kind },
    title: `${original.origin.name} to ${original.destination.name} (${kind})`,
    events,
    system_context: ctx.systemContext({ active_disruptions: [disruption.record] }),
    ground_truth: {
      route: shown.route,
      fare: shortFare(shown.fare),
      original_route: original.route,
      post_disruption: Object.assign({ route_still_valid: stillValid, alternative_route: alternative }, disruption.post),
      ...(sale ? SALE : { expected_outcome: "advisory_only", expected_kiosk_action: "display_info", expected_reason_code: "ok" }),
    },
  };
}

export function disruptionCases(ctx: GenerationContext, count: number): CategoryResult {
  const drafts: DraftCase[] = [];
  const notes: string[] = [];
  const lines = ctx.system.lines.map((l) => l.id).filter((id) => ctx.net.lineEdges(id).length > 0);
  const pairsOf = new Map(lines.map((l) => [l, linePairs(ctx, l)]));
  let attempt = 0;
  for (const [o, d] of ctx.pairs(ctx.selectable(), 400 + count * 150)) {
    if (drafts.length >= count) break;
    const lineTurn = lines.length > 1 && attempt++ % 2 === 1;
    const original = ctx.pricedTrip(o, d, ONE_ADULT);
    if (!original) continue;
    let kind: string;
    let disruption: Disruption;
    if (lineTurn) {
      const used = lines.filter((l) => crosses(original.route, pairsOf.get(l) as Set<string>));
      if (used.length === 0) continue;
      kind = "line_suspension";
      disruption = lineSuspension(ctx, ctx.rng.pick(used));
    } else {
      // Mostly a station the trip passes or changes at; now and then its destination.
      const path = original.route.path;
      if (path.length < 3) continue;
      const target = ctx.rng.next() < 0.2 ? (path[path.length - 1] as string) : (ctx.rng.pick(path.slice(1, -1)) as string);
      kind = "station_closure";
      disruption = stationClosure(ctx, target);
    }
    const answer = ctx.net.route(o, d, disruption.restrictions);
    if (answer.kind === "ambiguous") {
      ctx.drop("another route around the disruption is as fast");
      continue;
    }
    if (disruption.otherReading && !sameAnswer(answer, ctx.net.route(o, d, disruption.otherReading))) {
      ctx.drop("the suspension closes shared track: other lines' trains may or may not run");
      continue;
    }
    const made = draft(ctx, kind, original, disruption, answer);
    if (made) drafts.push(made);
  }
  if (lines.length <= 1) notes.push("one line only: station closures, no line suspension (nothing else would run)");
  return { drafts, notes };
}
