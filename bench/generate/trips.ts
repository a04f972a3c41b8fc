// Categories about a plain trip: A (routes: direct trips and trips with a change of line), B (fares
// for rider mixes and payment methods), F (a simple fare-policy change) and G (the rider changes the
// request over several turns). Each case's route and fare are this folder's own computation.
import type { KioskEvent } from "../../tools/data/schemas.ts";
import { pyRound } from "../../tools/py/number.ts";
import type { Riders } from "./fares.ts";
import {
  ONE_ADULT,
  SALE,
  difficultyOf,
  partyText,
  passengerEvent,
  riders,
  selectStation,
  shortFare,
  type CategoryResult,
  type DraftCase,
  type GenerationContext,
  type PricedTrip,
} from "./common.ts";

const draws = (count: number): number => 400 + count * 120;

function tripDraft(ctx: GenerationContext, trip: PricedTrip, kind: Record<string, unknown>, title: string, events: KioskEvent[], groundTruth: Record<string, unknown>, difficulty = difficultyOf(trip.route)): DraftCase {
  return { difficulty, interaction_mode: "structured", kind, title, events, system_context: ctx.systemContext(), ground_truth: groundTruth };
}

// ---------------------------------------------------------------------------------------------
// A: routes. Half the cases ride one line, half change lines (where the network has such trips).

/** The A case for one trip (one adult), or undefined when the data leaves it open (tallied). */
export function routeDraft(ctx: GenerationContext, origin: string, destination: string): DraftCase | undefined {
  const trip = ctx.pricedTrip(origin, destination, ONE_ADULT);
  if (!trip) return undefined;
  return tripDraft(
    ctx,
    trip,
    { route_type: trip.route.transfers === 0 ? "direct" : "transfer" },
    `${trip.origin.name} to ${trip.destination.name}`,
    [selectStation("origin", trip.origin), selectStation("destination", trip.destination), passengerEvent({ adults: 1 })],
    { route: trip.route, fare: shortFare(trip.fare), ...SALE, expected_fare_breakdown: trip.expected },
  );
}

const transfersOf = (d: DraftCase): number => (d.ground_truth.route as { transfers: number }).transfers;

export function routeCases(ctx: GenerationContext, count: number): CategoryResult {
  const wantTransfers = Math.floor(count / 2);
  const direct: DraftCase[] = [];
  const transfer: DraftCase[] = [];
  const notes: string[] = [];
  const used = new Set<string>();
  for (const [o, d] of ctx.pairs(ctx.selectable(), draws(count))) {
    if (direct.length + transfer.length >= count) break;
    const made = routeDraft(ctx, o, d);
    if (!made) continue;
    const isTransfer = transfersOf(made) > 0;
    if (isTransfer ? transfer.length >= wantTransfers : direct.length >= count - wantTransfers) continue;
    used.add(`${o}>${d}`);
    (isTransfer ? transfer : direct).push(made);
  }
  if (transfer.length < wantTransfers) {
    notes.push(`${transfer.length} of ${wantTransfers} trips with a change of line found; the rest ride one line`);
    for (const [o, d] of ctx.pairs(ctx.selectable(), draws(count))) {
      if (direct.length + transfer.length >= count) break;
      if (used.has(`${o}>${d}`)) continue;
      const made = routeDraft(ctx, o, d);
      if (made && transfersOf(made) === 0) direct.push(made);
    }
  }
  return { drafts: [...direct, ...transfer], notes };
}

// ---------------------------------------------------------------------------------------------
// B: fares. The pack's rider mixes, a payment method now and then, and trips to the stations the
// fare table treats specially (surcharges, overrides) for a third of the cases.

const MIXES: Partial<Riders>[] = [
  { adults: 1 },
  { adults: 2 },
  { adults: 3 },
  { adults: 1, children: 1 },
  { adults: 1, children: 2 },
  { adults: 1, children: 3 },
  { adults: 2, children: 3 },
  { adults: 2, children: 4 },
  { children: 2 },
  { seniors: 1 },
  { seniors: 2 },
  { disabled: 1 },
  { adults: 1, seniors: 1, disabled: 1 },
  { children: 2, seniors: 1, disabled: 1 },
  { adults: 2, children: 2, seniors: 1, disabled: 1 },
];

/** Stations the fare table prices differently (a surcharge's station, an override). */
function specialStations(ctx: GenerationContext): string[] {
  const fares = ctx.system.fares;
  const ids = new Set<string>(Object.keys(fares.station_overrides ?? {}));
  for (const s of Object.values(fares.surcharges ?? {})) {
    if (s.station !== undefined) ids.add(s.station);
    for (const id of s.stations ?? []) ids.add(id);
  }
  const selectable = new Set(ctx.selectable());
  return [...ids].filter((id) => selectable.has(id));
}

export function fareCases(ctx: GenerationContext, count: number): CategoryResult {
  const drafts: DraftCase[] = [];
  const pool = ctx.selectable();
  const special = specialStations(ctx);
  const methods = ctx.paymentMethods();
  const mixes = ctx.rng.shuffled(MIXES);
  const seen = new Set<string>();
  for (let attempt = 0; drafts.length < count && attempt < draws(count); attempt++) {
    // Rotating by attempt: a mix the table cannot price (e.g. no reduced fares) does not stall the rest.
    const mix = mixes[attempt % mixes.length] as Partial<Riders>;
    const toSpecial = special.length > 0 && drafts.length % 3 === 2;
    let o = ctx.rng.pick(pool);
    let d = ctx.rng.pick(toSpecial ? special : pool);
    if (toSpecial && ctx.rng.next() < 0.5) [o, d] = [d, o];
    const method = methods.length > 0 && ctx.rng.next() < 1 / 3 ? ctx.rng.pick(methods) : undefined;
    const key = JSON.stringify([o, d, mix, method]);
    if (o === d || seen.has(key)) continue;
    seen.add(key);
    const made = fareDraft(ctx, o, d, mix, method);
    if (made) drafts.push(made);
  }
  return { drafts, notes: [] };
}

/** The B case for one trip, party and payment method, or undefined when the data leaves it open (tallied). */
export function fareDraft(ctx: GenerationContext, origin: string, destination: string, mix: Partial<Riders>, method: string | undefined): DraftCase | undefined {
  const trip = ctx.pricedTrip(origin, destination, riders(mix), method);
  if (!trip) return undefined;
  const events: KioskEvent[] = [selectStation("origin", trip.origin), selectStation("destination", trip.destination), passengerEvent(mix)];
  if (method !== undefined) events.push({ type: "payment_method_selected", method });
  const composition = `${partyText(mix)}${method !== undefined ? ` (${method})` : ""}`;
  return tripDraft(ctx, trip, { passenger_composition: composition }, `Fare: ${composition}`, events, { route: trip.route, fare: trip.fare, ...SALE, expected_fare_breakdown: trip.expected });
}

// ---------------------------------------------------------------------------------------------
// F: fare-policy changes simple enough to price without interpretation: a fare multiplier for
// adults only, a rider type riding free, everything free, or a notice that changes no fare.

interface PolicyChange {
  id: string;
  text: string;
  party: Partial<Riders>;
  mustMention: string[];
  /** The new total from the table's fare for the party (its line items). */
  apply: (total: number, items: { label: string; amount: number }[]) => number;
}

const POLICY_CHANGES: PolicyChange[] = [
  { id: "half_price", text: "WEEKEND PROMOTION: All single fares are half price.", party: { adults: 2 }, mustMention: ["half", "price"], apply: (t) => t * 0.5 },
  { id: "group_discount", text: "EFFECTIVE TODAY: Groups of 4 or more adults get 25% off the total fare.", party: { adults: 4 }, mustMention: ["group", "25%"], apply: (t) => t * 0.75 },
  { id: "seniors_free", text: "EFFECTIVE TODAY: Senior citizens (65+) ride free.", party: { adults: 1, seniors: 1 }, mustMention: ["senior", "free"], apply: (t, items) => t - sumOf(items, "Senior x") },
  { id: "disabled_free", text: "EFFECTIVE TODAY: Disabled riders ride free.", party: { adults: 1, disabled: 1 }, mustMention: ["disabled", "free"], apply: (t, items) => t - sumOf(items, "Disabled x") },
  { id: "first_ride_free", text: "EFFECTIVE TODAY: First ride of the day is free. This is the passenger's first ride.", party: { adults: 1 }, mustMention: ["first", "free"], apply: () => 0 },
  { id: "mask_required", text: "Masks are required on all trains effective today.", party: { adults: 1 }, mustMention: ["mask", "required"], apply: (t) => t },
  { id: "free_wifi", text: "Free Wi-Fi is now available on all trains.", party: { adults: 1 }, mustMention: ["wi-fi", "free"], apply: (t) => t },
];

function sumOf(items: readonly { label: string; amount: number }[], prefix: string): number {
  let sum = 0;
  for (const i of items) if (i.label.startsWith(prefix)) sum += i.amount;
  return sum;
}

export function policyCases(ctx: GenerationContext, count: number): CategoryResult {
  const drafts: DraftCase[] = [];
  const changes = ctx.rng.shuffled(POLICY_CHANGES);
  let attempt = 0;
  for (const [o, d] of ctx.pairs(ctx.selectable(), draws(count))) {
    if (drafts.length >= count) break;
    const change = changes[attempt++ % changes.length] as PolicyChange;
    const trip = ctx.pricedTrip(o, d, riders(change.party));
    if (!trip) continue;
    const exact = change.apply(trip.fare.total, trip.fare.items);
    const newFare = pyRound(exact, 2);
    // A change that lands between two cents has no single right total.
    if (Math.abs(exact * 100 - Math.round(exact * 100)) > 1e-6) {
      ctx.drop("the policy's fare falls between two cents");
      continue;
    }
    drafts.push({
      difficulty: newFare === trip.fare.total ? "easy" : "medium",
      interaction_mode: "structured",
      kind: { policy_id: change.id },
      title: `Policy change: ${change.id.replace(/_/g, " ")}`,
      events: [selectStation("origin", trip.origin), selectStation("destination", trip.destination), passengerEvent(change.party)],
      system_context: ctx.systemContext({ policy_change: { text: change.text, policy_id: change.id } }),
      ground_truth: {
        route: trip.route,
        fare: { total: newFare, currency: trip.fare.currency },
        policy: { old_fare: trip.fare.total, new_fare: newFare, policy_id: change.id, policy_must_mention: change.mustMention },
        ...SALE,
      },
    });
  }
  return { drafts, notes: [] };
}

// ---------------------------------------------------------------------------------------------
// G: multi-turn. The rider corrects the request turn by turn; the answer key is the final state's
// trip. Every intermediate trip must exist, so that each turn can be answered.

type Ev = KioskEvent;
interface Scenario {
  id: string;
  title: string;
  /** Distinct stations it needs. */
  stations: number;
  needsPayment?: boolean;
  build(s: { name: string; id: string }[], method: string | undefined): { turns: Ev[][]; origin: number; destination: number; party: Partial<Riders>; method?: string; legs: [number, number][] };
}

const sel = (field: "origin" | "destination", s: { name: string; id: string }): Ev => ({ type: "station_selected", field, value: s.name });
const pax = (p: Partial<Riders>): Ev => passengerEvent(p);

const SCENARIOS: Scenario[] = [
  { id: "pax-change", title: "Add a child after the first quote", stations: 2, build: (s) => ({ turns: [[sel("origin", s[0]!), sel("destination", s[1]!), pax({ adults: 1 })], [pax({ adults: 1, children: 1 })]], origin: 0, destination: 1, party: { adults: 1, children: 1 }, legs: [] }) },
  { id: "payment-switch", title: "Switch payment method after the first quote", stations: 2, needsPayment: true, build: (s, m) => ({ turns: [[sel("origin", s[0]!), sel("destination", s[1]!), pax({ adults: 1 })], [{ type: "payment_method_selected", method: m as string }]], origin: 0, destination: 1, party: { adults: 1 }, method: m as string, legs: [] }) },
  { id: "dest-change", title: "Change the destination", stations: 3, build: (s) => ({ turns: [[sel("origin", s[0]!), sel("destination", s[1]!)], [sel("destination", s[2]!), pax({ adults: 1 })]], origin: 0, destination: 2, party: { adults: 1 }, legs: [[0, 1]] }) },
  { id: "change-origin", title: "Change the origin", stations: 3, build: (s) => ({ turns: [[sel("origin", s[0]!), sel("destination", s[1]!)], [sel("origin", s[2]!)], [pax({ adults: 2 })]], origin: 2, destination: 1, party: { adults: 2 }, legs: [[0, 1]] }) },
  { id: "full-reversal", title: "Reverse the trip, then add riders", stations: 2, build: (s) => ({ turns: [[sel("origin", s[0]!), sel("destination", s[1]!)], [sel("origin", s[1]!), sel("destination", s[0]!)], [pax({ adults: 3 })], [pax({ adults: 3, children: 1 })]], origin: 1, destination: 0, party: { adults: 3, children: 1 }, legs: [[0, 1]] }) },
  { id: "pax-expansion", title: "Add a senior, then a child", stations: 2, build: (s) => ({ turns: [[sel("origin", s[0]!), sel("destination", s[1]!), pax({ adults: 1 })], [pax({ adults: 1, seniors: 1 })], [pax({ adults: 1, seniors: 1, children: 1 })]], origin: 0, destination: 1, party: { adults: 1, seniors: 1, children: 1 }, legs: [] }) },
  { id: "dest-twice", title: "Change the destination twice", stations: 4, build: (s) => ({ turns: [[sel("origin", s[0]!), sel("destination", s[1]!)], [sel("destination", s[2]!)], [sel("destination", s[3]!)], [pax({ adults: 1, seniors: 1 })]], origin: 0, destination: 3, party: { adults: 1, seniors: 1 }, legs: [[0, 1], [0, 2]] }) },
  { id: "confirm-proceed", title: "Confirm after the quote", stations: 2, build: (s) => ({ turns: [[sel("origin", s[0]!), sel("destination", s[1]!), pax({ adults: 1 })], [{ type: "freetext_input", text: "Looks good, please issue the ticket" }]], origin: 0, destination: 1, party: { adults: 1 }, legs: [] }) },
  { id: "add-passengers-late", title: "Add riders, then ask the price", stations: 2, build: (s) => ({ turns: [[sel("origin", s[0]!), sel("destination", s[1]!), pax({ adults: 1 })], [pax({ adults: 2, children: 1 })], [{ type: "freetext_input", text: "How much for all of us?" }]], origin: 0, destination: 1, party: { adults: 2, children: 1 }, legs: [] }) },
];

export function multiTurnCases(ctx: GenerationContext, count: number): CategoryResult {
  const drafts: DraftCase[] = [];
  const notes: string[] = [];
  const methods = ctx.paymentMethods();
  const scenarios = ctx.rng.shuffled(SCENARIOS.filter((s) => !s.needsPayment || methods.length > 0));
  if (methods.length === 0) notes.push("no payment methods in the fare table: no payment-switch scenario");
  const pool = ctx.selectable();
  const seen = new Set<string>();
  for (let attempt = 0; drafts.length < count && attempt < draws(count); attempt++) {
    const scenario = scenarios[attempt % scenarios.length] as Scenario;
    const picked = ctx.rng.shuffled(pool).slice(0, scenario.stations);
    if (picked.length < scenario.stations) break;
    const stations = picked.map((id) => ctx.station(id));
    const method = scenario.needsPayment ? ctx.rng.pick(methods) : undefined;
    const built = scenario.build(stations, method);
    const key = JSON.stringify(built.turns);
    if (seen.has(key)) continue;
    seen.add(key);
    if (built.legs.some(([a, b]) => ctx.net.route(picked[a]!, picked[b]!).kind === "none")) {
      ctx.drop("an intermediate trip has no route");
      continue;
    }
    const trip = ctx.pricedTrip(picked[built.origin]!, picked[built.destination]!, riders(built.party), built.method);
    if (!trip) continue;
    const passengers: Record<string, number> = {};
    for (const key of ["adults", "children", "seniors", "disabled"] as const) if (built.party[key] !== undefined) passengers[key] = built.party[key];
    drafts.push({
      difficulty: built.turns.length <= 2 ? "easy" : built.turns.length === 3 ? "medium" : "hard",
      interaction_mode: "multi_turn",
      kind: { scenario_id: scenario.id },
      title: `Multi-turn: ${scenario.title}`,
      events: built.turns.flat(),
      multi_turn_events: built.turns,
      system_context: ctx.systemContext(),
      ground_truth: {
        route: trip.route,
        fare: shortFare(trip.fare),
        final_state: { origin: trip.origin.name, destination: trip.destination.name, passengers, payment_method: built.method ?? methods[0] ?? null },
        ...SALE,
      },
    });
  }
  return { drafts, notes };
}
