// Speech output through the Web Speech API, where the platform has it. The volume is the
// passenger's (keypad + and −), applied to every reading and reset with the session; a reading can
// be paused, resumed and repeated.
import type { Language } from "../i18n/catalog.ts";

export interface SpeechLike {
  speak(utterance: SpeechSynthesisUtterance): void;
  cancel(): void;
  pause(): void;
  resume(): void;
}

export type SpeechState = "idle" | "speaking" | "paused";

export interface Speaker {
  readonly available: boolean;
  /** Speak `text` (cancelling what was being said) at `volume` (0–1, default full). */
  speak(text: string, lang: string, onEnd: () => void, volume?: number): void;
  pause(): void;
  resume(): void;
  cancel(): void;
}

/** The voice to ask for, by screen language. */
export const VOICE_LANGUAGE: Readonly<Record<Language, string>> = {
  en: "en-US",
  "zh-Hans": "zh-CN",
  "zh-Hant": "zh-TW",
  ar: "ar-QA",
  es: "es-US",
};

export function createSpeaker(
  synth: SpeechLike | undefined = (globalThis as { speechSynthesis?: SpeechLike }).speechSynthesis,
  Utterance: (new (text: string) => SpeechSynthesisUtterance) | undefined = (globalThis as { SpeechSynthesisUtterance?: new (text: string) => SpeechSynthesisUtterance }).SpeechSynthesisUtterance,
): Speaker {
  if (!synth || !Utterance) {
    return { available: false, speak: () => {}, pause: () => {}, resume: () => {}, cancel: () => {} };
  }
  return {
    available: true,
    speak(text, lang, onEnd, volume = 1) {
      synth.cancel();
      const utterance = new Utterance(text);
      utterance.lang = VOICE_LANGUAGE[lang as Language] ?? lang;
      utterance.volume = Math.max(0, Math.min(1, volume));
      utterance.rate = 0.95;
      utterance.onend = onEnd;
      utterance.onerror = onEnd;
      synth.speak(utterance);
    },
    pause: () => synth.pause(),
    resume: () => synth.resume(),
    cancel: () => synth.cancel(),
  };
}

/**
 * The language a text is written in, by script (for the voice): Han → Chinese (the screen's
 * script when the screen is Chinese, else simplified), Arabic, else the screen's Latin language.
 */
export function scriptLanguage(text: string, screen: Language = "en"): Language {
  if (/[\u3400-\u9fff]/.test(text)) return screen === "zh-Hant" ? "zh-Hant" : "zh-Hans";
  if (/[\u0600-\u06ff]/.test(text)) return "ar";
  return screen === "es" ? "es" : "en";
}
