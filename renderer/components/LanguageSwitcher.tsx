import { useTranslation } from "react-i18next";
import { LANGUAGES } from "../i18n/catalog.ts";
import { useView } from "../state/ViewStoreProvider.tsx";

export function LanguageSwitcher() {
  const { t } = useTranslation();
  const language = useView((s) => s.language);
  const setLanguage = useView((s) => s.setLanguage);
  return (
    <div className="language-switcher" role="group" aria-label={t("language.label")}>
      {LANGUAGES.map((lng) => (
        <button
          key={lng}
          type="button"
          lang={lng}
          className="chip"
          aria-pressed={language === lng}
          onClick={() => setLanguage(lng)}
        >
          {t(`language.${lng}`)}
        </button>
      ))}
    </div>
  );
}
