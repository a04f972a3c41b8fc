// route_planner: fastest route, optionally under station restrictions and segment/line closures.
import { RouteError, type LineClosure, type RouteResult } from "../network/router.ts";
import { sha256hex12, pyTruthy } from "../py/text.ts";
import { HttpError } from "./errors.ts";
import type { RoutePlannerInput, RoutePlannerResult } from "./schemas.ts";
import type { SessionState } from "./state.ts";

/** Route ids are keyed by the raw, lowercased inputs (not the resolved stations). */
export function routeId(origin: string, destination: string): string {
  return `route_${sha256hex12(`route:${origin.toLowerCase()}:${destination.toLowerCase()}`)}`;
}

export function routePlanner(state: SessionState, req: RoutePlannerInput): RoutePlannerResult {
  const { engine, system } = state;
  let route: RouteResult;
  try {
    if (pyTruthy(req.station_restrictions) || pyTruthy(req.segment_closures) || pyTruthy(req.line_closures)) {
      const restrictions = (req.station_restrictions ?? []).map((r) => ({ station: r.station, restriction: r.restriction }));
      const segments: (readonly string[])[] = [...(req.segment_closures ?? [])];
      if (req.line_closures && req.line_closures.length > 0) {
        const closures = req.line_closures.map((lc) => {
          const closure: LineClosure = { line: system.aliasLine(lc.line) };
          if (lc.from_station !== null && lc.from_station !== undefined) closure.from_station = lc.from_station;
          if (lc.to_station !== null && lc.to_station !== undefined) closure.to_station = lc.to_station;
          return closure;
        });
        segments.push(...engine.expandLineClosures(closures));
      }
      route = engine.routeWithRestrictions(req.origin, req.destination, restrictions, segments);
    } else {
      route = engine.route(req.origin, req.destination);
    }
  } catch (err) {
    if (err instanceof RouteError) throw new HttpError(404, err.message);
    throw err;
  }

  const id = routeId(req.origin, req.destination);
  const first = route.stops[0];
  const last = route.stops[route.stops.length - 1];
  state.routeCache.set(id, {
    origin: first ? first.station_id : req.origin,
    destination: last ? last.station_id : req.destination,
    distance_miles: route.distance_miles,
    // A stop per station visited, the boarding one included, so a ride to the next station counts 1.
    stations: route.stops.length - 1,
  });
  return {
    route_id: id,
    // A copy of each stop (the engine caches routes), field by field: a spread is a slow copy in the compiled CLI (scripts/build-node.ts).
    stops: route.stops.map((s) => ({ station_id: s.station_id, station_name: s.station_name, line: s.line, is_transfer: s.is_transfer, transfer_to: s.transfer_to })),
    transfers: route.transfers,
    estimated_minutes: route.estimated_minutes,
    distance_miles: route.distance_miles,
    line_sequence: [...route.line_sequence],
  };
}
