// The conversation with the assistant: what the passenger asked, what the assistant answered, and a
// free-text composer with the on-screen keyboard.
import { useId } from "react";
import { useTranslation } from "react-i18next";
import type { SystemView } from "../../runtime/kiosk/bridge.ts";
import type { Turn } from "../machines/kioskMachine.ts";
import type { Language } from "../i18n/catalog.ts";
import { isolate, stationNameById } from "../lib/names.ts";
import type { Phrase } from "../lib/pinyin.ts";
import { useView } from "../state/ViewStoreProvider.tsx";
import { dropLastCharacter, OnScreenKeyboard } from "./OnScreenKeyboard.tsx";

/** What the passenger asked in a turn: their words, else the journey they chose. */
export function requestText(turn: Turn, system: SystemView, language: Language, journey: (from: string, to: string) => string): string {
  const texts = turn.request.events.flatMap((e) => (e.type === "freetext_input" ? [e.text] : []));
  if (texts.length > 0) return texts.join(" ");
  const station = (field: "origin" | "destination"): string | undefined => {
    const event = turn.request.events.find((e) => e.type === "station_selected" && e.field === field);
    return event?.type === "station_selected" ? isolate(stationNameById(system, event.station_id ?? "", language, event.value)) : undefined;
  };
  const from = station("origin");
  const to = station("destination");
  return from || to ? journey(from ?? "…", to ?? "…") : "…";
}

export function Transcript({ turns, system }: { turns: readonly Turn[]; system: SystemView }) {
  const { t } = useTranslation();
  const language = useView((s) => s.language);
  if (turns.length === 0) return null;
  const journey = (from: string, to: string): string => t("chat.journeyRequest", { from, to, arrow: t("common.arrow") });
  return (
    <ol className="transcript" aria-live="polite">
      {turns.map((turn, i) => (
        <li key={i} className="turn">
          <p className="bubble bubble-passenger">
            <span className="visually-hidden">{t("chat.you")}: </span>
            <span dir="auto">{requestText(turn, system, language, journey)}</span>
          </p>
          {turn.answer ? (
            <p className="bubble bubble-assistant">
              <span className="visually-hidden">{t("chat.assistant")}: </span>
              <span dir="auto">{turn.answer.state.assistant_message}</span>
            </p>
          ) : null}
        </li>
      ))}
    </ol>
  );
}

/** `phrases`: the stations' Chinese names the pinyin keyboard offers whole ("tiananmen" → 天安门). */
export function ChatComposer(props: { value: string; onChange: (text: string) => void; onSend: () => void; canSend: boolean; phrases?: readonly Phrase[] }) {
  const { t } = useTranslation();
  const inputId = useId();
  return (
    <div className="composer">
      <label htmlFor={inputId} className="field-label">
        {t("chat.title")}
      </label>
      <textarea
        id={inputId}
        className="composer-input"
        inputMode="none"
        rows={2}
        dir="auto"
        maxLength={500}
        placeholder={t("chat.placeholder")}
        value={props.value}
        onChange={(event) => props.onChange(event.target.value)}
      />
      <OnScreenKeyboard
        onInput={(text) => props.onChange(props.value + text)}
        onBackspace={() => props.onChange(dropLastCharacter(props.value))}
        onClear={() => props.onChange("")}
        phrases={props.phrases}
        action={{ label: t("chat.send"), onPress: props.onSend, disabled: !props.canSend, why: t("chat.needText") }}
      />
    </div>
  );
}
