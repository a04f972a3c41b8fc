// D: accessibility-mode trips. The pack's rule: every station of the fastest route (both ends
// included) must be step-free with a working lift; each one that is not is an issue, and the kiosk
// advises instead of selling. A station whose accessibility is unknown (null: an imported feed
// that says nothing) is an issue too: a step-free journey cannot be sold on data that is silent.
// A feed says nothing of lifts, only whether a wheelchair user can reach the trains
// (wheelchair_boarding, read as step_free): where it says so, what the lift is for is known.
import type { Station } from "../../tools/data/schemas.ts";
import { ONE_ADULT, SALE, difficultyOf, passengerEvent, selectStation, shortFare, type CategoryResult, type DraftCase, type GenerationContext } from "./common.ts";

const NEEDS = [
  { requirement: "wheelchair", text: "I use a wheelchair and need step-free access with working elevators throughout my journey." },
  { requirement: "step_free", text: "I have a mobility impairment and require step-free access at every station on my route." },
  { requirement: "elevator_required", text: "I need working elevators at all stations — I cannot use stairs or escalators." },
];

/** Why a station fails a step-free journey, or null when it does not. */
export function accessibilityIssue(station: Station): string | null {
  const a = station.accessibility;
  if (a.elevator === false) return "elevator out of service";
  if (a.step_free === false) return "no step-free access";
  if (a.step_free === null) return "accessibility unknown";
  return null;
}

export function accessibilityCases(ctx: GenerationContext, count: number): CategoryResult {
  // Half the cases with an issue on the way and half without, where the network has both.
  const withIssues: DraftCase[] = [];
  const clear: DraftCase[] = [];
  const notes: string[] = [];
  const half = Math.ceil(count / 2);
  const candidates: DraftCase[][] = [[], []];
  for (const [o, d] of ctx.pairs(ctx.selectable(), 400 + count * 120)) {
    // Enough of one kind and plenty of spares: the other kind is rare here (all unknown, all step-free).
    if (withIssues.length + clear.length >= count || withIssues.length + clear.length + candidates[0]!.length + candidates[1]!.length >= count * 4) break;
    const trip = ctx.pricedTrip(o, d, ONE_ADULT);
    if (!trip) continue;
    const issues = trip.route.path.flatMap((id) => {
      const station = ctx.station(id);
      const issue = accessibilityIssue(station);
      return issue === null ? [] : [{ station_id: id, station_name: station.name, issue }];
    });
    const need = ctx.rng.pick(NEEDS);
    const made: DraftCase = {
      difficulty: issues.length > 0 ? "medium" : difficultyOf(trip.route),
      interaction_mode: "structured",
      kind: { accessibility_tier: issues.length === 0 ? "happy_path" : issues.some((i) => i.station_id === d) ? "destination_out" : "pass_through" },
      title: `${trip.origin.name} to ${trip.destination.name} (${need.requirement.replace(/_/g, " ")})`,
      events: [selectStation("origin", trip.origin), selectStation("destination", trip.destination), passengerEvent({ adults: 1 }), { type: "freetext_input", text: need.text }],
      system_context: ctx.systemContext({ accessibility_mode: true }),
      ground_truth: {
        route: trip.route,
        fare: shortFare(trip.fare),
        accessibility: { requirement: need.requirement, issues_on_route: issues },
        ...(issues.length > 0 ? { expected_outcome: "advisory_only", expected_kiosk_action: "display_info", expected_reason_code: "accessibility_issue" } : SALE),
      },
    };
    const bucket = issues.length > 0 ? withIssues : clear;
    if (bucket.length < half) bucket.push(made);
    else (candidates[issues.length > 0 ? 0 : 1] as DraftCase[]).push(made);
  }
  // Top up from the other kind when one is rare on this network.
  const spare = [...(candidates[0] as DraftCase[]), ...(candidates[1] as DraftCase[])];
  const drafts = [...clear, ...withIssues];
  while (drafts.length < count && spare.length > 0) drafts.push(spare.shift() as DraftCase);
  if (clear.length === 0) notes.push("no route of the sample is step-free throughout (or accessibility is unknown): every case expects advice, no sale");
  if (withIssues.length === 0) notes.push("no route of the sample meets a station without step-free access");
  return { drafts, notes };
}
