// A validated GTFS feed turned into the runtime's own system files (stations, lines, graph, fares,
// policies, framebook draft), with what the import did not take and what the operator should review.
// Pure: the feed's tables in, plain objects out; writing them is the caller's job.
import type { Fares, Framebook, GraphEdge, Line, Station, SystemId } from "../data/schemas.ts";
import { z } from "zod";
import { MILES_PER_KM } from "../util/units.ts";
import type { Agency, Calendar, CalendarDate, FareAttribute, FareLegRule, FareProduct, FareRule, FeedInfo, Frequency, Route, ShapePoint, Stop, StopArea, StopTime, Transfer, Translation, Trip } from "./schemas.ts";

/** The tables the import reads (a reader's feed has them all). */
export interface FeedTables {
  agency: readonly Agency[];
  stops: readonly Stop[];
  routes: readonly Route[];
  trips: readonly Trip[];
  /** Each trip's stop times in stop_sequence order. */
  stopTimesByTrip: ReadonlyMap<string, readonly StopTime[]>;
  calendar: readonly Calendar[];
  calendarDates: readonly CalendarDate[];
  frequencies: readonly Frequency[];
  transfers: readonly Transfer[];
  fareAttributes: readonly FareAttribute[];
  fareRules: readonly FareRule[];
  fareProducts: readonly FareProduct[];
  fareLegRules: readonly FareLegRule[];
  stopAreas: readonly StopArea[];
  translations: readonly Translation[];
  shapes: readonly ShapePoint[];
  feedInfo: readonly FeedInfo[];
}

/** Something the import noticed: a refusal (error), something left out (warning), or a note for review. */
export const ImportNoteSchema = z.object({
  severity: z.enum(["error", "warning", "review"]),
  file: z.string(),
  line: z.number().int().positive().optional(),
  field: z.string().optional(),
  message: z.string(),
});
export type ImportNote = z.infer<typeof ImportNoteSchema>;

/** import-report.json: what the import built and noticed, kept with the system for its operator. */
export const ImportReportSchema = z.object({
  summary: z.object({ stations: z.number(), lines: z.number(), edges: z.number(), trips: z.number(), patterns: z.number(), farePairs: z.number() }),
  notes: z.array(ImportNoteSchema),
});

/** A station's place, for the map. */
export interface StationPlace {
  id: string;
  lat: number;
  lon: number;
}

/** An imported station: the pack's fields, and the feed's own ids (realtime alerts name those). */
export type ImportedStation = Station & { lat: number; lon: number; gtfs_stop_ids: string[] };

export interface ImportedSystem {
  stations: ImportedStation[];
  lines: Line[];
  edges: GraphEdge[];
  /** Undefined when the feed has no fares: the operator must supply a fare model. */
  fares: Fares | undefined;
  framebook: Framebook;
  /** Each line's drawing (its main pattern's shape, else its stations' places). */
  lineShapes: Record<string, [number, number][]>;
  /** Every feed stop the kiosk serves → its station id. */
  stationOfStop: Record<string, string>;
  /** Station and line names in another language, from translations.txt (the screen shows them beside the feed's). */
  localNames: LocalNamesDraft | undefined;
  summary: z.infer<typeof ImportReportSchema>["summary"];
}

/** What translations.txt gives in one language, in the shape of an operator's local-names file. */
export interface LocalNamesDraft {
  language: string;
  source: string;
  names: Record<string, string[]>;
  lines: Record<string, string>;
}

export interface ImportResult {
  system: ImportedSystem | undefined;
  notes: ImportNote[];
}


/** What kind of vehicle a GTFS route_type is, in the words lines.json uses. */
function lineType(routeType: number): string {
  if (routeType === 0 || (routeType >= 900 && routeType < 1000)) return "light_rail";
  if (routeType === 1 || (routeType >= 400 && routeType < 500)) return "heavy_rail";
  if (routeType === 2 || (routeType >= 100 && routeType < 200)) return "rail";
  if (routeType === 12 || routeType === 405) return "monorail";
  if (routeType === 3 || (routeType >= 700 && routeType < 800)) return "bus";
  return "other";
}

function median(values: readonly number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

const round2 = (n: number): number => Math.round(n * 100) / 100;
// Distances keep four places: an operator's fare sections in kilometres end between two stations' hundredths of a mile.
const round4 = (n: number): number => Math.round(n * 10_000) / 10_000;

function haversineKm(a: { lat: number; lon: number }, b: { lat: number; lon: number }): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLon = (b.lon - a.lon) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * 6371.0088 * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** "HH:MM" of seconds since a service day's midnight, on a 24-hour clock (25:10 → 01:10). */
function clock(seconds: number): string {
  const minutes = Math.floor(seconds / 60) % (24 * 60);
  return `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
}

// ---------------------------------------------------------------------------------------------
// Stations

interface StationGroup {
  id: string;
  name: string;
  members: Stop[];
  place: { lat: number; lon: number };
  wheelchair: 0 | 1 | 2;
  zones: string[];
  transferSeconds: number | undefined;
}

/**
 * Stops grouped into stations: platforms and boarding areas under their parent station; a stop
 * without a parent is a station of its own, joined to another only where transfers.txt links the
 * two and both carry the same name (the feed says they are one place).
 */
function groupStations(feed: FeedTables, zonesOfStop: ReadonlyMap<string, readonly string[]>, notes: ImportNote[]): { groups: Map<string, StationGroup>; stationOf: Map<string, string> } {
  const stopsById = new Map(feed.stops.map((s) => [s.stop_id, s]));
  const rootOf = (stop: Stop): Stop => {
    let at = stop;
    for (let hops = 0; hops < 4 && at.location_type !== 1 && at.parent_station !== undefined; hops++) {
      const parent = stopsById.get(at.parent_station);
      if (!parent) break;
      at = parent;
    }
    return at;
  };
  // Union-find over parentless stops linked by a same-name transfer.
  const joined = new Map<string, string>();
  const find = (id: string): string => {
    let at = id;
    while (joined.has(at) && joined.get(at) !== at) at = joined.get(at) as string;
    return at;
  };
  const transferSeconds = new Map<string, number>();
  for (const t of feed.transfers) {
    if (t.from_stop_id === undefined || t.to_stop_id === undefined || t.from_stop_id === t.to_stop_id) continue;
    const a = stopsById.get(t.from_stop_id);
    const b = stopsById.get(t.to_stop_id);
    if (!a || !b) continue;
    const ra = rootOf(a);
    const rb = rootOf(b);
    if (ra.stop_id === rb.stop_id) {
      if (t.min_transfer_time !== undefined) transferSeconds.set(ra.stop_id, Math.max(transferSeconds.get(ra.stop_id) ?? 0, t.min_transfer_time));
      continue;
    }
    if (t.transfer_type === 3) continue;
    if ((ra.stop_name ?? "").trim().toLowerCase() !== (rb.stop_name ?? "").trim().toLowerCase()) {
      notes.push({ severity: "warning", file: "transfers.txt", line: t.line, message: `a transfer between '${ra.stop_name ?? ra.stop_id}' and '${rb.stop_name ?? rb.stop_id}' (different stations) is not offered: the kiosk routes no walks between stations` });
      continue;
    }
    const fa = find(ra.stop_id);
    const fb = find(rb.stop_id);
    if (fa !== fb) joined.set(fb, fa);
    if (t.min_transfer_time !== undefined) {
      for (const id of [ra.stop_id, rb.stop_id]) transferSeconds.set(id, Math.max(transferSeconds.get(id) ?? 0, t.min_transfer_time));
    }
  }
  const groups = new Map<string, StationGroup>();
  const stationOf = new Map<string, string>();
  for (const stop of feed.stops) {
    if (stop.location_type === 2 || stop.location_type === 3) continue;
    const root = rootOf(stop);
    const id = find(root.stop_id);
    stationOf.set(stop.stop_id, id);
    let group = groups.get(id);
    if (!group) {
      const head = stopsById.get(id) ?? root;
      group = { id, name: head.stop_name ?? id, members: [], place: { lat: head.stop_lat ?? 0, lon: head.stop_lon ?? 0 }, wheelchair: 0, zones: [], transferSeconds: undefined };
      groups.set(id, group);
    }
    group.members.push(stop);
    for (const zone of zonesOfStop.get(stop.stop_id) ?? []) if (!group.zones.includes(zone)) group.zones.push(zone);
    const seconds = transferSeconds.get(root.stop_id);
    if (seconds !== undefined) group.transferSeconds = Math.max(group.transferSeconds ?? 0, seconds);
  }
  for (const group of groups.values()) {
    // Step-free only where every boarding stop the feed describes says so; one "no" is a no; silence is unknown.
    const boarding = group.members.filter((m) => m.location_type === 0 || m.location_type === 1);
    const parent = stopsById.get(group.id);
    const values = boarding.map((m) => (m.wheelchair_boarding === 0 && m.location_type === 0 && parent ? parent.wheelchair_boarding : m.wheelchair_boarding));
    group.wheelchair = values.includes(2) ? 2 : values.length > 0 && values.every((v) => v === 1) ? 1 : 0;
  }
  return { groups, stationOf };
}

// ---------------------------------------------------------------------------------------------
// Trip patterns

interface Pattern {
  route: string;
  direction: number;
  stations: string[];
  trips: Trip[];
}

function tripStations(times: readonly StopTime[], stationOf: ReadonlyMap<string, string>): { station: string; arrival: number | undefined }[] {
  const out: { station: string; arrival: number | undefined }[] = [];
  for (const st of times) {
    const station = stationOf.get(st.stop_id);
    if (station === undefined) continue;
    const arrival = st.arrival_time ?? st.departure_time;
    const last = out[out.length - 1];
    if (last && last.station === station) continue;
    out.push({ station, arrival });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// The import

export function systemFromFeed(feed: FeedTables, options: { id: SystemId; fares?: Fares | undefined }): ImportResult {
  const notes: ImportNote[] = [];
  const source = options.fares ? undefined : fareSource(feed, notes);
  const zonesOfStop = source?.zonesOfStop ?? zoneIdsOfStops(feed);
  const { groups, stationOf } = groupStations(feed, zonesOfStop, notes);

  // Patterns and per-segment samples, per route.
  const patterns = new Map<string, Pattern>();
  /** Seconds between the train's arrivals at two consecutive stations, per route and direction. */
  const samples = new Map<string, number[]>();
  // Each direction is timed on its own: a train dwells longer at some stations than at others.
  const segmentKey = (route: string, a: string, b: string): string => `${route}\u0000${a}\u0000${b}`;
  for (const trip of feed.trips) {
    const times = feed.stopTimesByTrip.get(trip.trip_id) ?? [];
    const stops = tripStations(times, stationOf);
    if (stops.length < 2) continue;
    const stations = stops.map((s) => s.station);
    const key = `${trip.route_id}\u0000${trip.direction_id ?? 0}\u0000${stations.join("\u0001")}`;
    let pattern = patterns.get(key);
    if (!pattern) patterns.set(key, (pattern = { route: trip.route_id, direction: trip.direction_id ?? 0, stations, trips: [] }));
    pattern.trips.push(trip);
    for (let i = 1; i < stops.length; i++) {
      const a = stops[i - 1] as { station: string; arrival: number | undefined };
      const b = stops[i] as { station: string; arrival: number | undefined };
      const k = segmentKey(trip.route_id, a.station, b.station);
      let list = samples.get(k);
      if (!list) samples.set(k, (list = []));
      if (a.arrival !== undefined && b.arrival !== undefined && b.arrival >= a.arrival) list.push(b.arrival - a.arrival);
    }
  }
  const served = new Set<string>();
  for (const p of patterns.values()) for (const s of p.stations) served.add(s);
  for (const group of groups.values()) {
    if (!served.has(group.id) && group.members.some((m) => m.location_type === 1 || m.location_type === 0)) {
      const first = group.members[0];
      notes.push({ severity: "warning", file: "stops.txt", ...(first ? { line: first.line } : {}), message: `station '${group.name}' (${group.id}) has no trip stopping at it: left out` });
    }
  }
  if (served.size < 2) {
    notes.push({ severity: "error", file: "stop_times.txt", message: "no trip stops at two stations: there is no network to import" });
    return { system: undefined, notes };
  }

  const shapesById = new Map<string, ShapePoint[]>();
  for (const p of feed.shapes) {
    let list = shapesById.get(p.shape_id);
    if (!list) shapesById.set(p.shape_id, (list = []));
    list.push(p);
  }
  for (const list of shapesById.values()) list.sort((a, b) => a.shape_pt_sequence - b.shape_pt_sequence);

  // Graph edges: one per line, direction and pair of neighbouring stations, with the typical time
  // from the train's arrival at one to its arrival at the next (so a trip's minutes run from the
  // train's arrival where the rider boards to its arrival where they leave).
  const edges: GraphEdge[] = [];
  const edgeSeen = new Set<string>();
  const lineOrder = [...feed.routes].sort((a, b) => (a.route_sort_order ?? 0) - (b.route_sort_order ?? 0));
  const patternsOfRoute = (routeId: string): Pattern[] => [...patterns.values()].filter((p) => p.route === routeId);
  for (const route of lineOrder) {
    for (const pattern of patternsOfRoute(route.route_id).sort((a, b) => b.trips.length - a.trips.length)) {
      const shape = pattern.trips.map((t) => (t.shape_id === undefined ? undefined : shapesById.get(t.shape_id))).find((s) => s !== undefined);
      const distances = segmentDistancesKm(pattern.stations.map((id) => (groups.get(id) as StationGroup).place), shape);
      for (let i = 1; i < pattern.stations.length; i++) {
        const a = pattern.stations[i - 1] as string;
        const b = pattern.stations[i] as string;
        const k = segmentKey(route.route_id, a, b);
        if (edgeSeen.has(k)) continue;
        edgeSeen.add(k);
        const seconds = median(samples.get(k) ?? []);
        if (seconds === undefined) {
          const trip = pattern.trips[0];
          notes.push({ severity: "warning", file: "stop_times.txt", message: `no times between ${a} and ${b} on route ${route.route_id}${trip ? ` (trip ${trip.trip_id})` : ""}: the segment is left out` });
          continue;
        }
        edges.push({ from: a, to: b, distance_miles: round4((distances[i - 1] ?? 0) * MILES_PER_KM), travel_time_min: round2(seconds / 60), line: route.route_id, type: "rail" });
      }
    }
  }

  // Lines: each route's main pattern (its longest, the most run among those), branches named by headsign.
  const lines: Line[] = [];
  const lineShapes: Record<string, [number, number][]> = {};
  const weekdayServices = servicesOn(feed, "weekday");
  const headwayFromFrequencies = new Map<string, number[]>();
  const tripsById = new Map(feed.trips.map((t) => [t.trip_id, t]));
  for (const f of feed.frequencies) {
    const trip = tripsById.get(f.trip_id);
    if (!trip) continue;
    let list = headwayFromFrequencies.get(trip.route_id);
    if (!list) headwayFromFrequencies.set(trip.route_id, (list = []));
    list.push(f.headway_secs / 60);
  }
  for (const route of lineOrder) {
    const own = patternsOfRoute(route.route_id);
    if (own.length === 0) {
      notes.push({ severity: "warning", file: "routes.txt", line: route.line, message: `route ${route.route_id} has no trips: left out` });
      continue;
    }
    const longest = Math.max(...own.map((p) => p.stations.length));
    const main = own.filter((p) => p.stations.length === longest).sort((a, b) => b.trips.length - a.trips.length || a.direction - b.direction)[0] as Pattern;
    const name = route.route_long_name ?? route.route_short_name ?? route.route_id;
    const branches = own
      .filter((p) => p.direction === main.direction && p.stations.some((s) => !main.stations.includes(s)))
      .map((p) => {
        const shared = p.stations.filter((s) => main.stations.includes(s));
        const at = shared[shared.length - 1] ?? p.stations[0] ?? "";
        return { name: p.trips[0]?.trip_headsign ?? `${name} branch`, diverges_at: groups.get(at)?.name ?? at, stations: p.stations.filter((s) => !main.stations.includes(s) || s === at).map((s) => groups.get(s)?.name ?? s) };
      });
    lines.push({
      id: route.route_id,
      name,
      color: route.route_color !== undefined ? `#${route.route_color}` : "#808080",
      stations: [...main.stations],
      type: lineType(route.route_type),
      "24h": false,
      typical_headway_min: headwayOf(own, main, feed.stopTimesByTrip, stationOf, weekdayServices, headwayFromFrequencies.get(route.route_id)),
      ...(branches.length > 0 ? { branches } : {}),
    });
    if (route.route_color === undefined) notes.push({ severity: "review", file: "routes.txt", line: route.line, field: "route_color", message: `route ${route.route_id} has no colour: drawn grey until the operator sets one` });
    const shape = main.trips.map((t) => (t.shape_id === undefined ? undefined : shapesById.get(t.shape_id))).find((s) => s !== undefined);
    lineShapes[route.route_id] = shape ? shape.map((p) => [p.shape_pt_lat, p.shape_pt_lon]) : main.stations.map((s) => [groups.get(s)?.place.lat ?? 0, groups.get(s)?.place.lon ?? 0]);
  }

  notes.push({ severity: "review", file: "routes.txt", field: "route_long_name", message: `lines are named as the feed names its routes (${lines.map((l) => `'${l.name}'`).join(", ")}): the screen and the assistant say these names` });

  // Stations, in the order lines first reach them.
  const stationLines = new Map<string, Set<string>>();
  const neighbours = new Map<string, Set<string>>();
  for (const e of edges) {
    for (const [s, other] of [[e.from, e.to], [e.to, e.from]] as const) {
      let set = stationLines.get(s);
      if (!set) stationLines.set(s, (set = new Set()));
      set.add(e.line);
      let n = neighbours.get(s);
      if (!n) neighbours.set(s, (n = new Set()));
      n.add(other);
    }
  }
  const placed = new Set<string>();
  for (const line of lines) for (const s of line.stations) placed.add(s);
  for (const e of edges) for (const s of [e.from, e.to]) placed.add(s);
  const ordered = [...placed];
  const stations: ImportedStation[] = ordered.map((id) => {
    const g = groups.get(id) as StationGroup;
    const stepFree = g.wheelchair === 1 ? true : g.wheelchair === 2 ? false : null;
    return {
      id,
      name: g.name,
      lines: [...(stationLines.get(id) ?? [])].sort(),
      type: "unknown",
      accessibility: { elevator: null, escalator: null, step_free: stepFree, tactile_paving: null, wide_gate: null },
      connections: [...(neighbours.get(id) ?? [])].sort(),
      zone: g.zones[0] ?? "",
      ...(g.zones.length > 1 ? { fare_zones: [...g.zones] } : {}),
      lat: g.place.lat,
      lon: g.place.lon,
      gtfs_stop_ids: g.members.map((m) => m.stop_id),
      ...(g.transferSeconds !== undefined ? { transfer_min: round2(g.transferSeconds / 60) } : {}),
    };
  });
  const stationOfStop: Record<string, string> = {};
  for (const [stop, station] of stationOf) if (placed.has(station)) stationOfStop[stop] = station;
  const unknownAccess = stations.filter((s) => s.accessibility.step_free === null).length;
  if (unknownAccess > 0) notes.push({ severity: "review", file: "stops.txt", field: "wheelchair_boarding", message: `${unknownAccess} of ${stations.length} stations have no step-free information: the kiosk never shows them as step-free` });

  const fareResult = options.fares ? { fares: options.fares, pairs: 0 } : source && faresOf(source, stationOf, placed, notes);
  const currency = fareResult?.fares.currency;
  if (!fareResult && !notes.some((n) => n.severity === "error")) notes.push({ severity: "review", file: "fare_attributes.txt", message: "the feed has no fares: the system cannot sell tickets until the operator supplies a fare model (--fares FILE)" });

  const framebook = framebookDraft(feed, options.id, currency, patterns, notes);
  const localNames = namesFromTranslations(feed, stationOf, placed, new Set(lines.map((l) => l.id)), framebook.primary_language, notes);
  if (notes.some((n) => n.severity === "error")) return { system: undefined, notes };
  return {
    system: {
      stations,
      lines,
      edges,
      fares: fareResult?.fares,
      framebook,
      lineShapes,
      stationOfStop,
      localNames,
      summary: { stations: stations.length, lines: lines.length, edges: edges.length, trips: feed.trips.length, patterns: patterns.size, farePairs: fareResult?.pairs ?? 0 },
    },
    notes,
  };
}

/** Kilometres between consecutive places, along the shape where there is one (else as the crow flies). */
function segmentDistancesKm(places: readonly { lat: number; lon: number }[], shape: readonly ShapePoint[] | undefined): number[] {
  const straight = places.slice(1).map((p, i) => haversineKm(places[i] as { lat: number; lon: number }, p));
  if (!shape || shape.length < 2) return straight;
  const points = shape.map((p) => ({ lat: p.shape_pt_lat, lon: p.shape_pt_lon }));
  const along: number[] = [0];
  for (let i = 1; i < points.length; i++) along.push((along[i - 1] as number) + haversineKm(points[i - 1] as { lat: number; lon: number }, points[i] as { lat: number; lon: number }));
  // Each station's nearest shape point, never behind the previous station's (shapes run one way).
  let from = 0;
  const at: number[] = [];
  for (const place of places) {
    let best = from;
    let bestKm = Infinity;
    for (let i = from; i < points.length; i++) {
      const km = haversineKm(place, points[i] as { lat: number; lon: number });
      if (km < bestKm) {
        bestKm = km;
        best = i;
      }
    }
    // A shape that does not pass the station (over 1 km off) is not this pattern's: fall back.
    if (bestKm > 1) return straight;
    at.push(along[best] as number);
    from = best;
  }
  return at.slice(1).map((km, i) => Math.max(km - (at[i] as number), straight[i] as number));
}

/** Minutes between trains: frequencies.txt where given, else departures from the main pattern's first station on weekdays, 07:00–20:00. */
function headwayOf(
  own: readonly Pattern[],
  main: Pattern,
  stopTimesByTrip: ReadonlyMap<string, readonly StopTime[]>,
  stationOf: ReadonlyMap<string, string>,
  weekdayServices: ReadonlySet<string>,
  frequencies: readonly number[] | undefined,
): number {
  const fromFrequencies = median(frequencies ?? []);
  if (fromFrequencies !== undefined) return round2(fromFrequencies);
  const first = main.stations[0] as string;
  const departures: number[] = [];
  for (const p of own) {
    if (p.direction !== main.direction || !p.stations.includes(first)) continue;
    for (const trip of p.trips) {
      if (weekdayServices.size > 0 && !weekdayServices.has(trip.service_id)) continue;
      const st = (stopTimesByTrip.get(trip.trip_id) ?? []).find((s) => stationOf.get(s.stop_id) === first);
      const t = st?.departure_time ?? st?.arrival_time;
      if (t !== undefined && t >= 7 * 3600 && t <= 20 * 3600) departures.push(t);
    }
  }
  departures.sort((a, b) => a - b);
  const gaps = departures.slice(1).map((t, i) => (t - (departures[i] as number)) / 60).filter((g) => g > 0);
  return round2(median(gaps) ?? 0);
}

/** What a feed says of fares: one fare for every trip, or a table between zones, and each stop's zones. */
interface FareSource {
  currency: string;
  /** The file the table comes from (named in notes). */
  file: string;
  flat: number | undefined;
  /** One adult's fare from a zone to a zone (zone_id in GTFS v1, an area in GTFS-Fares v2). */
  table: Record<string, Record<string, number>> | undefined;
  zonesOfStop: ReadonlyMap<string, readonly string[]>;
}

/**
 * The feed's fares: fare_attributes + fare_rules (v1) or fare_products + fare_leg_rules between
 * areas (GTFS-Fares v2), read into an origin–destination table. What would be priced wrong —
 * rules by route or by zones passed through, time-dependent v2 rules, several networks, products
 * priced by rider category or fare medium — is refused with the file and field.
 */
function fareSource(feed: FeedTables, notes: ImportNote[]): FareSource | undefined {
  if (feed.fareAttributes.length > 0) return fareSourceV1(feed, notes);
  if (feed.fareLegRules.length > 0) return fareSourceV2(feed, notes);
  return undefined;
}

/**
 * Station and line names in another language from translations.txt (by record_id, or by the
 * field_value they translate), in the language most of them are in; others are left out with a
 * note. A station takes the translations of its stops' names, first its own.
 */
function namesFromTranslations(feed: FeedTables, stationOf: ReadonlyMap<string, string>, served: ReadonlySet<string>, lineIds: ReadonlySet<string>, feedLanguage: string, notes: ImportNote[]): LocalNamesDraft | undefined {
  const wanted = feed.translations.filter(
    (t) => ((t.table_name === "stops" && t.field_name === "stop_name") || (t.table_name === "routes" && (t.field_name === "route_long_name" || t.field_name === "route_short_name"))) && isoLanguage(t.language) !== feedLanguage,
  );
  if (wanted.length === 0) return undefined;
  const count = new Map<string, number>();
  for (const t of wanted) count.set(t.language, (count.get(t.language) ?? 0) + 1);
  const [language] = [...count].sort((a, b) => b[1] - a[1])[0] as [string, number];
  const others = [...count.keys()].filter((l) => l !== language);
  if (others.length > 0) notes.push({ severity: "warning", file: "translations.txt", field: "language", message: `names in ${others.join(", ")} are left out: the kiosk keeps one local language per system (${language}, the most translated)` });
  const stopsByName = new Map<string, string[]>();
  for (const s of feed.stops) if (s.stop_name !== undefined) stopsByName.set(s.stop_name, [...(stopsByName.get(s.stop_name) ?? []), s.stop_id]);
  const routesByName = new Map<string, string[]>();
  for (const r of feed.routes) for (const n of [r.route_long_name, r.route_short_name]) if (n !== undefined) routesByName.set(n, [...(routesByName.get(n) ?? []), r.route_id]);
  const names: Record<string, string[]> = {};
  const lines: Record<string, string> = {};
  for (const t of wanted.filter((x) => x.language === language)) {
    if (t.table_name === "stops") {
      const stops = t.record_id !== undefined ? [t.record_id] : (stopsByName.get(t.field_value ?? "") ?? []);
      for (const stop of stops) {
        const station = stationOf.get(stop);
        if (station === undefined || !served.has(station)) continue;
        const list = (names[station] ??= []);
        // The station's own translation first, its platforms' after.
        if (list.includes(t.translation)) continue;
        if (stop === station) list.unshift(t.translation);
        else list.push(t.translation);
      }
    } else {
      const routes = t.record_id !== undefined ? [t.record_id] : (routesByName.get(t.field_value ?? "") ?? []);
      for (const route of routes) if (lineIds.has(route) && (t.field_name === "route_long_name" || lines[route] === undefined)) lines[route] = t.translation;
    }
  }
  if (Object.keys(names).length === 0 && Object.keys(lines).length === 0) return undefined;
  notes.push({ severity: "review", file: "translations.txt", message: `${Object.keys(names).length} station and ${Object.keys(lines).length} line names in ${language} from the feed, written to local-names.yaml in the system's folder: the operator's own file (framebooks/<system>/local-names.yaml) replaces it` });
  return { language: isoLanguage(language), source: "translations.txt of the imported feed", names, lines };
}

/** Each stop's fare zone (stops.txt zone_id). */
function zoneIdsOfStops(feed: FeedTables): ReadonlyMap<string, readonly string[]> {
  return new Map(feed.stops.flatMap((s) => (s.zone_id === undefined ? [] : [[s.stop_id, [s.zone_id]] as const])));
}

function oneCurrency(currencies: readonly string[], file: string, field: string, notes: ImportNote[]): string | undefined {
  const distinct = [...new Set(currencies)];
  if (distinct.length === 1) return distinct[0];
  notes.push({ severity: "error", file, field, message: `fares in several currencies (${distinct.join(", ")}): a kiosk sells in one` });
  return undefined;
}

function fareSourceV1(feed: FeedTables, notes: ImportNote[]): FareSource | undefined {
  const currency = oneCurrency(feed.fareAttributes.map((f) => f.currency_type), "fare_attributes.txt", "currency_type", notes);
  if (currency === undefined) return undefined;
  const prices = new Map(feed.fareAttributes.map((f) => [f.fare_id, f.price]));
  const zonesOfStop = zoneIdsOfStops(feed);
  if (feed.fareRules.length === 0) {
    if (feed.fareAttributes.length > 1) {
      notes.push({ severity: "error", file: "fare_rules.txt", message: "several fares but no fare rules: the feed does not say which trip costs what (supply a fare model with --fares FILE)" });
      return undefined;
    }
    return { currency, file: "fare_attributes.txt", flat: feed.fareAttributes[0]?.price, table: undefined, zonesOfStop };
  }
  const unsupported = feed.fareRules.find((r) => r.route_id !== undefined || r.contains_id !== undefined || r.origin_id === undefined || r.destination_id === undefined);
  if (unsupported) {
    const field = unsupported.route_id !== undefined ? "route_id" : unsupported.contains_id !== undefined ? "contains_id" : unsupported.origin_id === undefined ? "origin_id" : "destination_id";
    notes.push({ severity: "error", file: "fare_rules.txt", line: unsupported.line, field, message: `fare rules by ${field === "route_id" ? "route" : field === "contains_id" ? "zones passed through" : "one end only"} are not supported: the kiosk prices origin–destination zone tables (supply a fare model with --fares FILE)` });
    return undefined;
  }
  const table: Record<string, Record<string, number>> = {};
  for (const rule of feed.fareRules) {
    const price = prices.get(rule.fare_id) as number;
    const row = (table[rule.origin_id as string] ??= {});
    const before = row[rule.destination_id as string];
    if (before !== undefined && before !== price) notes.push({ severity: "warning", file: "fare_rules.txt", line: rule.line, message: `zones ${rule.origin_id} → ${rule.destination_id} have two fares (${before}, ${price}): the cheaper is sold` });
    row[rule.destination_id as string] = before === undefined ? price : Math.min(before, price);
  }
  return { currency, file: "fare_rules.txt", flat: undefined, table, zonesOfStop };
}

function fareSourceV2(feed: FeedTables, notes: ImportNote[]): FareSource | undefined {
  // One adult's price per product: the row for no rider category and no fare medium, else one price all rows agree on.
  const byProduct = new Map<string, FareProduct[]>();
  for (const p of feed.fareProducts) byProduct.set(p.fare_product_id, [...(byProduct.get(p.fare_product_id) ?? []), p]);
  const price = new Map<string, number>();
  for (const [id, rows] of byProduct) {
    const plain = rows.filter((r) => r.rider_category_id === undefined && r.fare_media_id === undefined);
    const amounts = new Set((plain.length > 0 ? plain : rows).map((r) => r.amount));
    if (amounts.size > 1) {
      notes.push({ severity: "error", file: "fare_products.txt", line: rows[0]?.line, field: "amount", message: `fare product ${id} has several prices by rider category or fare medium: the kiosk sells one adult fare (supply a fare model with --fares FILE)` });
      return undefined;
    }
    price.set(id, [...amounts][0] as number);
  }
  const currency = oneCurrency(feed.fareProducts.map((p) => p.currency), "fare_products.txt", "currency", notes);
  if (currency === undefined) return undefined;
  const timed = feed.fareLegRules.find((r) => r.from_timeframe_group_id !== undefined || r.to_timeframe_group_id !== undefined);
  if (timed) {
    notes.push({ severity: "error", file: "fare_leg_rules.txt", line: timed.line, field: timed.from_timeframe_group_id !== undefined ? "from_timeframe_group_id" : "to_timeframe_group_id", message: "fares that depend on the time of day are not supported: the kiosk prices one table (supply a fare model with --fares FILE)" });
    return undefined;
  }
  const networks = new Set(feed.fareLegRules.map((r) => r.network_id));
  if (networks.size > 1) {
    const rule = feed.fareLegRules.find((r) => r.network_id !== feed.fareLegRules[0]?.network_id);
    notes.push({ severity: "error", file: "fare_leg_rules.txt", line: rule?.line, field: "network_id", message: "fares by network are not supported: the kiosk prices one network's table (supply a fare model with --fares FILE)" });
    return undefined;
  }
  const zonesOfStop = new Map<string, string[]>();
  for (const sa of feed.stopAreas) zonesOfStop.set(sa.stop_id, [...(zonesOfStop.get(sa.stop_id) ?? []), sa.area_id]);
  // An area given to a station is its platforms' too.
  for (const stop of feed.stops) {
    const parent = stop.parent_station === undefined ? undefined : zonesOfStop.get(stop.parent_station);
    if (parent && !zonesOfStop.has(stop.stop_id)) zonesOfStop.set(stop.stop_id, [...parent]);
  }
  const areas = [...new Set(feed.stopAreas.map((sa) => sa.area_id))];
  // An empty area matches every area; a rule naming both areas beats one naming one, which beats none; then the higher priority; then the cheaper.
  const rank = (r: FareLegRule): [number, number] => [(r.from_area_id === undefined ? 0 : 1) + (r.to_area_id === undefined ? 0 : 1), r.rule_priority ?? 0];
  const best = new Map<string, { rank: [number, number]; fare: number; line: number }>();
  for (const rule of feed.fareLegRules) {
    const fare = price.get(rule.fare_product_id);
    if (fare === undefined) continue;
    const r = rank(rule);
    for (const from of rule.from_area_id === undefined ? areas : [rule.from_area_id]) {
      for (const to of rule.to_area_id === undefined ? areas : [rule.to_area_id]) {
        const key = `${from}\u0000${to}`;
        const before = best.get(key);
        const better = !before || r[0] > before.rank[0] || (r[0] === before.rank[0] && (r[1] > before.rank[1] || (r[1] === before.rank[1] && fare < before.fare)));
        if (before && r[0] === before.rank[0] && r[1] === before.rank[1] && fare !== before.fare) notes.push({ severity: "warning", file: "fare_leg_rules.txt", line: rule.line, message: `areas ${from} → ${to} have two fares of the same rank (${before.fare}, ${fare}): the cheaper is sold` });
        if (better) best.set(key, { rank: r, fare, line: rule.line });
      }
    }
  }
  const table: Record<string, Record<string, number>> = {};
  for (const [key, { fare }] of best) {
    const [from, to] = key.split("\u0000") as [string, string];
    (table[from] ??= {})[to] = fare;
  }
  return { currency, file: "fare_leg_rules.txt", flat: undefined, table, zonesOfStop };
}

/** The fares.json of a fare source, and how many station pairs it prices; what it cannot price is noted. */
function faresOf(source: FareSource, stationOf: ReadonlyMap<string, string>, served: ReadonlySet<string>, notes: ImportNote[]): { fares: Fares; pairs: number } {
  const all = source.table ? Object.values(source.table).flatMap((row) => Object.values(row)) : [];
  const base = {
    model: "flat" as Fares["model"],
    currency: source.currency,
    currency_symbol: currencySymbol(source.currency),
    base_fare: source.flat ?? (all.length > 0 ? Math.min(...all) : 0),
    // The feed says nothing about children: none ride free until the operator says so.
    discounts: { children: { max_per_adult: 0 } },
  };
  if (!source.table) return { fares: base, pairs: 0 };
  const table = source.table;
  // Every pair of served stations should have one fare; the ones that do not cannot be sold.
  const zonesOfStation = new Map<string, Set<string>>();
  for (const [stop, zones] of source.zonesOfStop) {
    const station = stationOf.get(stop);
    if (station === undefined || !served.has(station)) continue;
    let set = zonesOfStation.get(station);
    if (!set) zonesOfStation.set(station, (set = new Set()));
    for (const zone of zones) set.add(zone);
  }
  const noZone = [...served].filter((s) => !zonesOfStation.has(s));
  if (noZone.length > 0) notes.push({ severity: "warning", file: source.file === "fare_rules.txt" ? "stops.txt" : "stop_areas.txt", field: source.file === "fare_rules.txt" ? "zone_id" : "area_id", message: `${noZone.length} station(s) have no fare zone and cannot be sold: ${noZone.slice(0, 5).join(", ")}` });
  let pairs = 0;
  const unpriced = new Map<string, number>();
  let byPlatform = 0;
  for (const [a, za] of zonesOfStation) {
    for (const [b, zb] of zonesOfStation) {
      if (a === b) continue;
      const found = new Set([...za].flatMap((x) => [...zb].flatMap((y) => (table[x]?.[y] === undefined ? [] : [table[x]?.[y] as number]))));
      if (found.size === 1) pairs++;
      else if (found.size > 1) byPlatform++;
      else for (const s of [a, b]) unpriced.set(s, (unpriced.get(s) ?? 0) + 1);
    }
  }
  const missing = [...unpriced.values()].reduce((n, k) => n + k, 0) / 2;
  if (missing > 0) {
    const worst = [...unpriced].sort((x, y) => y[1] - x[1]).slice(0, 3).map(([s, n]) => `${s} (${n})`);
    notes.push({ severity: "warning", file: source.file, message: `${missing} of ${zonesOfStation.size * (zonesOfStation.size - 1)} station pairs have no fare in the feed, most of them at ${worst.join(", ")}: the kiosk sells no ticket between them` });
  }
  if (byPlatform > 0) notes.push({ severity: "warning", file: source.file, message: `${byPlatform} station pairs have a fare that depends on the platform boarded: the kiosk sells no ticket between them` });
  return { fares: { ...base, model: "zone_table", zone_fares: table }, pairs };
}

/** The currency's symbol as Intl writes it in English (₹ for INR, ₩ for KRW), else its code. */
export function currencySymbol(code: string): string {
  try {
    const part = new Intl.NumberFormat("en", { style: "currency", currency: code, currencyDisplay: "narrowSymbol" }).formatToParts(0).find((p) => p.type === "currency");
    return part?.value ?? code;
  } catch {
    return code;
  }
}

/** Minor digits of a currency (0 for KRW and JPY, 2 for INR and USD). */
function currencyDigits(code: string): number {
  try {
    return new Intl.NumberFormat("en", { style: "currency", currency: code }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

function isoLanguage(tag: string | undefined): string {
  if (tag === undefined) return "en";
  const lower = tag.toLowerCase();
  const three: Record<string, string> = { eng: "en", kor: "ko", hin: "hi", tel: "te", zho: "zh", chi: "zh", ara: "ar", spa: "es" };
  return three[lower] ?? lower;
}

/** Service hours per day type, from the first departure to the last arrival of the day's trips. */
type DayType = "weekday" | "saturday" | "sunday";

/** The services that run on a day type: by calendar.txt's weekdays, or on a date calendar_dates.txt adds of that weekday. */
export function servicesOn(feed: Pick<FeedTables, "calendar" | "calendarDates">, day: DayType): Set<string> {
  const byCalendar = { weekday: (c: Calendar) => c.monday + c.tuesday + c.wednesday + c.thursday + c.friday > 0, saturday: (c: Calendar) => c.saturday === 1, sunday: (c: Calendar) => c.sunday === 1 }[day];
  const weekdays = { weekday: [1, 2, 3, 4, 5], saturday: [6], sunday: [0] }[day];
  const out = new Set(feed.calendar.filter(byCalendar).map((c) => c.service_id));
  for (const d of feed.calendarDates) {
    const weekday = new Date(Date.UTC(Number(d.date.slice(0, 4)), Number(d.date.slice(4, 6)) - 1, Number(d.date.slice(6, 8)))).getUTCDay();
    if (d.exception_type === 1 && weekdays.includes(weekday)) out.add(d.service_id);
  }
  return out;
}

/** Service hours per day type, from the first departure to the last arrival of the day's trips (a frequency-based trip over its whole window). */
function serviceHours(feed: FeedTables, patterns: ReadonlyMap<string, Pattern>): Partial<Record<DayType, string>> {
  const out: Partial<Record<DayType, string>> = {};
  const tripsInPatterns = [...patterns.values()].flatMap((p) => p.trips);
  const windows = new Map<string, { start: number; end: number }>();
  for (const f of feed.frequencies) {
    const w = windows.get(f.trip_id);
    windows.set(f.trip_id, { start: Math.min(w?.start ?? Infinity, f.start_time), end: Math.max(w?.end ?? -Infinity, f.end_time) });
  }
  for (const day of ["weekday", "saturday", "sunday"] as const) {
    const services = servicesOn(feed, day);
    let first = Infinity;
    let last = -Infinity;
    for (const trip of tripsInPatterns) {
      if (!services.has(trip.service_id)) continue;
      const times = feed.stopTimesByTrip.get(trip.trip_id) ?? [];
      let start = times[0]?.departure_time ?? times[0]?.arrival_time;
      let end = times[times.length - 1]?.arrival_time ?? times[times.length - 1]?.departure_time;
      // A frequency-based trip's times are a template: its first run leaves at the window's start, its last at the window's end.
      const window = windows.get(trip.trip_id);
      if (window && start !== undefined && end !== undefined) {
        end = window.end + (end - start);
        start = window.start;
      }
      if (start !== undefined) first = Math.min(first, start);
      if (end !== undefined) last = Math.max(last, end);
    }
    if (Number.isFinite(first) && Number.isFinite(last)) out[day] = `${clock(first)}-${clock(last)}`;
  }
  return out;
}

function framebookDraft(feed: FeedTables, id: SystemId, currency: string | undefined, patterns: ReadonlyMap<string, Pattern>, notes: ImportNote[]): Framebook {
  const agency = feed.agency[0];
  const name = agency?.agency_name ?? id;
  const hours = serviceHours(feed, patterns);
  const defaultHours = hours.weekday ?? hours.saturday ?? hours.sunday;
  if (defaultHours === undefined) notes.push({ severity: "error", file: "calendar.txt", message: "no service day has a trip: the feed gives no operating hours" });
  const code = currency ?? "XXX";
  const symbol = currency === undefined ? "" : currencySymbol(currency);
  const digits = currency === undefined ? 2 : currencyDigits(currency);
  notes.push({ severity: "review", file: "framebook.yaml", message: "a draft: terminology, rider rules, cultural notes and policies come from no feed; review them, then `kiosk framebook validate`" });
  return {
    org_name: name,
    full_name: name,
    primary_language: isoLanguage(agency?.agency_lang ?? feed.feedInfo[0]?.feed_lang),
    secondary_languages: [],
    currency_symbol: symbol || code,
    currency_code: code,
    fare_display_format: `${symbol || code}X${digits > 0 ? `.${"X".repeat(digits)}` : ""}`,
    terminology: { smartcard: "smart card", contactless: "contactless payment" },
    advisory_severity_mapping: { service_suspended: "critical", major_delay: "warning", minor_delay: "info", planned_works: "info", crowd_advisory: "info" },
    accessibility_labels: { step_free: "Step-free access" },
    ui_components_available: ["route_map", "fare_breakdown", "advisory_banner", "station_selector", "passenger_counter", "payment_panel", "assistant_chat"],
    operating_hours: {
      default: defaultHours ?? "00:00-00:00",
      ...hours,
      notes: "From the feed's timetable (first departure to last arrival per day type).",
    },
    cultural_notes: [],
  };
}
