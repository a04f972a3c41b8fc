// The planned route: origin → destination, the summary line, and each stop with its line colour.
// Names are in the passenger's language, each isolated (<bdi>) so an English name on an Arabic
// screen cannot flip the trip's direction; distances in the system's unit.
import { useTranslation } from "react-i18next";
import type { SystemView } from "../../runtime/kiosk/bridge.ts";
import type { Route } from "../lib/types.ts";
import { LineChip } from "./LineChips.tsx";
import { lineColor } from "../lib/lineColors.ts";
import { formatDistance } from "../lib/format.ts";
import { stationNameById } from "../lib/names.ts";
import { useView } from "../state/ViewStoreProvider.tsx";

export function RouteCard({ system, route }: { system: SystemView; route: Route }) {
  const { t, i18n } = useTranslation();
  const language = useView((s) => s.language);
  const name = (id: string, fallback?: string): string => stationNameById(system, id, language, fallback);
  const stopName = (stop: Route["stops"][number]): string => name(stop.station_id, stop.station_name);
  const last = route.stops.length - 1;
  return (
    <section className="card route-card" aria-labelledby="route-heading">
      <h2 id="route-heading">{t("route.title")}</h2>
      <p className="route-ends" aria-label={t("route.fromTo", { from: name(route.origin), to: name(route.destination) })}>
        <bdi className="route-origin">{name(route.origin)}</bdi> <span aria-hidden="true">{t("common.arrow")}</span>{" "}
        <bdi className="route-destination">{name(route.destination)}</bdi>
      </p>
      <p className="route-summary">
        {t("route.summary", {
          stops: t("route.stops", { count: route.stops.length }),
          transfers: t("route.transfers", { count: route.transfers }),
          minutes: route.estimated_minutes,
        })}
      </p>
      <p className="route-distance">{formatDistance(route.distance_miles, system.distanceUnit ?? "mi", t, i18n.language)}</p>
      {route.line_sequence.length > 0 ? (
        <p className="route-lines">
          <span className="visually-hidden">{t("route.lines")}: </span>
          {route.line_sequence.map((lineId, i) => (
            <span key={`${lineId}-${i}`} className="route-line-step">
              {i > 0 ? <span aria-hidden="true"> {t("common.arrow")} </span> : null}
              <LineChip system={system} lineId={lineId} />
            </span>
          ))}
        </p>
      ) : null}
      <ol className="route-stops">
        {route.stops.map((stop, i) => {
          const color = lineColor(system.lines.find((l) => l.id === (route.stops[i + 1]?.line ?? stop.line))?.color);
          const role = i === 0 ? "start" : i === last ? "end" : stop.is_transfer ? "transfer" : "stop";
          return (
            <li key={`${stop.station_id}-${i}`} className={`route-stop route-stop-${role}`} data-station={stop.station_id}>
              <span className="route-stop-dot" style={{ borderColor: color }} aria-hidden="true" />
              <span className="route-stop-rail" style={{ backgroundColor: i === last ? "transparent" : color }} aria-hidden="true" />
              <bdi className="route-stop-name">{stopName(stop)}</bdi>
              {role === "start" ? <span className="tag">{t("route.start")}</span> : null}
              {role === "end" ? <span className="tag">{t("route.end")}</span> : null}
              {role === "transfer" ? <span className="tag tag-transfer">{t("route.change")}</span> : null}
            </li>
          );
        })}
      </ol>
    </section>
  );
}
