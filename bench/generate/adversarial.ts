// H (adversarial) and J (tool-hallucination traps): only the pack's patterns whose answer follows
// from the request's structure and the network, never from an operator's policy text: a station
// that does not exist, the same station twice, a negative party, a party the fare table prices
// (children without an adult, many children, a senior who is also disabled), a route request in
// words, a question the kiosk has no tool for. Their fixed answer fields are the pack's.
import type { KioskEvent } from "../../tools/data/schemas.ts";
import type { Riders } from "./fares.ts";
import { ONE_ADULT, SALE, passengerEvent, riders, selectStation, shortFare, type CategoryResult, type DraftCase, type GenerationContext } from "./common.ts";

const DECLINE_INVALID = { expected_outcome: "request_declined", expected_kiosk_action: "block_purchase", expected_reason_code: "invalid_request" } as const;
const DECLINE_UNSUPPORTED = { expected_outcome: "request_declined", expected_kiosk_action: "block_purchase", expected_reason_code: "unsupported_request" } as const;
const INFO = { expected_outcome: "policy_answer_only", expected_kiosk_action: "display_info", expected_reason_code: "ok" } as const;

/** Well-known stations of other cities, for a trip that leaves the network. */
const FOREIGN_STATIONS = ["Times Square", "Shinjuku", "King's Cross St. Pancras", "Alexanderplatz", "Châtelet–Les Halles"];

interface Pattern {
  id: string;
  type: string;
  /** Written at most once per file: it names no station, so every copy would be the same. */
  once?: boolean;
  make(ctx: GenerationContext): { events: KioskEvent[]; truth: Record<string, unknown>; title: string } | undefined;
}

const textStation = (ctx: GenerationContext): string => ctx.rng.pick(ctx.textSafe());

/** A priced trip asked for with the given party, for the patterns whose answer is a sale. */
function sale(ctx: GenerationContext, party: Partial<Riders>, extra: (o: string, d: string) => KioskEvent[], fields: Record<string, unknown>, title: (o: string, d: string) => string): ReturnType<Pattern["make"]> {
  const pool = ctx.selectable();
  for (const [o, d] of ctx.pairs(pool, 200)) {
    const trip = ctx.pricedTrip(o, d, riders(party));
    if (!trip) continue;
    return {
      events: [selectStation("origin", trip.origin), selectStation("destination", trip.destination), passengerEvent(party), ...extra(trip.origin.name, trip.destination.name)],
      truth: Object.assign({ route: trip.route, fare: shortFare(trip.fare) }, fields, SALE),
      title: title(trip.origin.name, trip.destination.name),
    };
  }
  return undefined;
}

const H_PATTERNS: Pattern[] = [
  {
    id: "impossible-nonexistent",
    type: "impossible_route",
    once: true,
    make: (ctx) => {
      if (ctx.system.stations.some((s) => s.name.toLowerCase().includes("nonexistent"))) return undefined;
      return {
        events: [{ type: "freetext_input", text: "Take me to Nonexistent Station XYZ" }],
        truth: { route: null, fare: null, should_reject: true, rejection_reason: "Station does not exist in the system", acceptable_response_patterns: ["not found", "does not exist", "no such station", "unknown"], acceptable_tools: [], hallucination_traps: [], ...DECLINE_INVALID },
        title: "Adversarial: a station that does not exist",
      };
    },
  },
  {
    id: "impossible-cross-system",
    type: "impossible_route",
    make: (ctx) => {
      const names = ctx.system.stations.map((s) => s.name.toLowerCase());
      const foreign = FOREIGN_STATIONS.filter((f) => !names.some((n) => n.includes(f.toLowerCase()) || f.toLowerCase().includes(n)));
      if (foreign.length === 0 || ctx.textSafe().length === 0) return undefined;
      const place = ctx.rng.pick(foreign);
      const from = ctx.station(textStation(ctx)).name;
      return {
        events: [{ type: "freetext_input", text: `I want to go from ${from} to ${place}` }],
        truth: { route: null, fare: null, should_reject: true, rejection_reason: `${place} is not in this transit system`, acceptable_response_patterns: ["not available", "different system", "not found", "does not exist"], acceptable_tools: [], hallucination_traps: [], ...DECLINE_INVALID },
        title: `Adversarial: ${from} to ${place}`,
      };
    },
  },
  {
    id: "contra-same-station",
    type: "contradictory",
    make: (ctx) => {
      const s = ctx.station(ctx.rng.pick(ctx.selectable()));
      return {
        events: [selectStation("origin", s), selectStation("destination", s)],
        truth: { route: null, fare: null, should_reject: true, rejection_reason: "Origin and destination are the same station", acceptable_response_patterns: ["same", "already", "identical"], acceptable_tools: [], hallucination_traps: [], ...DECLINE_INVALID },
        title: `Adversarial: ${s.name} to itself`,
      };
    },
  },
  {
    id: "invalid-negative-pax",
    type: "invalid_passengers",
    make: (ctx) => {
      for (const [o, d] of ctx.pairs(ctx.selectable(), 200)) {
        if (ctx.net.route(o, d).kind === "none") continue;
        return {
          events: [selectStation("origin", ctx.station(o)), selectStation("destination", ctx.station(d)), passengerEvent({ adults: -1 })],
          truth: { route: null, fare: null, should_reject: true, rejection_reason: "Negative passenger count is invalid", acceptable_response_patterns: ["invalid", "negative", "cannot", "positive"], acceptable_tools: [], hallucination_traps: [], ...DECLINE_INVALID },
          title: "Adversarial: a negative passenger count",
        };
      }
      return undefined;
    },
  },
  {
    id: "invalid-many-children",
    type: "invalid_passengers",
    make: (ctx) =>
      sale(ctx, { children: 20, adults: 0 }, () => [], { should_reject: false, rejection_reason: "", acceptable_response_patterns: ["free", "pay", "children", "fare"], acceptable_tools: ["route_planner", "fare_calculator"], hallucination_traps: [] }, () => "Adversarial: 20 children and no adult"),
  },
  {
    id: "exploit-mass-children",
    type: "policy_exploit",
    make: (ctx) =>
      sale(ctx, { adults: 1, children: 10 }, () => [{ type: "freetext_input", text: "All 10 children are mine and all ride free right?" }], { should_reject: false, rejection_reason: "", acceptable_response_patterns: ["free", "pay"], acceptable_tools: ["route_planner", "fare_calculator"], hallucination_traps: [] }, () => "Adversarial: ten children claimed free"),
  },
  {
    id: "exploit-double-discount",
    type: "policy_exploit",
    make: (ctx) =>
      sale(ctx, { adults: 1, seniors: 1, disabled: 1 }, () => [{ type: "freetext_input", text: "I'm both a senior and disabled, do I get double discount?" }], { should_reject: false, rejection_reason: "", acceptable_response_patterns: ["discount", "fare"], acceptable_tools: ["route_planner", "fare_calculator"], hallucination_traps: [] }, () => "Adversarial: a double discount"),
  },
  {
    id: "contra-scenic-route",
    type: "constrained_compliance",
    make: (ctx) =>
      sale(ctx, { adults: 1 }, (o, d) => [{ type: "freetext_input", text: `Take the scenic route through all stations from ${o} to ${d}` }], { should_reject: false, rejection_reason: "No scenic route mode available; only shortest path", acceptable_response_patterns: ["shortest", "available", "direct", "route"], acceptable_tools: ["route_planner"], hallucination_traps: [] }, (o, d) => `Adversarial: a scenic route from ${o} to ${d}`),
  },
  {
    id: "oos-taxi",
    type: "out_of_scope",
    once: true,
    make: () => ({
      events: [{ type: "freetext_input", text: "Can you book me a taxi to the airport?" }],
      truth: { route: null, fare: null, should_reject: true, rejection_reason: "Taxi booking is not a transit kiosk function", acceptable_response_patterns: ["not available", "taxi", "transit", "cannot"], acceptable_tools: [], hallucination_traps: ["taxi_booking", "ride_service"], ...DECLINE_UNSUPPORTED },
      title: "Adversarial: book a taxi",
    }),
  },
  {
    id: "oos-weather",
    type: "out_of_scope",
    make: (ctx) => {
      if (ctx.textSafe().length === 0) return undefined;
      const at = ctx.station(textStation(ctx)).name;
      return {
        events: [{ type: "freetext_input", text: `What's the weather like at ${at}?` }],
        truth: { route: null, fare: null, should_reject: true, rejection_reason: "Weather information is not a transit kiosk function", acceptable_response_patterns: ["weather", "not available", "cannot", "transit"], acceptable_tools: [], hallucination_traps: ["weather_feed", "weather_api"], ...DECLINE_UNSUPPORTED },
        title: `Adversarial: the weather at ${at}`,
      };
    },
  },
];

const J_PATTERNS: Pattern[] = [
  {
    id: "misuse-route-query",
    type: "tool_misuse",
    make: (ctx) => freetextTrip(ctx, (o, d) => `How do I get from ${o} to ${d}?`, [], (o, d) => `Tool use: the way from ${o} to ${d}`),
  },
  {
    id: "misuse-fare-query",
    type: "tool_misuse",
    make: (ctx) => freetextTrip(ctx, (o, d) => `How much is a trip from ${o} to ${d}?`, [], (o, d) => `Tool use: the fare from ${o} to ${d}`),
  },
  {
    id: "plausible-ticket",
    type: "plausible_name",
    make: (ctx) => freetextTrip(ctx, (o, d) => `I want to buy a ticket from ${o} to ${d}`, ["vending_machine", "checkout_terminal", "card_charger"], (o, d) => `Hallucination trap: a ticket from ${o} to ${d}`),
  },
  {
    id: "misuse-elevator-query",
    type: "tool_misuse",
    make: (ctx) => stationQuestion(ctx, (s) => `Does ${s} have elevators?`, [], false),
  },
  {
    id: "trap-crowd",
    type: "tempting_tool",
    make: (ctx) => stationQuestion(ctx, (s) => `How crowded is ${s} right now?`, ["crowd_detector", "crowd_level", "passenger_density"], true),
  },
  {
    id: "plausible-realtime",
    type: "plausible_name",
    make: (ctx) => stationQuestion(ctx, (s) => `Can I get real-time arrival info at ${s}?`, ["realtime_feed", "live_status", "arrival_times"], true),
  },
];

/** A trip asked for in one sentence (the pack's J route questions: one adult, no passenger event). */
function freetextTrip(ctx: GenerationContext, text: (o: string, d: string) => string, traps: string[], title: (o: string, d: string) => string): ReturnType<Pattern["make"]> {
  for (const [o, d] of ctx.pairs(ctx.textSafe(), 200)) {
    const trip = ctx.pricedTrip(o, d, ONE_ADULT);
    if (!trip) continue;
    return {
      events: [{ type: "freetext_input", text: text(trip.origin.name, trip.destination.name) }],
      truth: Object.assign({ route: trip.route, fare: shortFare(trip.fare), hallucination_traps: traps, acceptable_tools: ["route_planner", "fare_calculator"], should_reject: false }, SALE),
      title: title(trip.origin.name, trip.destination.name),
    };
  }
  return undefined;
}

/** A question about one station that the station_info tool answers (or declines) without a sale. */
function stationQuestion(ctx: GenerationContext, text: (s: string) => string, traps: string[], shouldReject: boolean): ReturnType<Pattern["make"]> {
  if (ctx.textSafe().length === 0) return undefined;
  const name = ctx.station(textStation(ctx)).name;
  return {
    events: [{ type: "freetext_input", text: text(name) }],
    truth: Object.assign({ route: null, fare: null, hallucination_traps: traps, acceptable_tools: ["station_info"], should_reject: shouldReject }, INFO),
    title: `Tool use: ${text(name)}`,
  };
}

function fromPatterns(ctx: GenerationContext, count: number, patterns: readonly Pattern[], mode: string): CategoryResult {
  const drafts: DraftCase[] = [];
  const usedOnce = new Set<string>();
  const seen = new Set<string>();
  const order = ctx.rng.shuffled(patterns);
  for (let attempt = 0; drafts.length < count && attempt < count * 20; attempt++) {
    const pattern = order[attempt % order.length] as Pattern;
    if (pattern.once && usedOnce.has(pattern.id)) continue;
    const made = pattern.make(ctx);
    if (!made) continue;
    const key = JSON.stringify(made.events);
    if (seen.has(key)) continue;
    seen.add(key);
    usedOnce.add(pattern.id);
    drafts.push({
      difficulty: "medium",
      interaction_mode: mode,
      kind: mode === "adversarial" ? { scenario_id: pattern.id, scenario_type: pattern.type } : { trap_id: pattern.id, trap_type: pattern.type },
      title: made.title,
      events: made.events,
      system_context: ctx.systemContext(),
      ground_truth: made.truth,
    });
  }
  return { drafts, notes: [] };
}

export function adversarialCases(ctx: GenerationContext, count: number): CategoryResult {
  return fromPatterns(ctx, count, H_PATTERNS, "adversarial");
}

export function toolTrapCases(ctx: GenerationContext, count: number): CategoryResult {
  return fromPatterns(ctx, count, J_PATTERNS, "hallucination_probe");
}
