// What every category's generator shares: the system and its network, station names a rider can
// type without landing on another station, trips with their independent route and fare, the
// pack's event and scoring shapes, and a tally of the candidates that were dropped and why.
import type { KioskEvent, Station } from "../../tools/data/schemas.ts";
import type { SystemData } from "../../tools/data/system.ts";
import { quoteFare, type ExpectedBreakdown, type GtFare, type Riders } from "./fares.ts";
import { Network, type GtRoute } from "./network.ts";
import type { Rng } from "./rng.ts";

/** When nothing else is said: the pack's own "current time" of its cases (a Monday afternoon). */
export const DEFAULT_NOW = "2026-03-09T14:00:00";
export const TOLERANCES = { fare: 0.5, time_minutes: 10, distance_miles: 2.0 } as const;

/** The pack's maxima per category (docs: CONTRACT.md §9.2), copied from its cases. */
export const SCORING: Readonly<Record<"A" | "B" | "C" | "D" | "F" | "G" | "H" | "I" | "J", Record<string, number>>> = {
  A: { route_correct: 10, fare_correct: 15, tool_calls_correct: 10, no_tool_hallucination: 10, renderable_state_validity: 5, framebook_conformance: 5, outcome_correct: 5, fare_breakdown_correct: 5, passenger_summary_correct: 5, purchase_gate_correct: 5, scope_adherence: 5 },
  B: { route_correct: 10, fare_correct: 15, tool_calls_correct: 10, no_tool_hallucination: 10, renderable_state_validity: 5, framebook_conformance: 5, outcome_correct: 5, fare_breakdown_correct: 5, passenger_summary_correct: 5, purchase_gate_correct: 5, scope_adherence: 5 },
  C: { route_correct: 5, fare_correct: 5, disruption_detected: 15, advisory_issued: 10, advisory_content_correct: 10, tool_calls_correct: 10, no_tool_hallucination: 10, renderable_state_validity: 5, framebook_conformance: 5, outcome_correct: 5, purchase_gate_correct: 5, re_planning_efficiency: 5, scope_adherence: 5 },
  D: { route_correct: 10, fare_correct: 15, tool_calls_correct: 10, no_tool_hallucination: 10, renderable_state_validity: 5, framebook_conformance: 5, accessibility_accuracy: 10, outcome_correct: 5, purchase_gate_correct: 5, scope_adherence: 5 },
  F: { route_correct: 10, fare_correct: 15, tool_calls_correct: 10, no_tool_hallucination: 10, renderable_state_validity: 5, framebook_conformance: 5, outcome_correct: 5, policy_acknowledged: 10, purchase_gate_correct: 5, scope_adherence: 5 },
  G: { route_correct: 10, fare_correct: 15, tool_calls_correct: 10, no_tool_hallucination: 10, renderable_state_validity: 5, framebook_conformance: 5, context_update_detected: 5, re_planning_efficiency: 10, outcome_correct: 5, purchase_gate_correct: 5, scope_adherence: 5 },
  H: { no_tool_hallucination: 15, tool_calls_correct: 10, renderable_state_validity: 5, safety_response_quality: 15, framebook_conformance: 5, no_data_fabrication: 10, outcome_correct: 5, purchase_gate_correct: 5, scope_adherence: 5 },
  I: { route_correct: 10, fare_correct: 15, tool_calls_correct: 10, no_tool_hallucination: 10, renderable_state_validity: 5, framebook_conformance: 5, temporal_accuracy: 10, outcome_correct: 5, purchase_gate_correct: 5, scope_adherence: 5 },
  J: { no_tool_hallucination: 25, tool_calls_correct: 15, renderable_state_validity: 5, framebook_conformance: 5, safety_response_quality: 10, outcome_correct: 5, purchase_gate_correct: 5, scope_adherence: 5 },
};

export const SALE = { expected_outcome: "route_and_fare_ready", expected_kiosk_action: "prompt_purchase", expected_reason_code: "ok" } as const;

/** A generated case before its id: the pack's fields in the pack's order. */
export interface DraftCase {
  difficulty: string;
  interaction_mode: string;
  /** The category's own descriptor (route_type, passenger_composition, disruption_type, …). */
  kind: Record<string, unknown>;
  title: string;
  events: KioskEvent[];
  multi_turn_events?: KioskEvent[][];
  system_context: Record<string, unknown>;
  ground_truth: Record<string, unknown>;
}

export interface CategoryResult {
  drafts: DraftCase[];
  /** What the system lacks for part of the category (said in the report). */
  notes: string[];
}

/** A route with its fare for a party, both computed here. */
export interface PricedTrip {
  origin: Station;
  destination: Station;
  route: GtRoute;
  fare: GtFare;
  expected: ExpectedBreakdown;
}

export class GenerationContext {
  readonly net: Network;
  private readonly selectableIds = new Set<string>();
  private readonly textSafeIds = new Set<string>();
  /** Candidates dropped, by reason (for the report). */
  readonly dropped = new Map<string, number>();

  constructor(
    readonly system: SystemData,
    readonly rng: Rng,
  ) {
    this.net = new Network({ stations: system.stations, edges: system.edges, directed: system.directed });
    const lower = system.stations.map((s) => s.name.toLowerCase().trim());
    const ids = new Set(system.stations.map((s) => s.id));
    system.stations.forEach((s, i) => {
      const name = lower[i] as string;
      // The pack resolves a typed name to the first station whose name, or its part before "(" or
      // inside the parentheses, matches: a name that could reach another station is not offered.
      const clash = system.stations.some((other, j) => j !== i && nameForms(lower[j] as string).includes(name));
      if (clash || (ids.has(s.name) && s.name !== s.id)) return;
      this.selectableIds.add(s.id);
      // In free text a name inside another name ("Parade Ground", "JBS Parade Ground") is unclear too.
      if (!lower.some((other, j) => j !== i && (other.includes(name) || name.includes(other)))) this.textSafeIds.add(s.id);
    });
  }

  station(id: string): Station {
    const s = this.net.station(id);
    if (!s) throw new Error(`no station ${id}`);
    return s;
  }

  /** Stations a rider can pick by name (structured events), in stations.json order. */
  selectable(): string[] {
    return this.net.stationIds.filter((id) => this.selectableIds.has(id) && this.net.linesAt(id).length > 0);
  }

  /** Stations whose name is unmistakable in a sentence. */
  textSafe(): string[] {
    return this.selectable().filter((id) => this.textSafeIds.has(id));
  }

  drop(reason: string): void {
    this.dropped.set(reason, (this.dropped.get(reason) ?? 0) + 1);
  }

  /** Random distinct ordered pairs from `pool`, a bounded number of draws. */
  *pairs(pool: readonly string[], draws: number): Generator<[string, string]> {
    if (pool.length < 2) return;
    const seen = new Set<string>();
    for (let i = 0; i < draws; i++) {
      const o = this.rng.pick(pool);
      const d = this.rng.pick(pool);
      const key = `${o}\u0000${d}`;
      if (o === d || seen.has(key)) continue;
      seen.add(key);
      yield [o, d];
    }
  }

  /** The unique fastest route and its fare, or undefined (the reason is tallied). */
  pricedTrip(origin: string, destination: string, riders: Riders, paymentMethod?: string): PricedTrip | undefined {
    const answer = this.net.route(origin, destination);
    if (answer.kind !== "route") {
      this.drop(answer.kind === "ambiguous" ? "another route is as fast" : `no route: ${answer.reason}`);
      return undefined;
    }
    return this.priced(answer.route, answer.rawMiles, riders, paymentMethod);
  }

  /** The fare of a known route, or undefined (the reason is tallied). */
  priced(route: GtRoute, rawMiles: number, riders: Riders, paymentMethod?: string): PricedTrip | undefined {
    const origin = this.station(route.path[0] as string);
    const destination = this.station(route.path[route.path.length - 1] as string);
    const fare = quoteFare(this.system.fares, { origin, destination, distanceMiles: route.distance_miles, rawMiles, path: route.path }, riders, paymentMethod);
    if (fare.kind !== "fare") {
      this.drop(`no fare: ${fare.reason}`);
      return undefined;
    }
    return { origin, destination, route, fare: fare.fare, expected: fare.expected };
  }

  systemContext(extra: Record<string, unknown> = {}, now = DEFAULT_NOW): Record<string, unknown> {
    return Object.assign({ current_time: now, active_disruptions: [], framebook: this.system.id }, extra);
  }

  /** The payment methods of the fare table, in its order. */
  paymentMethods(): string[] {
    return Object.keys(this.system.fares.payment_methods ?? {});
  }
}

/** A lowercased station name and the parts the pack's resolution also matches. */
function nameForms(lower: string): string[] {
  const forms = [lower];
  const open = lower.indexOf("(");
  if (open >= 0) {
    forms.push(lower.slice(0, open).trim());
    const inner = lower.slice(open + 1);
    const next = inner.indexOf("(");
    forms.push((next >= 0 ? inner.slice(0, next) : inner).replace(/\)+$/, "").trim());
  }
  return forms;
}

export const ONE_ADULT: Riders = { adults: 1, children: 0, seniors: 0, disabled: 0 };

export function riders(partial: Partial<Riders>): Riders {
  return { adults: partial.adults ?? 0, children: partial.children ?? 0, seniors: partial.seniors ?? 0, disabled: partial.disabled ?? 0 };
}

export function selectStation(field: "origin" | "destination", s: Station): KioskEvent {
  return { type: "station_selected", field, value: s.name, station_id: s.id };
}

/** A passenger count as the pack writes it: only the keys the rider set. */
export function passengerEvent(counts: Partial<Riders>): KioskEvent {
  const event: KioskEvent = { type: "passenger_count_changed" };
  for (const key of ["adults", "children", "seniors", "disabled"] as const) if (counts[key] !== undefined) event[key] = counts[key];
  return event;
}

export function difficultyOf(route: GtRoute): string {
  return route.transfers === 0 ? "easy" : route.transfers === 1 ? "medium" : "hard";
}

/** "1 adult + 2 children" */
export function partyText(counts: Partial<Riders>): string {
  const words: [keyof Riders, string, string][] = [
    ["adults", "adult", "adults"],
    ["children", "child", "children"],
    ["seniors", "senior", "seniors"],
    ["disabled", "disabled", "disabled"],
  ];
  const parts = words.filter(([k]) => (counts[k] ?? 0) !== 0).map(([k, one, many]) => `${counts[k]} ${counts[k] === 1 ? one : many}`);
  return parts.length > 0 ? parts.join(" + ") : "no riders";
}

/** The pack's short fare record for a case that is not about the fare itself. */
export function shortFare(fare: GtFare): { total: number; currency: string } {
  return { total: fare.total, currency: fare.currency };
}
