// Request and result schemas of the six transit tools. Requests mirror the reference server's
// pydantic models field for field (the field order is the order of validation errors); the
// pydantic semantics of each zod construct are described in ./pydantic.ts. Hidden fields
// (case_id, disruption_feed's current_time) are part of the request as the server sees it.
import { z } from "zod";

const optionalString = (description?: string) =>
  description ? z.string().nullish().describe(description) : z.string().nullish();
const hiddenCaseId = optionalString("(hidden) case id injected by the harness");

// ---------------------------------------------------------------------------------------------
// route_planner

export const StationRestrictionSchema = z.object({
  station: z.string().describe("station name or id"),
  restriction: z.string().describe('"closed" | "skip" | "no_transfer" (other values have no effect)'),
});

export const LineClosureSchema = z.object({
  line: z.string().describe("line id or name"),
  from_station: optionalString("first closed station (partial closure; needs to_station)"),
  to_station: optionalString("last closed station (partial closure; needs from_station)"),
});

export const RoutePlannerInputSchema = z.object({
  origin: z.string().describe("origin station name or id"),
  destination: z.string().describe("destination station name or id"),
  departure_time: optionalString("ISO 8601 departure time (accepted, ignored)"),
  accessibility: z.array(z.string()).nullish().describe("accessibility requirements (accepted, ignored)"),
  station_restrictions: z.array(StationRestrictionSchema).nullish().describe("closed / skipped / no-transfer stations"),
  segment_closures: z.array(z.array(z.string())).nullish().describe("[stationA, stationB] pairs closed for every line"),
  line_closures: z.array(LineClosureSchema).nullish().describe("whole-line or partial line closures"),
  case_id: hiddenCaseId,
});
export type RoutePlannerInput = z.output<typeof RoutePlannerInputSchema>;

export const RouteStopSchema = z.object({
  station_id: z.string(),
  station_name: z.string(),
  line: z.string().nullable(),
  is_transfer: z.boolean(),
  transfer_to: z.string().nullable(),
});

export const RoutePlannerResultSchema = z.object({
  route_id: z.string(),
  stops: z.array(RouteStopSchema),
  transfers: z.int(),
  estimated_minutes: z.number(),
  distance_miles: z.number(),
  line_sequence: z.array(z.string()),
});
export type RoutePlannerResult = z.output<typeof RoutePlannerResultSchema>;

// ---------------------------------------------------------------------------------------------
// fare_calculator

const count = (description: string) => z.int().min(0).default(0).describe(description);

export const PassengerCountsSchema = z.object({
  adults: count("adults (default 0)"),
  children: count("children (default 0)"),
  seniors: count("seniors (default 0)"),
  disabled: count("riders with a disability (default 0)"),
});

export const FareCalculatorInputSchema = z.object({
  route_id: z.string().describe("route_id from route_planner"),
  passengers: PassengerCountsSchema.describe("{adults, children, seniors, disabled}: counts, ints >= 0, default 0"),
  ticket_type: z.string().default("single").describe("ticket type (accepted, ignored)"),
  payment_method: z.string().default("breeze_card").describe("payment method, e.g. ventra, contactless, gold_travel_card"),
  case_id: hiddenCaseId,
});
export type FareCalculatorInput = z.output<typeof FareCalculatorInputSchema>;

export const FareLineSchema = z.object({ label: z.string(), amount: z.number(), currency: z.string() });

export const FareCalculatorResultSchema = z.object({
  fare_id: z.string(),
  line_items: z.array(FareLineSchema),
  subtotal: z.number(),
  discounts: z.array(FareLineSchema),
  total: z.number(),
  currency: z.string(),
});
export type FareCalculatorResult = z.output<typeof FareCalculatorResultSchema>;

// ---------------------------------------------------------------------------------------------
// station_info

export const QUERY_TYPES = ["accessibility", "connections", "exits", "facilities", "real_time_status"] as const;

export const StationInfoInputSchema = z.object({
  station_id: optionalString("one station id or name"),
  station_ids: z.array(z.string()).nullish().describe("several station ids or names (batch reply)"),
  query_type: z.string().describe(`one of ${QUERY_TYPES.join(", ")}`),
  case_id: hiddenCaseId,
});
export type StationInfoInput = z.output<typeof StationInfoInputSchema>;

export const StationInfoEntrySchema = z.object({ station_id: z.string(), data: z.record(z.string(), z.unknown()) });
export const StationInfoResultSchema = z.union([
  StationInfoEntrySchema,
  z.object({ results: z.array(StationInfoEntrySchema) }),
]);
export type StationInfoEntry = z.output<typeof StationInfoEntrySchema>;
export type StationInfoResult = z.output<typeof StationInfoResultSchema>;

// ---------------------------------------------------------------------------------------------
// line_info

export const LineInfoInputSchema = z.object({
  line: optionalString('one line id or name, e.g. "10" or "Line 10"'),
  lines: z.array(z.string()).nullish().describe("several line ids or names (batch reply)"),
  case_id: hiddenCaseId,
});
export type LineInfoInput = z.output<typeof LineInfoInputSchema>;

export const LineStationSchema = z.object({
  station_id: z.string(),
  station_name: z.string(),
  position: z.int(),
  is_terminus: z.boolean(),
  connections: z.array(z.string()),
});

export const LineInfoEntrySchema = z.object({
  line_id: z.string(),
  line_name: z.string(),
  color: z.string(),
  station_count: z.int(),
  is_loop: z.boolean(),
  terminals: z.array(z.string()),
  stations: z.array(LineStationSchema),
});
export const LineInfoResultSchema = z.union([LineInfoEntrySchema, z.object({ results: z.array(LineInfoEntrySchema) })]);
export type LineInfoEntry = z.output<typeof LineInfoEntrySchema>;
export type LineInfoResult = z.output<typeof LineInfoResultSchema>;

// ---------------------------------------------------------------------------------------------
// disruption_feed

export const DisruptionFeedInputSchema = z.object({
  case_id: hiddenCaseId,
  current_time: optionalString("(hidden) ISO time; disruptions whose valid_until is earlier are dropped"),
  line: optionalString("keep disruptions of this line (id or name) and those without a line"),
  station: optionalString("keep disruptions whose segment lists this id or whose message mentions it"),
  severity_filter: z.string().default("all").describe('"all" (default), "major" (critical, warning) or "minor" (info)'),
});
export type DisruptionFeedInput = z.output<typeof DisruptionFeedInputSchema>;

export const DisruptionEntrySchema = z.object({
  id: z.string(),
  line: z.string().nullable(),
  segment: z.array(z.string()).nullable(),
  type: z.string(),
  severity: z.string(),
  message: z.string(),
  alternative: z.string().nullable(),
  eta_resolution: z.string().nullable(),
  valid_from: z.string().nullable(),
  valid_until: z.string().nullable(),
});
export const DisruptionFeedResultSchema = z.object({ disruptions: z.array(DisruptionEntrySchema) });
export type DisruptionEntry = z.output<typeof DisruptionEntrySchema>;
export type DisruptionFeedResult = z.output<typeof DisruptionFeedResultSchema>;

// ---------------------------------------------------------------------------------------------
// knowledge_base

export const KnowledgeBaseInputSchema = z.object({
  policy_id: z.string().default("").describe("exact policy id (preferred; the query is then not used)"),
  query: z.string().default("").describe("keyword search over titles, contents and synonyms"),
  category: z.string().default("general").describe("category (accepted, ignored)"),
  case_id: hiddenCaseId,
});
export type KnowledgeBaseInput = z.output<typeof KnowledgeBaseInputSchema>;

export const KnowledgeBaseHitSchema = z.object({ title: z.string(), content: z.string(), policy_id: z.string() });
export const KnowledgeBaseResultSchema = z.object({ results: z.array(KnowledgeBaseHitSchema), found: z.boolean() });
export type KnowledgeBaseResult = z.output<typeof KnowledgeBaseResultSchema>;

export const TOOL_INPUT_SCHEMAS = {
  route_planner: RoutePlannerInputSchema,
  fare_calculator: FareCalculatorInputSchema,
  station_info: StationInfoInputSchema,
  line_info: LineInfoInputSchema,
  disruption_feed: DisruptionFeedInputSchema,
  knowledge_base: KnowledgeBaseInputSchema,
} as const;
