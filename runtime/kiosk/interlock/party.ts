// The interlock's reading of people named one by one, with an age told afterwards or in brackets:
// "my mum and I, she's 70", "my husband (72) and I", "me and my son (he's 4)", "我和我妈妈，她70岁",
// "mi madre y yo, ella tiene 70". Lower bounds only — how many people at least, and at least how
// many of a type by the ages told — so a quote that sells fewer riders, or an older rider as an
// adult, is blocked. It never makes a quote pass. Its own code: no policy or language-layer import.
import { chineseNumber, normalize, numberWord, words } from "./text.ts";

/** People the speaker travels with, as passengers name them (after normalize()). */
export const RELATIONS = new Set(
  (
    "wife husband partner mum mom mother mama mommy dad father papa daddy son daughter grandpa grandma grandfather grandmother granddad granny grandson granddaughter " +
    "nephew niece brother sister friend boyfriend girlfriend colleague uncle aunt cousin baby toddler kid child infant " +
    "madre padre mama papa esposa esposo marido mujer hijo hija abuelo abuela nieto nieta sobrino sobrina hermano hermana amigo amiga bebe"
  ).split(" "),
);
/** Relations that are children whatever the fare table's age limit. */
const ALWAYS_CHILD = new Set(["baby", "toddler", "infant", "bebe"]);
const POSSESSIVE = new Set(["my", "our", "mi", "mis", "nuestro", "nuestra", "nuestros"]);
const ARTICLES = new Set(["a", "an", "un", "una"]);
/** The speaker named as one of the travellers ("me and", "and I", "plus me", "yo y"). */
const SPEAKER = /\b(?:me|i|myself) (?:and|plus|with|y)\b|\b(?:and|plus|with|y|\+) (?:me|i|myself|yo)\b|\byo y\b|\bme \+/;
const ZH_RELATIONS = /(妈妈|媽媽|爸爸|爷爷|爺爺|奶奶|外婆|外公|姥姥|姥爷|姥爺|儿子|兒子|女儿|女兒|丈夫|老公|妻子|老婆|孩子|朋友)/gu;
const ZH_AGE = /[他她]\s*([0-9一二两兩三四五六七八九十]{1,3})\s*[岁歲]/gu;

export type AgeClass = "senior" | "adult" | "child" | "unknown";

export interface PartyReading {
  /** At least this many people travel (the speaker and each companion named). */
  people: number;
  /** Ages told of someone ("she's 70", "(72)", "de 4 años"), in the order told. */
  ages: number[];
  /** "both seniors", "both over 65", "(both 70)": two riders of 65 or over. */
  bothSenior: boolean;
  /** Companions that are children at any age limit ("our baby"). */
  babies: number;
  evidence: string[];
}

const AGE_WORD = String.raw`(\d{1,3}|[a-z]+(?: [a-z]+)?)`;
/**
 * Ages told after a person in the forms riders.ts's word loop does not read ("he is 68", "aged 5"
 * and "4 years old" are read there): "shes 70", "who is 4", "whos 5", "ella tiene 70".
 */
const TOLD_AGE = new RegExp(String.raw`\b(?:who is|hes|shes|whos|(?:(?:ella|el) )?tiene) ${AGE_WORD}\b(?! (?:years?|yrs?|yo|anos)\b)`, "g");
/** Bare ages in brackets, straight after a person: "(72)", "(both 70)". */
const BRACKET_AGE = /\(\s*(both\s+)?(\d{1,3})\s*\)/gu;
/** Words that make "a ..." or "no ..." not an age ("she is a senior"). */
const NOT_AGES = new Set(["a", "an", "no", "none", "single", "couple", "pair"]);

/** "seventy two" → 72, "three" → 3, "70" → 70; undefined when it is not a number. */
export function ageNumber(phrase: string): number | undefined {
  const [a, b] = phrase.split(" ");
  if (NOT_AGES.has(a ?? "")) return undefined;
  const first = numberWord(a ?? "");
  if (first === undefined) return undefined;
  const unit = b === undefined ? undefined : numberWord(b);
  return first >= 20 && first % 10 === 0 && unit !== undefined && unit > 0 && unit < 10 ? first + unit : first;
}

export function readParty(text: string): PartyReading {
  const norm = normalize(text);
  const w = words(norm);
  const evidence: string[] = [];
  let companions = 0;
  let babies = 0;
  for (let i = 0; i < w.length; i++) {
    if (!RELATIONS.has(w[i]!)) continue;
    // "my son", "our baby", "my 4 yr old grandson", "a disabled friend": a possessive or an
    // article within three words before.
    const before = w.slice(Math.max(0, i - 4), i);
    if (!before.some((x) => POSSESSIVE.has(x) || ARTICLES.has(x))) continue;
    // "my 2 kids" is counted by its number elsewhere; here it names one companion at least.
    companions++;
    if (ALWAYS_CHILD.has(w[i]!)) babies++;
    evidence.push(w[i]!);
  }
  for (const m of text.matchAll(ZH_RELATIONS)) {
    companions++;
    evidence.push(m[0]);
  }
  const speaker = SPEAKER.test(norm) || /^(?:me|i) /.test(norm) || /我和|和我|我跟|跟我/u.test(text);
  const ages: number[] = [];
  for (const m of norm.matchAll(TOLD_AGE)) {
    const n = ageNumber(m[1] ?? m[2] ?? "");
    if (n !== undefined && n < 120) {
      ages.push(n);
      evidence.push(m[0]);
    }
  }
  let bothSenior = /\bboth (?:are )?(?:seniors?|over 6[4-9]|65 ?(?:plus)?|(?:6[5-9]|[7-9]\d))\b|\b(?:los|las|ambos|ambas)(?: dos)?(?: \w+){0,3} (?:mayores|jubilad[oa]s|6[5-9]|[7-9]\d)\b/.test(norm);
  for (const m of text.toLowerCase().matchAll(BRACKET_AGE)) {
    const n = Number(m[2]);
    if (m[1] && n >= 65) bothSenior = true;
    else ages.push(n);
    evidence.push(m[0]);
  }
  for (const m of text.matchAll(ZH_AGE)) {
    const n = chineseNumber(m[1] ?? "");
    if (n !== undefined) {
      ages.push(n);
      evidence.push(m[0]);
    }
  }
  if (bothSenior) evidence.push("both seniors");
  return { people: (speaker && companions > 0 ? 1 : 0) + companions, ages, bothSenior, babies, evidence };
}
