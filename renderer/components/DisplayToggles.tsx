import { useTranslation } from "react-i18next";
import { useView } from "../state/ViewStoreProvider.tsx";
import { Icon } from "./Icon.tsx";

export function DisplayToggles() {
  const { t } = useTranslation();
  const highContrast = useView((s) => s.highContrast);
  const largeText = useView((s) => s.largeText);
  const toggleHighContrast = useView((s) => s.toggleHighContrast);
  const toggleLargeText = useView((s) => s.toggleLargeText);
  const headset = useView((s) => s.headset);
  const toggleHeadset = useView((s) => s.toggleHeadset);
  return (
    <div className="display-toggles" role="group" aria-label={t("common.displayOptions")}>
      <button type="button" className="chip" aria-pressed={highContrast} onClick={toggleHighContrast}>
        <Icon name="contrast" /> {t("common.highContrast")}
      </button>
      <button type="button" className="chip" aria-pressed={largeText} onClick={toggleLargeText}>
        <Icon name="text-size" /> {t("common.largeText")}
      </button>
      <button type="button" className="chip" aria-pressed={headset} onClick={toggleHeadset}>
        <Icon name="speaker" /> {t("a11y.headset")}
      </button>
    </div>
  );
}
