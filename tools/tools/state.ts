// The state one tool session holds (the reference keeps it in process-wide globals).
import type { SystemData } from "../data/system.ts";
import type { RouteEngine } from "../network/router.ts";

export interface CachedRoute {
  origin: string;
  destination: string;
  distance_miles: number;
  /** Stations travelled (the route's stops minus one), for a fare table by stations. */
  stations: number;
}

export interface SessionState {
  readonly system: SystemData;
  readonly engine: RouteEngine;
  /** route_id → what fare_calculator needs; keyed by the raw origin/destination, last write wins. */
  readonly routeCache: Map<string, CachedRoute>;
  /** The case's disruptions after set_disruptions normalisation. */
  disruptions: readonly Record<string, unknown>[];
}
