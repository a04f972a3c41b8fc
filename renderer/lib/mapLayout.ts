// Station positions for the network map. With coordinates: an equirectangular projection
// (longitude scaled by cos(mean latitude)) fitted into the viewport; stations without coordinates
// are placed between their neighbours on a line, and a line with a course of its own (an imported
// feed's shape) is drawn along it. Without usable coordinates: a schematic layout, one row per
// line in line order, transfer stations shared between rows.
import type { LineView, StationView } from "./types.ts";

export interface Point {
  x: number;
  y: number;
}

export interface MapLayout {
  mode: "geographic" | "schematic";
  width: number;
  height: number;
  positions: ReadonlyMap<string, Point>;
  /** Each line as drawn, by line id: its own course projected like the stations, else its stations joined. */
  courses: ReadonlyMap<string, readonly Point[]>;
}

export const MAP_PADDING = 48;

function hasCoordinates(station: StationView): station is StationView & { lat: number; lon: number } {
  return station.lat !== null && station.lon !== null && Number.isFinite(station.lat) && Number.isFinite(station.lon);
}

type LatLon = { lat: number; lon: number };

/** The projection (north up) that fits `points` into a width×height box; the same scale on both axes. */
function fitProjection(points: readonly LatLon[], width: number, height: number): (p: LatLon) => Point {
  const meanLat = points.reduce((sum, p) => sum + p.lat, 0) / points.length;
  const kx = Math.cos((meanLat * Math.PI) / 180);
  // Loops, not Math.min(...xs): a feed's courses have thousands of points.
  let [minX, maxX, minY, maxY] = [Infinity, -Infinity, Infinity, -Infinity];
  for (const p of points) {
    minX = Math.min(minX, p.lon * kx);
    maxX = Math.max(maxX, p.lon * kx);
    minY = Math.min(minY, p.lat);
    maxY = Math.max(maxY, p.lat);
  }
  const spanX = maxX - minX || 1e-9;
  const spanY = maxY - minY || 1e-9;
  const scale = Math.min((width - 2 * MAP_PADDING) / spanX, (height - 2 * MAP_PADDING) / spanY);
  const offsetX = (width - spanX * scale) / 2;
  const offsetY = (height - spanY * scale) / 2;
  return (p) => ({ x: offsetX + (p.lon * kx - minX) * scale, y: offsetY + (maxY - p.lat) * scale });
}

/** A line's own course as points (its `shape`), when it has one. */
function courseOf(line: LineView): LatLon[] {
  return (line.shape ?? []).filter(([lat, lon]) => Number.isFinite(lat) && Number.isFinite(lon)).map(([lat, lon]) => ({ lat, lon }));
}

/** Places stations without a position between the nearest placed neighbours along their lines. */
function fillAlongLines(positions: Map<string, Point>, lines: readonly LineView[]): void {
  for (let pass = 0; pass < 3; pass++) {
    for (const line of lines) {
      const ids = line.stations;
      for (let i = 0; i < ids.length; i++) {
        const id = ids[i]!;
        if (positions.has(id)) continue;
        let before = i - 1;
        while (before >= 0 && !positions.has(ids[before]!)) before--;
        let after = i + 1;
        while (after < ids.length && !positions.has(ids[after]!)) after++;
        const a = before >= 0 ? positions.get(ids[before]!) : undefined;
        const b = after < ids.length ? positions.get(ids[after]!) : undefined;
        if (a && b) {
          const f = (i - before) / (after - before);
          positions.set(id, { x: a.x + (b.x - a.x) * f, y: a.y + (b.y - a.y) * f });
        } else if (a || b) {
          const anchor = (a ?? b)!;
          const steps = a ? i - before : after - i;
          positions.set(id, { x: anchor.x + (a ? 1 : -1) * steps * 24, y: anchor.y });
        }
      }
    }
  }
}

/** One row per line, stations evenly spaced; a station already placed keeps its place. */
export function schematicLayout(lines: readonly LineView[], stations: readonly StationView[], width: number, height: number): Map<string, Point> {
  const positions = new Map<string, Point>();
  const rows = Math.max(lines.length, 1);
  const rowGap = (height - 2 * MAP_PADDING) / Math.max(rows - 1, 1);
  lines.forEach((line, row) => {
    const count = line.stations.length;
    const gap = (width - 2 * MAP_PADDING) / Math.max(count - 1, 1);
    line.stations.forEach((id, index) => {
      if (!positions.has(id)) {
        positions.set(id, { x: MAP_PADDING + index * gap, y: rows === 1 ? height / 2 : MAP_PADDING + row * rowGap });
      }
    });
  });
  // Stations on no line: a row of their own at the bottom.
  const loose = stations.filter((s) => !positions.has(s.id));
  loose.forEach((station, index) => {
    positions.set(station.id, { x: MAP_PADDING + index * 32, y: height - MAP_PADDING / 2 });
  });
  return positions;
}

/** Each line through its stations' positions (those placed). */
function stationCourses(lines: readonly LineView[], positions: ReadonlyMap<string, Point>): Map<string, Point[]> {
  return new Map(lines.map((line) => [line.id, line.stations.flatMap((id) => positions.get(id) ?? [])]));
}

export function computeMapLayout(stations: readonly StationView[], lines: readonly LineView[], width = 1000, height = 1000): MapLayout {
  const located = stations.filter(hasCoordinates);
  const distinct = new Set(located.map((s) => `${s.lat},${s.lon}`)).size;
  // Geographic when at least half the stations have coordinates (and they are not all one point).
  if (distinct >= 2 && located.length * 2 >= stations.length) {
    const project = fitProjection([...located, ...lines.flatMap(courseOf)], width, height);
    const positions = new Map(located.map((s) => [s.id, project(s)]));
    if (positions.size < stations.length) fillAlongLines(positions, lines);
    if (positions.size < stations.length) {
      const rest = stations.filter((s) => !positions.has(s.id));
      rest.forEach((station, index) => positions.set(station.id, { x: MAP_PADDING + index * 32, y: height - MAP_PADDING / 2 }));
    }
    const courses = stationCourses(lines, positions);
    for (const line of lines) {
      const course = courseOf(line);
      if (course.length > 1) courses.set(line.id, course.map(project));
    }
    return { mode: "geographic", width, height, positions, courses };
  }
  const positions = schematicLayout(lines, stations, width, height);
  return { mode: "schematic", width, height, positions, courses: stationCourses(lines, positions) };
}

/** The route as coloured segments: consecutive stop pairs with the line of the leg. */
export function routeSegments(
  stops: readonly { station_id: string; line?: string | undefined }[],
  positions: ReadonlyMap<string, Point>,
): { from: Point; to: Point; line: string | undefined }[] {
  const segments: { from: Point; to: Point; line: string | undefined }[] = [];
  for (let i = 1; i < stops.length; i++) {
    const from = positions.get(stops[i - 1]!.station_id);
    const to = positions.get(stops[i]!.station_id);
    if (from && to) segments.push({ from, to, line: stops[i]!.line ?? stops[i - 1]!.line });
  }
  return segments;
}

export interface LabelPlacement {
  x: number;
  y: number;
  anchor: "start" | "end";
}

/** About how wide a label is drawn: CJK characters a full em, others a little over half. */
function labelWidth(text: string, fontSize: number): number {
  let ems = 0;
  for (const ch of text) ems += /[\u2e80-\u9fff\uac00-\ud7af\uff00-\uffef]/u.test(ch) ? 1 : 0.6;
  return ems * fontSize;
}

/** Whether the segment a–b crosses the box (Liang–Barsky clipping). */
function crossesBox(a: Point, b: Point, box: { left: number; right: number; top: number; bottom: number }): boolean {
  let t0 = 0;
  let t1 = 1;
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  for (const [p, q] of [
    [-dx, a.x - box.left],
    [dx, box.right - a.x],
    [-dy, a.y - box.top],
    [dy, box.bottom - a.y],
  ] as const) {
    if (p === 0) {
      if (q < 0) return false;
      continue;
    }
    const t = q / p;
    if (p < 0) t0 = Math.max(t0, t);
    else t1 = Math.min(t1, t);
    if (t0 > t1) return false;
  }
  return true;
}

/**
 * Where a station's label goes: of the four corners around its dot, the one whose text crosses the
 * fewest of the map's lines (`obstacles`, polylines), inside the map; among equals, the side away
 * from its neighbours on the route or its lines (so it does not cover the route it names), else
 * above and to the right.
 */
export function labelPlacement(
  at: Point,
  neighbours: readonly Point[],
  text: string,
  width: number,
  height: number,
  obstacles: readonly (readonly Point[])[] = [],
  fontSize = 26,
): LabelPlacement {
  const dx = neighbours.reduce((sum, n) => sum + (n.x - at.x), 0);
  const dy = neighbours.reduce((sum, n) => sum + (n.y - at.y), 0);
  const right = neighbours.length === 0 || dx <= 0;
  const above = neighbours.length === 0 || dy >= 0;
  const textWidth = labelWidth(text, fontSize);
  const candidates = [
    [right, above],
    [right, !above],
    [!right, above],
    [!right, !above],
  ].map(([r, a]) => {
    const place: LabelPlacement = { x: r ? at.x + 16 : at.x - 16, y: a ? at.y - 12 : at.y + 12 + fontSize, anchor: r ? "start" : "end" };
    const box = { left: r ? place.x : place.x - textWidth, right: r ? place.x + textWidth : place.x, top: place.y - fontSize * 0.8, bottom: place.y + fontSize * 0.2 };
    const inside = box.left >= 8 && box.right <= width - 8 && box.top >= 8 && box.bottom <= height - 8;
    let crossings = 0;
    for (const line of obstacles) for (let i = 1; i < line.length; i++) if (crossesBox(line[i - 1] as Point, line[i] as Point, box)) crossings++;
    return { place, inside, crossings };
  });
  const fitting = candidates.filter((c) => c.inside);
  const best = (fitting.length > 0 ? fitting : candidates).reduce((a, b) => (b.crossings < a.crossings ? b : a));
  return best.place;
}
