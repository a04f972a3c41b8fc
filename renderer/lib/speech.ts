// Speech output through the Web Speech API, where the platform has it. Each reading starts at full
// volume (the volume is reset after every use) and can be paused, resumed and repeated.

export interface SpeechLike {
  speak(utterance: SpeechSynthesisUtterance): void;
  cancel(): void;
  pause(): void;
  resume(): void;
}

export type SpeechState = "idle" | "speaking" | "paused";

export interface Speaker {
  readonly available: boolean;
  speak(text: string, lang: string, onEnd: () => void): void;
  pause(): void;
  resume(): void;
  cancel(): void;
}

const BCP47: Record<string, string> = { en: "en-US", zh: "zh-CN", ar: "ar-SA" };

export function createSpeaker(
  synth: SpeechLike | undefined = (globalThis as { speechSynthesis?: SpeechLike }).speechSynthesis,
  Utterance: (new (text: string) => SpeechSynthesisUtterance) | undefined = (globalThis as { SpeechSynthesisUtterance?: new (text: string) => SpeechSynthesisUtterance }).SpeechSynthesisUtterance,
): Speaker {
  if (!synth || !Utterance) {
    return { available: false, speak: () => {}, pause: () => {}, resume: () => {}, cancel: () => {} };
  }
  return {
    available: true,
    speak(text, lang, onEnd) {
      synth.cancel();
      const utterance = new Utterance(text);
      utterance.lang = BCP47[lang] ?? lang;
      utterance.volume = 1;
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

/** The language a text is written in, by script (for the voice): Chinese, Arabic, else English. */
export function scriptLanguage(text: string): "zh" | "ar" | "en" {
  if (/[\u3400-\u9fff]/.test(text)) return "zh";
  if (/[\u0600-\u06ff]/.test(text)) return "ar";
  return "en";
}
