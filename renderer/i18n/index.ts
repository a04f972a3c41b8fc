// i18next set up with the five catalogs. `t` keys are typed from the English catalog.
import i18next, { type i18n as I18n } from "i18next";
import { initReactI18next } from "react-i18next";
import { ar } from "./ar.ts";
import { LANGUAGES, type Language } from "./catalog.ts";
import { en } from "./en.ts";
import { es } from "./es.ts";
import { zh } from "./zh.ts";
import { zhHant } from "./zhHant.ts";

declare module "i18next" {
  interface CustomTypeOptions {
    defaultNS: "translation";
    resources: { translation: typeof en };
    returnNull: false;
  }
}

export const CATALOGS = { en, "zh-Hans": zh, "zh-Hant": zhHant, ar, es } as const;

/** A fresh i18next instance (one per app, one per test), initialised synchronously. */
export function createKioskI18n(language: Language = "en"): I18n {
  const instance = i18next.createInstance();
  void instance.use(initReactI18next).init({
    lng: language,
    fallbackLng: "en",
    supportedLngs: [...LANGUAGES],
    // "zh-Hans" is a language of its own here, not "zh" plus a script to strip.
    load: "currentOnly",
    resources: Object.fromEntries(Object.entries(CATALOGS).map(([lng, catalog]) => [lng, { translation: catalog }])),
    initAsync: false,
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  return instance;
}

export { LANGUAGES, directionOf, isLanguage, screenLanguageOf, type Catalog, type Language, type PassengerCatalog } from "./catalog.ts";
