// Riders named as people, one by one, with their ages told before, after or in brackets: "my mum
// and I, she's 70", "my husband (72) and I", "me and my son (he's 4)", "for my wife, me and our 2
// kids", "mi madre y yo, ella tiene 70", "我和我妈妈，她70岁". Every person gets a type — from an age
// told of them, or from what they are (a wife is an adult, a baby a child) — or the reading gives
// up (undefined) and the caller asks; it never guesses the type of a parent or a son of unknown age.
// Pure; the text is already lower-cased with numbers as digits (riders.ts).
import type { RiderCounts } from "./types.ts";

type Kind = "adult" | "child" | "senior" | "disabled" | "unknown";

/** People a passenger travels with, and what they are when no age is told. */
const RELATIONS: Record<string, Kind> = {};
const relations = (kind: Kind, list: string): void => {
  for (const w of list.split(" ")) RELATIONS[w] = kind;
};
relations("adult", "wife husband partner spouse friend boyfriend girlfriend colleague coworker co-worker workmate mate pal buddy roommate flatmate housemate fiance fiancee fiancé fiancée brother sister esposa esposo marido mujer amigo amiga novio novia compañero compañera colega pareja hermano hermana");
relations("child", "baby toddler infant bebé bebe");
relations("unknown", "girl boy mum mom mother mama mommy mummy dad father papa daddy son daughter grandpa grandma grandfather grandmother granddad granny nana grandson granddaughter nephew niece uncle aunt cousin kid child madre padre mamá papá hijo hija abuelo abuela nieto nieta sobrino sobrina tío tía neighbour neighbor classmate schoolmate teammate vecino vecina");
/** Rider nouns among the relations: the counting reader counts them itself ("two adults and one child"). */
const RIDER_NOUNS = new Set(["kid", "child", "baby", "toddler", "infant", "bebé", "bebe"]);
/** Plural relations that a number counts ("our 2 kids", "my 3 daughters"). */
const PLURALS: Record<string, Kind> = { kids: "child", children: "child", sons: "unknown", daughters: "unknown", grandchildren: "unknown", hijos: "unknown", hijas: "unknown", niños: "child", niñas: "child", babies: "child" };
/** Grown-up companions in the plural, counted with or without a possessive ("me and 2 mates"). */
const COMPANION_PLURALS: Record<string, Kind> = {};
for (const w of "friends mates pals buddies coworkers co-workers colleagues workmates roommates flatmates housemates amigos amigas compañeros compañeras colegas".split(" ")) COMPANION_PLURALS[w] = "adult";
for (const w of "neighbours neighbors classmates schoolmates teammates vecinos vecinas".split(" ")) COMPANION_PLURALS[w] = "unknown";
Object.assign(PLURALS, COMPANION_PLURALS);
/** Relatives in the plural whose number the word says ("my parents", "the twins"). */
const FIXED_PLURALS: Record<string, number> = { parents: 2, grandparents: 2, padres: 2, abuelos: 2, twins: 2, triplets: 3, quadruplets: 4, gemelos: 2, gemelas: 2, mellizos: 2, mellizas: 2, trillizos: 3, trillizas: 3 };
/** Plurals that "twin" makes two ("my twin boys"). */
const TWIN_PLURALS = new Set(["boys", "girls", "brothers", "sisters", "babies", "sons", "daughters"]);
/** Multiple births: named with or without a possessive ("twins aged 4", "the triplets"). */
const MULTIPLES = String.raw`(?:twins|triplets|quadruplets|gemel[oa]s|melliz[oa]s|trilliz[oa]s|twin\s+(?:boys|girls|brothers|sisters|babies|sons|daughters))`;
/** What an adjective before a relative says of them ("my disabled brother", "my adult son"). */
const ADJECTIVE_KIND: [RegExp, Kind][] = [
  [/\b(?:disabled|blind|deaf|wheelchair[- ]using|discapacitad[oa]s?)\b/u, "disabled"],
  [/\b(?:elderly)\b/u, "senior"],
  [/\b(?:adult|grown[- ]?up|grown|teenage|teen)\b/u, "adult"],
];
/** Said of a person after they are named: "he's disabled", "in a wheelchair", "who is grown up". */
const TOLD_KIND: [RegExp, Kind][] = [
  [/^[\s,;—–-]*(?:(?:who|he|she)(?:'s| is| has)?\s+)?(?:uses?\s+)?(?:disabled|in (?:a|1) wheelchair|(?:a|1) wheelchair(?: user)?|with (?:a|1) disability|blind)\b/u, "disabled"],
  [/^[\s,;—–-]*(?:who|he|she)?(?:'s| is)\s+(?:an? |1 )?(?:grown[- ]?up|adult|teenager)\b/u, "adult"],
];

const ZH_RELATIONS: Record<string, Kind> = {
  妈妈: "unknown", 媽媽: "unknown", 爸爸: "unknown", 爷爷: "unknown", 爺爺: "unknown", 奶奶: "unknown", 外婆: "unknown", 外公: "unknown",
  姥姥: "unknown", 姥爷: "unknown", 儿子: "unknown", 兒子: "unknown", 女儿: "unknown", 女兒: "unknown", 孩子: "unknown",
  丈夫: "adult", 老公: "adult", 妻子: "adult", 老婆: "adult", 太太: "adult", 朋友: "adult", 宝宝: "child", 寶寶: "child",
};

interface Person {
  kind: Kind;
  age?: number;
  /** A group ("our 2 kids", "the twins", "my kids" with their ages): how many, when the text says. */
  group?: number;
  /** A plural whose number only the ages told after it say ("my kids (2 and 4)"). */
  openGroup?: boolean;
  /** Ages told of a group's members, in order. */
  ages?: number[];
  /** Named by a rider noun the counting reader counts too ("a toddler", "1 child"). */
  riderNoun?: boolean;
  /** Where the person is named, and where the next one starts (ages told in between are theirs). */
  at: number;
  end: number;
}

// "a friend" reaches here as "1 friend" (riders.ts turns number words into digits).
const POSSESSIVE = String.raw`(?:my|our|his|her|their|mi|mis|sus?|nuestr[oa]s?|a|an|the|1(?=\s+\p{L}))`;
const ADJECTIVE = String.raw`(?:little|small|baby|young|younger|older|elderly|old|adult|grown[- ]?up|grown|teenage|teen|disabled|blind|deaf|wheelchair[- ]using|twin)`;
const COMPANION = new RegExp(String.raw`\b${POSSESSIVE}\s+(?:(\d{1,2})[- ]?(?:years?|yrs?|yo)[- ]?old\b\s*|(\d{1,2}|dos|tres|cuatro|cinco)\s+)?((?:${ADJECTIVE}\s+){0,2})(\p{L}+)?`, "gu");
/** Several ages told of a group after it: "(1 and 3)", "aged 2, 3 and 4", "are 2 and 4", "de 1 y 3 años". */
const TOLD_AGES = /^[\s,;—–-]*(?:\(\s*|(?:(?:who|they)\s+)?(?:aged?|ages|are)\s+|de\s+)(\d{1,2}(?:\s*(?:,|and|&|y)\s*\d{1,2})+)\b/u;
/** One age told of every member of a group: "(4)", "they're 5", "both 3". */
const TOLD_GROUP_AGE = /^[\s,;—–-]*(?:\(\s*(\d{1,2})\s*\)|(?:they(?:'re| are)|(?:are )?both(?: are| aged)?|(?:are )?all(?: aged)?|are|each|aged?|of)\s+(\d{1,2})\b(?!\s*(?:min|am|pm|:|%|stops?|stations?)))/u;
/** The speaker as a traveller: "me and", "and I", "plus me", "yo y", "我和" (not "Yeah, I visit a friend"). */
const SPEAKER = /\bvoy con\b|\byo con\b|\b(?:i'?m|i am) (?:(?:travell?ing|going|riding|coming) )?with\b|\b(?:travell?ing|going|riding|coming|leaving|departing|heading|here) with (?:my|our|a|an|\d+|some)\b|^\s*with (?:my|our)\b|\bone for me\b|\b(?:me|i|myself)\s*(?:,|and|plus|\+|&|with|y)\s|\b(?:and|plus|with|y|\+)\s*(?:me|i|myself|yo)\b|,\s*(?:me|myself|yo)\b|,\s*i\s+(?:and|&|\+|y)\s|\byo y\b|我和|和我|我跟|跟我|我带|我帶/u;
/** An age told after a person (the number is the first group that matched). */
const TOLD_AGE =
  /^[\s,;，、—–-]*(?:(?:and|y|plus|\+|&|with)\s+(?:i|me|myself|yo)\b[\s,;，、—–-]*)?(?:\(\s*(?:(?:he|she)(?:'s| is)\s+|aged?\s+)?(\d{1,3})\s*\)|(?:who(?:'s| is)|(?:he|she)(?:'s| is)|is|aged?)\s+(\d{1,3})\b(?!\s*(?:min|am|pm|:|%))|(?:(?:ella|él|el)\s+)?tiene\s+(\d{1,3})\b|de\s+(\d{1,3})\s+años|[他她]\s*(\d{1,3}|[一二三四五六七八九十]{1,3})\s*[岁歲])/u;
const SPEAKER_AGE = /\b(?:i'?m|i am)\s+(\d{2,3})\b(?!\s*(?:min|am|pm|:|%|st|nd|rd|th|blocks?|stops?|meters?|metres?|miles?|km))|\btengo\s+(\d{2,3})\s+años|我\s*(\d{2,3})\s*[岁歲]/u;
const BOTH_SENIORS = /\bin (?:our|their) (?:seventies|eighties|nineties|70s|80s|90s)\b|\bboth\s+(?:are\s+)?(?:seniors?|senior citizens|over\s+6[4-9]|6[5-9]\+?|[7-9]\d)\b|\(both\s+(?:6[5-9]|[7-9]\d)\)|\b(?:los dos|las dos|ambos|ambas)\b[^.;]{0,24}?\b(?:mayores|jubilad[oa]s|6[5-9]|[7-9]\d)\b/u;
/** Rider counts that are not about a named person: the counting reader handles those texts. */
const BARE_COUNT = /\b\d+\s+(?:adults?|seniors?|children|kids?|people|persons|passengers|tickets?|of us|adultos?|niños?|personas?)\b|\bfamily of\b|[一两兩二三四五六七八九十\d]\s*[个個位]?\s*(?:大人|成人|小孩|儿童|兒童|老人)/u;

const HAN_DIGITS = "一二三四五六七八九";

/** Whether a group is twins, triplets…: children or grown-ups alike, but not adults the text leaves out. */
function isMultiple(t: string, p: Person): boolean {
  return MULTIPLE_BIRTH.test(t.slice(p.at, p.end));
}
const MULTIPLE_BIRTH = new RegExp(String.raw`\b${MULTIPLES}\b`, "u");

/** "八十" → 80, "七十二" → 72, "五" → 5, "两" → 2, "12" → 12 (ages and counts, so up to 99). */
export function hanNumber(han: string): number {
  if (/^\d+$/.test(han)) return Number(han);
  const digit = (c: string | undefined): number => (c === undefined ? 0 : c === "两" || c === "兩" ? 2 : HAN_DIGITS.indexOf(c) + 1);
  const ten = han.indexOf("十");
  if (ten < 0) return digit(han[0]);
  return (ten === 0 ? 1 : digit(han[ten - 1])) * 10 + digit(han[ten + 1]);
}

/**
 * The party a text names person by person, or undefined when it does not name companions, names
 * one whose type is unknown (no age told), or also counts riders another way. "unsure": it names
 * grown-ups or people one by one ("a mom, a dad and twins of 3", "us two parents") without saying
 * the speaker travels — whatever else counts riders in it cannot be trusted to be the whole party.
 */
/** The people a text names, in the order named (their ages not yet read). */
function namedPeople(t: string): Person[] {
  const people: Person[] = [];
  for (const m of t.matchAll(COMPANION)) {
    const word = m[4] ?? "";
    const at = m.index ?? 0;
    const end = at + m[0].length;
    const n = m[2] !== undefined ? (/^\d+$/.test(m[2]) ? Number(m[2]) : ["", "", "dos", "tres", "cuatro", "cinco"].indexOf(m[2])) : undefined;
    const adjectives = m[3] ?? "";
    const said = ADJECTIVE_KIND.find(([re]) => re.test(adjectives))?.[1];
    // "my two little ones": small children.
    const plural = word === "ones" && /\blittle\b/.test(adjectives) ? "child" : PLURALS[word];
    // "my twin boys", "our twin daughters": two.
    if (/\btwin\b/.test(adjectives) && TWIN_PLURALS.has(word)) {
      people.push({ kind: said ?? PLURALS[word] ?? "unknown", group: 2, at, end });
      continue;
    }
    if (plural !== undefined) {
      // "our 2 kids": a counted group; "my kids (2 and 4)": as many as the ages told after it.
      people.push({ kind: said ?? plural, ...(n !== undefined ? { group: n } : { openGroup: true }), at, end });
      continue;
    }
    const fixed = FIXED_PLURALS[word];
    if (fixed !== undefined) {
      people.push({ kind: said ?? "unknown", group: fixed, at, end });
      continue;
    }
    // "my 3 year old": a person of that age, whoever they are.
    if (m[1] !== undefined) {
      people.push({ kind: RELATIONS[word] ?? "unknown", age: Number(m[1]), at, end });
      continue;
    }
    const kind = RELATIONS[word];
    if (kind !== undefined) people.push({ kind: said ?? kind, at, end, ...(RIDER_NOUNS.has(word) ? { riderNoun: true } : {}) });
  }
  // "twin girls (3)", "twins aged 4", "triplets": multiple births need no possessive.
  for (const m of t.matchAll(new RegExp(String.raw`(?<!\b(?:my|our|his|her|their|the|a)\s+)\b${MULTIPLES}\b`, "gu"))) {
    const word = m[0].split(/\s+/)[0] ?? "";
    people.push({ kind: "unknown", group: FIXED_PLURALS[word] ?? 2, at: m.index ?? 0, end: (m.index ?? 0) + m[0].length });
  }
  // "me and 2 mates", "us two parents": a counted group without a possessive.
  for (const m of t.matchAll(/(?<!\b(?:my|our|his|her|their|the|a|mi|mis|sus?)\s+)\b(\d{1,2})\s+(?:(?:other|more|good|old|close)\s+)?(\p{L}+(?:-\p{L}+)?)/gu)) {
    const word = m[2] ?? "";
    const kind = COMPANION_PLURALS[word] ?? (word === "parents" || word === "grandparents" ? "unknown" : undefined);
    if (kind !== undefined) people.push({ kind, group: Number(m[1]), at: m.index ?? 0, end: (m.index ?? 0) + m[0].length });
  }
  // "my wife and daughter", "my wife and kids": one determiner for both; "grandma (she is 70) and me": a relative opening the text.
  for (const m of t.matchAll(/(^|\b(?:and|&|plus)\s+|,\s*)(\p{L}+)\b/gu)) {
    const word = m[2] ?? "";
    const plural = PLURALS[word];
    const kind = RELATIONS[word] ?? plural;
    const at = (m.index ?? 0) + (m[1] ?? "").length;
    if (kind === undefined || RIDER_NOUNS.has(word) || people.some((p) => at >= p.at && at < p.end)) continue;
    const opening = m.index === 0 && (m[1] ?? "") === "";
    const afterPerson = people.some((p) => p.end <= at && at - p.end <= (m[1] ?? "").length + 1);
    if (opening || afterPerson) people.push({ kind, at, end: at + word.length, ...(plural !== undefined ? { openGroup: true } : {}) });
  }
  for (const [word, kind] of Object.entries(ZH_RELATIONS)) {
    for (let at = t.indexOf(word); at >= 0; at = t.indexOf(word, at + word.length)) {
      // "三个孩子": a counted group is the counting reader's, not one relative.
      if (/[\d一二两兩三四五六七八九十]\s*[个個位名]?$/u.test(t.slice(0, at))) continue;
      people.push({ kind, at, end: at + word.length });
    }
  }
  return people.sort((a, b) => a.at - b.at);
}

/** The speaker says they travel ("me and", "and I", "I'm 70", "for me"). */
function speakerTravels(t: string): boolean {
  return SPEAKER_AGE.test(t) || SPEAKER.test(t) || /\bfor (?:me|myself)\b/u.test(t);
}

/** Companions the words do not count ("with some friends", "with family", "and a few colleagues"). */
const UNCOUNTED_COMPANIONS = /\b(?:with|and|plus|bringing|taking)\s+(?:(?:some|a few|few|several|a couple of|a bunch of|a group of|other|my|our|the)\s+(?:whole\s+)?)?(?:friends|mates|pals|buddies|colleagues|co-?workers|family|relatives|guests|folks|kids|children|classmates)\b/u;
/** "We'll be coming from MacArthur": the speaker travels with others, how many the words do not say. */
const WE = /\b(?:we|we'll|we're|we'd|we've|us two|all of us)\b/u;

/**
 * The text names people the speaker travels with ("me and my mum", "my twin brother and me"),
 * whether or not their types can be read: the kiosk asks who travels rather than sell one adult.
 */
export function namesTravellers(t: string): boolean {
  if (UNCOUNTED_COMPANIONS.test(t) || WE.test(t)) return true;
  const people = namedPeople(t);
  // Without the speaker: a family named around twins or triplets ("twin girls (3) and their mom"),
  // not a relative mentioned in passing ("my son works near Embarcadero").
  return speakerTravels(t) ? people.some((p) => !p.riderNoun) : people.length >= 2 && people.some((p) => isMultiple(t, p));
}

export function readParty(t: string, ageType: (age: number) => keyof RiderCounts): RiderCounts | "unsure" | undefined {
  const people = namedPeople(t);
  if (people.length === 0) return undefined;
  // The stretch of text after each person, up to the next one, says their age.
  people.forEach((p, i) => {
    const next = people[i + 1]?.at ?? t.length;
    const after = t.slice(p.end, next);
    if (p.group !== undefined || p.openGroup) {
      const list = TOLD_AGES.exec(after)?.[1]?.split(/\s*(?:,|and|&|y)\s*/).map(Number);
      const one = TOLD_GROUP_AGE.exec(after)?.slice(1).find((g) => g !== undefined);
      if (list) p.ages = list;
      else if (one !== undefined && p.group !== undefined) p.ages = Array.from({ length: p.group }, () => Number(one));
      return;
    }
    const kind = TOLD_KIND.find(([re]) => re.test(after))?.[1];
    if (kind !== undefined) p.kind = kind;
    const told = TOLD_AGE.exec(after);
    const age = told?.slice(1).find((g) => g !== undefined);
    if (p.age === undefined && age !== undefined) p.age = /^\d+$/.test(age) ? Number(age) : hanNumber(age);
  });
  const speakerAge = SPEAKER_AGE.exec(t)?.slice(1).find((g) => g !== undefined);
  const speaker = speakerTravels(t);
  // "I pick up my kids at 3": relatives named are riders only where the speaker travels with them.
  if (!speaker) return people.some((p) => (p.group === undefined && !p.openGroup && !p.riderNoun) || (p.group !== undefined && p.kind !== "child" && !isMultiple(t, p))) ? "unsure" : undefined;
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
  const KIND_KEY: Record<Exclude<Kind, "unknown">, keyof RiderCounts> = { adult: "adults", child: "children", senior: "seniors", disabled: "disabled" };
  for (const p of people) {
    if (p.group !== undefined || p.openGroup) {
      // Ages told of the group say each member's type; else the group's own kind ("our 2 kids").
      if (p.ages && (p.group === undefined || p.ages.length === p.group)) {
        for (const age of p.ages) r[p.kind === "disabled" ? "disabled" : ageType(age)]++;
      } else if (p.group !== undefined && p.kind !== "unknown") r[KIND_KEY[p.kind]] += p.group;
      else return undefined;
    } else if (p.kind === "disabled") r.disabled++;
    else if (p.age !== undefined) {
      // An age that contradicts what was said ("my adult son, he's 4") is not read.
      const type = ageType(p.age);
      if ((p.kind === "adult" && type === "children") || (p.kind === "senior" && type !== "seniors")) return "unsure";
      r[type]++;
    } else if (p.kind === "unknown") {
      // A companion the speaker travels with whose type nothing says ("for me and my son"): unsure,
      // so the kiosk asks; a count said beside it ("for me") must not quote the party without them.
      return "unsure";
    }
    else r[KIND_KEY[p.kind]]++;
  }
  return r;
}
