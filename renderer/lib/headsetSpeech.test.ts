// Headset mode's speech (issue 17, item 3): private speech on the headset output only, never on
// the loudspeaker, and a notice instead of speech when no headset is plugged in. Fakes stand in for
// the synthesiser, the device list and the audio element.
import { describe, expect, it } from "vitest";
import { createViewStore } from "../state/viewStore.ts";
import { createHeadsetSpeaker, headsetPattern, pickHeadset, routedSpeaker, type AudioDevice, type AudioOut } from "./headsetSpeech.ts";
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

function headsetRig(devices: AudioDevice[]) {
  FakeAudio.made = [];
  const synthesized: { text: string; lang: string }[] = [];
  const presence: boolean[] = [];
  const speaker = createHeadsetSpeaker({
    synthesize: (text, lang) => {
      synthesized.push({ text, lang });
      return Promise.resolve(new TextEncoder().encode(`RIFF....WAVE${text}`));
    },
    devices: () => Promise.resolve(devices),
    pattern: () => headsetPattern(undefined),
    createAudio: () => new FakeAudio(),
    toUrl: () => `blob:wav-${synthesized.length}`,
    revokeUrl: () => undefined,
    onHeadset: (present) => presence.push(present),
  });
  return { speaker, synthesized, presence };
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
  it("plays the synthesised WAV on an audio element whose sink is the headset, set before playing", async () => {
    const { speaker, synthesized, presence } = headsetRig([SPEAKERS, HEADSET]);
    let ended = false;
    speaker.speak("Fare: $2.50 for 1 adult.", "en", () => (ended = true), 0.6);
    await settle();
    expect(synthesized).toEqual([{ text: "Fare: $2.50 for 1 adult.", lang: "en" }]);
    expect(presence).toEqual([true]);
    const audio = FakeAudio.made[0]!;
    expect(audio).toMatchObject({ sinkId: "hs-1", sinkAtPlay: "hs-1", src: "blob:wav-1", volume: 0.6, playing: true });
    audio.onended?.();
    expect(ended).toBe(true);
  });

  it("with no headset: nothing is synthesised or played, the screen is told, the reading ends", async () => {
    const { speaker, synthesized, presence } = headsetRig([SPEAKERS, DEFAULT]);
    let ended = false;
    speaker.speak("Your ticket", "en", () => (ended = true));
    await settle();
    expect(synthesized).toEqual([]);
    expect(FakeAudio.made).toEqual([]);
    expect(presence).toEqual([false]);
    expect(ended).toBe(true);
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
    expect(rig.synthesized.map((s) => s.text)).toEqual(["Headset mode is on.", "Fare: QR 2 for 1 adult."]);
    expect(FakeAudio.made.at(-1)?.sinkId).toBe("hs-1");
  });

  it("no headset: the view store shows the notice and nothing reaches the loudspeaker", async () => {
    const store = createViewStore();
    const normal = loudspeaker();
    FakeAudio.made = [];
    const headset = createHeadsetSpeaker({
      synthesize: () => Promise.reject(new Error("must not synthesise")),
      devices: () => Promise.resolve([SPEAKERS]),
      pattern: () => headsetPattern(store.getState().headsetPattern),
      createAudio: () => new FakeAudio(),
      toUrl: () => "blob:x",
      revokeUrl: () => undefined,
      onHeadset: (present) => store.getState().setHeadsetMissing(!present),
    });
    const speaker = routedSpeaker(() => store.getState().headset, normal.speaker, headset);
    store.getState().toggleHeadset();
    speaker.speak("Headset mode is on.", "en", () => undefined);
    await settle();
    expect(store.getState().headsetMissing).toBe(true);
    expect(normal.spoken).toEqual([]);
    expect(FakeAudio.made).toEqual([]);
  });
});

describe("a session's audio settings are its own", () => {
  it("volume, headset mode, the audio guide and the missing-headset notice reset when the session is wiped", () => {
    const store = createViewStore();
    const s = store.getState();
    s.toggleHeadset();
    s.changeVolume(-0.4);
    s.setHeadsetMissing(true);
    expect(store.getState()).toMatchObject({ headset: true, audioGuide: true, volume: 0.6, headsetMissing: true });
    store.getState().wipe();
    expect(store.getState()).toMatchObject({ headset: false, audioGuide: false, volume: 1, headsetMissing: false });
  });
});
