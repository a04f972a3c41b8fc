// A tiny deterministic "assistant" for the fake bridge, so the dev UI and tests can reach every
// screen: it plans a fewest-stops route on the demo lines, prices it with flat demo fares and
// answers a few keywords in the free text with the other outcomes. Not the real policy.
import type { AssistantState } from "../lib/types.ts";
import type { AskRequest, RiderType, SystemView } from "../../runtime/kiosk/bridge.ts";

export interface DemoJourney {
  origin?: string;
  destination?: string;
  passengers: Partial<Record<RiderType, number>>;
  paymentMethod?: string;
  freetext: string[];
}

/** Folds the events of every turn so far into one journey (later events win). */
export function foldEvents(turns: readonly AskRequest["events"][]): DemoJourney {
  const journey: DemoJourney = { passengers: {}, freetext: [] };
  for (const events of turns) {
    for (const event of events) {
      if (event.type === "station_selected") journey[event.field] = event.station_id ?? event.value;
      else if (event.type === "passenger_count_changed") {
        for (const rider of ["adults", "children", "seniors", "disabled"] as const) {
          const count = event[rider];
          if (typeof count === "number") journey.passengers[rider] = count;
        }
      } else if (event.type === "payment_method_selected") journey.paymentMethod = event.method;
      else if (event.type === "freetext_input") journey.freetext.push(event.text);
    }
  }
  return journey;
}

const UNIT_FARES: Record<string, Partial<Record<RiderType, number>>> = {
  marta: { adults: 2.5, children: 1.25, seniors: 1, disabled: 1 },
  beijing: { adults: 4, children: 2, seniors: 0 },
  doha: { adults: 2, children: 2 },
};

interface Leg {
  station: string;
  line: string;
}

/** Fewest stops with a 3-stop penalty per change of line (Dijkstra over (station, line)). */
export function demoRoute(view: SystemView, from: string, to: string): Leg[] | null {
  const key = (leg: Leg): string => `${leg.station}|${leg.line}`;
  const dist = new Map<string, number>();
  const prev = new Map<string, Leg | null>();
  const queue: { leg: Leg; cost: number }[] = [];
  for (const line of view.lines) {
    if (line.stations.includes(from)) {
      const leg = { station: from, line: line.id };
      dist.set(key(leg), 0);
      prev.set(key(leg), null);
      queue.push({ leg, cost: 0 });
    }
  }
  while (queue.length > 0) {
    queue.sort((a, b) => a.cost - b.cost);
    const { leg, cost } = queue.shift()!;
    if (cost > (dist.get(key(leg)) ?? Infinity)) continue;
    if (leg.station === to) {
      const path: Leg[] = [];
      for (let at: Leg | null = leg; at; at = prev.get(key(at)) ?? null) path.unshift(at);
      // Collapse a change of line into one stop, which keeps the line it was reached on (as the
      // real route planner reports stops).
      return path.filter((step, index) => path[index - 1]?.station !== step.station);
    }
    const next: { leg: Leg; cost: number }[] = [];
    const line = view.lines.find((l) => l.id === leg.line);
    const index = line?.stations.indexOf(leg.station) ?? -1;
    for (const neighbour of [line?.stations[index - 1], line?.stations[index + 1]]) {
      if (neighbour) next.push({ leg: { station: neighbour, line: leg.line }, cost: cost + 1 });
    }
    for (const other of view.lines) {
      if (other.id !== leg.line && other.stations.includes(leg.station)) {
        next.push({ leg: { station: leg.station, line: other.id }, cost: cost + 3 });
      }
    }
    for (const candidate of next) {
      if (candidate.cost < (dist.get(key(candidate.leg)) ?? Infinity)) {
        dist.set(key(candidate.leg), candidate.cost);
        prev.set(key(candidate.leg), leg);
        queue.push(candidate);
      }
    }
  }
  return null;
}

function has(texts: readonly string[], ...words: string[]): boolean {
  const text = texts.join(" ").toLowerCase();
  return words.some((word) => text.includes(word));
}

export interface DemoAnswer {
  state: AssistantState;
  tools: string[];
  assistantUnavailable: boolean;
}

export function demoAnswer(view: SystemView, journey: DemoJourney): DemoAnswer {
  const name = (id: string | undefined): string => view.stations.find((s) => s.id === id)?.name ?? id ?? "?";
  const unavailable = has(journey.freetext, "offline");
  const declined = (message: string, reason: AssistantState["kiosk_action"]["reason_code"], outcome: AssistantState["outcome"] = "request_declined"): DemoAnswer => ({
    state: { outcome, kiosk_action: { action: "block_purchase", reason_code: reason }, assistant_message: message },
    tools: [],
    assistantUnavailable: unavailable,
  });

  if (has(journey.freetext, "staff", "lost")) {
    return {
      state: {
        outcome: "policy_answer_only",
        kiosk_action: { action: "refer_to_staff", reason_code: "policy_exception" },
        advisory_banners: [{ severity: "info", title: "Customer service", body: "A member of staff at the ticket office can help you." }],
        assistant_message: "I can't handle that here. Please speak to a member of staff at the ticket office.",
      },
      tools: ["knowledge_base"],
      assistantUnavailable: unavailable,
    };
  }
  if (has(journey.freetext, "bike", "bicycle", "dog", "pet")) {
    return {
      state: {
        outcome: "policy_answer_only",
        kiosk_action: { action: "display_info", reason_code: "ok" },
        advisory_banners: [{ severity: "info", title: "Bicycles and pets", body: "Folded bicycles and small pets in carriers are welcome outside peak hours." }],
        assistant_message: "Folded bicycles and small pets in a carrier may travel outside peak hours.",
      },
      tools: ["knowledge_base"],
      assistantUnavailable: unavailable,
    };
  }
  if (has(journey.freetext, "refund")) return declined("Refunds can't be handled at this kiosk.", "unsupported_request");
  if (!journey.origin || !journey.destination) {
    return declined("Please choose the station you start from and the station you are going to.", "invalid_request");
  }
  if (journey.origin === journey.destination) {
    return declined("Your start and destination are the same station.", "invalid_request");
  }
  const legs = demoRoute(view, journey.origin, journey.destination);
  if (!legs) return declined("There is no route between these stations.", "no_service", "service_unavailable");

  const stops = legs.map((leg, index) => ({
    station_id: leg.station,
    station_name: name(leg.station),
    line: leg.line,
    is_transfer: index > 0 && index < legs.length - 1 && legs[index + 1]?.line !== leg.line,
  }));
  const lineSequence = legs.map((leg) => leg.line).filter((line, i, all) => all[i - 1] !== line);
  const transfers = lineSequence.length - 1;
  const route = {
    origin: journey.origin,
    destination: journey.destination,
    stops,
    transfers,
    estimated_minutes: Math.round((legs.length - 1) * 2.5 + transfers * 5),
    distance_miles: Math.round((legs.length - 1) * 1.1 * 10) / 10,
    line_sequence: lineSequence,
  };
  if (has(journey.freetext, "closed", "suspend", "strike")) {
    return {
      state: {
        outcome: "service_unavailable",
        kiosk_action: { action: "block_purchase", reason_code: "no_service" },
        advisory_banners: [{ severity: "critical", title: "Service suspended", body: `Trains are not running on the ${lineSequence[0] ?? ""} line.` }],
        assistant_message: "Service is suspended on this route right now, so I can't sell a ticket for it.",
      },
      tools: ["route_planner", "disruption_feed"],
      assistantUnavailable: unavailable,
    };
  }

  const fares = UNIT_FARES[view.id] ?? { adults: 2 };
  const counts = { adults: 1, ...journey.passengers };
  const lineItems = view.riderTypes
    .filter((rider) => (counts[rider] ?? 0) > 0)
    .map((rider) => {
      const count = counts[rider] ?? 0;
      const unit = fares[rider] ?? fares.adults ?? 2;
      return { rider_type: rider, count, unit_fare: unit, subtotal: Math.round(unit * count * 100) / 100, currency: view.currencyCode };
    });
  const total = Math.round(lineItems.reduce((sum, item) => sum + item.subtotal, 0) * 100) / 100;
  const banners: NonNullable<AssistantState["advisory_banners"]> = [];
  if (has(journey.freetext, "delay")) banners.push({ severity: "warning", title: "Delays", body: "Trains are running up to 10 minutes late." });
  if (has(journey.freetext, "wheelchair", "step-free", "step free", "elevator")) {
    banners.push({ severity: "positive", title: "Step-free route", body: "Every station on this route has working elevators." });
  }
  const advisoryOnly = has(journey.freetext, "just looking", "how long");
  const state: AssistantState = {
    outcome: advisoryOnly ? "advisory_only" : "route_and_fare_ready",
    route,
    kiosk_action: advisoryOnly ? { action: "display_info", reason_code: "ok" } : { action: "prompt_purchase", reason_code: "ok" },
    assistant_message: `Take the ${lineSequence.join(", then the ")} line from ${name(journey.origin)} to ${name(journey.destination)}.`,
  };
  if (!advisoryOnly) {
    state.fare_quote = {
      passenger_summary: { adults: counts.adults ?? 0, children: counts.children ?? 0, seniors: counts.seniors ?? 0, disabled: counts.disabled ?? 0, free_riders: 0 },
      line_items: lineItems,
      discounts: [],
      total,
      currency: view.currencyCode,
    };
  }
  if (banners.length > 0) state.advisory_banners = banners;
  return {
    state,
    tools: ["route_planner", ...(advisoryOnly ? [] : ["fare_calculator"]), "disruption_feed", ...(banners.some((b) => b.severity === "positive") ? ["station_info"] : [])],
    assistantUnavailable: unavailable,
  };
}
