// disruption_feed and set_disruptions: the case's disruptions, filtered by line, station,
// severity and (hidden) current time, and returned in the reference's ten-field shape.
import { pyTruthy, hasKey } from "../py/text.ts";
import { isDict, pyContains, pyGet, pyLessStr, pyList, pyLower, PythonCrash, type PyDict } from "./pyops.ts";
import type { DisruptionEntry, DisruptionFeedInput, DisruptionFeedResult } from "./schemas.ts";
import type { SessionState } from "./state.ts";

/**
 * set_disruptions: store the case's list with every dict-shaped `segment`
 * ({from_station, to_station, stations}) replaced by its `stations` list. The caller's objects are
 * not modified. A non-object entry makes the reference's set_disruptions fail (TypeError here).
 */
export function normaliseDisruptions(disruptions: readonly unknown[]): PyDict[] {
  return disruptions.map((d, i) => {
    if (!isDict(d)) throw new TypeError(`disruption ${i} is not an object`);
    const copy: PyDict = { ...d };
    const segment = copy.segment;
    if (isDict(segment)) {
      const stations = pyGet(segment, "stations", null);
      copy.segment = pyTruthy(stations) ? pyList(stations) : [];
    }
    return copy;
  });
}

function requiredStr(d: PyDict, key: string): string {
  const v = d[key];
  if (typeof v !== "string") throw new PythonCrash(`DisruptionEntry.${key}: not a string`);
  return v;
}

function optionalStr(d: PyDict, key: string): string | null {
  if (!hasKey(d, key) || d[key] === null) return null;
  return requiredStr(d, key);
}

/** DisruptionEntry(**d): the ten fields, validated (a bad record is a 500 in the reference). */
function toEntry(d: PyDict): DisruptionEntry {
  let segment: string[] | null = null;
  if (hasKey(d, "segment") && d.segment !== null) {
    if (!Array.isArray(d.segment) || !d.segment.every((s) => typeof s === "string")) {
      throw new PythonCrash("DisruptionEntry.segment: not a list of strings");
    }
    segment = [...(d.segment as string[])];
  }
  return {
    id: requiredStr(d, "id"),
    line: optionalStr(d, "line"),
    segment,
    type: requiredStr(d, "type"),
    severity: requiredStr(d, "severity"),
    message: requiredStr(d, "message"),
    alternative: optionalStr(d, "alternative"),
    eta_resolution: optionalStr(d, "eta_resolution"),
    valid_from: optionalStr(d, "valid_from"),
    valid_until: optionalStr(d, "valid_until"),
  };
}

export function disruptionFeed(state: SessionState, req: DisruptionFeedInput): DisruptionFeedResult {
  let filtered: readonly PyDict[] = state.disruptions;

  if (req.line) {
    // Disruptions without a line (station closures) concern every line.
    const wanted = state.system.aliasLine(req.line).toLowerCase();
    filtered = filtered.filter((d) => !pyTruthy(pyGet(d, "line")) || pyLower(d.line) === wanted);
  }

  if (req.station) {
    const station = req.station;
    const needle = station.toLowerCase();
    filtered = filtered.filter((d) => {
      const segment = pyGet(d, "segment");
      if (pyTruthy(segment) && pyContains(segment, station)) return true;
      return pyLower(pyGet(d, "message", "")).includes(needle);
    });
  }

  if (req.severity_filter === "major") {
    filtered = filtered.filter((d) => {
      const severity = pyGet(d, "severity");
      return severity === "critical" || severity === "warning";
    });
  } else if (req.severity_filter === "minor") {
    filtered = filtered.filter((d) => pyGet(d, "severity") === "info");
  }

  // Expired means valid_until < current_time as plain strings; future ones stay (announced).
  if (req.current_time) {
    const now = req.current_time;
    filtered = filtered.filter((d) => {
      const until = pyGet(d, "valid_until");
      return !(pyTruthy(until) && pyLessStr(until, now));
    });
  }

  return { disruptions: filtered.map(toEntry) };
}
