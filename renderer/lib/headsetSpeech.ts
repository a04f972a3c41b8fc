// Headset mode's private speech. Web Speech (speechSynthesis) always plays on the default output —
// the kiosk's loudspeaker — so in headset mode the words are synthesised here instead (eSpeak NG,
// WASM, offline) into a WAV that an audio element plays on the headset output only
// (HTMLMediaElement.setSinkId). With no headset plugged in nothing is spoken at all: the screen
// says so (a private answer must never come out of the loudspeaker).
import type { Language } from "../i18n/catalog.ts";
import type { Speaker } from "./speech.ts";

/** Turns words into a WAV file (RIFF bytes). */
export type Synthesizer = (text: string, lang: Language) => Promise<Uint8Array>;

/** The part of HTMLAudioElement the headset speaker uses (tests give a fake). */
export interface AudioOut {
  src: string;
  volume: number;
  onended: (() => void) | null;
  onerror: (() => void) | null;
  setSinkId(sinkId: string): Promise<void>;
  play(): Promise<void>;
  pause(): void;
}

export interface AudioDevice {
  kind: string;
  label: string;
  deviceId: string;
}

/** The default headset pattern (a kiosk config value can replace it: KIOSK_HEADSET_PATTERN). */
export const DEFAULT_HEADSET_PATTERN = "headset|headphone|earphone|earbud";

/** A config pattern as a case-insensitive RegExp; an invalid one falls back to the default. */
export function headsetPattern(source: string | undefined): RegExp {
  try {
    return new RegExp(source && source.trim() ? source : DEFAULT_HEADSET_PATTERN, "i");
  } catch {
    return new RegExp(DEFAULT_HEADSET_PATTERN, "i");
  }
}

/** The headset among the audio outputs: the first whose label matches; never the "default" alias. */
export function pickHeadset(devices: readonly AudioDevice[], pattern: RegExp): AudioDevice | undefined {
  return devices.find((d) => d.kind === "audiooutput" && d.deviceId !== "default" && d.deviceId !== "" && pattern.test(d.label));
}

/** eSpeak NG voices per screen language (Mandarin for both Chinese scripts). */
export const ESPEAK_VOICE: Readonly<Record<Language, string>> = {
  en: "en-us",
  es: "es-419",
  "zh-Hans": "cmn",
  "zh-Hant": "cmn",
  ar: "ar",
};

/** eSpeak NG in the page: loaded on first use (the WASM is large), one WAV per reading. */
export function espeakSynthesizer(): Synthesizer {
  return async (text, lang) => {
    const { default: ESpeakNg } = await import("espeak-ng");
    const engine = await ESpeakNg({ arguments: ["-w", "/speech.wav", "-s", "160", "-v", ESPEAK_VOICE[lang], text], print: () => undefined, printErr: () => undefined });
    return engine.FS.readFile("/speech.wav");
  };
}

export interface HeadsetSpeakerDeps {
  synthesize: Synthesizer;
  /** The audio outputs (navigator.mediaDevices.enumerateDevices). */
  devices: () => Promise<readonly AudioDevice[]>;
  /** Which output is the headset (read at each reading: the kiosk config can arrive later). */
  pattern: () => RegExp;
  createAudio: () => AudioOut;
  /** Blob URL for the WAV (URL.createObjectURL), and its release. */
  toUrl: (wav: Uint8Array) => string;
  revokeUrl: (url: string) => void;
  /** Told whether a headset is there each time something would be spoken. */
  onHeadset: (present: boolean) => void;
}

/** A Speaker that only ever plays on the headset output. */
export function createHeadsetSpeaker(deps: HeadsetSpeakerDeps): Speaker {
  let audio: AudioOut | undefined;
  let url: string | undefined;
  let generation = 0;
  const stop = (): void => {
    generation++;
    audio?.pause();
    if (url) deps.revokeUrl(url);
    audio = undefined;
    url = undefined;
  };
  return {
    available: true,
    speak(text, lang, onEnd, volume = 1) {
      stop();
      const mine = generation;
      void (async () => {
        const devices = await deps.devices().catch(() => [] as AudioDevice[]);
        const headset = pickHeadset(devices, deps.pattern());
        deps.onHeadset(headset !== undefined);
        if (!headset) return onEnd();
        const wav = await deps.synthesize(text, lang as Language);
        if (mine !== generation) return;
        const out = deps.createAudio();
        // The sink first: nothing may start playing on the default output.
        await out.setSinkId(headset.deviceId);
        if (mine !== generation) return;
        url = deps.toUrl(wav);
        out.src = url;
        out.volume = Math.max(0, Math.min(1, volume));
        out.onended = onEnd;
        out.onerror = onEnd;
        audio = out;
        await out.play();
      })().catch(() => {
        if (mine === generation) onEnd();
      });
    },
    pause: () => audio?.pause(),
    resume: () => void audio?.play().catch(() => undefined),
    cancel: stop,
  };
}

/** The browser's wiring of the headset speaker. */
export function browserHeadsetSpeaker(pattern: () => RegExp, onHeadset: (present: boolean) => void, synthesize: Synthesizer = espeakSynthesizer()): Speaker {
  return createHeadsetSpeaker({
    synthesize,
    devices: async () => (await navigator.mediaDevices?.enumerateDevices?.()) ?? [],
    pattern,
    createAudio: () => new Audio() as unknown as AudioOut,
    toUrl: (wav) => URL.createObjectURL(new Blob([wav as BlobPart], { type: "audio/wav" })),
    revokeUrl: (u) => URL.revokeObjectURL(u),
    onHeadset,
  });
}

/**
 * The screen's speaker: each reading goes to the headset speaker while headset mode is on (decided
 * when it is spoken, so "headset mode is on" is already private), else to the normal Web Speech one.
 */
export function routedSpeaker(headsetMode: () => boolean, normal: Speaker, headset: Speaker): Speaker {
  const current = (): Speaker => (headsetMode() ? headset : normal);
  return {
    get available() {
      return headsetMode() || normal.available;
    },
    speak(text, lang, onEnd, volume) {
      // Whatever the other output was saying stops first.
      (headsetMode() ? normal : headset).cancel();
      current().speak(text, lang, onEnd, volume);
    },
    pause: () => current().pause(),
    resume: () => current().resume(),
    cancel: () => {
      normal.cancel();
      headset.cancel();
    },
  };
}
