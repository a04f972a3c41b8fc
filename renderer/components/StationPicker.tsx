// Type-ahead station choice over names, ids and local names, with the on-screen keyboard.
import { useId, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import type { SystemView } from "../../runtime/kiosk/bridge.ts";
import { searchStations } from "../lib/stationSearch.ts";
import type { StationField } from "../state/viewStore.ts";
import { LineChips } from "./LineChips.tsx";
import { dropLastCharacter, OnScreenKeyboard } from "./OnScreenKeyboard.tsx";

export function StationPicker(props: {
  system: SystemView;
  field: StationField;
  onSelect: (stationId: string) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [query, setQuery] = useState("");
  const matches = useMemo(() => searchStations(props.system.stations, query), [props.system, query]);
  const inputId = useId();
  const headingId = useId();
  return (
    <section className="station-picker panel" aria-labelledby={headingId}>
      <div className="panel-head">
        <h2 id={headingId}>{t(`picker.${props.field}`)}</h2>
        <button type="button" className="button button-secondary" onClick={props.onClose}>
          {t("common.close")}
        </button>
      </div>
      <label htmlFor={inputId} className="field-label">
        {t("picker.search")}
      </label>
      <input
        id={inputId}
        className="search-input"
        type="search"
        inputMode="none"
        autoComplete="off"
        spellCheck={false}
        placeholder={t("picker.hint")}
        value={query}
        onChange={(event) => setQuery(event.target.value)}
      />
      <p className="result-count" aria-live="polite">
        {matches.length === 0 ? t("picker.noMatches", { query }) : t("picker.results", { count: matches.length })}
      </p>
      <ul className="station-results" aria-label={t("picker.search")}>
        {matches.map(({ station, matched }) => {
          const local = station.localNames.length > 0 ? station.localNames.join(" · ") : null;
          return (
            <li key={station.id}>
              <button
                type="button"
                className="station-option"
                aria-label={t("picker.select", { station: local ? `${station.name} (${local})` : station.name })}
                onClick={() => props.onSelect(station.id)}
              >
                <span className="station-name">{station.name}</span>
                {local ? (
                  <span className="station-local" lang={props.system.primaryLanguage} dir="auto">
                    {local}
                  </span>
                ) : null}
                {matched === station.id ? <span className="station-code">{station.id}</span> : null}
                <LineChips system={props.system} lineIds={station.lines} />
              </button>
            </li>
          );
        })}
      </ul>
      <OnScreenKeyboard
        onInput={(text) => setQuery((q) => q + text)}
        onBackspace={() => setQuery((q) => dropLastCharacter(q))}
        onClear={() => setQuery("")}
      />
    </section>
  );
}
