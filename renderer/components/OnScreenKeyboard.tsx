// A touch keyboard for kiosks without a physical one: Latin, pinyin (Chinese characters chosen
// from a candidate bar, simplified or traditional by the screen's language), Arabic and digits.
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { candidatesFor, phraseCandidates, segmentPinyin, type Phrase } from "../lib/pinyin.ts";
import { useView } from "../state/ViewStoreProvider.tsx";

export type KeyboardLayout = "latin" | "pinyin" | "arabic" | "digits";

export const KEY_ROWS: Record<KeyboardLayout, readonly string[]> = {
  latin: ["qwertyuiop", "asdfghjkl'", "zxcvbnm-/?"],
  pinyin: ["qwertyuiop", "asdfghjkl", "zxcvbnm"],
  arabic: ["ضصثقفغعهخحج", "شسيبلاتنمكط", "ذئءؤرىةوزظد"],
  digits: ["1234567890", "-/.,'()&?!"],
};

const LAYOUTS: readonly KeyboardLayout[] = ["latin", "pinyin", "arabic", "digits"];
const PAGE = 8;

export function OnScreenKeyboard(props: {
  onInput: (text: string) => void;
  onBackspace: () => void;
  onClear: () => void;
  /** The pinyin typed but not yet turned into characters (so a station search can use it). */
  onCompose?: ((composition: string) => void) | undefined;
  /** Whole names the candidate bar offers before single characters (station names, with their pinyin). */
  phrases?: readonly Phrase[] | undefined;
  /** An extra action key at the end (e.g. "Ask"). */
  action?: { label: string; onPress: () => void; disabled?: boolean; why?: string } | undefined;
}) {
  const { t } = useTranslation();
  const language = useView((s) => s.language);
  const chinese = language === "zh-Hans" || language === "zh-Hant";
  const [layout, setLayout] = useState<KeyboardLayout>(language === "ar" ? "arabic" : chinese ? "pinyin" : "latin");
  const [composition, setComposition] = useState("");
  const [page, setPage] = useState(0);
  const { onCompose } = props;
  useEffect(() => onCompose?.(composition), [composition, onCompose]);

  const syllables = segmentPinyin(composition);
  const first = syllables[0] ?? "";
  // A whole name takes the whole composition; a character its first syllable.
  const candidates = [
    ...phraseCandidates(composition, props.phrases ?? []).map((text) => ({ text, whole: true })),
    ...(first ? candidatesFor(first, language === "zh-Hant" ? "traditional" : "simplified") : []).map((text) => ({ text, whole: false })),
  ];
  const shown = candidates.slice(page * PAGE, page * PAGE + PAGE);
  const compose = (next: string): void => {
    setComposition(next);
    setPage(0);
  };
  const choose = (candidate: { text: string; whole: boolean }): void => {
    props.onInput(candidate.text);
    compose(candidate.whole ? "" : syllables.slice(1).join(""));
  };
  /** Letters not turned into characters are kept as typed (a Latin station name, a code). */
  const commitLetters = (): void => {
    if (composition) props.onInput(composition);
    compose("");
  };
  const key = (k: string): void => {
    if (layout === "pinyin" && /[a-z]/.test(k)) compose(composition + k);
    else {
      commitLetters();
      props.onInput(k);
    }
  };

  return (
    <div className="keyboard" role="group" aria-label={t("keyboard.label")} data-layout={layout}>
      <div className="keyboard-layouts" role="radiogroup" aria-label={t("keyboard.layout")}>
        {LAYOUTS.map((option) => (
          <button
            key={option}
            type="button"
            role="radio"
            lang={option === "pinyin" ? (language === "zh-Hant" ? "zh-Hant" : "zh-Hans") : undefined}
            aria-checked={layout === option}
            className="key key-layout"
            onClick={() => {
              commitLetters();
              setLayout(option);
            }}
          >
            {t(`keyboard.${option}`)}
          </button>
        ))}
      </div>
      {layout === "pinyin" ? (
        <div className="candidate-bar" role="group" aria-label={first ? t("keyboard.candidates", { pinyin: composition }) : t("keyboard.typePinyin")}>
          <span className="composition" dir="ltr" aria-live="polite">
            {composition ? syllables.join("'") : t("keyboard.typePinyin")}
          </span>
          {shown.map((candidate) => (
            <button
              key={`${candidate.whole ? "w" : "c"}-${candidate.text}`}
              type="button"
              className={candidate.whole ? "key key-candidate key-phrase" : "key key-candidate"}
              lang={language}
              onClick={() => choose(candidate)}
            >
              {candidate.text}
            </button>
          ))}
          {composition && candidates.length === 0 ? <span className="muted">{t("keyboard.noCandidates", { pinyin: composition })}</span> : null}
          {candidates.length > PAGE ? (
            <button type="button" className="key key-wide" onClick={() => setPage((p) => ((p + 1) * PAGE < candidates.length ? p + 1 : 0))}>
              {t("keyboard.moreCandidates")}
            </button>
          ) : null}
        </div>
      ) : null}
      {KEY_ROWS[layout].map((row) => (
        <div className="keyboard-row" key={row} dir={layout === "arabic" ? "rtl" : "ltr"}>
          {[...row].map((k) => (
            <button key={k} type="button" className="key" onClick={() => key(k)}>
              {k}
            </button>
          ))}
        </div>
      ))}
      <div className="keyboard-row">
        <button
          type="button"
          className="key key-wide"
          onClick={() => {
            compose("");
            props.onClear();
          }}
        >
          {t("keyboard.clear")}
        </button>
        <button
          type="button"
          className="key key-space"
          onClick={() => {
            // Space takes the first candidate, as on every pinyin keyboard.
            if (composition && candidates[0]) choose(candidates[0]);
            else key(" ");
          }}
        >
          {t("keyboard.space")}
        </button>
        <button type="button" className="key key-wide" onClick={() => (composition ? compose(composition.slice(0, -1)) : props.onBackspace())}>
          {t("keyboard.backspace")}
        </button>
        {props.action ? (
          <button
            type="button"
            className="key key-wide key-action"
            onClick={() => {
              commitLetters();
              props.action?.onPress();
            }}
            disabled={props.action.disabled}
            aria-describedby={props.action.disabled && props.action.why ? "keyboard-action-why" : undefined}
          >
            {props.action.label}
          </button>
        ) : null}
      </div>
      {props.action?.disabled && props.action.why ? (
        <p id="keyboard-action-why" className="hint">
          {props.action.why}
        </p>
      ) : null}
    </div>
  );
}

/** Removes the last character (a whole grapheme for CJK and combined characters). */
export function dropLastCharacter(text: string): string {
  const chars = [...text];
  chars.pop();
  return chars.join("");
}
