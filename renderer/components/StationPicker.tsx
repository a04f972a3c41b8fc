// Type-ahead station choice over names, ids and local names, with the on-screen keyboard.
import { useEffect, useId, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { SystemView } from "../../runtime/kiosk/bridge.ts";
import { stationPhrases } from "../lib/pinyin.ts";
import { searchStations } from "../lib/stationSearch.ts";
import type { StationField } from "../state/viewStore.ts";
import { stationName } from "../lib/names.ts";
import { useView } from "../state/ViewStoreProvider.tsx";
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
  // Pinyin still being typed searches too: Beijing's and Taipei's English names are pinyin.
  const [composition, setComposition] = useState("");
  const search = query + composition;
  const language = useView((s) => s.language);
  // Listed in the screen's alphabetical order of the names it shows.
  const order = useMemo(() => ({ nameOf: (s: (typeof props.system.stations)[number]) => stationName(props.system, s, language), collator: new Intl.Collator(language) }), [props.system, language]);
  const matches = useMemo(() => searchStations(props.system.stations, search, 50, order), [props.system, search, order]);
  // The candidate bar offers the stations' Chinese names for the pinyin typed ("tiananmen" → 天安门东).
  const phrases = useMemo(() => stationPhrases(props.system.stations), [props.system]);
  const input = useRef<HTMLInputElement>(null);
  // Keyboard and keypad users land in the search field (a physical keyboard types into it).
  useEffect(() => input.current?.focus(), []);
  const inputId = useId();
  const headingId = useId();
  return (
    <section className="station-picker panel" aria-labelledby={headingId}>
      <div className="panel-head">
        <h2 id={headingId}>{t(`picker.${props.field}`)}</h2>
        <button type="button" className="button button-secondary" data-keypad-back onClick={props.onClose}>
          {t("common.close")}
        </button>
      </div>
      <label htmlFor={inputId} className="field-label">
        {t("picker.search")}
      </label>
      <input
        ref={input}
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
        {matches.length === 0 ? t("picker.noMatches", { query: search }) : t("picker.results", { count: matches.length })}
      </p>
      <ul className="station-results" aria-label={t("picker.search")}>
        {matches.map(({ station, matched }) => {
          const shown = stationName(props.system, station, language);
          const others = [...new Set([station.name, ...station.localNames])].filter((n) => n !== shown);
          // The code or other word that found it ("SFO", "airport"), beside the name.
          const code = matched === station.id || station.aliases?.includes(matched) ? matched : null;
          // The button shows the name in the screen's language, which its accessible name starts with
          // (WCAG 2.5.3, label in name); the other names, the code and the lines stand beside it and
          // describe it.
          const details = [...others, ...(code ? [code] : [])];
          const detailsId = `${headingId}-${station.id}-details`;
          return (
            <li key={station.id}>
              <button
                type="button"
                className="station-option"
                aria-label={t("picker.select", { station: details.length > 0 ? `${shown} (${details.join(", ")})` : shown })}
                aria-describedby={detailsId}
                onClick={() => props.onSelect(station.id)}
              >
                <bdi className="station-name">{shown}</bdi>
              </button>
              <span id={detailsId} className="station-option-details">
                {others.length > 0 ? (
                  <span className="station-local" dir="auto">
                    {others.join(" · ")}
                  </span>
                ) : null}{" "}
                {code ? <span className="station-code">{code}</span> : null}{" "}
                <LineChips system={props.system} lineIds={station.lines} />
              </span>
            </li>
          );
        })}
      </ul>
      <OnScreenKeyboard
        onInput={(text) => setQuery((q) => q + text)}
        onBackspace={() => setQuery((q) => dropLastCharacter(q))}
        onClear={() => setQuery("")}
        onCompose={setComposition}
        phrases={phrases}
      />
    </section>
  );
}
