// Rendering helpers for component tests (happy-dom): the providers a component needs, without the
// flow machine, plus a recording fake speaker.
import { render, type RenderResult } from "@testing-library/react";
import type { ReactElement } from "react";
import { I18nextProvider } from "react-i18next";
import { SpeakerContext } from "../components/SpeechControls.tsx";
import { createKioskI18n } from "../i18n/index.ts";
import type { Language } from "../i18n/catalog.ts";
import type { Speaker } from "../lib/speech.ts";
import { ViewStoreProvider } from "../state/ViewStoreProvider.tsx";
import { createViewStore, type ViewStore } from "../state/viewStore.ts";

export function renderWithProviders(
  ui: ReactElement,
  options: { language?: Language; store?: ViewStore; speaker?: Speaker } = {},
): RenderResult & { store: ViewStore } {
  const store = options.store ?? createViewStore({ language: options.language ?? "en" });
  const i18n = createKioskI18n(options.language ?? store.getState().language);
  const result = render(
    <ViewStoreProvider store={store}>
      <I18nextProvider i18n={i18n}>
        <SpeakerContext.Provider value={options.speaker ?? null}>{ui}</SpeakerContext.Provider>
      </I18nextProvider>
    </ViewStoreProvider>,
  );
  return { ...result, store };
}

export interface FakeSpeaker extends Speaker {
  log: string[];
  finish(): void;
}

export function fakeSpeaker(): FakeSpeaker {
  let onEnd: (() => void) | null = null;
  const log: string[] = [];
  return {
    available: true,
    log,
    speak(text, lang, end) {
      log.push(`speak:${lang}:${text}`);
      onEnd = end;
    },
    pause: () => void log.push("pause"),
    resume: () => void log.push("resume"),
    cancel: () => void log.push("cancel"),
    finish: () => onEnd?.(),
  };
}
