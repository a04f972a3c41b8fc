// Riders from the passenger's words: counts and types ("two adults", "me and my husband plus our
// kids aged 3 and 4", "I'm 72", "my wife and I are both over 65", "wheelchair user"), counts in
// words (words-to-numbers) and in Spanish, Chinese and Arabic. Ages map through the framebook's
// rider rules: 65+ is a senior; a child under the free-child age counts as a child; other ages
// pay the adult fare. Undefined when the text says nothing about who travels. Pure.
//
// A correction inside one message ("3 adults and 2 children, no wait, just 2 adults", "Three
// adults. Sorry, four") is read as statements: a later one replaces the counts it states, and the
// whole party when it says "just"/"only". People named one by one with ages ("my mum and I, she's
// 70") are read by party.ts.
import { distance } from "fastest-levenshtein";
import type * as WordsToNumbers from "words-to-numbers";
import { childAgeLimit } from "../../tools/fares/child-rule.ts";
import { lazyPackage } from "./lazy-package.ts";
import { readArabicCounts } from "./arabic-riders.ts";
import { hanNumber, namesTravellers, readParty } from "./party.ts";
import type { RiderCounts } from "./types.ts";

export interface RiderReading {
  riders: RiderCounts;
  /** How sure the reading is (a bare "me" is less sure than "two adults"). */
  confidence: number;
  /** The statement names the whole party ("just me"), set by callers that check for it. */
  exclusive?: boolean;
}

const wordsToNumbers = lazyPackage<typeof WordsToNumbers>("words-to-numbers");

const SENIOR_AGE = 65;
const NUMBER_WORDS: Record<string, number> = {
  un: 1, una: 1, uno: 1, dos: 2, tres: 3, cuatro: 4, cinco: 5, seis: 6, siete: 7, ocho: 8,
  一: 1, 一位: 1, 一个: 1, 一個: 1, 两: 2, 兩: 2, 二: 2, 三: 3, 四: 4, 五: 5,
  واحد: 1, شخصان: 2, اثنان: 2, ثلاثة: 3, أربعة: 4,
  a: 1, an: 1, single: 1, couple: 2, pair: 2, twins: 2,
};

/**
 * How much of one message the readers look at: a kiosk request is a sentence or two, and
 * words-to-numbers takes time quadratic in the text, so a pasted 60 KB message would block the
 * kiosk for seconds (issue 13's one-session growth figure). What lies beyond is not read: the
 * kiosk asks rather than guesses, and the interlock reads every word with its own readers.
 */
export const MAX_READ_CHARS = 2_000;

/** A word with a letter outside ASCII ("años", "niños", CJK): words-to-numbers would read its "a" as 1. */
const NON_ASCII_WORD = /[\p{L}\p{N}]*[^\p{ASCII}][\p{L}\p{N}]*/gu;
const letterCode = (i: number): string => `zzq${i.toString(26).replace(/./g, (d) => String.fromCharCode(97 + parseInt(d, 26)))}zzq`;

function toDigits(text: string): string {
  // Keep non-ASCII words out of words-to-numbers' reach, and put them back afterwards.
  const kept: string[] = [];
  let t = text.replace(NON_ASCII_WORD, (w) => letterCode(kept.push(w) - 1));
  try {
    const converted = wordsToNumbers().wordsToNumbers(t);
    if (typeof converted === "string") t = converted;
  } catch {
    // words-to-numbers can fail on unusual input; the digits already there still count.
  }
  return t.replace(/zzq([a-z]+)zzq/g, (code, letters: string) => kept[parseInt([...letters].map((c) => (c.charCodeAt(0) - 97).toString(26)).join(""), 26)] ?? code);
}

function num(word: string | undefined): number | undefined {
  if (word === undefined) return undefined;
  if (/^\d+$/.test(word)) return Number(word);
  return NUMBER_WORDS[word.toLowerCase()];
}

/** The free-child age limit from the fare table's qualifier ("under 5" → 5; none, or by height → 0). */
export function freeChildAge(qualifier: string | undefined): number {
  return childAgeLimit(qualifier) ?? 0;
}

const COUNT = String.raw`(\d+|an?|one|two|three|four|five|six|un[ao]?|dos|tres|cuatro|couple of|pair of)`;
const HEADS = String.raw`(?:people|ppl|persons?|passengers?|riders?|pax|tickets?|seats?|of us|personas?|boletos?|billetes?|asientos?)`;
const GROWN_UP = String.raw`(?:adults?|grown[- ]?ups?|adultos?)`;
/** Two riders, both seniors ("two of us, both seniors", "both over 65"). */
const BOTH_SENIORS = /\bboth (?:are )?(?:seniors?|senior citizens|over 6[4-9]|above 6[4-9]|6[5-9]|[7-9]\d)\b|\b(?:los dos|las dos|ambos|ambas)\b[^.;]{0,24}?\b(?:mayores|jubilad[oa]s|6[5-9]|[7-9]\d)\b/iu;
// \u00f1 is ñ: a String.raw template keeps what it is written with, and the compiled CLI is ASCII-only (scripts/ascii-output.ts).
const CHILD = String.raw`(?:kids?|children|child|toddlers?|babies|baby|little ones?|infants?|ni\u00f1os?|ni\u00f1as?|hijos?)`;
const SENIOR = String.raw`(?:seniors?|senior citizens?|pensioners?|elderly|jubilados?|mayores)`;
const DISABLED = String.raw`(?:disabled(?: (?:riders?|passengers?|people|persons?))?|wheelchair users?|personas? con discapacidad)`;

/** Where a message corrects itself: what follows replaces what came before. */
const CORRECTION = /\b(?:no,? wait|wait|actually|sorry|i mean|make (?:it|that)|correction|scratch that|perd[oó]n|mejor dicho)\b|\bno\s*[,.;:!—–-]|不对|不對|其实|其實/giu;
const ONLY = /\b(?:just|only|solo|sólo)\b|只有|只要/iu;
const KEYS = ["adults", "children", "seniors", "disabled"] as const;

/** Words for the speaker or other grown-ups. */
const GROWN_UPS_SPOKEN_OF = /\b(?:me|i|i'm|myself|us|we|our|my|parents?|mom|mum|dad|mother|father|husband|wife|yo|mi|mis|nosotros|nuestr[oa]s?)\b|我/u;

/** Read riders from one text; undefined when it names none. */
export function readRiders(text: string, childAge: number): RiderReading | undefined {
  const whole = text.slice(0, MAX_READ_CHARS);
  const statements: string[] = [];
  let from = 0;
  for (const m of whole.matchAll(CORRECTION)) {
    statements.push(whole.slice(from, m.index));
    from = (m.index ?? 0) + m[0].length;
  }
  statements.push(whole.slice(from));
  let reading: RiderReading | undefined;
  statements.forEach((statement, i) => {
    const r = readStatement(statement, childAge);
    if (!r) {
      // "12 adults, I mean 2", "Three adults. Sorry, four": a bare number corrects the one count
      // said before it; after a mix of riders it could mean any of them, so the kiosk asks.
      const bare = /^\W*(\d+)\W*$/u.exec(toDigits(statement.toLowerCase()));
      if (bare && reading) {
        const stated = KEYS.filter((k) => reading!.riders[k] > 0);
        reading = stated.length === 1 ? { ...reading, riders: { ...reading.riders, [stated[0]!]: Number(bare[1]) } } : { ...reading, confidence: Math.min(reading.confidence, 0.5) };
      }
      return;
    }
    if (!reading || (i > 0 && ONLY.test(statement))) {
      reading = r;
      return;
    }
    // "2 adults, 1 kid, actually make that 2 kids": the counts it states replace the earlier ones.
    const riders = { ...reading.riders };
    for (const k of KEYS) if (r.riders[k] > 0) riders[k] = r.riders[k];
    reading = { riders, confidence: Math.min(reading.confidence, r.confidence) };
  });
  // An age the child rule cannot place: not sure enough to quote from.
  if (reading && statedAges(whole).some((age) => ageUnsure(age, childAge))) reading = { ...reading, confidence: Math.min(reading.confidence, 0.5) };
  // Only children read, in words that also speak of grown-ups ("both of us parents plus twins aged
  // 2", "my twin daughters (age 5) and I"): those went unread, so the kiosk asks rather than quote
  // the children alone. ("two children, Five Points to Airport" are children travelling alone.)
  const only = reading as RiderReading | undefined;
  if (only && only.riders.children > 0 && only.riders.adults + only.riders.seniors + only.riders.disabled === 0 && GROWN_UPS_SPOKEN_OF.test(whole.toLowerCase())) {
    return { ...only, confidence: Math.min(only.confidence, 0.5) };
  }
  return reading;
}

/** The text names people the speaker travels with, read or not ("me and my mum"). */
export function mentionsTravellers(text: string): boolean {
  return namesTravellers(mendTypos(toDigits(text.slice(0, MAX_READ_CHARS).toLowerCase())));
}

/**
 * What a rider of this age pays as: 65 and over a senior; under the fare table's free-child age a
 * child; any other age the adult fare (on MARTA, "children under 5 ride free": an 8-year-old pays).
 * Where the child rule is not an age (Beijing's "under 120cm"), a child under 12 is read as a child
 * but only from 5 on unsurely (ageUnsure): the kiosk asks instead of pricing a guess.
 */
function ageType(age: number, childAge: number): keyof RiderCounts {
  if (age >= SENIOR_AGE) return "seniors";
  if (childAge > 0) return age < childAge ? "children" : "adults";
  return age < 12 ? "children" : "adults";
}

/** An age the fare table's child rule cannot place (a height rule, a child of 5 to 11). */
function ageUnsure(age: number, childAge: number): boolean {
  return childAge === 0 && age >= 5 && age < 12;
}

/** Ages a message gives for people ("my 8 year old", "aged 6", "kids aged six and 9"). */
export function statedAges(text: string): number[] {
  return [...toDigits(text.slice(0, MAX_READ_CHARS).toLowerCase()).matchAll(AGE_WORDS)].flatMap((m) => (m[1] ?? m[2] ?? "").match(/\d+/g)?.map(Number) ?? []);
}

const AGE_WORDS = /\b(\d+)[- ]?(?:years?|yrs?)[- ]?old\b|\b(?:aged?|ages)\s+(\d+(?:\s*(?:,|and|&)\s*\d+)*)/giu;

/** Rider nouns a count may be followed by, for mending typos ("3 adluts", "2 chidren"). */
const RIDER_NOUNS = ["adult", "adults", "child", "children", "kids", "senior", "seniors", "ticket", "tickets", "people", "toddler", "toddlers", "babies"];

/** One wrong, missing or extra letter, or two letters swapped ("adluts": same letters, distance 2). */
function nearNoun(word: string): string | undefined {
  if (RIDER_NOUNS.includes(word)) return undefined;
  const letters = (w: string): string => [...w].sort().join("");
  return RIDER_NOUNS.find((noun) => {
    const d = distance(noun, word);
    return d === 1 || (d === 2 && noun.length === word.length && letters(noun) === letters(word));
  });
}

function mendTypos(text: string): string {
  return text.replace(/\b(\d+)(\s+)([a-z]{4,})\b/g, (all, n: string, gap: string, word: string) => {
    const noun = nearNoun(word);
    return noun ? `${n}${gap}${noun}` : all;
  });
}

/** The speaker alone is the whole party ("just me", "by myself"), whatever else the statement counts. */
const ALONE = /\b(?:just|only) (?:me|myself)\b(?!\s*(?:and|plus|with|\+|&|y)\b)|\bby myself\b|\b(?:travell?ing|going|riding) alone\b/u;
const SPEAKER_OWN_AGE = /\b(?:i'?m|i am)\s+(\d{2,3})\b(?!\s*(?:min|am|pm|:|%|blocks?|stops?|miles?|km))/u;

/**
 * Group sizes written without a rider noun, as "N people": "a group of 3", "party of four", "we
 * are 4", "we're traveling in four", "I'll need three.", "tickets for two", "book it for 2", a
 * statement that is only "for 2"; "a dozen" as 12.
 */
function groupsAsPeople(lower: string): string {
  return lower
    .replace(/\b(?:group|party|family) of (\d+)\b(?!\s*(?:people|persons?|adults?))/gu, "$1 people")
    .replace(/\bboth of us\b/gu, "2 people")
    .replace(/\b(?:we are|we're|we will be|we'll be|there are|there will be|there'll be|somos|seremos|(?:we(?:'re| are)? )?travell?ing in)\s+(\d+|dos|tres|cuatro|cinco|seis|siete|ocho)\b(?!\s*(?:people|persons?|of us|adults?|kids?|children|seniors?|min|minutes|hours?|days?|weeks?|stops?|blocks?|years?))/gu, (_all, n: string) => `${num(n) ?? n} people`)
    // "I need four." at a ticket machine: four tickets.
    .replace(/\b(?:i|we)(?:\s+|\s*['’]\s*)(?:need|want|will need|ll need)\s+(\d+)\s*[.!]?\s*$/u, (all, n: string) => all.replace(new RegExp(`${n}(?=\\s*[.!]?\\s*$)`, "u"), `${n} people`))
    // "From Dunwoody for 3.": a count the text ends on is its riders.
    .replace(/\bfor\s+(\d+)\s*[.!]?\s*$/u, (all, n: string) => all.replace(n, `${n} people`))
    // "tickets for two", "the ticket is for 3", "book it for 2", a statement that is only "for 2".
    .replace(/(\b(?:tickets?|seats?|booking|reservation)(?:\s+(?:is|are|will be|would be))?\s+for|\b(?:it|that|one|ones)\s+for|^\s*(?:just\s+|only\s+)?for)\s+(\d+)\b(?!\s*(?:people|persons?|of us|adults?|kids?|children|seniors?|min|minutes|hours?|stops?|am|pm|:|\.\d|dollars|usd|\$))/gu, "$1 $2 people");
}

/** "a dozen" is 12, "half a dozen" 6 (before words-to-numbers, which reads neither). */
const dozens = (lower: string): string => lower.replace(/\bhalf a dozen\b/gu, "6").replace(/\b(?:a|one) dozen\b/gu, "12");

/** Counts the kiosk must not price as they stand: "1.5 adults", "3 or 4 people", "2-3 tickets". */
const UNSURE_COUNT = new RegExp(String.raw`\b\d+\.\d+\s+(?:adults?|children|kids?|seniors?|${HEADS})|\b\d+\s*(?:or|-|\u2013|to)\s*\d+\s+(?:adults?|children|kids?|seniors?|${HEADS})`, "iu");
/** Ages as a range ("4 kids ages 1 – 7"): which of them ride free cannot be told. */
const AGE_RANGE = /\bages?d?\s+\d+\s*(?:-|\u2013|\u2014|to)\s*\d+\b/u;
/** Chinese head counts: a number, then people, passengers or tickets ("三个人", "两位乘客", "4张票"). */
const ZH_HEADS = /([\d一二两兩三四五六七八九十]{1,3})\s*(?:个人|個人|位乘客|位|张票|張票)/gu;
/** A group's size said as a total: "would be three", "that makes 4", "5 in total", "3 of us altogether". */
const STATED_TOTAL = /\b(?:(?:would|will) be|makes?|making)\s+(\d+)\b(?!\s*(?:min|minutes|hours?|am|pm|:|stops?|stations?|dollars|usd))|\b(\d+)\s+(?:of us\s+)?(?:in total|altogether|total)\b/u;
/** An instruction about the fare, not a rider: "charge me as a child", "count us as seniors". */
const FARE_INSTRUCTION = /\b(?:charge|count|treat|bill|price|ring|sell)\s+(?:me|us|him|her|them|my \w+)\s+(?:up\s+)?as\s+(?:an?\s+|\d+\s+)?\w+/giu;
/** "1 adult aged 70", "2 people aged 70 and 72": the ages say who those counted riders are. */
const COUNTED_AGED = /\b(\d+)\s+(?:adults?|people|persons?|passengers?|riders?|travell?ers?)\s+(?:aged?|ages)\s+(\d+(?:\s*(?:,|and|&)\s*\d+)*)/gu;

function readStatement(text: string, childAge: number): RiderReading | undefined {
  // "an elderly couple", "a couple in our seventies", "an old couple, both 80": two seniors, not
  // "an elderly" (one) and a couple.
  const folded = groupsAsPeople(mendTypos(toDigits(dozens(text.toLowerCase()))))
    .replace(/\b(?:an? |1 )?(?:elderly|senior|retired) couple\b/gu, "2 seniors")
    .replace(/\b(?:an? |1 )?(?:old |older )?couple\b(?=[^.;]{0,30}?\b(?:in (?:our|their) (?:seventies|eighties|nineties|[7-9]0s)|both (?:are )?(?:over 6[4-9]|6[5-9]|[7-9]\d|seniors?))\b)/gu, "2 seniors");
  const instructed = folded.search(FARE_INSTRUCTION) >= 0;
  // "a family of five": how many, but not who — children may ride free; asked, with five offered.
  const family = /\bfamily of (?:\d+|[a-z]+)\b/u.test(text.toLowerCase()) && !/\b(?:adults?|kids?|children|child|seniors?)\b/u.test(folded);
  const lower = folded
    .replace(FARE_INSTRUCTION, " ")
    .replace(COUNTED_AGED, (all, n: string, ages: string) => ((ages.match(/\d+/g) ?? []).length === Number(n) ? `aged ${ages}` : all));
  const reading = readPeople(lower, text, childAge);
  // The passenger tells the kiosk how to charge, or gives a count no ticket can have: ask who travels.
  if (instructed || family || UNSURE_COUNT.test(lower) || AGE_RANGE.test(lower)) return { riders: reading?.riders ?? { adults: 1, children: 0, seniors: 0, disabled: 0 }, confidence: 0.5 };
  // "Me, my wife and daughter would be three": a total said besides the people must agree with them.
  const total = STATED_TOTAL.exec(lower);
  if (reading && total && Number(total[1] ?? total[2]) !== KEYS.reduce((n, k) => n + reading.riders[k], 0)) return { ...reading, confidence: Math.min(reading.confidence, 0.5) };
  return reading;
}

function readPeople(lower: string, text: string, childAge: number): RiderReading | undefined {
  if (ALONE.test(lower)) {
    // "I have 2 kids at home, just me today": one rider, of the type the speaker's age says.
    const age = SPEAKER_OWN_AGE.exec(lower)?.[1];
    const riders: RiderCounts = { adults: 0, children: 0, seniors: 0, disabled: 0 };
    riders[age !== undefined ? ageType(Number(age), childAge) : /\bsenior\b/u.test(lower) ? "seniors" : "adults"] = 1;
    return { riders, confidence: 0.8 };
  }
  const party = readParty(lower, (age) => ageType(age, childAge));
  if (party === "unsure") {
    // People named that the counts may leave out: not sure enough to quote from; the kiosk asks.
    const counted = readCounts(lower, text, childAge);
    return counted ? { riders: counted.riders, confidence: Math.min(counted.confidence, 0.5) } : undefined;
  }
  if (party) return { riders: party, confidence: 0.8 };
  return readCounts(lower, text, childAge);
}

/** Riders counted by type, ages and the speaker's own words. */
function readCounts(lower: string, text: string, childAge: number): RiderReading | undefined {
  const t = ` ${lower} `.replace(/[()]/g, " ");
  const r: RiderCounts = { adults: 0, children: 0, seniors: 0, disabled: 0 };
  let said = false;
  let confidence = 0.9;
  // Children past the free age pay the adult fare, but they are no grown-up travelling with the others.
  let minorsAsAdults = 0;
  const count = (re: RegExp): number => {
    let n = 0;
    for (const m of t.matchAll(re)) n += num(m[1]?.replace(/ of$/, "").trim()) ?? 1;
    return n;
  };
  const add = (key: keyof RiderCounts, n: number): void => {
    if (n > 0) {
      r[key] += n;
      said = true;
    }
  };
  add("adults", count(new RegExp(String.raw`\b${COUNT}\s+(?:adult\s+)?${GROWN_UP}(?!\s+(?:cards?))`, "giu")));
  // "2 tickets", "4 people", "3 of us" say how many travel, not that they are all adults; "a seat
  // for one person" says it twice.
  const arabic = readArabicCounts(text);
  const heads = Math.max(
    0,
    arabic?.heads ?? 0,
    // "2 train tickets", "two single tickets": a kind of ticket between the count and the word.
    ...[...t.matchAll(new RegExp(String.raw`\b${COUNT}\s+(?:adult\s+)?(?:(?:train|metro|subway|rail|single|one[- ]way)\s+)?${HEADS}(?!\s+(?:cards?))`, "giu"))].map((m) => num(m[1]?.replace(/ of$/, "").trim()) ?? 1),
    // "我们三个人", "两张票", "三位": how many travel, in Chinese.
    ...[...text.matchAll(ZH_HEADS)].map((m) => hanNumber(m[1] ?? "")),
  );
  if (heads > 0) said = true;
  add("seniors", count(new RegExp(String.raw`\b${COUNT}\s+${SENIOR}`, "giu")));
  add("disabled", count(new RegExp(String.raw`\b${COUNT}\s+${DISABLED}`, "giu")));
  // Children: "kids aged 3 and 4", "three kids", "a toddler", "my 3 year old".
  const aged = /\b(?:(\d+)\s+(?:small |little |young )?)?(?:kids?|children|sons?|daughters?|little ones|twins)?\s*(?:aged|ages|age)\s+([\d ,and&]+)/giu;
  let agesSeen = false;
  for (const m of t.matchAll(aged)) {
    let ages = (m[2] ?? "").match(/\d+/g)?.map(Number) ?? [];
    // "aged 1, 2 and 4, Five Points to …": a last number followed by a word belongs to that phrase;
    // "three kids aged …" names at most three ages.
    const rest = t.slice((m.index ?? 0) + m[0].length);
    if (ages.length > 1 && /^\s*\d*\s*[\p{L}]/u.test(rest) && !/^\s*(?:and|years?|yrs?|y\/?o)\b/u.test(rest) && /,\s*\d+\s*$/.test(m[2] ?? "")) ages = ages.slice(0, -1);
    if (m[1] !== undefined) ages = ages.slice(0, Number(m[1]));
    for (const a of ages) addAge(a);
    agesSeen = ages.length > 0;
    if (/twins/.test(m[0]) && ages.length === 1) addAge(ages[0]!);
  }
  function addAge(age: number): void {
    const type = ageType(age, childAge);
    if (type === "adults" && age < 18) minorsAsAdults++;
    add(type, 1);
  }
  const grownUps = (): number => r.adults - minorsAsAdults + r.seniors + r.disabled;
  if (!agesSeen) {
    add("children", count(new RegExp(String.raw`\b${COUNT}\s+(?:small |little |young )?${CHILD}`, "giu")));
    // "my 3 year old" (not "I'm 71 yrs old": the speaker's age is read below).
    for (const m of t.matchAll(/\b(?<!(?:i'?m|i am)\s+)(\d+)[- ]?(?:year|yr)s?[- ]?old\b/giu)) addAge(Number(m[1]));
    if (/\btwins\b/.test(t) && !/\b\d+\s+twins/.test(t)) add("children", 2);
  }
  // The speaker and companions.
  const senior = /\b(?:i'?m|i am|me|she'?s|he'?s)\s*(?:\(|,)?\s*(6[5-9]|[7-9]\d|1[01]\d)\b|\bboth (?:over|above) 65\b|\b(?:we(?:'re| are)|both) seniors\b|\bsenior (?:fare|ticket)\b|\bi'?m a senior\b/iu;
  const both = /\b(?:my (?:wife|husband|partner) and i|me and my (?:wife|husband|partner)|my (?:husband|wife) and me)\b/iu.test(t);
  if (both) {
    if (/\bboth (?:over|above) 65\b|\bboth seniors\b|\bwe(?:'re| are) (?:both )?seniors\b|both .*seniors/iu.test(t)) add("seniors", 2);
    else if (!said || r.adults === 0) add("adults", 2);
  }
  const ageOfSpeaker = /\b(?:i'?m|i am|me)\s*(?:\(|,)?\s*(\d{2,3})\b(?!\s*(?:min|am|pm|:))/iu.exec(t);
  // "one senior ticket please, I'm 72": the speaker is the senior already counted.
  if (!both && ageOfSpeaker && r[ageType(Number(ageOfSpeaker[1]), childAge)] === 0) addAge(Number(ageOfSpeaker[1]));
  else if (!both && senior.test(t) && r.seniors === 0) add("seniors", 1);
  // "my mum (70)", not "my group of 3 people" (a count, not an age).
  const companionAges = [...t.matchAll(/\bmy (?:\w+ ){0,2}\(?(?:she'?s|he'?s|aged)?\s*(\d{1,3})\)?(?!\s*(?:people|persons?|passengers?|pax|tickets?|seats?|of us|adults?|kids?|children|seniors?)\b)/giu)];
  for (const m of companionAges) if (!/year|yr/.test(m[0])) addAge(Number(m[1]));
  if (/\b(?:i'?m|i am) (?:a )?wheelchair user|\bi(?:'m| am) (?:in a wheelchair|disabled)\b|\bdisabled rider\b|身心障礙|残疾人|残障/iu.test(text) && r.disabled === 0) add("disabled", 1);
  if (/\b(?:my )?(?:friend|brother|sister|dad|mum|mom|mother|father) who is disabled\b/iu.test(t)) add("disabled", 1);
  if (/\b(?:my )?(?:dad|mum|mom|mother|father|grandmother|grandfather|grandma|grandpa) who is a senior\b/iu.test(t)) add("seniors", 1);
  // Chinese and Arabic counts.
  for (const m of text.matchAll(/([一两兩二三四五\d])\s*(?:个|個|位)?\s*(?:大人|成人)/gu)) add("adults", num(m[1]) ?? 1);
  for (const m of text.matchAll(/([一两兩二三四五\d])\s*(?:个|個|位)?\s*(?:小孩|儿童|兒童|孩子)/gu)) add("children", num(m[1]) ?? 1);
  for (const m of text.matchAll(/([一两兩二三四五\d])\s*(?:个|個|位)?\s*(?:老人|老年人|长者|長者)/gu)) add("seniors", num(m[1]) ?? 1);
  for (const m of text.matchAll(/(?:残疾人|身心障礙者)\s*([一两兩二三四五\d])\s*(?:个|個|位)/gu)) r.disabled = Math.max(r.disabled, num(m[1]) ?? 1);
  if (arabic) for (const key of KEYS) add(key, arabic.riders[key]);
  // "me and my son", "me plus 2 kids": the speaker is a rider too.
  const speaker = /\b(?:me and|me \+|me plus|me with|i'?m (?:travell?ing|going) with|mom with|mum with|dad with|with my|and me)\b/iu.test(t) || /\bme\b/.test(t) || /我带|我帶|我和|我跟/u.test(text);
  const total = r.adults + r.children + r.seniors + r.disabled + heads;
  if (said && speaker && !both && grownUps() === 0) add("adults", 1);
  // "me and a disabled friend": the speaker is a rider of their own, an adult unless they say otherwise.
  else if (said && !both && !ageOfSpeaker && r.adults - minorsAsAdults === 0 && /\b(?:me and|and me|me plus|me \+)\s/iu.test(t) && !/\b(?:i'?m|i am)\b/iu.test(t)) add("adults", 1);
  if (!said) {
    if (/\b(?:just me|only me|me alone|by myself|for me|solo|just one|only one|just 1|only 1)\b|只有我|一个人/iu.test(t)) return { riders: { adults: 1, children: 0, seniors: 0, disabled: 0 }, confidence: 0.8 };
    if (/\bme and my (?:son|daughter|friend|brother|sister|nephew|niece|colleague)\b|\bwith my (?:adult|grown[- ]up) (?:son|daughter)\b/iu.test(t)) return { riders: { adults: 2, children: 0, seniors: 0, disabled: 0 }, confidence: 0.6 };
    return undefined;
  }
  if (total === 0) confidence = 0.5;
  // Only children, some of them paying ("with a three year old and a five year old"): the grown-ups
  // with them went unread, so the kiosk asks rather than sell the five-year-old as the adult.
  if (minorsAsAdults > 0 && grownUps() === 0) confidence = Math.min(confidence, 0.5);
  if (heads > 0) {
    if (heads === 2 && BOTH_SENIORS.test(t)) r.seniors = Math.max(r.seniors, 2);
    // The head count holds the typed riders; only the rest are adults ("4 people, 2 kids": 2 + 2).
    r.adults += Math.max(0, heads - r.adults - r.children - r.seniors - r.disabled);
  }
  return { riders: r, confidence };
}
