// What the kiosk screen needs beyond the validated system files, read at run time:
// - station coordinates and native names from the data pack's data/gtfs/<system>_*.json files
//   (several heterogeneous formats, matched to stations by name);
// - operator-supplied local names (framebooks/<system>/local-names.yaml) for languages the pack lacks;
// - the attribution the data licence requires (from the pack's NOTICE).
// Node adapter (filesystem); the view built from it (view.ts) is pure.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { DataFileError } from "../../tools/data/errors.ts";
import { parseYamlText } from "../../tools/data/parse.ts";
import type { SystemData } from "../../tools/data/system.ts";

export interface StationGeo {
  lat: number | null;
  lon: number | null;
  /** Names in the local script from the pack (e.g. `native_name` in beijing_scraped.json). */
  nativeNames: string[];
}

/** Name key used to match pack station names to gtfs names: case, punctuation and spacing folded. */
export function nameKey(name: string): string {
  return name
    .toLowerCase()
    .replace(/&/g, " and ")
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim()
    .replace(/\s+/g, " ");
}

function finite(v: unknown): number | null {
  return typeof v === "number" && Number.isFinite(v) ? v : null;
}

/**
 * The station entries of one gtfs file, whatever its shape:
 * `{stations: {Name: {lat, lon, native_name?…}}}` (wiki / scraped files) or `{Name: {lat, lon}}`
 * (taipei_coords.json). Entries without a usable lat/lon are kept for their native names.
 */
export function gtfsStationEntries(json: unknown): Map<string, StationGeo> {
  const out = new Map<string, StationGeo>();
  if (json === null || typeof json !== "object" || Array.isArray(json)) return out;
  const obj = json as Record<string, unknown>;
  const stations = obj.stations;
  const table: Record<string, unknown> =
    stations !== null && typeof stations === "object" && !Array.isArray(stations) ? (stations as Record<string, unknown>) : obj;
  for (const [name, raw] of Object.entries(table)) {
    if (raw === null || typeof raw !== "object" || Array.isArray(raw)) continue;
    const entry = raw as Record<string, unknown>;
    if (!("lat" in entry) && !("native_name" in entry)) continue;
    const native = entry.native_name;
    const nativeNames = typeof native === "string" && native.trim() ? [native.trim()] : Array.isArray(native) ? native.filter((n): n is string => typeof n === "string" && n.trim() !== "") : [];
    const lat = finite(entry.lat);
    const lon = finite(entry.lon);
    out.set(typeof entry.name === "string" && entry.name ? entry.name : name, { lat: lat !== null && lon !== null ? lat : null, lon: lat !== null && lon !== null ? lon : null, nativeNames });
  }
  return out;
}

/** Merge the gtfs files of a system: the first file (name order) with coordinates wins, native names accumulate. */
export class StationGeoIndex {
  private readonly byKey = new Map<string, StationGeo>();

  add(entries: Map<string, StationGeo>): void {
    for (const [name, geo] of entries) {
      const key = nameKey(name);
      const existing = this.byKey.get(key);
      if (!existing) {
        this.byKey.set(key, { lat: geo.lat, lon: geo.lon, nativeNames: [...geo.nativeNames] });
        continue;
      }
      if (existing.lat === null && geo.lat !== null) {
        existing.lat = geo.lat;
        existing.lon = geo.lon;
      }
      for (const n of geo.nativeNames) if (!existing.nativeNames.includes(n)) existing.nativeNames.push(n);
    }
  }

  /** By exact name, then by the name without a parenthesised qualifier ("Addison (Blue)" → "Addison"). */
  lookup(stationName: string): StationGeo | undefined {
    const exact = this.byKey.get(nameKey(stationName));
    if (exact) return exact;
    const base = stationName.replace(/\s*\([^)]*\)/g, "");
    return base !== stationName ? this.byKey.get(nameKey(base)) : undefined;
  }

  get size(): number {
    return this.byKey.size;
  }
}

/** data/gtfs/<system>_*.json of the pack (missing folder or files → an empty index). */
export function loadStationGeo(packRoot: string, system: string): StationGeoIndex {
  const index = new StationGeoIndex();
  const dir = path.join(packRoot, "data", "gtfs");
  if (!existsSync(dir)) return index;
  const files = readdirSync(dir)
    .filter((f) => f.startsWith(`${system}_`) && f.endsWith(".json"))
    .sort();
  for (const f of files) {
    const full = path.join(dir, f);
    let json: unknown;
    try {
      json = JSON.parse(readFileSync(full, "utf8"));
    } catch (err) {
      throw new DataFileError(full, [{ message: `not valid JSON: ${(err as Error).message}` }]);
    }
    index.add(gtfsStationEntries(json));
  }
  return index;
}

// ---------------------------------------------------------------------------------------------
// Operator local names

export const LocalNamesFileSchema = z.object({
  /** BCP 47 language of the names (e.g. "ar"). */
  language: z.string().min(1),
  /** Where the names come from (shown to auditors, not passengers). */
  source: z.string().optional(),
  /** Station names in that language, by station id. Optional: parseYamlText returns the input itself, so no zod default. */
  names: z.record(z.string().min(1), z.union([z.string().min(1), z.array(z.string().min(1)).min(1)])).optional(),
  /** Line names in that language, by line id (e.g. "1": "1号线"). */
  lines: z.record(z.string().min(1), z.string().min(1)).optional(),
  /** Payment method names in that language, by the fares' method key (e.g. "easycard": "悠遊卡"). */
  payment_methods: z.record(z.string().min(1), z.string().min(1)).optional(),
  /** Common names and codes passengers use for a station ("SFO", "Ximending"), by station id. */
  aliases: z.record(z.string().min(1), z.array(z.string().min(1)).min(1)).optional(),
  /** Landmarks → the station(s) serving them (several: the kiosk asks which). */
  landmarks: z.record(z.string().min(1), z.array(z.string().min(1)).min(1)).optional(),
});
export type LocalNamesFile = z.infer<typeof LocalNamesFileSchema>;

export interface OperatorLocalNames {
  file: string;
  language: string;
  source: string | undefined;
  byStation: Map<string, string[]>;
  byLine: Map<string, string>;
  byPaymentMethod: Map<string, string>;
  aliases: Map<string, string[]>;
  landmarks: Map<string, string[]>;
}

export const LOCAL_NAMES_FILE = "local-names.yaml";

/**
 * `<operatorDir>/<system>/local-names.yaml`, validated against the system's station ids (an
 * unknown id is an operator typo: reported, not ignored). Undefined when there is no such file.
 */
export function loadOperatorLocalNames(operatorDir: string | undefined, system: SystemData): OperatorLocalNames | undefined {
  if (!operatorDir) return undefined;
  const file = path.join(operatorDir, system.id, LOCAL_NAMES_FILE);
  if (!existsSync(file)) return undefined;
  const parsed = parseYamlText(readFileSync(file, "utf8"), file, LocalNamesFileSchema).value;
  const lineIds = new Set(system.lines.map((l) => l.id));
  const methodIds = new Set(Object.keys(system.fares.payment_methods ?? {}));
  const unknownStation = (id: string): string => `unknown station id '${id}' for system ${system.id}`;
  const problems = [
    ...Object.keys(parsed.names ?? {})
      .filter((id) => !system.hasStationId(id))
      .map((id) => ({ path: ["names", id], message: unknownStation(id) })),
    ...Object.keys(parsed.aliases ?? {})
      .filter((id) => !system.hasStationId(id))
      .map((id) => ({ path: ["aliases", id], message: unknownStation(id) })),
    ...Object.entries(parsed.landmarks ?? {}).flatMap(([name, ids]) =>
      ids.filter((id) => !system.hasStationId(id)).map((id) => ({ path: ["landmarks", name], message: unknownStation(id) })),
    ),
    ...Object.keys(parsed.lines ?? {})
      .filter((id) => !lineIds.has(id))
      .map((id) => ({ path: ["lines", id], message: `unknown line id '${id}' for system ${system.id}` })),
    ...Object.keys(parsed.payment_methods ?? {})
      .filter((id) => !methodIds.has(id))
      .map((id) => ({ path: ["payment_methods", id], message: `unknown payment method '${id}' for system ${system.id}` })),
  ];
  if (problems.length > 0) throw new DataFileError(file, problems);
  const byStation = new Map<string, string[]>();
  for (const [id, names] of Object.entries(parsed.names ?? {})) byStation.set(id, typeof names === "string" ? [names] : [...names]);
  return {
    file,
    language: parsed.language,
    source: parsed.source,
    byStation,
    byLine: new Map(Object.entries(parsed.lines ?? {})),
    byPaymentMethod: new Map(Object.entries(parsed.payment_methods ?? {})),
    aliases: new Map(Object.entries(parsed.aliases ?? {})),
    landmarks: new Map(Object.entries(parsed.landmarks ?? {})),
  };
}

// ---------------------------------------------------------------------------------------------
// Attribution

const CC_BY_SA = "CC BY-SA 4.0 (https://creativecommons.org/licenses/by-sa/4.0/)";

/**
 * The attribution to show with a system's data, from the pack's NOTICE: the agency source line
 * for the system and the Wikipedia contributors (CC BY-SA 4.0), plus the pack's own copyright.
 */
export function attributionFromNotice(notice: string | undefined, system: string): string {
  const lines = (notice ?? "").split(/\r?\n/);
  const copyright = lines.find((l) => /^\s*Copyright\b/i.test(l))?.trim();
  const agency = lines
    .map((l) => /^\s*-\s+(.*)$/.exec(l)?.[1]?.trim())
    .find((l): l is string => l !== undefined && l.toLowerCase().includes(system.toLowerCase()));
  const wikipedia = notice && /CC BY-SA/i.test(notice);
  const parts = [
    `Station, line and map data: MetroLLM-Bench${copyright ? ` (${copyright.replace(/^Copyright\s+/i, "© ")})` : ""}`,
    agency ? `from ${agency}` : undefined,
    wikipedia || !notice ? `and Wikipedia contributors, ${CC_BY_SA}` : undefined,
  ].filter((p): p is string => p !== undefined);
  return `${parts.join(" ")}.`;
}

export function readAttribution(packRoot: string, system: string): string {
  const file = path.join(packRoot, "NOTICE");
  return attributionFromNotice(existsSync(file) ? readFileSync(file, "utf8") : undefined, system);
}
