// Every text a policy (the model) reads back when a tool call fails: the error details of the six
// transit tools, of the terminal-state submission, and the validation messages of the request
// models. All of them, and only them, live here.
//
// Why they are byte-exact copies and not our own words: the student model was trained on the
// reference tool server's replies (github.com/continker/metrollm-bench at 28f7eac: harness/
// mock_server.py, graph.py, fares.py, and pydantic 2's messages inside FastAPI's 422 bodies), so
// other wording is input it has never seen; and the parity suites compare them byte for byte (the
// replay of the oracle's 2,728 tool calls, the validator's 955 verdicts and error bodies, the
// rule-ref transcripts, whose tool messages feed the next prompt). A change here is a change of
// the model's input: it needs the reference to change first.

/** Errors of the route engine (route_planner's 404 details). */
export const ROUTE_MESSAGES = {
  unknownStation: (input: string) => `Unknown station: '${input}'`,
  notInGraph: (stationId: string) => `Node '${stationId}' is not in the expanded graph`,
  noPath: (originId: string, destinationId: string) => `No path found between '${originId}' and '${destinationId}'`,
  endpointRestricted: (which: "Origin" | "Destination", name: string, restriction: string) => `${which} station '${name}' is ${restriction} by disruption`,
  noPathWithRestrictions: (origin: string, destination: string) => `No path between '${origin}' and '${destination}' with current restrictions`,
  unknownLine: (lineId: string) => `Unknown line: ${lineId}`,
  lineWithoutStations: (lineId: string) => `Line '${lineId}' has no stations defined`,
  partialClosureNeedsBothEnds: (lineId: string) => `Partial closure on line '${lineId}' requires both from_station and to_station`,
  partialClosureOnLoop: (lineId: string) => `Partial closure on loop line '${lineId}' is ambiguous — use whole-line closure or specify segments`,
  closureEndsNotOnLine: (from: string, to: string, lineId: string) => `Endpoints '${from}'/'${to}' are not on line '${lineId}'`,
} as const;

/** fare_calculator's 422 detail. */
export const FARE_MESSAGES = {
  distanceNeeded: "route_distance_miles required for distance fare model",
  // The kiosk's own: the reference has no zone_table model (imported feeds), so the model never met these.
  zonesNeeded: "the origin and destination stations (their zones) are required for the zone_table fare model",
  noZoneFare: (from: string, to: string) => `The fare table has no fare from zone ${from} to zone ${to}`,
  zoneFareByPlatform: (from: string, to: string, fares: string) => `The fare from zone ${from} to zone ${to} differs by platform (${fares})`,
  // The kiosk's own: the reference's brackets are in miles only; a table by stations travelled is an operator's model.
  stationsNeeded: "a route_id from route_planner (its number of stations travelled) is required for a fare model priced by stations",
} as const;

/** station_info's and line_info's details. */
export const INFO_MESSAGES = {
  /** `choices` is Python's repr of the sorted list of query types. */
  invalidQueryType: (queryType: string, choices: string) => `Invalid query_type '${queryType}'. Must be one of: ${choices}`,
  stationIdNeeded: "Provide station_id or station_ids",
  stationNotFound: (stationId: string) => `Station '${stationId}' not found`,
  unknownLine: (requested: string) => `Unknown line: ${requested}`,
  lineNeeded: "Provide line or lines",
} as const;

/** submit_assistant_state's 422 details (after the request model accepted the body). */
export const SUBMISSION_MESSAGES = {
  invalidOutcome: (outcome: string) => `Invalid outcome: ${outcome}`,
  invalidAction: (action: string) => `Invalid action: ${action}`,
  invalidReasonCode: (code: string) => `Invalid reason_code: ${code}`,
  routeRequired: (outcome: string) => `route required when outcome=${outcome}`,
  fareQuoteRequired: (outcome: string) => `fare_quote required when outcome=${outcome}`,
  /** `shown` is Python's repr of at most five offending ids; the example id is MARTA's whatever the system. */
  unknownStopIds: (shown: string) => `Unknown station IDs in route.stops: ${shown}. Use station_id values from route_planner (e.g. MARTA-AP).`,
} as const;

/** pydantic 2's `msg` per error type, as FastAPI puts it in a 422 body ({ge}: the bound). */
export const PYDANTIC_MESSAGES = {
  missing: "Field required",
  string_type: "Input should be a valid string",
  int_type: "Input should be a valid integer",
  int_parsing: "Input should be a valid integer, unable to parse string as an integer",
  int_from_float: "Input should be a valid integer, got a number with a fractional part",
  int_parsing_size: "Unable to parse input string as an integer, exceeded maximum size",
  finite_number: "Input should be a finite number",
  float_type: "Input should be a valid number",
  float_parsing: "Input should be a valid number, unable to parse string as a number",
  list_type: "Input should be a valid list",
  dict_type: "Input should be a valid dictionary",
  model_attributes_type: "Input should be a valid dictionary or object to extract fields from",
  greater_than_equal: "Input should be greater than or equal to {ge}",
} as const;
export type PydanticErrorType = keyof typeof PYDANTIC_MESSAGES;

/** Whole response bodies that are not JSON details. */
export const HTTP_BODIES = {
  /** Starlette's body for an unhandled exception in a route (HTTP 500). */
  internalServerError: "Internal Server Error",
  /** Starlette's detail for a path no route serves (an unknown tool name, HTTP 404). */
  notFound: "Not Found",
} as const;
