// Translation catalog types, derived from the English catalog: a catalog missing a key (or with a
// misspelt one) does not compile. Languages with more plural forms (Arabic: zero, two, few, many)
// may add those suffixes to any key English has `_other` for.
import { PASSENGER_LANGUAGES, passengerLanguageOf, type PassengerLanguage } from "../../runtime/kiosk/bridge.ts";
import type { en } from "./en.ts";

type ExtraPluralForms<T> = {
  [K in keyof T as K extends `${infer Base}_other` ? `${Base}_${"zero" | "two" | "few" | "many"}` : never]?: string;
};

export type Catalog<T = typeof en> = {
  [K in keyof T]: T[K] extends string ? string : Catalog<T[K]>;
} & ExtraPluralForms<T>;

/** A catalog of the passenger screens only: the staff tools fall back to English. */
export type PassengerCatalog = Omit<Catalog, "operator">;

/** The screen's languages are the bridge contract's passenger languages (sent with every ask). */
export const LANGUAGES = PASSENGER_LANGUAGES;
export type Language = PassengerLanguage;

export const RTL_LANGUAGES: ReadonlySet<Language> = new Set(["ar"]);

export function isLanguage(value: string): value is Language {
  return (LANGUAGES as readonly string[]).includes(value);
}

/** The screen language of a framebook's `primary_language` ("zh" → 简体中文, "zh-TW" → 繁體中文). */
export function screenLanguageOf(tag: string): Language | null {
  return passengerLanguageOf(tag);
}

export function directionOf(language: Language): "ltr" | "rtl" {
  return RTL_LANGUAGES.has(language) ? "rtl" : "ltr";
}
