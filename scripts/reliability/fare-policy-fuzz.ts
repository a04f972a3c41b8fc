// Figure: hostile fare_policies (issue 13, finding 5 and part 3). Seeded policy texts — percentages
// off past 100, surcharges in other currencies, with thousands separators or absurdly large, caps at
// zero or below, negative amounts, combinations with ordinary rules — go into a framebook through
// `framebook validate` (validateFramebook); for every policy, accepted or not, a model quoting the
// policy's own price offers probe trips through the purchase interlock. Counted: policies accepted
// although they give a total outside bounds (priced over the same probes the interlock uses), and
// sales the interlock allows outside bounds.
import { readFileSync } from "node:fs";
import type { DataPack } from "../../tools/data/datapack.ts";
import type { SystemId } from "../../tools/data/schemas.ts";
import { freeByRule, totalOutOfBounds } from "../../tools/fares/bounds.ts";
import { adjustQuote, type PricedItem } from "../../tools/fares/policy-change.ts";
import { ToolSession } from "../../tools/tools/index.ts";
import { AssistantStateSchema } from "../../runtime/contract/index.ts";
import { validateFramebook } from "../../runtime/framebook/validate.ts";
import { checkInterlock } from "../../runtime/kiosk/interlock.ts";
import { Examples, figure, info, Rng, type RunOptions, type SectionResult } from "./common.ts";

const SYMBOL: Record<string, string> = { marta: "$", bart: "$", cta: "$", taipei: "NT$", beijing: "¥", doha: "QR" };
const FOREIGN = ["¥", "€", "£", "NT$", "QR", "$", "CNY ", "EUR ", "USD "];

/** One hostile (or, sometimes, ordinary) policy text for a system. */
export function hostilePolicy(rng: Rng, system: SystemId): string {
  const own = SYMBOL[system] ?? "$";
  const amount = (): string =>
    rng.pick([
      () => String(rng.range(101, 500)),
      () => String(rng.range(1, 9)),
      () => "99,999,999",
      () => "99999999",
      () => "1 000 000",
      () => `-${rng.range(1, 50)}`,
      () => "0",
      () => `${rng.range(0, 9)}.${rng.range(0, 99)}`,
      () => "1e9",
    ])();
  const currency = (): string => (rng.chance(0.5) ? own : rng.pick(FOREIGN));
  return rng.pick([
    () => `Groups of ${rng.range(2, 5)} or more adults get ${rng.range(101, 400)}% off.`,
    () => `Groups of ${rng.range(2, 5)} or more adults get ${rng.range(1, 100)}% off.`,
    () => `A ${currency()}${amount()} surcharge applies to all trips.`,
    () => `A ${currency()}${amount()} surcharge applies to each paying passenger.`,
    () => `EFFECTIVE TODAY: base fare capped at ${currency()}${rng.pick(["0", "0.00", "-1", amount()])}.`,
    () => `Seniors ride free. A ${currency()}${amount()} surcharge applies to all trips.`,
    () => `Weekend: half price. Groups of 2 or more adults get ${rng.range(90, 250)}% off.`,
    () => `Children ride free. All surcharges waived. A ${currency()}${amount()} surcharge applies to each paying passenger.`,
    () => `First ride of the day is free. This is the passenger's first ride. A ${currency()}${amount()} surcharge applies to all trips.`,
    () => `${rng.range(150, 999)}% off all fares today.`,
  ])();
}

// `if_unread: refer`: what the kiosk did with unread fare text before the operator had to decide;
// the figure is about amounts out of bounds, not about the decision.
function withPolicy(text: string, policy: string): string {
  return text.replace(/cultural_notes:( \[\])?/, (m) => `fare_policies:\n    - policy_id: "fuzz"\n      text: ${JSON.stringify(policy)}\n      if_unread: refer\n  ${m}`);
}

export async function farePolicyFuzz(pack: DataPack, options: RunOptions): Promise<SectionResult> {
  const t0 = performance.now();
  const rng = new Rng(`${options.seed}:fare-policy`);
  const count = options.quick ? 60 : 320;
  let accepted = 0;
  let acceptedOutOfBounds = 0;
  let offers = 0;
  let salesOutOfBounds = 0;
  let crashes = 0;
  const leaks = new Examples<Record<string, unknown>>(10);
  const errors = new Examples<Record<string, unknown>>(5);
  for (let i = 0; i < count; i++) {
    const systemId = rng.pick(pack.systemIds);
    const system = pack.system(systemId);
    const policy = hostilePolicy(rng.fork(`p${i}`), systemId);
    let validation;
    try {
      validation = validateFramebook(withPolicy(readFileSync(pack.file(`data/systems/${systemId}/framebook.yaml`), "utf8"), policy), "fuzz.yaml", system);
    } catch (err) {
      crashes++;
      errors.add({ policy, error: (err as Error).message });
      continue;
    }
    if (validation.ok) accepted++;
    const priced = validation.ok && validation.framebook ? system.withFramebook(validation.framebook, validation.framebookPy) : system;
    // Probe trips: each line end to end, one rider mix per trip.
    for (const line of system.lines.slice(0, 4)) {
      const [origin, destination] = [line.stations[0], line.stations[line.stations.length - 1]];
      if (!origin || !destination || origin === destination) continue;
      const riders = rng.pick([
        { adults: 1, children: 0, seniors: 0, disabled: 0 },
        { adults: 3, children: 0, seniors: 0, disabled: 0 },
        { adults: 2, children: 2, seniors: 1, disabled: 0 },
      ]);
      const tools = new ToolSession(system);
      const planned = tools.call("route_planner", { origin, destination });
      if (!planned.ok) continue;
      const r = planned.result as { route_id: string; stops: Record<string, unknown>[]; transfers: number; estimated_minutes: number; distance_miles: number; line_sequence: string[] };
      const fare = tools.call("fare_calculator", { route_id: r.route_id, passengers: riders });
      if (!fare.ok) continue;
      const engine = fare.result as { total: number; currency: string; line_items: PricedItem[] };
      const quoted = adjustQuote({ items: engine.line_items, total: engine.total }, riders, system.fares.base_fare, policy);
      const n = riders.adults + riders.children + riders.seniors + riders.disabled;
      const out = totalOutOfBounds(quoted.total, n, priced.fares, priced.framebook) !== null || (quoted.total === 0 && engine.total > 0 && !freeByRule(quoted.applied));
      if (validation.ok && out && totalOutOfBounds(engine.total, n, priced.fares, priced.framebook) === null) {
        acceptedOutOfBounds++;
        leaks.add({ system: systemId, policy, total: quoted.total, riders });
      }
      // A model quoting the policy's own price: the interlock must refuse any out-of-bounds sale.
      const state = AssistantStateSchema.parse({
        outcome: "route_and_fare_ready",
        kiosk_action: { action: "prompt_purchase", reason_code: "ok" },
        route: { origin, destination, stops: r.stops.map((s) => ({ station_id: s.station_id, station_name: s.station_name, line: s.line ?? "" })), transfers: r.transfers, estimated_minutes: Math.round(r.estimated_minutes), distance_miles: r.distance_miles, line_sequence: r.line_sequence },
        fare_quote: { total: Number.isFinite(quoted.total) ? quoted.total : 0, currency: engine.currency, passenger_summary: { ...riders, free_riders: 0 } },
        assistant_message: "",
      });
      const turns = [[{ type: "station_selected" as const, field: "origin" as const, value: origin, station_id: origin }, { type: "station_selected" as const, field: "destination" as const, value: destination, station_id: destination }, { type: "passenger_count_changed" as const, ...riders }]];
      let verdict;
      try {
        verdict = checkInterlock({ system: priced, state, turns, disruptions: [], toolCalls: [], policyText: policy, now: { iso: "2026-03-09T14:00:00" } });
      } catch (err) {
        crashes++;
        errors.add({ policy, error: (err as Error).message });
        continue;
      }
      offers++;
      if (verdict.ok && out) {
        salesOutOfBounds++;
        leaks.add({ where: "sale", system: systemId, policy, total: quoted.total });
      }
    }
  }
  return {
    id: "farepolicy",
    title: "Hostile fare policies",
    figures: [
      info("farepolicy.policies", "hostile fare_policies tried", count, { of: `${accepted} accepted by framebook validate` }),
      figure("farepolicy.accepted_out_of_bounds", "accepted with a total outside bounds", acceptedOutOfBounds, { op: "eq", value: 0 }),
      figure("farepolicy.sales_out_of_bounds", "sales the interlock allows outside bounds", salesOutOfBounds, { op: "eq", value: 0 }, { of: `${offers} offers at the policy's own price` }),
      figure("farepolicy.crashes", "crashes (validation or interlock)", crashes, { op: "eq", value: 0 }),
    ],
    details: { leaks: leaks.items, errors: errors.items },
    ms: performance.now() - t0,
  };
}
