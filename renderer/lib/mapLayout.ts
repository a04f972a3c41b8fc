// Station positions for the network map. With coordinates: an equirectangular projection
// (longitude scaled by cos(mean latitude)) fitted into the viewport; stations without coordinates
// are placed between their neighbours on a line. Without usable coordinates: a schematic layout,
// one row per line in line order, transfer stations shared between rows.
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
}

export const MAP_PADDING = 48;

function hasCoordinates(station: StationView): station is StationView & { lat: number; lon: number } {
  return station.lat !== null && station.lon !== null && Number.isFinite(station.lat) && Number.isFinite(station.lon);
}

/** Projects the stations that have coordinates into a width×height box (north up). */
export function projectGeographic(stations: readonly StationView[], width: number, height: number): Map<string, Point> {
  const located = stations.filter(hasCoordinates);
  const positions = new Map<string, Point>();
  if (located.length === 0) return positions;
  const meanLat = located.reduce((sum, s) => sum + s.lat, 0) / located.length;
  const kx = Math.cos((meanLat * Math.PI) / 180);
  const xs = located.map((s) => s.lon * kx);
  const ys = located.map((s) => s.lat);
  const [minX, maxX, minY, maxY] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const spanX = maxX - minX || 1e-9;
  const spanY = maxY - minY || 1e-9;
  const scale = Math.min((width - 2 * MAP_PADDING) / spanX, (height - 2 * MAP_PADDING) / spanY);
  const offsetX = (width - spanX * scale) / 2;
  const offsetY = (height - spanY * scale) / 2;
  for (const station of located) {
    positions.set(station.id, {
      x: offsetX + (station.lon * kx - minX) * scale,
      y: offsetY + (maxY - station.lat) * scale,
    });
  }
  return positions;
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

export function computeMapLayout(stations: readonly StationView[], lines: readonly LineView[], width = 1000, height = 1000): MapLayout {
  const located = stations.filter(hasCoordinates);
  const distinct = new Set(located.map((s) => `${s.lat},${s.lon}`)).size;
  // Geographic when at least half the stations have coordinates (and they are not all one point).
  if (distinct >= 2 && located.length * 2 >= stations.length) {
    const positions = projectGeographic(stations, width, height);
    if (positions.size < stations.length) fillAlongLines(positions, lines);
    if (positions.size < stations.length) {
      const rest = stations.filter((s) => !positions.has(s.id));
      rest.forEach((station, index) => positions.set(station.id, { x: MAP_PADDING + index * 32, y: height - MAP_PADDING / 2 }));
    }
    return { mode: "geographic", width, height, positions };
  }
  return { mode: "schematic", width, height, positions: schematicLayout(lines, stations, width, height) };
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
