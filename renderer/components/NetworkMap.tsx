// The network drawn from station coordinates (or a schematic when they are missing), lines in
// their colours (along their own courses where the data has them), the planned route highlighted
// on top. Geography is never mirrored for RTL.
import { memo, useMemo } from "react";
import { useTranslation } from "react-i18next";
import type { SystemView } from "../../runtime/kiosk/bridge.ts";
import { lineColor } from "../lib/lineColors.ts";
import { computeMapLayout, labelPlacement, routeSegments, type Point } from "../lib/mapLayout.ts";
import { lineName, stationName, stationNameById } from "../lib/names.ts";
import { useView } from "../state/ViewStoreProvider.tsx";
import type { RouteStop } from "../lib/types.ts";

const WIDTH = 1000;
const HEIGHT = 760;

function polyline(points: readonly Point[]): string {
  return points.map((p) => `${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(" ");
}

function StationLabel({ at, neighbours, text, obstacles }: { at: Point; neighbours: readonly Point[]; text: string; obstacles: readonly (readonly Point[])[] }) {
  const place = labelPlacement(at, neighbours, text, WIDTH, HEIGHT, obstacles);
  return (
    <text x={place.x} y={place.y} textAnchor={place.anchor} className="map-label">
      {text}
    </text>
  );
}

export const NetworkMap = memo(function NetworkMap(props: {
  system: SystemView;
  route?: readonly RouteStop[] | undefined;
  origin?: string | null | undefined;
  destination?: string | null | undefined;
}) {
  const { t } = useTranslation();
  const { system, route } = props;
  const language = useView((s) => s.language);
  const layout = useMemo(() => computeMapLayout(system.stations, system.lines, WIDTH, HEIGHT), [system]);
  const onRoute = useMemo(() => new Set(route?.map((s) => s.station_id) ?? []), [route]);
  const highlighting = onRoute.size > 0;
  const origin = route?.[0]?.station_id ?? props.origin ?? null;
  const destination = route?.[route.length - 1]?.station_id ?? props.destination ?? null;
  const nameOf = (id: string | null): string => (id ? stationNameById(system, id, language) : "");
  const colorOf = (lineId: string | undefined): string => lineColor(system.lines.find((l) => l.id === lineId)?.color);
  const segments = route ? routeSegments(route, layout.positions) : [];
  // What a label should not cover: the lines, and the route drawn over them.
  const obstacles = [...layout.courses.values(), ...segments.map((segment) => [segment.from, segment.to])];
  // Labels for the ends and the changes only: a label per stop would pile up in a dense centre.
  const transfers = (route ?? [])
    .filter((stop, i, stops) => stop.is_transfer === true || (i > 0 && i < stops.length - 1 && stops[i + 1]?.line !== stop.line))
    .map((stop) => stop.station_id);
  const labelled = new Set<string>([...transfers, ...(origin ? [origin] : []), ...(destination ? [destination] : [])]);
  // A label keeps off the route (the stops before and after its station), or before there is one, off its lines.
  const neighboursOf = (id: string): Point[] => {
    const around = (ids: readonly (string | undefined)[]): Point[] => ids.flatMap((n) => (n !== undefined && n !== id ? (layout.positions.get(n) ?? []) : []));
    if (onRoute.has(id)) return around((route ?? []).flatMap((stop, i, stops) => (stop.station_id === id ? [stops[i - 1]?.station_id, stops[i + 1]?.station_id] : [])));
    return around(system.lines.flatMap((line) => line.stations.flatMap((s, i) => (s === id ? [line.stations[i - 1], line.stations[i + 1]] : []))));
  };
  const description = [
    t("map.label", { system: system.orgName }),
    highlighting ? t("map.route", { from: nameOf(origin), to: nameOf(destination) }) : "",
    layout.mode === "schematic" ? t("map.schematic") : "",
  ]
    .filter(Boolean)
    .join(" ");

  return (
    <figure className="network-map" data-mode={layout.mode} data-highlighting={highlighting || undefined}>
      <div className="map-canvas" dir="ltr">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={description} preserveAspectRatio="xMidYMid meet">
        <rect className="map-bg" x="0" y="0" width={WIDTH} height={HEIGHT} rx="16" />
        <g className="map-lines">
          {system.lines.map((line) => (
            <polyline
              key={line.id}
              data-line={line.id}
              points={polyline(layout.courses.get(line.id) ?? [])}
              stroke={lineColor(line.color)}
              className={highlighting ? "map-line dimmed" : "map-line"}
            />
          ))}
        </g>
        {segments.length > 0 ? (
          <g className="map-route">
            {segments.map((segment, i) => (
              <line key={`c${i}`} className="map-route-casing" x1={segment.from.x} y1={segment.from.y} x2={segment.to.x} y2={segment.to.y} />
            ))}
            {segments.map((segment, i) => (
              <line
                key={`r${i}`}
                className="map-route-segment"
                data-line={segment.line}
                x1={segment.from.x}
                y1={segment.from.y}
                x2={segment.to.x}
                y2={segment.to.y}
                stroke={colorOf(segment.line)}
              />
            ))}
          </g>
        ) : null}
        <g className="map-stations">
          {system.stations.map((station) => {
            const p = layout.positions.get(station.id);
            if (!p) return null;
            const role = station.id === origin ? "origin" : station.id === destination ? "destination" : onRoute.has(station.id) ? "route" : "other";
            return (
              <g key={station.id} data-station={station.id} data-role={role} className={`map-station map-station-${role}`}>
                <circle cx={p.x} cy={p.y} r={role === "origin" || role === "destination" ? 13 : role === "route" ? 8 : 5} />
                {labelled.has(station.id) ? <StationLabel at={p} neighbours={neighboursOf(station.id)} text={stationName(system, station, language)} obstacles={obstacles} /> : null}
              </g>
            );
          })}
        </g>
      </svg>
      </div>
      <figcaption className="map-legend">
        <span className="visually-hidden">{t("map.legend")}</span>
        {system.lines.map((line) => (
          <span key={line.id} className="legend-item">
            <span className="legend-swatch" style={{ backgroundColor: lineColor(line.color) }} aria-hidden="true" />
            <bdi>{lineName(system, line.id, language)}</bdi>
          </span>
        ))}
        {layout.mode === "schematic" ? <span className="legend-note">{t("map.schematic")}</span> : null}
        <span className="legend-attribution">{system.attribution}</span>
      </figcaption>
    </figure>
  );
});
