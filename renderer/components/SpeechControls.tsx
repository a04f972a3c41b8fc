// "Read aloud" for the answer: play, pause/resume, read again. Hidden without speech synthesis.
import { createContext, useContext, useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import type { KioskBridge } from "../../runtime/kiosk/bridge.ts";
import { useOptionalBridge } from "../bridge/BridgeProvider.tsx";
import { browserAudioSpeaker, hasAnyVoice, headsetPattern, routedSpeaker, type Synthesizer } from "../lib/headsetSpeech.ts";
import { createSpeaker, type Speaker, type SpeechState } from "../lib/speech.ts";
import { useView, useViewStoreApi } from "../state/ViewStoreProvider.tsx";
import type { ViewStore } from "../state/viewStore.ts";
import { Icon } from "./Icon.tsx";

/** The speech output the screen uses (tests provide a fake one); default: the platform's. */
export const SpeakerContext = createContext<Speaker | null>(null);

let platformSpeaker: Speaker | null = null;
const screenSpeakers = new WeakMap<ViewStore, Speaker>();

/**
 * The screen's speech: Web Speech on the loudspeaker, or — in headset mode — audio the kiosk's
 * speech engine rendered, on the headset only (and on the loudspeaker where Web Speech is missing).
 */
function screenSpeaker(store: ViewStore, bridge: KioskBridge | null): Speaker {
  let speaker = screenSpeakers.get(store);
  if (!speaker) {
    const synthesize: Synthesizer = (request) =>
      bridge ? bridge.speak(request) : Promise.resolve({ spoken: false, reason: "no_engine", message: "no kiosk to render speech" });
    const headset = browserAudioSpeaker(synthesize, { headset: () => headsetPattern(store.getState().headsetPattern) }, (problem) => store.getState().setHeadsetProblem(problem));
    const loudspeaker = browserAudioSpeaker(synthesize, "default", () => undefined, () => hasAnyVoice(store.getState().speech));
    speaker = routedSpeaker(() => store.getState().headset, (platformSpeaker ??= createSpeaker()), headset, loudspeaker);
    screenSpeakers.set(store, speaker);
  }
  return speaker;
}

/** The screen's one speaker: the provided one (tests), else the platform's. */
export function useSpeaker(): Speaker {
  const given = useContext(SpeakerContext);
  const store = useViewStoreApi();
  const bridge = useOptionalBridge();
  return useMemo(() => given ?? screenSpeaker(store, bridge), [given, store, bridge]);
}

export function SpeechControls({ text, lang }: { text: string; lang?: string }) {
  const { t, i18n } = useTranslation();
  const speaker = useSpeaker();
  const volume = useView((s) => s.volume);
  const [state, setState] = useState<SpeechState>("idle");
  useEffect(() => () => speaker.cancel(), [speaker]);
  useEffect(() => {
    // A new answer or language: stop reading the old one.
    speaker.cancel();
    setState("idle");
  }, [speaker, text, i18n.language]);
  if (!speaker.available || !text) return null;
  const read = (): void => {
    setState("speaking");
    speaker.speak(text, lang ?? i18n.language, () => setState("idle"), volume);
  };
  return (
    <div className="speech-controls" role="group" aria-label={t("speech.controls")}>
      {state === "idle" ? (
        <button type="button" className="button button-secondary" onClick={read}>
          <Icon name="speaker" /> {t("speech.listen")}
        </button>
      ) : (
        <>
          {state === "speaking" ? (
            <button type="button" className="button button-secondary" onClick={() => (speaker.pause(), setState("paused"))}>
              {t("speech.pause")}
            </button>
          ) : (
            <button type="button" className="button button-secondary" onClick={() => (speaker.resume(), setState("speaking"))}>
              {t("speech.resume")}
            </button>
          )}
          <button type="button" className="button button-secondary" onClick={read}>
            {t("speech.repeat")}
          </button>
        </>
      )}
    </div>
  );
}
