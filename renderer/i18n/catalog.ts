// Translation catalog types, derived from the English catalog: a catalog missing a key (or with a
// misspelt one) does not compile. Languages with more plural forms (Arabic: zero, two, few, many)
// may add those suffixes to any key English has `_other` for.
import type { en } from "./en.ts";

type ExtraPluralForms<T> = {
  [K in keyof T as K extends `${infer Base}_other` ? `${Base}_${"zero" | "two" | "few" | "many"}` : never]?: string;
};

export type Catalog<T = typeof en> = {
  [K in keyof T]: T[K] extends string ? string : Catalog<T[K]>;
} & ExtraPluralForms<T>;

export const LANGUAGES = ["en", "zh", "ar"] as const;
export type Language = (typeof LANGUAGES)[number];

export const RTL_LANGUAGES: ReadonlySet<Language> = new Set(["ar"]);

export function isLanguage(value: string): value is Language {
  return (LANGUAGES as readonly string[]).includes(value);
}

export function directionOf(language: Language): "ltr" | "rtl" {
  return RTL_LANGUAGES.has(language) ? "rtl" : "ltr";
}
