// Builders for terminal states and ask results used across renderer tests.
import type { AssistantState } from "../lib/types.ts";
import type { AskResult } from "../../runtime/kiosk/bridge.ts";

export const ROUTE: NonNullable<AssistantState["route"]> = {
  origin: "M-AP",
  destination: "M-MT",
  stops: [
    { station_id: "M-AP", station_name: "Airport", line: "red" },
    { station_id: "M-CP", station_name: "College Park", line: "red" },
    { station_id: "M-WE", station_name: "West End", line: "red" },
    { station_id: "M-FP", station_name: "Five Points", line: "red" },
    { station_id: "M-PC", station_name: "Peachtree Center", line: "red" },
    { station_id: "M-NA", station_name: "North Avenue", line: "red" },
    { station_id: "M-MT", station_name: "Midtown", line: "red" },
  ],
  transfers: 0,
  estimated_minutes: 24,
  distance_miles: 10.44,
  line_sequence: ["red"],
};

export const FARE: NonNullable<AssistantState["fare_quote"]> = {
  passenger_summary: { adults: 2, children: 1, seniors: 0, disabled: 0, free_riders: 0 },
  line_items: [
    { rider_type: "adults", count: 2, unit_fare: 2.5, subtotal: 5, currency: "USD" },
    { rider_type: "children", count: 1, unit_fare: 1.25, subtotal: 1.25, currency: "USD" },
  ],
  discounts: [{ label: "Family saver", amount: 0.5, currency: "USD" }],
  total: 5.75,
  currency: "USD",
};

export function readyState(overrides: Partial<AssistantState> = {}): AssistantState {
  return {
    outcome: "route_and_fare_ready",
    route: ROUTE,
    fare_quote: FARE,
    kiosk_action: { action: "prompt_purchase", reason_code: "ok" },
    assistant_message: "Take the Red line from Airport to Midtown.",
    ...overrides,
  };
}

export function askResult(state: AssistantState, overrides: Partial<AskResult> = {}): AskResult {
  return {
    sessionId: "s-1",
    state,
    fallback: false,
    assistantUnavailable: false,
    purchasable: state.outcome === "route_and_fare_ready" && state.kiosk_action.action === "prompt_purchase",
    steps: [],
    elapsedMs: 1200,
    policy: "model",
    ...overrides,
  };
}

/** A promise with its resolve/reject exposed. */
export function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void; reject: (error: unknown) => void } {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Lets pending promise callbacks run (real event loop, independent of any simulated clock). */
export const flush = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));
