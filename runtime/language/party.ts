// Riders named as people, one by one, with their ages told before, after or in brackets: "my mum
// and I, she's 70", "my husband (72) and I", "me and my son (he's 4)", "for my wife, me and our 2
// kids", "mi madre y yo, ella tiene 70", "我和我妈妈，她70岁". Every person gets a type — from an age
// told of them, or from what they are (a wife is an adult, a baby a child) — or the reading gives
// up (undefined) and the caller asks; it never guesses the type of a parent or a son of unknown age.
// Pure; the text is already lower-cased with numbers as digits (riders.ts).
import type { RiderCounts } from "./types.ts";

type Kind = "adult" | "child" | "unknown";

/** People a passenger travels with, and what they are when no age is told. */
const RELATIONS: Record<string, Kind> = {};
const relations = (kind: Kind, list: string): void => {
  for (const w of list.split(" ")) RELATIONS[w] = kind;
};
relations("adult", "wife husband partner friend boyfriend girlfriend colleague brother sister fiance fiancee esposa esposo marido mujer amigo amiga novio novia hermano hermana");
relations("child", "baby toddler infant bebé bebe");
relations("unknown", "girl boy mum mom mother mama mommy mummy dad father papa daddy son daughter grandpa grandma grandfather grandmother granddad granny nana grandson granddaughter nephew niece uncle aunt cousin kid child madre padre mamá papá hijo hija abuelo abuela nieto nieta sobrino sobrina tío tía");
/** Plural relations that a number counts ("our 2 kids", "my 3 daughters"). */
const PLURALS: Record<string, Kind> = { kids: "child", children: "child", sons: "unknown", daughters: "unknown", grandchildren: "unknown", hijos: "unknown", hijas: "unknown", niños: "child", babies: "child" };

const ZH_RELATIONS: Record<string, Kind> = {
  妈妈: "unknown", 媽媽: "unknown", 爸爸: "unknown", 爷爷: "unknown", 爺爺: "unknown", 奶奶: "unknown", 外婆: "unknown", 外公: "unknown",
  姥姥: "unknown", 姥爷: "unknown", 儿子: "unknown", 兒子: "unknown", 女儿: "unknown", 女兒: "unknown", 孩子: "unknown",
  丈夫: "adult", 老公: "adult", 妻子: "adult", 老婆: "adult", 太太: "adult", 朋友: "adult", 宝宝: "child", 寶寶: "child",
};

interface Person {
  kind: Kind;
  age?: number;
  /** A counted group of children ("our 2 kids"). */
  group?: number;
  /** Where the person is named, and where the next one starts (ages told in between are theirs). */
  at: number;
  end: number;
}

const POSSESSIVE = String.raw`(?:my|our|mi|mis|nuestr[oa]s?)`;
const COMPANION = new RegExp(String.raw`\b${POSSESSIVE}\s+(?:(\d{1,2})[- ]?(?:years?|yrs?|yo)[- ]?old\b\s*|(\d{1,2})\s+|(?:little|baby|younger|older|elderly|old)\s+)?(\p{L}+)?`, "gu");
/** The speaker as a traveller: "me and", "and I", "plus me", "yo y", "我和". */
const SPEAKER = /\bvoy con\b|\b(?:me|i|myself)\s*(?:,|and|plus|\+|&|with|y)\s|\b(?:and|plus|with|y|\+|,)\s*(?:me|i|myself|yo)\b|\byo y\b|我和|和我|我跟|跟我|我带|我帶/u;
/** An age told after a person (the number is the first group that matched). */
const TOLD_AGE =
  /^[\s,;，、—–-]*(?:(?:and|y|plus|\+|&|with)\s+(?:i|me|myself|yo)\b[\s,;，、—–-]*)?(?:\(\s*(?:(?:he|she)(?:'s| is)\s+|aged?\s+)?(\d{1,3})\s*\)|(?:who(?:'s| is)|(?:he|she)(?:'s| is)|is|aged?)\s+(\d{1,3})\b(?!\s*(?:min|am|pm|:|%))|(?:(?:ella|él|el)\s+)?tiene\s+(\d{1,3})\b|de\s+(\d{1,3})\s+años|[他她]\s*(\d{1,3}|[一二三四五六七八九十]{1,3})\s*[岁歲])/u;
const SPEAKER_AGE = /\b(?:i'?m|i am)\s+(\d{2,3})\b(?!\s*(?:min|am|pm|:|%|st|nd|rd|th|blocks?|stops?|meters?|metres?|miles?|km))|\btengo\s+(\d{2,3})\s+años|我\s*(\d{2,3})\s*[岁歲]/u;
const BOTH_SENIORS = /\bboth\s+(?:are\s+)?(?:seniors?|senior citizens|over\s+6[4-9]|6[5-9]\+?|[7-9]\d)\b|\(both\s+(?:6[5-9]|[7-9]\d)\)|\b(?:los dos|las dos|ambos|ambas)\b[^.;]{0,24}?\b(?:mayores|jubilad[oa]s|6[5-9]|[7-9]\d)\b/u;
/** Rider counts that are not about a named person: the counting reader handles those texts. */
const BARE_COUNT = /\b\d+\s+(?:adults?|seniors?|children|kids?|people|persons|passengers|tickets?|of us|adultos?|niños?|personas?)\b|\bfamily of\b|[一两兩二三四五六七八九十\d]\s*[个個位]?\s*(?:大人|成人|小孩|儿童|兒童|老人)/u;

const HAN_DIGITS = "一二三四五六七八九";

/** "八十" → 80, "七十二" → 72, "五" → 5 (ages, so up to 99). */
function hanAge(han: string): number {
  const digit = (c: string | undefined): number => (c === undefined ? 0 : HAN_DIGITS.indexOf(c) + 1);
  const ten = han.indexOf("十");
  if (ten < 0) return digit(han[0]);
  return (ten === 0 ? 1 : digit(han[ten - 1])) * 10 + digit(han[ten + 1]);
}

/**
 * The party a text names person by person, or undefined when it does not name companions, names
 * one whose type is unknown (no age told), or also counts riders another way.
 */
export function readParty(t: string, ageType: (age: number) => keyof RiderCounts): RiderCounts | undefined {
  const people: Person[] = [];
  for (const m of t.matchAll(COMPANION)) {
    const word = m[3] ?? "";
    const at = m.index ?? 0;
    const end = at + m[0].length;
    const n = m[2] !== undefined ? Number(m[2]) : undefined;
    const plural = PLURALS[word];
    if (plural !== undefined) {
      // "our 2 kids": a counted group; children unless their kind is unknown ("my 2 sons"). "our
      // kids aged 3 and 4" has no count here: the counting reader reads it.
      if (plural !== "child" || n === undefined) return undefined;
      people.push({ kind: "child", group: n, at, end });
      continue;
    }
    // "my 3 year old": a person of that age, whoever they are.
    if (m[1] !== undefined) {
      people.push({ kind: RELATIONS[word] ?? "unknown", age: Number(m[1]), at, end });
      continue;
    }
    const kind = RELATIONS[word];
    if (kind !== undefined) people.push({ kind, at, end });
  }
  for (const [word, kind] of Object.entries(ZH_RELATIONS)) {
    for (let at = t.indexOf(word); at >= 0; at = t.indexOf(word, at + word.length)) people.push({ kind, at, end: at + word.length });
  }
  if (people.length === 0) return undefined;
  people.sort((a, b) => a.at - b.at);
  // The stretch of text after each person, up to the next one, says their age.
  people.forEach((p, i) => {
    const next = people[i + 1]?.at ?? t.length;
    const told = TOLD_AGE.exec(t.slice(p.end, next));
    const age = told?.slice(1).find((g) => g !== undefined);
    if (p.age === undefined && age !== undefined) p.age = /^\d+$/.test(age) ? Number(age) : hanAge(age);
  });
  const speakerAge = SPEAKER_AGE.exec(t)?.slice(1).find((g) => g !== undefined);
  const speaker = speakerAge !== undefined || SPEAKER.test(t) || /\bfor (?:me|myself)\b/u.test(t);
  if (!speaker) return undefined;
  const withoutGroups = t.replace(COMPANION, " ");
  if (BARE_COUNT.test(withoutGroups)) return undefined;
  const r: RiderCounts = { adults: 0, children: 0, seniors: 0, disabled: 0 };
  const bothSeniors = BOTH_SENIORS.test(t);
  if (bothSeniors) {
    // "my wife and I (both 70)": the speaker and one companion, both seniors.
    if (people.length !== 1) return undefined;
    r.seniors = 2;
    return r;
  }
  r[speakerAge !== undefined ? ageType(Number(speakerAge)) : "adults"]++;
  for (const p of people) {
    if (p.group !== undefined) r.children += p.group;
    else if (p.age !== undefined) r[ageType(p.age)]++;
    else if (p.kind === "unknown") return undefined;
    else r[p.kind === "child" ? "children" : "adults"]++;
  }
  return r;
}
