// Speech as audio the kiosk rendered. Web Speech (speechSynthesis) always plays on the default
// output — the kiosk's loudspeaker — so headset mode asks the kiosk's platform speech engine (the
// bridge's `speak`: macOS say, Windows SAPI, or an installed espeak-ng) for a WAV and plays it on an
// audio element routed to the headset output (HTMLMediaElement.setSinkId) before it starts. With
// no headset plugged in, or no voice for the language, nothing is spoken at all: the screen says
// so (a private answer must never come out of the loudspeaker). The same rendered audio stands in
// for speechSynthesis on the loudspeaker where the browser has none.
import { passengerLanguageOf, PassengerLanguageSchema, type PassengerLanguage, type SpeakRequest, type SpeechResult, type SpeechStatus } from "../../runtime/kiosk/bridge.ts";
import type { Speaker } from "./speech.ts";

/** Words → a WAV (the kiosk's `speak`). */
export type Synthesizer = (request: SpeakRequest) => Promise<SpeechResult>;

/** Why headset mode is silent: shown on screen instead. */
export type HeadsetProblem = "no_headset" | "no_engine" | "no_voice" | "failed";

/** The part of HTMLAudioElement the speaker uses (tests give a fake). */
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

/** The default headset pattern (a kiosk config value can replace it: --headset-pattern). */
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

/** Whether the kiosk's speech engine has a voice for any screen language. */
export function hasAnyVoice(status: SpeechStatus | undefined): boolean {
  return status !== undefined && Object.values(status.voices).some((v) => v.voice !== null);
}

/** The screen language a Speaker's `lang` names ("zh-Hans", "zh-CN", "ar-QA"…); English when unknown. */
export function speechLanguage(lang: string): PassengerLanguage {
  return PassengerLanguageSchema.safeParse(lang).data ?? passengerLanguageOf(lang) ?? "en";
}

export interface AudioSpeakerDeps {
  synthesize: Synthesizer;
  /**
   * The output to play on: a device id ("" for the default output), or null when the output is
   * not there (no headset plugged in). Asked at each reading.
   */
  sink: () => Promise<string | null>;
  createAudio: () => AudioOut;
  /** Blob URL for the WAV (URL.createObjectURL), and its release. */
  toUrl: (wav: Uint8Array) => string;
  revokeUrl: (url: string) => void;
  /** Told at each reading whether it could be spoken, and if not why. */
  onProblem: (problem: HeadsetProblem | null) => void;
  /** Whether this speaker can speak at all (default: always; the kiosk may have no engine). */
  available?: () => boolean;
}

function decodeBase64(base64: string): Uint8Array {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** A Speaker playing kiosk-rendered audio on one output only. */
export function createAudioSpeaker(deps: AudioSpeakerDeps): Speaker {
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
    get available() {
      return deps.available?.() ?? true;
    },
    speak(text, lang, onEnd, volume = 1) {
      stop();
      const mine = generation;
      void (async () => {
        const sinkId = await deps.sink().catch(() => null);
        if (sinkId === null) {
          deps.onProblem("no_headset");
          return onEnd();
        }
        const result = await deps.synthesize({ text, language: speechLanguage(lang) });
        if (mine !== generation) return;
        if (!result.spoken) {
          deps.onProblem(result.reason);
          return onEnd();
        }
        deps.onProblem(null);
        const out = deps.createAudio();
        // The sink first: nothing may start playing on another output.
        if (sinkId !== "") await out.setSinkId(sinkId);
        if (mine !== generation) return;
        url = deps.toUrl(decodeBase64(result.audio));
        out.src = url;
        out.volume = Math.max(0, Math.min(1, volume));
        out.onended = onEnd;
        out.onerror = onEnd;
        audio = out;
        await out.play();
      })().catch(() => {
        if (mine === generation) {
          deps.onProblem("failed");
          onEnd();
        }
      });
    },
    pause: () => audio?.pause(),
    resume: () => void audio?.play().catch(() => undefined),
    cancel: stop,
  };
}

/** The browser's audio element and device list, for an audio speaker on the headset (`headset`) or the default output. */
export function browserAudioSpeaker(
  synthesize: Synthesizer,
  output: { headset: () => RegExp } | "default",
  onProblem: (problem: HeadsetProblem | null) => void,
  available?: () => boolean,
): Speaker {
  return createAudioSpeaker({
    ...(available ? { available } : {}),
    synthesize,
    sink:
      output === "default"
        ? () => Promise.resolve("")
        : async () => pickHeadset((await navigator.mediaDevices?.enumerateDevices?.()) ?? [], output.headset())?.deviceId ?? null,
    createAudio: () => new Audio() as unknown as AudioOut,
    toUrl: (wav) => URL.createObjectURL(new Blob([wav as BlobPart], { type: "audio/wav" })),
    revokeUrl: (u) => URL.revokeObjectURL(u),
    onProblem,
  });
}

/**
 * The screen's speaker, its back-ends in order: in headset mode only the kiosk-rendered audio on
 * the headset (decided when each reading is spoken, so "headset mode is on" is already private);
 * otherwise the browser's speechSynthesis on the loudspeaker, or the kiosk-rendered audio on the
 * default output where the browser has no speech synthesis.
 */
export function routedSpeaker(headsetMode: () => boolean, normal: Speaker, headset: Speaker, loudspeakerAudio?: Speaker): Speaker {
  const aloud = (): Speaker => (normal.available || !loudspeakerAudio ? normal : loudspeakerAudio);
  const current = (): Speaker => (headsetMode() ? headset : aloud());
  const all = [normal, headset, ...(loudspeakerAudio ? [loudspeakerAudio] : [])];
  return {
    get available() {
      return headsetMode() || aloud().available;
    },
    speak(text, lang, onEnd, volume) {
      const speaker = current();
      // Whatever another output was saying stops first.
      for (const other of all) if (other !== speaker) other.cancel();
      speaker.speak(text, lang, onEnd, volume);
    },
    pause: () => current().pause(),
    resume: () => current().resume(),
    cancel: () => {
      for (const speaker of all) speaker.cancel();
    },
  };
}
