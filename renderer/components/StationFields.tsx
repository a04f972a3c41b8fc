// Origin and destination as two big buttons, with a swap button between them.
import { useTranslation } from "react-i18next";
import type { SystemView } from "../../runtime/kiosk/bridge.ts";
import { stationName } from "../lib/names.ts";
import { useView } from "../state/ViewStoreProvider.tsx";
import type { StationField } from "../state/viewStore.ts";
import { Icon } from "./Icon.tsx";

function StationButton({ system, field }: { system: SystemView; field: StationField }) {
  const { t } = useTranslation();
  const stationId = useView((s) => s.journey[field]);
  const openPanel = useView((s) => s.openPanel);
  const language = useView((s) => s.language);
  const station = system.stations.find((s) => s.id === stationId);
  const label = t(field === "origin" ? "journey.from" : "journey.to");
  const shown = station ? stationName(system, station, language) : null;
  // The other names of the station (English, local script) under the one in the screen's language.
  const others = station ? [...new Set([station.name, ...station.localNames])].filter((n) => n !== shown) : [];
  return (
    // The name holds the visible words in their order (WCAG 2.5.3, label in name).
    <button
      type="button"
      className={`station-field station-field-${field}`}
      aria-label={`${label}: ${[shown ?? t("journey.choose"), ...others].join(" ")}`}
      onClick={() => openPanel(field)}
    >
      <span className="station-field-label">{label}</span>{" "}
      <bdi className={station ? "station-field-value" : "station-field-value placeholder"}>{shown ?? t("journey.choose")}</bdi>{" "}
      {others.length > 0 ? (
        <span className="station-local" dir="auto">
          {others.join(" · ")}
        </span>
      ) : null}
    </button>
  );
}

export function StationFields({ system }: { system: SystemView }) {
  const { t } = useTranslation();
  const swap = useView((s) => s.swapStations);
  const canSwap = useView((s) => s.journey.origin !== null || s.journey.destination !== null);
  return (
    <div className="station-fields">
      <StationButton system={system} field="origin" />
      <button
        type="button"
        className="button button-icon swap-button"
        onClick={swap}
        disabled={!canSwap}
        aria-label={t("journey.swap")}
        aria-describedby={canSwap ? undefined : "swap-why"}
        title={canSwap ? t("journey.swap") : t("journey.swapDisabled")}
      >
        <Icon name="swap" />
      </button>
      {canSwap ? null : (
        <span id="swap-why" className="visually-hidden">
          {t("journey.swapDisabled")}
        </span>
      )}
      <StationButton system={system} field="destination" />
    </div>
  );
}
