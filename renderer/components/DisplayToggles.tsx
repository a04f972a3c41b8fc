import { useTranslation } from "react-i18next";
import { useView, useViewStoreApi } from "../state/ViewStoreProvider.tsx";
import { useSpeaker } from "./SpeechControls.tsx";
import { Icon } from "./Icon.tsx";

export function DisplayToggles() {
  const { t } = useTranslation();
  const highContrast = useView((s) => s.highContrast);
  const largeText = useView((s) => s.largeText);
  const toggleHighContrast = useView((s) => s.toggleHighContrast);
  const toggleLargeText = useView((s) => s.toggleLargeText);
  const headset = useView((s) => s.headset);
  const toggleHeadset = useView((s) => s.toggleHeadset);
  const store = useViewStoreApi();
  const speaker = useSpeaker();
  // Touching the chip says so too, privately (and finds out whether a headset is plugged in).
  const onHeadset = (): void => {
    toggleHeadset();
    const { headset: on, language, volume } = store.getState();
    speaker.speak(t(on ? "a11y.headsetOn" : "a11y.headsetOff"), language, () => undefined, volume);
  };
  return (
    <div className="display-toggles" role="group" aria-label={t("common.displayOptions")}>
      <button type="button" className="chip" aria-pressed={highContrast} onClick={toggleHighContrast}>
        <Icon name="contrast" /> {t("common.highContrast")}
      </button>
      <button type="button" className="chip" aria-pressed={largeText} onClick={toggleLargeText}>
        <Icon name="text-size" /> {t("common.largeText")}
      </button>
      <button type="button" className="chip" aria-pressed={headset} onClick={onHeadset}>
        <Icon name="speaker" /> {t("a11y.headset")}
      </button>
    </div>
  );
}
