// station_info: accessibility, facilities, exits, connections or (static) real-time status.
import type { Station } from "../data/schemas.ts";
import { pyReprStringList } from "../py/text.ts";
import { pyTruthy } from "../py/text.ts";
import { HttpError } from "./errors.ts";
import { pyGet } from "./pyops.ts";
import { QUERY_TYPES, type StationInfoEntry, type StationInfoInput, type StationInfoResult } from "./schemas.ts";
import type { SessionState } from "./state.ts";
import { INFO_MESSAGES } from "../wire/messages.ts";

const VALID = new Set<string>(QUERY_TYPES);

function subset(station: Station, queryType: string): Record<string, unknown> {
  const s = station as Record<string, unknown>;
  switch (queryType) {
    case "accessibility":
      return { name: pyGet(s, "name"), accessibility: pyGet(s, "accessibility", {}) };
    case "facilities":
      return Object.fromEntries(Object.entries(s).filter(([k]) => k !== "connections"));
    case "exits":
      return { name: pyGet(s, "name"), type: pyGet(s, "type"), zone: pyGet(s, "zone") };
    case "connections":
      return { name: pyGet(s, "name"), lines: pyGet(s, "lines", []), connections: pyGet(s, "connections", []) };
    default:
      return { name: pyGet(s, "name"), status: "operational", alerts: [] };
  }
}

export function stationInfo(state: SessionState, req: StationInfoInput): StationInfoResult {
  if (!VALID.has(req.query_type)) {
    throw new HttpError(422, INFO_MESSAGES.invalidQueryType(req.query_type, pyReprStringList([...QUERY_TYPES].sort())));
  }
  const ids = pyTruthy(req.station_ids) ? (req.station_ids as string[]) : pyTruthy(req.station_id) ? [req.station_id as string] : [];
  if (ids.length === 0) throw new HttpError(422, INFO_MESSAGES.stationIdNeeded);
  const results: StationInfoEntry[] = ids.map((sid) => {
    const station = state.system.resolveStation(sid);
    if (!station) throw new HttpError(404, INFO_MESSAGES.stationNotFound(sid));
    // A copy: callers may keep or change results without touching the system data.
    return { station_id: sid, data: structuredClone(subset(station, req.query_type)) };
  });
  if (results.length === 1 && !pyTruthy(req.station_ids)) return results[0] as StationInfoEntry;
  return { results };
}
