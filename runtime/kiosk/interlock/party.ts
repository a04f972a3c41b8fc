// The interlock's reading of people named one by one, with an age told afterwards or in brackets:
// "my mum and I, she's 70", "my husband (72) and I", "me and my son (he's 4)", "我和我妈妈，她70岁",
// "mi madre y yo, ella tiene 70". Lower bounds only — how many people at least, and at least how
// many of a type by the ages told — so a quote that sells fewer riders, or an older rider as an
// adult, is blocked. It also reads relatives in the plural ("my parents", "the twins", "mis padres",
// "my 2 little ones"), what is said of a companion ("my disabled brother", "my friend in a
// wheelchair", "my adult son", "my elderly mother") and ages listed after a group ("aged 2, 3 and
// 4", "(1 and 3)", "de 2 y 4 años", "they're 5"). When the text names everyone who travels one by
// one and nothing else ("me and a friend", "my parents and I"), the head count is exact, so a quote
// with one rider too many blocks as well. It never makes a quote pass. Its own code: no policy or
// language-layer import.
import { chineseNumber, normalize, numberWord, words } from "./text.ts";

/** People the speaker travels with, as passengers name them (after normalize()). */
export const RELATIONS = new Set(
  (
    "wife husband partner mum mom mother mama mommy dad father papa daddy son daughter grandpa grandma grandfather grandmother granddad granny grandson granddaughter " +
    "nephew niece brother sister friend boyfriend girlfriend colleague uncle aunt cousin baby toddler kid child infant " +
    // Companions who are not relatives.
    "mate pal buddy coworker workmate roommate flatmate housemate fiance fiancee spouse classmate schoolmate teammate neighbour neighbor companion carer caregiver " +
    "madre padre mama papa esposa esposo marido mujer hijo hija abuelo abuela nieto nieta sobrino sobrina hermano hermana amigo amiga bebe " +
    "companero companera colega vecino vecina novio novia pareja"
  ).split(" "),
);
/** Relations that are children whatever the fare table's age limit. */
const ALWAYS_CHILD = new Set(["baby", "toddler", "infant", "bebe"]);
/** Relations that are never a child's ticket, whatever the age limit: spouses, parents, grandparents. */
const NEVER_CHILD = new Set(
  (
    "wife husband spouse fiance fiancee boyfriend girlfriend mum mom mother mommy dad father daddy grandpa grandma grandfather grandmother granddad granny " +
    "colleague coworker workmate parents grandparents madre padre esposa esposo marido abuelo abuela padres abuelos novio novia colega"
  ).split(" "),
);
const POSSESSIVE = new Set(["my", "our", "their", "his", "her", "both", "mi", "mis", "nuestro", "nuestra", "nuestros", "nuestras", "sus"]);
const ARTICLES = new Set(["a", "an", "un", "una"]);
/** The speaker named as one of the travellers ("me and", "and I", "plus me", "yo y"). */
const SPEAKER =
  /\b(?:me|i|myself) (?:and|plus|with|y)\b|\b(?:and|plus|with|y|\+) (?:me|i|myself|yo)\b|\byo (?:y|con)\b|\bme \+|\b(?:one )?for me and\b|\b(?:im|i am) (?:(?:travell?ing|going|riding|coming) )?with\b|\bvoy con\b/;
/** A list that starts with the speaker, in the raw text: "…, me, my wife and our son", "me my wife and I". */
const SPEAKER_LISTED = /(?:^|[,;:.!?]\s*)me,?\s+(?:my|our)\s/iu;
const ZH_RELATIONS = /(妈妈|媽媽|爸爸|爷爷|爺爺|奶奶|外婆|外公|姥姥|姥爷|姥爺|儿子|兒子|女儿|女兒|丈夫|老公|妻子|老婆|孩子|朋友)/gu;
const ZH_AGE = /[他她]\s*([0-9一二两兩三四五六七八九十]{1,3})\s*[岁歲]/gu;

export type AgeClass = "senior" | "adult" | "child" | "unknown";

export interface PartyReading {
  /** At least this many people travel (the speaker and each companion named). */
  people: number;
  /** The text names everyone who travels one by one and nothing else counts riders: `people` is exact. */
  complete: boolean;
  /** Ages told of someone ("she's 70", "(72)", "de 4 años", each of "aged 2, 3 and 4"), in the order told. */
  ages: number[];
  /** "both seniors", "both over 65", "(both 70)", "an elderly couple": two riders of 65 or over. */
  bothSenior: boolean;
  /** Companions that are children at any age limit ("our baby"). */
  babies: number;
  /** Companions said to be disabled ("my disabled brother", "my friend in a wheelchair"). */
  disabled: number;
  /** Companions said to be grown up ("my adult son", "my teenage daughter"): never a child's fare. */
  grownUp: number;
  /** Companions said to be elderly ("my elderly mother"). */
  elderly: number;
  /** The speaker is one of the travellers ("me and my son", "my wife and I"). */
  speakerTravels: boolean;
  /** Companions who are never a child's ticket: spouses, parents, grandparents, colleagues. */
  neverChildren: number;
  /**
   * Where (word index) an age told of a whole group stands ("twins aged 2", "the triplets are 4"):
   * read here once per member, so riders.ts's word loop must not read it again as one person's.
   */
  groupAgeWords: number[];
  evidence: string[];
}

const AGE_WORD = String.raw`(\d{1,3}|[a-z]+(?: [a-z]+)?)`;
/**
 * Ages told after a person in the forms riders.ts's word loop does not read ("he is 68", "aged 5"
 * and "4 years old" are read there): "shes 70", "who is 4", "whos 5", "ella tiene 70"; and of a
 * group, each of its members: "theyre 5", "they are 5", "both are 4".
 */
const TOLD_AGE = new RegExp(String.raw`\b(?:who is|hes|shes|whos|(?:(?:ella|el) )?tiene|(theyre|they are|both are)) ${AGE_WORD}\b(?! (?:years?|yrs?|yo|anos)\b)`, "g");
/** Bare ages in brackets, straight after a person: "(72)", "(both 70)"; a group's "(4)" is each member's. */
const BRACKET_AGE = /(twins?(?: \w+)?|triplets|parents|ones|kids|children|\S+)?\s*\(\s*(both\s+)?(\d{1,3})\s*\)/gu;
/** Several ages at once: "(1 and 3)", "aged 2, 3 and 4", "ages 2 and 3", "are 2 and 4", "de 1 y 3 años". */
const AGE_LIST = /\b(?:aged?|ages|are|de)?\s*((?:\d{1,2}\s*(?:,|and|&|y)\s*)+\d{1,2})\b(\s*(?:years?|yrs?|anos|años)\b)?/giu;
/** Words that make "a ..." or "no ..." not an age ("she is a senior"). */
const NOT_AGES = new Set(["a", "an", "no", "none", "single", "couple", "pair"]);

/** Relatives named in the plural whose number the word itself says (determiner needed where marked). */
const FIXED_PLURALS: Record<string, { size: number; needsDeterminer: boolean }> = {
  parents: { size: 2, needsDeterminer: true },
  grandparents: { size: 2, needsDeterminer: true },
  padres: { size: 2, needsDeterminer: true },
  abuelos: { size: 2, needsDeterminer: true },
  twins: { size: 2, needsDeterminer: false },
  gemelos: { size: 2, needsDeterminer: false },
  gemelas: { size: 2, needsDeterminer: false },
  mellizos: { size: 2, needsDeterminer: false },
  mellizas: { size: 2, needsDeterminer: false },
  triplets: { size: 3, needsDeterminer: false },
  trillizos: { size: 3, needsDeterminer: false },
  trillizas: { size: 3, needsDeterminer: false },
  quadruplets: { size: 4, needsDeterminer: false },
};
/** "twin boys", "twin girls": two people. */
const TWIN_NOUNS = new Set(["boys", "girls", "brothers", "sisters", "sons", "daughters", "babies"]);
/** Relatives in the plural: how many the text's number says ("my 2 little ones"), else at least two. */
const PLURAL_RELATIONS = new Set(
  (
    "sons daughters kids children ones boys girls friends brothers sisters grandchildren grandsons granddaughters nephews nieces cousins babies toddlers " +
    "mates pals buddies coworkers workmates roommates flatmates housemates colleagues classmates schoolmates teammates neighbours neighbors companions " +
    "hijos hijas ninos ninas nietos nietas amigos amigas hermanos hermanas companeros companeras colegas vecinos vecinas"
  ).split(" "),
);
/** Words between a number and a plural relative ("my two little ones", "mis dos hijos pequenos"). */
const GROUP_FILLERS = new Set(["little", "small", "young", "older", "younger", "grown", "adult", "teenage", "pequenos", "pequenas"]);
/** Said of a companion, before the relative ("my disabled brother") or in what follows it. */
const DISABLED_BEFORE = new Set(["disabled", "blind", "deaf", "handicapped", "wheelchair", "discapacitado", "discapacitada"]);
const DISABLED_AFTER = /^(?:\w+ ){0,3}?(?:disabled|in a wheelchair|uses? a wheelchair|wheelchair user|with a disability|is blind|discapacitad[oa]|en silla de ruedas)\b/;
const GROWN_BEFORE = new Set(["adult", "grown", "grownup", "teenage", "teen", "teenaged", "adulto", "adulta"]);
const GROWN_AFTER = /^(?:\w+ ){0,2}?(?:is|hes|shes|who is|whos) (?:a |an )?(?:grown up|grownup|adult|teenager|teen)\b/;
const ELDERLY_BEFORE = new Set(["elderly", "aged", "anciano", "anciana"]);
/** Every word that may describe a companion right before it ("my grown up son"). */
const DESCRIBING = new Set([...DISABLED_BEFORE, ...GROWN_BEFORE, ...ELDERLY_BEFORE, ...GROUP_FILLERS, "up"]);
/**
 * Words that tell one age of every member of a group right after it: "twins aged 2", "twins of 3",
 * "twins, age 1", "our twins, both 2", "the triplets are 4", "my kids, all aged 3". ("they're 5" and
 * "both are 4" are TOLD_AGE's, brackets BRACKET_AGE's.)
 */
const GROUP_AGE_LEADS: readonly (readonly string[])[] = [
  ["aged"], ["age"], ["of"], ["both"], ["both", "aged"], ["all"], ["all", "aged"], ["each"], ["are"], ["are", "both"], ["are", "all"], ["who", "are"], ["de"],
];

/** The age told of the group that ends at word `end` and where it stands, if one is. */
function groupAgeAfter(w: readonly string[], end: number): { age: number; at: number } | undefined {
  for (const lead of GROUP_AGE_LEADS) {
    if (!lead.every((x, k) => w[end + 1 + k] === x)) continue;
    const at = end + 1 + lead.length;
    const token = w[at] ?? "";
    // "aged 2 and 4" is a list (AGE_LIST), "of us" no age.
    if (inNumberList(w, at) || NOT_AGES.has(token)) return undefined;
    const age = ageNumber(token);
    // "twins of 3" is an age; "of 3 stations" is not.
    const unit = w[at + 1];
    if (age === undefined || age >= 120 || (unit !== undefined && NOT_AGE_UNITS.has(unit))) return undefined;
    return { age, at };
  }
  return undefined;
}
/** Words after a number that make it not an age. */
const NOT_AGE_UNITS = new Set("min mins minute minutes hour hours hr hrs am pm oclock stops stations blocks miles km tickets people adults children kids seniors".split(" "));

/** "an elderly couple", "a couple in our seventies", "we're in our 70s": two riders of 65 or over. */
const ELDERLY_COUPLE = /\b(?:an )?elderly couple\b|\b(?:a )?(?:senior|retired) couple\b|\bin (?:our|their) (?:seventies|eighties|nineties|70s|80s|90s)\b/;

/** "seventy two" → 72, "three" → 3, "70" → 70; undefined when it is not a number. */
export function ageNumber(phrase: string): number | undefined {
  const [a, b] = phrase.split(" ");
  if (NOT_AGES.has(a ?? "")) return undefined;
  const first = numberWord(a ?? "");
  if (first === undefined) return undefined;
  const unit = b === undefined ? undefined : numberWord(b);
  return first >= 20 && first % 10 === 0 && unit !== undefined && unit > 0 && unit < 10 ? first + unit : first;
}

/**
 * Whether the number at w[i] is one of a list of numbers ("2 and 4", "1 y 3"): such lists are
 * ages read here (AGE_LIST), so riders.ts's word loop must not read one of them a second time.
 */
export function inNumberList(w: readonly string[], i: number): boolean {
  const isNum = (j: number): boolean => /^\d{1,2}$/.test(w[j] ?? "");
  const joins = new Set(["and", "y", "&"]);
  return isNum(i) && (isNum(i + 1) || isNum(i - 1) || (joins.has(w[i + 1] ?? "") && isNum(i + 2)) || (joins.has(w[i - 1] ?? "") && isNum(i - 2)));
}

interface Mention {
  start: number;
  end: number;
  /** How many people; `known` false: "my kids" (at least two). */
  size: number;
  known: boolean;
  word: string;
}

/** Companions the speaker names: relatives and friends with a determiner, plural relatives, "my 3 year old". */
function mentions(w: readonly string[], norm: string, text: string): Mention[] {
  const out: Mention[] = [];
  const determinerBefore = (i: number): boolean => w.slice(Math.max(0, i - 4), i).some((x) => POSSESSIVE.has(x) || ARTICLES.has(x) || x === "the");
  // "my kids" are riders only where the text says they travel ("me and my kids", "for my kids"),
  // not in "I pick up my kids at 3".
  const speakerTravels = SPEAKER.test(norm) || SPEAKER_LISTED.test(text);
  const travelsWith = (i: number): boolean => speakerTravels || w.slice(Math.max(0, i - 4), i).some((x) => ["for", "with", "and", "plus", "con", "y", "para"].includes(x));
  for (let i = 0; i < w.length; i++) {
    const t = w[i]!;
    const fixed = FIXED_PLURALS[t];
    // "my parents and I", "the twins (4) and me" — not "I'm meeting my parents at Powell St".
    if (fixed && (!fixed.needsDeterminer || (determinerBefore(i) && travelsWith(i)))) {
      out.push({ start: i, end: i, size: fixed.size, known: true, word: t });
      continue;
    }
    if (t === "twin" && TWIN_NOUNS.has(w[i + 1] ?? "")) {
      out.push({ start: i, end: i + 1, size: 2, known: true, word: `twin ${w[i + 1]!}` });
      i++;
      continue;
    }
    if (PLURAL_RELATIONS.has(t) && (t !== "ones" || w[i - 1] === "little")) {
      // "my two little ones", "mis dos hijos": the number before (fillers between) says how many.
      let j = i - 1;
      while (j >= 0 && GROUP_FILLERS.has(w[j]!) && i - j <= 3) j--;
      const n = numberWord(w[j] ?? "");
      if (n !== undefined && n >= 1 && n < 20 && !["a", "an", "un", "una", "no", "none"].includes(w[j]!)) {
        out.push({ start: j, end: i, size: n, known: true, word: `${w[j]!} ${t}` });
      } else if (determinerBefore(i) && travelsWith(i)) {
        out.push({ start: i, end: i, size: 2, known: false, word: t });
      }
      continue;
    }
    // "my 3 year old", "our 2 yr old".
    if (numberWord(t) !== undefined && ["year", "yr"].includes(w[i + 1] ?? "") && w[i + 2] === "old" && POSSESSIVE.has(w[i - 1] ?? "")) {
      // "our 8 year old son" is one person: the relative named after the age is the same child.
      const relative = RELATIONS.has(w[i + 3] ?? "") || ["boy", "girl"].includes(w[i + 3] ?? "");
      const end = relative ? i + 3 : i + 2;
      out.push({ start: i, end, size: 1, known: true, word: w.slice(i, end + 1).join(" ") });
      i = end;
      continue;
    }
    if (RELATIONS.has(t) && determinerBefore(i)) out.push({ start: i, end: i, size: 1, known: true, word: t });
  }
  return out;
}

export function readParty(text: string): PartyReading {
  const norm = normalize(text);
  const w = words(norm);
  const evidence: string[] = [];
  const named = mentions(w, norm, text);
  let companions = 0;
  let babies = 0;
  let disabled = 0;
  let grownUp = 0;
  let elderly = 0;
  let neverChildren = 0;
  named.forEach((m, k) => {
    companions += m.size;
    evidence.push(m.word);
    if (ALWAYS_CHILD.has(m.word)) babies += m.size;
    if (NEVER_CHILD.has(m.word)) neverChildren += m.size;
    // The adjectives said of this companion: those right before it ("my disabled brother") and
    // between its number and noun ("my two grown sons") — not any word near it ("one adult with two kids").
    const before = w.slice(m.start + 1, m.end);
    for (let j = m.start - 1; j >= 0 && DESCRIBING.has(w[j]!) && m.start - j <= 3; j--) before.push(w[j]!);
    // What follows the companion up to the next one named.
    const after = w.slice(m.end + 1, named[k + 1]?.start ?? w.length).join(" ");
    const n = m.known ? m.size : 1;
    const isDisabled = before.some((x) => DISABLED_BEFORE.has(x)) || DISABLED_AFTER.test(after);
    const isElderly = before.some((x) => ELDERLY_BEFORE.has(x));
    if (isDisabled) disabled += n;
    if (isElderly) elderly += n;
    // Grown up says "not a child"; an adult's fare only where nothing else is said of them.
    else if (!isDisabled && (before.some((x) => GROWN_BEFORE.has(x)) || GROWN_AFTER.test(after))) grownUp += n;
  });
  for (const m of text.matchAll(ZH_RELATIONS)) {
    companions++;
    evidence.push(m[0]);
  }
  const speaker = SPEAKER.test(norm) || SPEAKER_LISTED.test(text) || /^(?:me|i) /.test(norm) || /我和|和我|我跟|跟我|我带|我帶/u.test(text);
  // The size of the group a "they're 5" or "(4)" is said of: the last plural companion named before it.
  const groupBefore = (wordIndex: number): number => {
    const last = [...named].reverse().find((m) => m.end < wordIndex);
    return last && last.size > 1 && last.known ? last.size : 1;
  };
  const ages: number[] = [];
  const groupAgeWords: number[] = [];
  for (const m of named) {
    if (!m.known || m.size < 2) continue;
    const told = groupAgeAfter(w, m.end);
    if (!told) continue;
    for (let i = 0; i < m.size; i++) ages.push(told.age);
    groupAgeWords.push(told.at);
    evidence.push(`${m.word} ${w.slice(m.end + 1, told.at + 1).join(" ")}`);
  }
  const lists = [...text.matchAll(AGE_LIST)].filter((m) => m[0].trim() !== (m[1] ?? "").trim() || /\(\s*$/.test(text.slice(0, m.index)));
  for (const m of lists) {
    for (const n of (m[1] ?? "").split(/\s*(?:,|and|&|y)\s*/)) ages.push(Number(n));
    evidence.push(m[0].trim());
  }
  for (const m of norm.matchAll(TOLD_AGE)) {
    const n = ageNumber(m[2] ?? "");
    if (n === undefined || n >= 120) continue;
    const times = m[1] ? Math.max(2, groupBefore(words(norm.slice(0, m.index)).length)) : 1;
    for (let i = 0; i < times; i++) ages.push(n);
    evidence.push(m[0]);
  }
  let bothSenior =
    /\bboth (?:are )?(?:seniors?|over 6[4-9]|65 ?(?:plus)?|(?:6[5-9]|[7-9]\d))\b|\b(?:los|las|ambos|ambas)(?: dos)?(?: \w+){0,3} (?:mayores|jubilad[oa]s|6[5-9]|[7-9]\d)\b/.test(norm) || ELDERLY_COUPLE.test(norm);
  for (const m of text.toLowerCase().matchAll(BRACKET_AGE)) {
    const n = Number(m[3]);
    if (m[2] && n >= 65) bothSenior = true;
    else {
      const group = m[1] ?? "";
      const times = /^twins?\b/.test(group) ? 2 : (FIXED_PLURALS[group]?.size ?? 1);
      for (let i = 0; i < times; i++) ages.push(n);
    }
    evidence.push(m[0].trim());
  }
  for (const m of text.matchAll(ZH_AGE)) {
    const n = chineseNumber(m[1] ?? "");
    if (n !== undefined) {
      ages.push(n);
      evidence.push(m[0]);
    }
  }
  if (bothSenior) evidence.push("both seniors");
  // Complete: the speaker and companions of known number, and no number in the text but ages.
  const unexplained = w.some((t, i) => {
    if (numberWord(t) === undefined || NOT_AGES.has(t) || ["un", "una", "one"].includes(t)) return false;
    if (named.some((m) => i >= m.start && i <= m.end) || groupAgeWords.includes(i)) return false;
    const prev = w[i - 1] ?? "";
    return !["aged", "age", "ages", "is", "are", "im", "am", "hes", "shes", "whos", "theyre", "re", "tiene", "both", "de", "and", "y", "seventy", "sixty", "eighty"].includes(prev) && !/^\d/.test(w[i + 1] ?? "") && !["years", "year", "anos", "yrs", "yo"].includes(w[i + 1] ?? "");
  });
  const complete = speaker && named.length > 0 && named.every((m) => m.known) && !unexplained && !/\b(?:us|we|family|group|party|others|people|tickets?|adults|seniors)\b/.test(norm);
  // "2 children" alone is a count riders.ts reads; a party needs the speaker or two companions.
  const people = speaker && companions > 0 ? 1 + companions : named.length > 1 || named.some((m) => !PLURAL_RELATIONS.has(m.word.split(" ").pop() ?? "")) ? companions : 0;
  return { people, complete: complete && people > 1, ages, bothSenior, babies, disabled, grownUp, elderly, speakerTravels: speaker && companions > 0, neverChildren, groupAgeWords, evidence };
}
