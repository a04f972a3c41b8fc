// Tool names and one-line summaries (for help texts).
export const TOOL_NAMES = [
  "route_planner",
  "fare_calculator",
  "station_info",
  "line_info",
  "disruption_feed",
  "knowledge_base",
] as const;
export type ToolName = (typeof TOOL_NAMES)[number];

const NAMES: ReadonlySet<string> = new Set(TOOL_NAMES);

export function isToolName(name: string): name is ToolName {
  return NAMES.has(name);
}

export const TOOL_SUMMARIES: Readonly<Record<ToolName, string>> = {
  route_planner:
    "fastest route between two stations (minutes, 5-minute transfer penalty); optional station restrictions, segment and line closures",
  fare_calculator: "fare for a route_id from route_planner and a passenger group, with discounts and surcharges",
  station_info: "accessibility, facilities, exits, connections or status of one station (station_id) or several (station_ids)",
  line_info: "stations of a line in order, terminals, loop flag and transfers; one line or several (lines)",
  disruption_feed: "the case's disruptions, filtered by line, station and severity (and the hidden current time)",
  knowledge_base: "policy lookup by policy_id, or keyword search (top 3) by query",
};
