// The planned route: origin → destination, the summary line, and each stop with its line colour.
import { useTranslation } from "react-i18next";
import type { SystemView } from "../../runtime/kiosk/bridge.ts";
import type { Route } from "../lib/types.ts";
import { LineChip } from "./LineChips.tsx";
import { lineColor } from "../lib/lineColors.ts";

export function RouteCard({ system, route }: { system: SystemView; route: Route }) {
  const { t } = useTranslation();
  const name = (id: string): string => system.stations.find((s) => s.id === id)?.name ?? id;
  const stopName = (stop: Route["stops"][number]): string => stop.station_name ?? name(stop.station_id);
  const last = route.stops.length - 1;
  return (
    <section className="card route-card" aria-labelledby="route-heading">
      <h2 id="route-heading">{t("route.title")}</h2>
      <p className="route-ends">
        <span>{name(route.origin)}</span> <span aria-hidden="true">{t("common.arrow")}</span>{" "}
        <span className="visually-hidden">{t("journey.to")}</span> <span>{name(route.destination)}</span>
      </p>
      <p className="route-summary">
        {t("route.summary", {
          stops: t("route.stops", { count: route.stops.length }),
          transfers: t("route.transfers", { count: route.transfers }),
          minutes: route.estimated_minutes,
        })}
      </p>
      <p className="route-distance">{t("route.distance", { miles: route.distance_miles.toFixed(1) })}</p>
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
              <span className="route-stop-name">{stopName(stop)}</span>
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
