// Routing engine: expanded line graph, networkx-exact bidirectional Dijkstra, restricted routing.
export { ExpandedGraph, LINE_ORDERS, TRANSFER_PENALTY_MIN, comparePyStrings, type LineOrder } from "./expanded.ts";
export {
  RouteEngine,
  RouteError,
  routeEngineFor,
  stationsUsed,
  type LineClosure,
  type RouteResult,
  type RouteStop,
  type StationRestriction,
} from "./router.ts";
