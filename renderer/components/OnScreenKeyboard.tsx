// A touch keyboard for kiosks without a physical one: Latin, Arabic and digit layouts.
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useView } from "../state/ViewStoreProvider.tsx";

export type KeyboardLayout = "latin" | "arabic" | "digits";

export const KEY_ROWS: Record<KeyboardLayout, readonly string[]> = {
  latin: ["qwertyuiop", "asdfghjkl'", "zxcvbnm-/?"],
  arabic: ["ضصثقفغعهخحج", "شسيبلاتنمكط", "ذئءؤرىةوزظد"],
  digits: ["1234567890", "-/.,'()&?!"],
};

export function OnScreenKeyboard(props: {
  onInput: (text: string) => void;
  onBackspace: () => void;
  onClear: () => void;
  /** An extra action key at the end (e.g. "Ask"). */
  action?: { label: string; onPress: () => void; disabled?: boolean } | undefined;
}) {
  const { t } = useTranslation();
  const language = useView((s) => s.language);
  const [layout, setLayout] = useState<KeyboardLayout>(language === "ar" ? "arabic" : "latin");
  const layouts: readonly KeyboardLayout[] = ["latin", "arabic", "digits"];
  return (
    <div className="keyboard" role="group" aria-label={t("keyboard.label")} data-layout={layout}>
      <div className="keyboard-layouts" role="radiogroup" aria-label={t("keyboard.layout")}>
        {layouts.map((option) => (
          <button
            key={option}
            type="button"
            role="radio"
            aria-checked={layout === option}
            className="key key-layout"
            onClick={() => setLayout(option)}
          >
            {t(`keyboard.${option}`)}
          </button>
        ))}
      </div>
      {KEY_ROWS[layout].map((row) => (
        <div className="keyboard-row" key={row} dir={layout === "arabic" ? "rtl" : "ltr"}>
          {[...row].map((key) => (
            <button key={key} type="button" className="key" onClick={() => props.onInput(key)}>
              {key}
            </button>
          ))}
        </div>
      ))}
      <div className="keyboard-row">
        <button type="button" className="key key-wide" onClick={props.onClear}>
          {t("keyboard.clear")}
        </button>
        <button type="button" className="key key-space" onClick={() => props.onInput(" ")}>
          {t("keyboard.space")}
        </button>
        <button type="button" className="key key-wide" onClick={props.onBackspace}>
          {t("keyboard.backspace")}
        </button>
        {props.action ? (
          <button type="button" className="key key-wide key-action" onClick={props.action.onPress} disabled={props.action.disabled}>
            {props.action.label}
          </button>
        ) : null}
      </div>
    </div>
  );
}

/** Removes the last character (a whole grapheme for CJK and combined characters). */
export function dropLastCharacter(text: string): string {
  const chars = [...text];
  chars.pop();
  return chars.join("");
}
