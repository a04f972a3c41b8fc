// What the kiosk screen needs beyond the validated system files — station coordinates and native
// names (from the data pack's data/gtfs/<system>_*.json files, several heterogeneous formats,
// matched to stations by name, and from an imported system's own stations.json `lat`/`lon`), the
// drawing of each line (an imported system's shapes.json), operator-supplied local names
// (framebooks/<system>/local-names.yaml) and the attribution the data licence requires (the pack's
// NOTICE, or an imported system's source.json) — as pure parsing and merging. Reading the files is
// the Node adapter's job (node/pack-extras.ts).
import { z } from "zod";
import type { Station } from "../../tools/data/schemas.ts";
import type { SystemData } from "../../tools/data/system.ts";

/** Where the kiosk app gets a system's extras (node/pack-extras.ts reads them from files). */
export interface SystemExtrasSource {
  geo(system: SystemData): StationGeoIndex;
  /** Each line's drawing, by line id (none: the map joins the line's stations). */
  lineShapes?(system: SystemData): LineShapes;
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
  private readonly byId = new Map<string, StationGeo>();

  /** A station's own coordinates (its stations.json entry), which win over a name match. */
  addStation(id: string, geo: StationGeo): void {
    this.byId.set(id, geo);
  }

  /** A station by its id, else by its name (lookup). */
  find(station: { id: string; name: string }): StationGeo | undefined {
    const own = this.byId.get(station.id);
    if (!own) return this.lookup(station.name);
    const named = this.lookup(station.name);
    return named ? { lat: own.lat, lon: own.lon, nativeNames: [...new Set([...own.nativeNames, ...named.nativeNames])] } : own;
  }

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
    return this.byKey.size + this.byId.size;
  }
}

/**
 * The coordinates stations.json itself gives (an imported feed's stops: `lat`, `lon` beside the
 * schema's fields), added to `index` by station id; stations without both keep none.
 */
export function addStationCoordinates(index: StationGeoIndex, stations: readonly Station[]): StationGeoIndex {
  for (const s of stations) {
    const lat = finite(s.lat);
    const lon = finite(s.lon);
    if (lat !== null && lon !== null) index.addStation(s.id, { lat, lon, nativeNames: [] });
  }
  return index;
}

// ---------------------------------------------------------------------------------------------
// Line drawings

/** shapes.json of an imported system: line id → the line's course as [lat, lon] points. */
export const LineShapesFileSchema = z.record(z.string().min(1), z.array(z.tuple([z.number().min(-90).max(90), z.number().min(-180).max(180)])));
export type LineShapes = ReadonlyMap<string, readonly (readonly [number, number])[]>;

/** How far (metres) a simplified drawing may stray from the feed's course: well under a pixel of a city-wide map. */
export const SHAPE_TOLERANCE_M = 15;

/**
 * A course with the points a drawing does not need left out (Douglas–Peucker, distances in metres
 * on a local equirectangular plane): feeds carry a point every few metres, which the screen would
 * otherwise receive and draw by the thousand.
 */
export function simplifyCourse(points: readonly (readonly [number, number])[], toleranceM = SHAPE_TOLERANCE_M): [number, number][] {
  if (points.length <= 2) return points.map(([lat, lon]) => [lat, lon]);
  const lat0 = (points.reduce((sum, p) => sum + p[0], 0) / points.length) * (Math.PI / 180);
  const metres = points.map(([lat, lon]) => [lon * Math.cos(lat0) * 111_320, lat * 110_574] as const);
  const keep = new Uint8Array(points.length);
  keep[0] = keep[points.length - 1] = 1;
  const stack: [number, number][] = [[0, points.length - 1]];
  while (stack.length > 0) {
    const [from, to] = stack.pop() as [number, number];
    const [ax, ay] = metres[from] as readonly [number, number];
    const [bx, by] = metres[to] as readonly [number, number];
    const squared = (bx - ax) ** 2 + (by - ay) ** 2;
    let far = -1;
    let farthest = toleranceM;
    for (let i = from + 1; i < to; i++) {
      const [px, py] = metres[i] as readonly [number, number];
      // Distance to the segment, not its line: a course that turns back keeps its turn.
      const t = squared === 0 ? 0 : Math.min(1, Math.max(0, ((px - ax) * (bx - ax) + (py - ay) * (by - ay)) / squared));
      const d = Math.hypot(ax + t * (bx - ax) - px, ay + t * (by - ay) - py);
      if (d > farthest) {
        farthest = d;
        far = i;
      }
    }
    if (far < 0) continue;
    keep[far] = 1;
    stack.push([from, far], [far, to]);
  }
  return points.filter((_, i) => keep[i] === 1).map(([lat, lon]) => [lat, lon]);
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
  /** Other names notices still call a line by (a former name: "brown": ["木柵線"]), by line id. */
  line_aliases: z.record(z.string().min(1), z.array(z.string().min(1)).min(1)).optional(),
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
  lineAliases: Map<string, string[]>;
  byPaymentMethod: Map<string, string>;
  aliases: Map<string, string[]>;
  landmarks: Map<string, string[]>;
}

export const LOCAL_NAMES_FILE = "local-names.yaml";

// ---------------------------------------------------------------------------------------------
// Attribution

/** source.json of an imported system: where its files came from (kiosk network import writes it). */
export const ImportSourceFileSchema = z.looseObject({
  agency: z.array(z.string()).optional(),
  publisher: z.looseObject({ name: z.string(), url: z.string().nullable().optional() }).nullable().optional(),
  /** The attribution the feed's licence asks for ("Contains data provided by …"). */
  attribution: z.string().nullable().optional(),
  /** The licence text that came with the feed. */
  licence: z.string().nullable().optional(),
});
export type ImportSourceFile = z.infer<typeof ImportSourceFileSchema>;

function sentence(text: string): string {
  const t = text.trim();
  return /[.!?)]$/.test(t) ? t : `${t}.`;
}

/**
 * The attribution of an imported system, from its source.json: the feed's own attribution line,
 * then that it is imported data and whose feed (agency, publisher and its address), and the first
 * line of the licence that came with the feed. Nothing of the data pack's: none of it is.
 */
export function attributionFromImportSource(source: ImportSourceFile, orgName: string): string {
  const agencies = (source.agency ?? []).map((a) => a.trim()).filter(Boolean);
  const agency = agencies.length > 0 ? agencies.join(", ") : orgName;
  const publisher = source.publisher?.name.trim();
  const url = source.publisher?.url?.trim();
  const by = publisher && publisher !== agency ? `, published by ${publisher}${url ? ` (${url})` : ""}` : url ? ` (${url})` : "";
  const licence = source.licence
    ?.split(/\r?\n/)
    .map((l) => l.trim())
    .find(Boolean);
  // A licence's first line names it; a screen has no room for the rest.
  const licenceName = licence && licence.length > 120 ? `${licence.slice(0, 119)}…` : licence;
  return [source.attribution?.trim() ? sentence(source.attribution) : undefined, `Imported data: the GTFS feed of ${agency}${by}.`, licenceName ? sentence(`Licence: ${licenceName}`) : undefined]
    .filter((p): p is string => p !== undefined)
    .join(" ");
}

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
