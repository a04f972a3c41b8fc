// Who travels in Arabic words: "شخصين" (two people), "ثلاثة أشخاص", "بالغ وطفلين" (an adult and two
// children), "تذكرتين" (two tickets), "اثنين بالغين". Duals carry their own count; a plural takes
// the number beside it (before or after: "ثلاثة بالغين", "بالغين اثنين"); "و" (and), "ال" (the)
// and "ل" (for) are split off the word they join. Pure.
import type { RiderCounts } from "./types.ts";

export interface ArabicCounts {
  riders: RiderCounts;
  /** How many travel in all, where the words say so ("ثلاثة أشخاص"): it holds the typed riders. */
  heads: number;
}

const NUMBERS: Record<string, number> = {
  واحد: 1, واحدة: 1, اثنان: 2, اثنين: 2, اثنتان: 2, اثنتين: 2, ثلاثة: 3, ثلاث: 3, اربعة: 4, اربع: 4,
  خمسة: 5, خمس: 5, ستة: 6, ست: 6, سبعة: 7, سبع: 7, ثمانية: 8, تسعة: 9, عشرة: 10, زوز: 2,
};

type Kind = keyof RiderCounts | "heads";
/** Rider nouns; `n` is the count the word carries itself (singular 1, dual 2; a plural none). */
const NOUNS: Record<string, { kind: Kind; n?: number }> = {
  شخص: { kind: "heads", n: 1 }, شخصين: { kind: "heads", n: 2 }, شخصان: { kind: "heads", n: 2 }, اشخاص: { kind: "heads" },
  راكب: { kind: "heads", n: 1 }, راكبين: { kind: "heads", n: 2 }, ركاب: { kind: "heads" },
  تذكرة: { kind: "heads", n: 1 }, تذكرتين: { kind: "heads", n: 2 }, تذكرتان: { kind: "heads", n: 2 }, تذاكر: { kind: "heads" },
  // Tunisian at a ticket counter: "places" and "tickets" (بلايص، تكايت), "two" (زوز), a grown-up and little ones (كبير، صغار)
  كبير: { kind: "adults", n: 1 }, صغير: { kind: "children", n: 1 }, صغار: { kind: "children" },
  بلاصة: { kind: "heads", n: 1 }, بلايص: { kind: "heads" }, بلاصات: { kind: "heads" }, تكية: { kind: "heads", n: 1 }, تيكيات: { kind: "heads" }, تكايت: { kind: "heads" },
  بالغ: { kind: "adults", n: 1 }, بالغين: { kind: "adults", n: 2 }, بالغان: { kind: "adults", n: 2 }, كبار: { kind: "adults" },
  طفل: { kind: "children", n: 1 }, طفلين: { kind: "children", n: 2 }, طفلان: { kind: "children", n: 2 }, اطفال: { kind: "children" },
  مسن: { kind: "seniors", n: 1 }, مسنين: { kind: "seniors", n: 2 }, مسنان: { kind: "seniors", n: 2 },
};

/** Alef forms folded, Arabic-Indic digits as digits, "و" split off a rider word or number it joins. */
function tokens(text: string): string[] {
  const folded = text
    .replace(/[أإآ]/gu, "ا")
    .replace(/[\u0660-\u0669]/gu, (d) => String(d.charCodeAt(0) - 0x0660))
    .replace(/[\u064b-\u0652]/gu, "")
    // A final ه for ة, as people type it ("أربعه").
    .replace(/ه(?=[^\p{L}]|$)/gu, "ة");
  return folded
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .map(bare);
}

/** Prefixes a rider word or number may carry: "و" (and), "ال" (the), "ل"/"لل" (for), "ب" (with). */
const PREFIXES = ["وال", "و", "ال", "لل", "ل", "ب"];

function bare(word: string): string {
  if (NOUNS[word] || NUMBERS[word]) return word;
  for (const p of PREFIXES) {
    const rest = word.slice(p.length);
    if (word.startsWith(p) && (NOUNS[rest] || NUMBERS[rest])) return rest;
  }
  return word;
}

const numberOf = (w: string | undefined): number | undefined => (w === undefined ? undefined : /^\d{1,2}$/.test(w) ? Number(w) : NUMBERS[w]);

/** The Arabic counts of a text, or undefined when it has none. */
export function readArabicCounts(text: string): ArabicCounts | undefined {
  if (!/\p{Script=Arabic}/u.test(text)) return undefined;
  const w = tokens(text);
  const riders: RiderCounts = { adults: 0, children: 0, seniors: 0, disabled: 0 };
  let heads = 0;
  let said = false;
  w.forEach((word, i) => {
    const noun = NOUNS[word];
    if (!noun) return;
    // "شخص بالغ": one adult person, not a person and an adult.
    if (noun.kind === "adults" && noun.n === 1 && NOUNS[w[i - 1] ?? ""]?.kind === "heads") {
      riders.adults += 1;
      said = true;
      return;
    }
    const n = numberOf(w[i - 1]) ?? numberOf(w[i + 1]) ?? noun.n;
    if (n === undefined) return;
    said = true;
    if (noun.kind === "heads") heads = Math.max(heads, n);
    else riders[noun.kind] += n;
  });
  // "أربعه السد البدع": at a ticket counter a count said first, with no noun, is the tickets.
  const first = numberOf(w[0]);
  if (!said && first !== undefined && first >= 1 && first <= 10 && w.length > 1) return { riders, heads: first };
  return said ? { riders, heads } : undefined;
}
