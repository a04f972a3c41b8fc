// fare_calculator: prices a route from the session's route cache for a group of passengers.
import { calculateFare, FareError, type FareRoute } from "../fares/fares.ts";
import { sha256hex12 } from "../py/text.ts";
import { HttpError } from "./errors.ts";
import type { FareCalculatorInput, FareCalculatorResult } from "./schemas.ts";
import type { SessionState } from "./state.ts";

export function fareCalculator(state: SessionState, req: FareCalculatorInput): FareCalculatorResult {
  const p = req.passengers;
  // An unknown route id prices without route context: flat systems still answer (CTA then skips
  // its O'Hare check), distance systems fail with 422 (without miles, or without the stations
  // travelled for a table by stations).
  const cached = state.routeCache.get(req.route_id);
  const route: FareRoute = cached
    ? { origin: cached.origin, destination: cached.destination, distance_miles: cached.distance_miles, stations: cached.stations }
    : {};
  if (state.system.fares.model === "zone_table") {
    // A fare table between zones prices the stations' zones, which only the network knows.
    const zones = (id: string | undefined): readonly string[] => {
      const station = id === undefined ? undefined : state.system.stationById(id);
      return station === undefined ? [] : (station.fare_zones ?? [station.zone]);
    };
    route.origin_zones = zones(route.origin);
    route.destination_zones = zones(route.destination);
  }
  let fare;
  try {
    fare = calculateFare(state.system.fares, p, req.payment_method, route);
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
