// What the kiosk screen needs beyond the validated system files — station coordinates and native
// names (from the data pack's data/gtfs/<system>_*.json files, several heterogeneous formats,
// matched to stations by name), operator-supplied local names (framebooks/<system>/local-names.yaml)
// and the attribution the data licence requires (from the pack's NOTICE) — as pure parsing and
// merging. Reading the files is the Node adapter's job (node/pack-extras.ts).
import { z } from "zod";
import type { SystemData } from "../../tools/data/system.ts";

/** Where the kiosk app gets a system's extras (node/pack-extras.ts reads them from files). */
export interface SystemExtrasSource {
  geo(system: SystemData): StationGeoIndex;
  operatorNames(system: SystemData): OperatorLocalNames | undefined;
  attribution(system: SystemData): string;
}

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

// ---------------------------------------------------------------------------------------------
// Operator local names

export const LocalNamesFileSchema = z.object({
  /** BCP 47 language of the names (e.g. "ar"). */
  language: z.string().min(1),
  /** Where the names come from (shown to auditors, not passengers). */
  source: z.string().optional(),
  /** Station names in that language, by station id. Optional: parseYamlText returns the input itself, so no zod default. */
  names: z.record(z.string().min(1), z.union([z.string().min(1), z.array(z.string().min(1)).min(1)])).optional(),
  /** The public sources the names were taken from, by a short key that `name_sources` cites (URL or repository and path). */
  references: z.record(z.string().min(1), z.string().min(1)).optional(),
  /** Which references give a station's names, by station id: for auditors checking each name, not for passengers. */
  name_sources: z.record(z.string().min(1), z.array(z.string().min(1)).min(1)).optional(),
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
  /** The references (the text of `references`) each station's names come from, where the file says. */
  nameSources: Map<string, string[]>;
  byLine: Map<string, string>;
  byPaymentMethod: Map<string, string>;
  aliases: Map<string, string[]>;
  landmarks: Map<string, string[]>;
}

export const LOCAL_NAMES_FILE = "local-names.yaml";

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
