// Non-visual operation: the tactile keypad (arrows move, Enter selects, Back, Help, volume, headset,
// more time) and the audio guide, which speaks each focus change and, when a screen opens (focus on
// its heading), the screen's title and what it says ([data-announce]: the answer, notices, the
// amount…). The guide turns on with the first keypad key or headset mode and ends with the session.
import { useCallback, useEffect } from "react";
import { useTranslation } from "react-i18next";
import { useSpeaker } from "../components/SpeechControls.tsx";
import { directionOf } from "../i18n/catalog.ts";
import { describeFocus, keypadCommand, moveFocus } from "../lib/keypad.ts";
import { scriptLanguage } from "../lib/speech.ts";
import { useViewStoreApi } from "../state/ViewStoreProvider.tsx";
import { useKiosk, useKioskSend } from "./KioskActor.tsx";

/** An element's words as spoken: its text pieces joined by spaces ("Total $2.50 USD"), no bidi isolates. */
function text(el: Element | null | undefined): string {
  if (!el) return "";
  const pieces: string[] = [];
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) pieces.push(node.nodeValue ?? "");
  return pieces
    .join(" ")
    .replace(/[\u2066-\u2069]/g, "")
    .replace(/\s+/g, " ")
    .replace(/\s+([.,:;!?。，：；！？、])/g, "$1")
    .trim();
}

/** Pieces read as sentences: a full stop added where a piece has no end mark of its own. */
function sentences(parts: readonly string[]): string {
  return parts
    .filter(Boolean)
    .map((p) => (/[.!?。！？…:：؟]$/.test(p) ? p : `${p}.`))
    .join(" ");
}

/** A screen's title and its announced parts, in reading order. */
export function screenAnnouncement(heading: HTMLElement): string {
  const main = heading.closest("main") ?? document;
  return sentences([text(heading), ...[...main.querySelectorAll("[data-announce]")].map(text)]);
}

export function useAudioGuide(): void {
  const { t } = useTranslation();
  const store = useViewStoreApi();
  const send = useKioskSend();
  const speaker = useSpeaker();
  const timing = useKiosk((s) => s.context.timing);

  const say = useCallback(
    (words: string) => {
      const { language, volume } = store.getState();
      if (words) speaker.speak(words, scriptLanguage(words, language), () => undefined, volume);
    },
    [speaker, store],
  );

  useEffect(() => {
    const onKey = (event: KeyboardEvent): void => {
      const state = store.getState();
      const command = keypadCommand(event, directionOf(state.language));
      if (!command) return;
      switch (command) {
        case "next":
        case "previous":
          event.preventDefault();
          state.startAudioGuide();
          moveFocus(command === "next" ? 1 : -1);
          break;
        case "back":
          if (state.panel !== "none") state.openPanel("none");
          else document.querySelector<HTMLElement>("main [data-keypad-back]")?.click();
          break;
        case "help": {
          event.preventDefault();
          state.startAudioGuide();
          const heading = document.querySelector<HTMLElement>("main h1, main h2");
          say(`${t("a11y.help")} ${heading ? screenAnnouncement(heading) : ""}`);
          break;
        }
        case "volumeUp":
        case "volumeDown":
          event.preventDefault();
          state.changeVolume(command === "volumeUp" ? 0.2 : -0.2);
          say(t("a11y.volume", { percent: Math.round(store.getState().volume * 100) }));
          break;
        case "headset":
          event.preventDefault();
          state.toggleHeadset();
          say(t(store.getState().headset ? "a11y.headsetOn" : "a11y.headsetOff"));
          break;
        case "moreTime":
          event.preventDefault();
          send({ type: "MORE_TIME" });
          say(t("a11y.moreTimeGiven", { minutes: Math.round((timing.idleTimeoutMs * timing.moreTimeFactor) / 60_000) }));
          break;
      }
    };
    const onFocus = (event: FocusEvent): void => {
      if (!store.getState().audioGuide || !(event.target instanceof HTMLElement)) return;
      const target = event.target;
      if (target.matches("main h1")) {
        say(screenAnnouncement(target));
        return;
      }
      // Focus entering a dialog (the idle warning): its title and message first.
      const dialog = target.closest<HTMLElement>('[role="alertdialog"]');
      const entering = dialog && !(event.relatedTarget instanceof Node && dialog.contains(event.relatedTarget));
      const intro = entering ? `${sentences([text(dialog.querySelector("h2")), text(dialog.querySelector("p"))])} ` : "";
      say(intro + describeFocus(target, t));
    };
    document.addEventListener("keydown", onKey);
    document.addEventListener("focusin", onFocus);
    return () => {
      document.removeEventListener("keydown", onKey);
      document.removeEventListener("focusin", onFocus);
    };
  }, [say, send, store, t, timing]);
}
