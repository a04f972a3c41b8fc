// fare_calculator: prices a route from the session's route cache for a group of passengers.
import { calculateFare, FareError } from "../fares/fares.ts";
import { sha256hex12 } from "../py/text.ts";
import { HttpError } from "./errors.ts";
import type { FareCalculatorInput, FareCalculatorResult } from "./schemas.ts";
import type { SessionState } from "./state.ts";

export function fareCalculator(state: SessionState, req: FareCalculatorInput): FareCalculatorResult {
  const p = req.passengers;
  // An unknown route id prices without route context: flat systems still answer (CTA then skips
  // its O'Hare check), distance systems fail with 422.
  const cached = state.routeCache.get(req.route_id);
  let fare;
  try {
    fare = calculateFare(state.system.fares, p, req.payment_method, cached ? Object.assign({}, cached) : {});
  } catch (err) {
    if (err instanceof FareError) throw new HttpError(422, err.message);
    throw err;
  }
  const key = `fare:${req.route_id}:${p.adults}:${p.children}:${p.seniors}:${p.disabled}:${req.ticket_type}`;
  return {
    fare_id: `fare_${sha256hex12(key)}`,
    line_items: fare.items,
    subtotal: fare.subtotal,
    discounts: fare.discounts,
    total: fare.total,
    currency: fare.currency,
  };
}
