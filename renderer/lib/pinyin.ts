// Pinyin input for the on-screen keyboard: the letters typed so far (the composition) are split
// into syllables, and the first syllable's characters are offered most frequent first (the
// candidate table of simple-keyboard-layouts' Chinese layout, simplified). Traditional candidates
// (the Taipei screen) come from OpenCC's traditional→simplified character table, read backwards.
import chinese from "simple-keyboard-layouts/build/layouts/chinese.js";
import { Locale } from "opencc-js/t2cn";

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
