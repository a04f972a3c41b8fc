// Origin and destination as two big buttons, with a swap button between them.
import { useTranslation } from "react-i18next";
import type { SystemView } from "../../runtime/kiosk/bridge.ts";
import { useView } from "../state/ViewStoreProvider.tsx";
import type { StationField } from "../state/viewStore.ts";
import { Icon } from "./Icon.tsx";

function StationButton({ system, field }: { system: SystemView; field: StationField }) {
  const { t } = useTranslation();
  const stationId = useView((s) => s.journey[field]);
  const openPanel = useView((s) => s.openPanel);
  const station = system.stations.find((s) => s.id === stationId);
  const label = t(field === "origin" ? "journey.from" : "journey.to");
  return (
    <button
      type="button"
      className={`station-field station-field-${field}`}
      aria-label={`${label}: ${station?.name ?? t("journey.choose")}`}
      onClick={() => openPanel(field)}
    >
      <span className="station-field-label">{label}</span>
      <span className={station ? "station-field-value" : "station-field-value placeholder"}>
        {station?.name ?? t("journey.choose")}
      </span>
      {station && station.localNames.length > 0 ? (
        <span className="station-local" lang={system.primaryLanguage} dir="auto">
          {station.localNames.join(" · ")}
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
      <button type="button" className="button button-icon swap-button" onClick={swap} disabled={!canSwap} aria-label={t("journey.swap")}>
        <Icon name="swap" />
      </button>
      <StationButton system={system} field="destination" />
    </div>
  );
}
