// i18next set up with the three catalogs. `t` keys are typed from the English catalog.
import i18next, { type i18n as I18n } from "i18next";
import { initReactI18next } from "react-i18next";
import { ar } from "./ar.ts";
import type { Language } from "./catalog.ts";
import { en } from "./en.ts";
import { zh } from "./zh.ts";

declare module "i18next" {
  interface CustomTypeOptions {
    defaultNS: "translation";
    resources: { translation: typeof en };
    returnNull: false;
  }
}

export const CATALOGS = { en, zh, ar } as const;

/** A fresh i18next instance (one per app, one per test), initialised synchronously. */
export function createKioskI18n(language: Language = "en"): I18n {
  const instance = i18next.createInstance();
  void instance.use(initReactI18next).init({
    lng: language,
    fallbackLng: "en",
    supportedLngs: ["en", "zh", "ar"],
    resources: { en: { translation: en }, zh: { translation: zh }, ar: { translation: ar } },
    initAsync: false,
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  return instance;
}

export { LANGUAGES, directionOf, isLanguage, type Catalog, type Language } from "./catalog.ts";
