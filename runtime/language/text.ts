// Text normalisation for matching passenger words against names: case, accents, punctuation,
// Arabic letter variants and CJK runs folded so "Fve Points", "FIVE POINTS!" and "five-points"
// compare alike. Pure.
import type { PassengerLanguage } from "./types.ts";

const CJK = /[\u3400-\u9fff\uf900-\ufaff]/u;
const ARABIC = /[\u0600-\u06ff]/u;
/** Characters that only occur in traditional Chinese (a small, common set is enough to tell). */
const TRADITIONAL = /[車臺從這個們說門開關東區與學體國際廣場華興義過還會線號邊機場捷運嗎請問麼點錢張]/u;
const SPANISH = /\b(quiero|de la|del|desde|hasta|para|por favor|boleto|billete|cuánto|cuanto|cuesta|hay|trenes|adultos?|niños?|necesito|puedo|aeropuerto|estación|silla de ruedas|ir a|ir de|un|una|dos|tres)\b/giu;

/** Fold Latin text: lower case, no accents, punctuation to spaces, single spaces. */
export function foldLatin(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/[’'`´]/g, "")
    .replace(/&/g, " and ")
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

/** Fold Arabic text: no diacritics or tatweel, one alef, final ta marbuta and alef maqsura unified. */
export function foldArabic(text: string): string {
  return text
    .replace(/[\u064b-\u065f\u0670\u0640]/gu, "")
    .replace(/[أإآٱ]/gu, "ا")
    .replace(/ة/gu, "ه")
    .replace(/ى/gu, "ي")
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

/** One folding for any script (CJK is kept as is, without spaces). */
export function fold(text: string): string {
  if (ARABIC.test(text)) return foldArabic(foldLatin(text));
  return foldLatin(text);
}

export function hasCjk(text: string): boolean {
  return CJK.test(text);
}

export function hasArabic(text: string): boolean {
  return ARABIC.test(text);
}

/**
 * The language the passenger wrote in, when the text says so clearly: Chinese (traditional when it
 * uses traditional-only characters), Arabic, Spanish (two or more Spanish words or ¿/¡), else
 * undefined (English or too short to tell).
 */
export function detectLanguage(text: string): PassengerLanguage | undefined {
  if (CJK.test(text)) return TRADITIONAL.test(text) ? "zh-Hant" : "zh-Hans";
  if (ARABIC.test(text)) return "ar";
  if (/[¿¡ñ]/u.test(text)) return "es";
  const hits = text.match(SPANISH)?.length ?? 0;
  const english = text.match(/\b(the|to|from|please|i|my|is|and|how|what|ticket|want|need)\b/giu)?.length ?? 0;
  if (hits >= 2 && hits > english) return "es";
  return undefined;
}
