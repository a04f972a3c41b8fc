// line_info: a line's stations in order, terminals, loop flag and transfers at each station.
import { comparePyStrings } from "../network/expanded.ts";
import { pyTruthy } from "../py/text.ts";
import { HttpError } from "./errors.ts";
import type { LineInfoEntry, LineInfoInput, LineInfoResult } from "./schemas.ts";
import type { SessionState } from "./state.ts";
import { INFO_MESSAGES } from "../wire/messages.ts";

function describeLine(state: SessionState, requested: string): LineInfoEntry {
  const { system, engine } = state;
  const lineId = system.aliasLine(requested);
  const line = system.lineById(lineId);
  if (!line) throw new HttpError(404, INFO_MESSAGES.unknownLine(requested));
  const ordered = line.stations;
  const terminals = engine.lineTerminals(lineId);
  return {
    line_id: lineId,
    line_name: line.name,
    color: line.color,
    station_count: ordered.length,
    is_loop: engine.isLoopLine(lineId),
    terminals,
    stations: ordered.map((sid, position) => ({
      station_id: sid,
      station_name: system.stationById(sid)?.name ?? sid,
      position,
      is_terminus: terminals.includes(sid),
      connections: [...system.linesServing(sid)].filter((l) => l !== lineId).sort(comparePyStrings),
    })),
  };
}

export function lineInfo(state: SessionState, req: LineInfoInput): LineInfoResult {
  const requested = pyTruthy(req.lines) ? (req.lines as string[]) : pyTruthy(req.line) ? [req.line as string] : [];
  if (requested.length === 0) throw new HttpError(422, INFO_MESSAGES.lineNeeded);
  const results = requested.map((r) => describeLine(state, r));
  if (results.length === 1 && !pyTruthy(req.lines)) return results[0] as LineInfoEntry;
  return { results };
}
