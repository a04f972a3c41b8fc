// GTFS ids → the pack's lines and stations, for GTFS-Realtime `informed_entity` selectors. The pack's
// data/gtfs/<system>_*.json files give the GTFS side: route ids (`lines[].id`, with their names) and
// stops (keyed by name). A feed may also use the pack's own ids ("BART-EMBR"), their agency code
// ("EMBR"), or line names; all of these resolve. An imported system's stations carry their feed's
// stop ids and its lines are the feed's routes. Anything else is an unknown entity.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { DataFileError } from "../../tools/data/errors.ts";
import type { SystemData } from "../../tools/data/system.ts";
import { gtfsStationEntries, nameKey } from "../kiosk/extras.ts";

export interface GtfsIdIndex {
  route(routeId: string): string | undefined;
  stop(stopId: string): string | undefined;
  /** How many GTFS ids of each kind resolve (for messages). */
  readonly size: { routes: number; stops: number };
}

function gtfsLines(json: unknown): { id: string; name: string | undefined }[] {
  const lines = json !== null && typeof json === "object" && !Array.isArray(json) ? (json as Record<string, unknown>).lines : undefined;
  if (!Array.isArray(lines)) return [];
  return lines.flatMap((l: unknown) => {
    const entry = l as { id?: unknown; name?: unknown } | null;
    return entry && typeof entry.id === "string" ? [{ id: entry.id, name: typeof entry.name === "string" ? entry.name : undefined }] : [];
  });
}

/** The index for one system from the parsed gtfs files (pure). */
export function buildGtfsIdIndex(system: SystemData, gtfsFiles: readonly unknown[]): GtfsIdIndex {
  const routes = new Map<string, string>();
  const stops = new Map<string, string>();
  const byName = new Map<string, string>();
  for (const s of system.stations) {
    byName.set(nameKey(s.name), s.id);
    const base = s.name.replace(/\s*\([^)]*\)/g, "");
    if (base !== s.name && !byName.has(nameKey(base))) byName.set(nameKey(base), s.id);
  }
  const stationByName = (name: string): string | undefined => byName.get(nameKey(name)) ?? byName.get(nameKey(name.replace(/\s*\([^)]*\)/g, "")));

  for (const line of system.lines) {
    routes.set(line.id.toLowerCase(), line.id);
    routes.set(line.name.toLowerCase(), line.id);
  }
  for (const s of system.stations) {
    stops.set(s.id, s.id);
    // An imported system knows its feed's stop ids (platforms too).
    for (const stop of s.gtfs_stop_ids ?? []) stops.set(stop, s.id);
    const code = s.id.slice(s.id.indexOf("-") + 1);
    if (code && !stops.has(code)) stops.set(code, s.id);
  }
  for (const json of gtfsFiles) {
    for (const l of gtfsLines(json)) {
      const lineId = system.lineById(l.id) ? l.id : l.name ? system.aliasLine(l.name) : undefined;
      if (lineId && system.lineById(lineId)) routes.set(l.id.toLowerCase(), lineId);
    }
    for (const name of gtfsStationEntries(json).keys()) {
      const id = stationByName(name);
      if (id && !stops.has(name)) stops.set(name, id);
    }
  }
  return {
    route: (routeId) => routes.get(routeId.trim().toLowerCase()),
    stop: (stopId) => stops.get(stopId.trim()) ?? stationByName(stopId),
    size: { routes: routes.size, stops: stops.size },
  };
}

/** The index for one system from the pack's data/gtfs/<system>_*.json (no folder: pack ids and names only). */
export function loadGtfsIdIndex(packRoot: string, system: SystemData): GtfsIdIndex {
  const dir = path.join(packRoot, "data", "gtfs");
  const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.startsWith(`${system.id}_`) && f.endsWith(".json")).sort() : [];
  const parsed = files.map((f) => {
    const full = path.join(dir, f);
    try {
      return JSON.parse(readFileSync(full, "utf8")) as unknown;
    } catch (err) {
      throw new DataFileError(full, [{ message: `not valid JSON: ${(err as Error).message}` }]);
    }
  });
  return buildGtfsIdIndex(system, parsed);
}
