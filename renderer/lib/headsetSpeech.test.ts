// Headset mode's speech: kiosk-rendered audio on the headset output only, never on the loudspeaker,
// and a notice instead of speech when no headset is plugged in or the kiosk has no voice. Fakes
// stand in for the kiosk's `speak`, the device list and the audio element.
import { describe, expect, it } from "vitest";
import { createViewStore } from "../state/viewStore.ts";
import type { SpeakRequest, SpeechResult } from "../../runtime/kiosk/bridge.ts";
import { createAudioSpeaker, headsetPattern, pickHeadset, routedSpeaker, speechLanguage, type AudioDevice, type AudioOut, type HeadsetProblem } from "./headsetSpeech.ts";
import { createSpeaker, type SpeechLike } from "./speech.ts";

const SPEAKERS: AudioDevice = { kind: "audiooutput", label: "Built-in Speakers", deviceId: "spk" };
const HEADSET: AudioDevice = { kind: "audiooutput", label: "USB Audio Headset (0d8c:0014)", deviceId: "hs-1" };
const MIC: AudioDevice = { kind: "audioinput", label: "Headset Microphone", deviceId: "mic" };
const DEFAULT: AudioDevice = { kind: "audiooutput", label: "Default - USB Audio Headset", deviceId: "default" };

class FakeAudio implements AudioOut {
  static made: FakeAudio[] = [];
  src = "";
  volume = 1;
  sinkId = "";
  playing = false;
  /** The sink when play() was called: it must already be the headset. */
  sinkAtPlay: string | null = null;
  onended: (() => void) | null = null;
  onerror: (() => void) | null = null;
  constructor() {
    FakeAudio.made.push(this);
  }
  setSinkId(id: string): Promise<void> {
    this.sinkId = id;
    return Promise.resolve();
  }
  play(): Promise<void> {
    this.sinkAtPlay = this.sinkId;
    this.playing = true;
    return Promise.resolve();
  }
  pause(): void {
    this.playing = false;
  }
}

/** Web Speech, recorded: what would come out of the loudspeaker. */
function loudspeaker() {
  const spoken: string[] = [];
  const synth: SpeechLike = { speak: (u) => void spoken.push(u.text), cancel: () => undefined, pause: () => undefined, resume: () => undefined };
  class Utterance {
    lang = "";
    volume = 1;
    rate = 1;
    onend: (() => void) | null = null;
    onerror: (() => void) | null = null;
    constructor(readonly text: string) {}
  }
  return { spoken, speaker: createSpeaker(synth, Utterance as unknown as new (text: string) => SpeechSynthesisUtterance) };
}

/** The kiosk's speech engine: a WAV per reading (base64 of a RIFF header and the words), or a refusal. */
function engine(answer?: (request: SpeakRequest) => SpeechResult) {
  const synthesized: SpeakRequest[] = [];
  const synthesize = (request: SpeakRequest): Promise<SpeechResult> => {
    synthesized.push(request);
    return Promise.resolve(answer?.(request) ?? { spoken: true, audio: btoa(`RIFF....WAVE${request.text}`), engine: "espeak-ng", voice: "en-us" });
  };
  return { synthesized, synthesize };
}

function headsetRig(devices: AudioDevice[], answer?: (request: SpeakRequest) => SpeechResult) {
  FakeAudio.made = [];
  const { synthesized, synthesize } = engine(answer);
  const problems: (HeadsetProblem | null)[] = [];
  const wavs: string[] = [];
  const speaker = createAudioSpeaker({
    synthesize,
    sink: async () => pickHeadset(devices, headsetPattern(undefined))?.deviceId ?? null,
    createAudio: () => new FakeAudio(),
    toUrl: (wav) => {
      wavs.push(new TextDecoder().decode(wav));
      return `blob:wav-${synthesized.length}`;
    },
    revokeUrl: () => undefined,
    onProblem: (problem) => problems.push(problem),
  });
  return { speaker, synthesized, problems, wavs };
}

const settle = (): Promise<void> => new Promise((r) => setTimeout(r, 0));

describe("headset output selection", () => {
  it("picks the output whose label matches the pattern, never an input or the 'default' alias", () => {
    expect(pickHeadset([SPEAKERS, MIC, DEFAULT, HEADSET], headsetPattern(undefined))?.deviceId).toBe("hs-1");
    expect(pickHeadset([SPEAKERS, MIC, DEFAULT], headsetPattern(undefined))).toBeUndefined();
    // Unlabelled outputs (no permission to read labels) are never taken for a headset.
    expect(pickHeadset([{ kind: "audiooutput", label: "", deviceId: "x" }], headsetPattern(undefined))).toBeUndefined();
  });

  it("uses the kiosk's configured pattern, and the default when it is missing or invalid", () => {
    const jack = { kind: "audiooutput", label: "Front panel jack", deviceId: "jack" };
    expect(pickHeadset([jack, HEADSET], headsetPattern("front panel"))?.deviceId).toBe("jack");
    expect(pickHeadset([jack, HEADSET], headsetPattern("(unclosed"))?.deviceId).toBe("hs-1");
    expect(headsetPattern("").test("Headphones")).toBe(true);
  });
});

describe("headset speaker", () => {
  it("plays the kiosk's WAV on an audio element whose sink is the headset, set before playing", async () => {
    const { speaker, synthesized, problems, wavs } = headsetRig([SPEAKERS, HEADSET]);
    let ended = false;
    speaker.speak("Fare: $2.50 for 1 adult.", "en", () => (ended = true), 0.6);
    await settle();
    expect(synthesized).toEqual([{ text: "Fare: $2.50 for 1 adult.", language: "en" }]);
    expect(wavs).toEqual(["RIFF....WAVEFare: $2.50 for 1 adult."]);
    expect(problems).toEqual([null]);
    const audio = FakeAudio.made[0]!;
    expect(audio).toMatchObject({ sinkId: "hs-1", sinkAtPlay: "hs-1", src: "blob:wav-1", volume: 0.6, playing: true });
    audio.onended?.();
    expect(ended).toBe(true);
  });

  it("with no headset: nothing is synthesised or played, the screen is told, the reading ends", async () => {
    const { speaker, synthesized, problems } = headsetRig([SPEAKERS, DEFAULT]);
    let ended = false;
    speaker.speak("Your ticket", "en", () => (ended = true));
    await settle();
    expect(synthesized).toEqual([]);
    expect(FakeAudio.made).toEqual([]);
    expect(problems).toEqual(["no_headset"]);
    expect(ended).toBe(true);
  });

  it("no voice for the language, or no engine: nothing is played and the screen is told why", async () => {
    for (const reason of ["no_voice", "no_engine", "failed"] as const) {
      const { speaker, synthesized, problems } = headsetRig([HEADSET], () => ({ spoken: false, reason, message: "none here" }));
      let ended = false;
      speaker.speak("车站", "zh-Hans", () => (ended = true));
      await settle();
      expect(synthesized).toEqual([{ text: "车站", language: "zh-Hans" }]);
      expect(FakeAudio.made).toEqual([]);
      expect(problems).toEqual([reason]);
      expect(ended).toBe(true);
    }
  });

  it("asks for the screen language a voice tag names", () => {
    expect(["en", "zh-Hans", "zh-Hant", "ar", "es"].map(speechLanguage)).toEqual(["en", "zh-Hans", "zh-Hant", "ar", "es"]);
    expect(["zh-CN", "zh-TW", "ar-QA", "es-US", "fr-FR"].map(speechLanguage)).toEqual(["zh-Hans", "zh-Hant", "ar", "es", "en"]);
  });

  it("a reading cancelled before it was synthesised never starts", async () => {
    const { speaker } = headsetRig([HEADSET]);
    speaker.speak("first", "en", () => undefined);
    speaker.cancel();
    await settle();
    expect(FakeAudio.made.every((a) => !a.playing)).toBe(true);
  });
});

describe("the screen's speaker: headset mode never uses speechSynthesis", () => {
  it("routes each reading by the headset mode at the time it is spoken", async () => {
    const store = createViewStore();
    const normal = loudspeaker();
    const rig = headsetRig([SPEAKERS, HEADSET]);
    const speaker = routedSpeaker(() => store.getState().headset, normal.speaker, rig.speaker);
    speaker.speak("Welcome", "en", () => undefined);
    store.getState().toggleHeadset();
    speaker.speak("Headset mode is on.", "en", () => undefined);
    speaker.speak("Fare: QR 2 for 1 adult.", "en", () => undefined);
    await settle();
    expect(normal.spoken).toEqual(["Welcome"]);
    expect(rig.synthesized.map((r) => r.text)).toEqual(["Headset mode is on.", "Fare: QR 2 for 1 adult."]);
    expect(FakeAudio.made.at(-1)?.sinkId).toBe("hs-1");
  });

  it("no headset: the view store shows the notice and nothing reaches the loudspeaker", async () => {
    const store = createViewStore();
    const normal = loudspeaker();
    FakeAudio.made = [];
    const headset = createAudioSpeaker({
      synthesize: () => Promise.reject(new Error("must not synthesise")),
      sink: async () => pickHeadset([SPEAKERS], headsetPattern(store.getState().headsetPattern))?.deviceId ?? null,
      createAudio: () => new FakeAudio(),
      toUrl: () => "blob:x",
      revokeUrl: () => undefined,
      onProblem: (problem) => store.getState().setHeadsetProblem(problem),
    });
    const speaker = routedSpeaker(() => store.getState().headset, normal.speaker, headset);
    store.getState().toggleHeadset();
    speaker.speak("Headset mode is on.", "en", () => undefined);
    await settle();
    expect(store.getState().headsetProblem).toBe("no_headset");
    expect(normal.spoken).toEqual([]);
    expect(FakeAudio.made).toEqual([]);
  });

  it("the loudspeaker: speechSynthesis first; the kiosk's audio on the default output only where the browser has none", async () => {
    const store = createViewStore();
    const rig = headsetRig([SPEAKERS, HEADSET]);
    const aloud = engine();
    FakeAudio.made = [];
    const onDefault = createAudioSpeaker({ synthesize: aloud.synthesize, sink: async () => "", createAudio: () => new FakeAudio(), toUrl: () => "blob:aloud", revokeUrl: () => undefined, onProblem: () => undefined });
    const normal = loudspeaker();
    routedSpeaker(() => store.getState().headset, normal.speaker, rig.speaker, onDefault).speak("Welcome", "en", () => undefined);
    await settle();
    expect(normal.spoken).toEqual(["Welcome"]);
    expect(aloud.synthesized).toEqual([]);
    const silent = createSpeaker(undefined, undefined);
    const speaker = routedSpeaker(() => store.getState().headset, silent, rig.speaker, onDefault);
    expect(speaker.available).toBe(true);
    speaker.speak("Welcome", "es", () => undefined);
    await settle();
    expect(aloud.synthesized).toEqual([{ text: "Welcome", language: "es" }]);
    // The default output: no sink is set at all.
    expect(FakeAudio.made.at(-1)).toMatchObject({ sinkId: "", src: "blob:aloud", playing: true });
    expect(rig.synthesized).toEqual([]);
  });
});

describe("a session's audio settings are its own", () => {
  it("volume, headset mode, the audio guide and the headset notice reset when the session is wiped", () => {
    const store = createViewStore();
    const s = store.getState();
    s.toggleHeadset();
    s.changeVolume(-0.4);
    s.setHeadsetProblem("no_voice");
    expect(store.getState()).toMatchObject({ headset: true, audioGuide: true, volume: 0.6, headsetProblem: "no_voice" });
    store.getState().wipe();
    expect(store.getState()).toMatchObject({ headset: false, audioGuide: false, volume: 1, headsetProblem: null });
  });
});
