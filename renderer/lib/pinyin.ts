// Pinyin input for the on-screen keyboard: the letters typed so far (the composition) are split
// into syllables, and the first syllable's characters are offered most frequent first (the
// candidate table of simple-keyboard-layouts' Chinese layout, simplified). Traditional candidates
// (the Taipei screen) come from OpenCC's traditional→simplified character table, read backwards.
import chinese from "simple-keyboard-layouts/build/layouts/chinese.js";
import { Locale } from "opencc-js/t2cn";
import type { StationView } from "./types.ts";

export type ChineseScript = "simplified" | "traditional";

const TABLE: Readonly<Record<string, string>> = (chinese as unknown as { layoutCandidates: Record<string, string> }).layoutCandidates;
const LONGEST = Math.max(...Object.keys(TABLE).map((k) => k.length));

/** Pinyin as typed: "ü" is written "v" (lv, nv), as on every pinyin keyboard. */
export function normalizePinyin(letters: string): string {
  return letters.toLowerCase().replace(/ü|u:/g, "v").replace(/[^a-z]/g, "");
}

/** The composition split into syllables of the table, longest first ("beijing" → bei, jing). */
export function segmentPinyin(letters: string): string[] {
  const text = normalizePinyin(letters);
  const out: string[] = [];
  let i = 0;
  while (i < text.length) {
    let taken = 0;
    for (let n = Math.min(LONGEST, text.length - i); n > 0; n--) {
      if (TABLE[text.slice(i, i + n)] !== undefined) {
        taken = n;
        break;
      }
    }
    // Letters no syllable starts with stay as they are (the passenger may be mid-syllable).
    if (taken === 0) {
      out.push(text.slice(i));
      break;
    }
    out.push(text.slice(i, i + taken));
    i += taken;
  }
  return out;
}

const TAIWAN_USAGE: ReadonlySet<string> = new Set(["台"]);

let simplifiedToTraditional: Map<string, string[]> | null = null;

/** 车 → [車], 发 → [發, 髮], … from OpenCC's traditional→simplified character dictionary. */
function traditionalForms(): Map<string, string[]> {
  if (simplifiedToTraditional) return simplifiedToTraditional;
  const map = new Map<string, string[]>();
  const traditional = new Set<string>();
  for (const group of Locale.to.cn ?? []) {
    for (const dict of group as readonly unknown[]) {
      if (typeof dict !== "string") continue;
      for (const entry of dict.split("|")) {
        const [t, s] = entry.split(" ");
        if (!t || !s || [...t].length !== 1 || [...s].length !== 1) continue;
        traditional.add(t);
        map.set(s, [...(map.get(s) ?? []), t]);
      }
    }
  }
  // A character that is traditional as well is offered too, after its forms; 台 is how Taiwan
  // writes 臺 (台北), though OpenCC lists it as simplified only.
  for (const [s, forms] of map) if ((traditional.has(s) || TAIWAN_USAGE.has(s)) && !forms.includes(s)) forms.push(s);
  simplifiedToTraditional = map;
  return map;
}

/** Characters for one syllable, most frequent first, in the screen's script. */
export function candidatesFor(syllable: string, script: ChineseScript): string[] {
  const simplified = (TABLE[normalizePinyin(syllable)] ?? "").split(/\s+/).filter(Boolean);
  if (script === "simplified") return simplified;
  const forms = traditionalForms();
  return [...new Set(simplified.flatMap((ch) => forms.get(ch) ?? [ch]))];
}

/** A whole name the candidate bar may offer, with its toneless pinyin (the host's StationView.pinyin). */
export interface Phrase {
  text: string;
  pinyin: string;
}

/** The stations' Chinese names with their pinyin (from the host), for the candidate bar. */
export function stationPhrases(stations: readonly StationView[]): Phrase[] {
  return stations.flatMap((s) => Object.entries(s.pinyin ?? {}).map(([text, pinyin]) => ({ text, pinyin })));
}

/**
 * Whole names for a composition of two syllables or more, as pinyin keyboards offer words before
 * characters: the names whose pinyin starts with it, closest first, led by the Chinese they share
 * when several do ("tiananmen" → 天安门, 天安门东, 天安门西).
 */
export function phraseCandidates(composition: string, phrases: readonly Phrase[]): string[] {
  const typed = normalizePinyin(composition);
  if (segmentPinyin(typed).length < 2) return [];
  const found = phrases.filter((p) => p.pinyin.startsWith(typed)).sort((a, b) => a.pinyin.length - b.pinyin.length || a.text.localeCompare(b.text));
  const texts = [...new Set(found.map((p) => p.text))];
  if (texts.length < 2) return texts;
  let shared = [...texts[0]!];
  for (const text of texts.slice(1)) {
    const chars = [...text];
    let n = 0;
    while (n < shared.length && shared[n] === chars[n]) n++;
    shared = shared.slice(0, n);
  }
  const prefix = shared.join("");
  return shared.length >= 2 && !texts.includes(prefix) ? [prefix, ...texts] : texts;
}
