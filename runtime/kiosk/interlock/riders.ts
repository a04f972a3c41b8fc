// What the passenger's own words say about who travels — the interlock's own, conservative
// reader (no policy code). It only ever produces claims the quote must agree with; it never makes
// a sale possible. It reads:
//   - counted rider types: "3 adults and 2 children", "two kids", "dos adultos", "两个大人", "طفلين";
//   - group sizes: "5 of us", "a family of four", "we are 3", "4 people", "3 tickets", "三个人";
//   - lower bounds: "with my wife" (≥ 2 riders), "me and my kids" (≥ 2 children), "I'm a senior",
//     "a 4-year-old" (a child where the fare table names a child age), "I am 70" (a senior);
//   - who cannot travel on a child's ticket: a child told to be past its age ("our 8 year old" where
//     children under 5 ride free), grown-ups by age, the speaker and a spouse or parent named;
//   - "just me", "alone" (exactly 1), "no children" (exactly 0);
//   - people named one by one with an age told afterwards or in brackets ("my mum and I, she's 70",
//     "my husband (72) and I": at least 2 riders, at least 1 senior) — interlock/party.ts;
//   - a rider noun mistyped by one letter or two swapped ("3 adluts").
// Within one text a correction ("…, no wait, just 2 adults", "Three adults. Sorry, four") replaces
// what came before it for the counts it states, and the whole party when it says "just"/"only".
// A later text that states a count replaces what an earlier one said about that count (a
// correction), and a later on-screen count change supersedes what was typed before it.
import type { KioskEvent } from "../../../tools/data/schemas.ts";
import type { SystemData } from "../../../tools/data/system.ts";
import { childAgeLimit } from "../../../tools/fares/child-rule.ts";
import { distance } from "fastest-levenshtein";
import { inNumberList, readParty, RELATIONS } from "./party.ts";
import { chineseNumber, normalize, numberWord, words } from "./text.ts";

export type RiderKey = "adults" | "children" | "seniors" | "disabled";
export const RIDER_KEYS: readonly RiderKey[] = ["adults", "children", "seniors", "disabled"];
export type RiderMix = Record<RiderKey, number>;
/** A rider type, the whole group, or the riders who cannot travel on a child's ticket. */
type ClaimKey = RiderKey | "total" | "notChildren";

/** What the text says: exact counts, lower bounds, per rider type and for the whole group. */
export interface RiderClaims {
  exact: Partial<Record<ClaimKey, number>>;
  atLeast: Partial<Record<ClaimKey, number>>;
  /** The phrases the claims came from (for the operator log and tests). */
  evidence: string[];
  /** A correction in the text names the whole party anew ("sorry, just me"): earlier texts no longer count. */
  restart?: boolean;
}

const NOUNS: Record<string, ClaimKey> = {};
const addNouns = (key: ClaimKey, list: string): void => {
  for (const w of list.split(" ")) NOUNS[w] = key;
};
addNouns("adults", "adult adults grown grownup grownups adulto adultos adulta adultas mayores");
addNouns("children", "child children childs kid kids kiddo kiddos baby babies infant infants toddler toddlers nino ninos nina ninas bebe bebes");
addNouns("seniors", "senior seniors elderly pensioner pensioners retiree retirees jubilado jubilados jubilada jubiladas");
addNouns("disabled", "disabled discapacitado discapacitados");
addNouns("total", "people ppl persons person passengers passenger riders rider travelers traveler travellers traveller tickets ticket men women personas persona pasajeros pasajero boletos boleto billetes billete");
// Arabic (after normalize(): hamza marks stripped).
addNouns("adults", "بالغ بالغين بالغان كبار");
addNouns("children", "طفل اطفال طفلين طفلان");
addNouns("seniors", "مسن مسنين");
addNouns("total", "اشخاص شخص شخصين ركاب راكب تذاكر تذكرة");

/** Arabic dual nouns carry their own count ("طفلين": two children). */
const DUALS: Record<string, ClaimKey> = { طفلين: "children", طفلان: "children", شخصين: "total", بالغين: "adults", بالغان: "adults" };

/** Words that may stand between a number and its noun ("3 more adults", "two small children"). */
const FILLERS = new Set(["more", "other", "additional", "extra", "small", "little", "young", "older", "de", "mas", "otros", "otras", "pequenos"]);
/** Number words that only say "at least one" ("a child"). */
const VAGUE = new Set(["a", "an", "un", "una", "single"]);
const YEARS = new Set(["year", "years", "yo", "yr", "yrs", "anos"]);
/** Who "is N" can be said of ("my son is 4", "my wife is 63"). */
const PERSONS = new Set(["boy", "girl", "he", "she", ...RELATIONS]);
/** Units that make "I'm 20 …" not an age ("I'm 20 minutes away"). */
const NOT_AFTER_AGE = new Set("min mins minute minutes hour hours hr hrs sec secs seconds m km mi miles meters metres blocks stops stations away late early am pm oclock percent th st nd rd".split(" "));
/** A correction inside one text: what follows it replaces what came before ("no wait", "sorry", "actually"). */
const CORRECTION = /\b(?:no,? wait|wait|actually|sorry|i mean|make (?:it|that)|correction|scratch that|perd[oó]n|mejor dicho)\b|\bno\s*[,.;:!—–-]|不对|不對|其实|其實/giu;
const EXCLUSIVE = /\b(?:just|only|solo|sólo)\b|只有|只/u;
/** People who travel with the speaker ("with my wife"). */
const COMPANIONS = /\b(?:with|and|y|con) (?:my|our|mi|mis) (wife|husband|partner|spouse|fiance|fiancee|friend|friends|mate|mates|pal|pals|buddy|buddies|coworker|coworkers|colleagues|roommate|flatmate|classmate|neighbour|neighbor|mom|mum|mother|dad|father|parents|brother|sister|son|daughter|sons|daughters|kids|children|child|kid|family|grandma|grandpa|grandmother|grandfather|colleague|colleagues|boyfriend|girlfriend|esposa|esposo|hijo|hija|hijos|hijas|amigo|amiga|amigos|familia)\b/g;
const PLURAL_CHILDREN = new Set(["kids", "children", "hijos", "hijas"]);
const SINGLE_CHILD = new Set(["kid", "child"]);

const ZH_NOUNS: [RegExp, ClaimKey][] = [
  [/(成人|大人|成年人)/u, "adults"],
  [/(儿童|兒童|小孩|孩子|小朋友)/u, "children"],
  [/(老人|长者|長者|老年人|长辈)/u, "seniors"],
  [/(残疾人|殘疾人|残障|殘障)/u, "disabled"],
  [/(人|张票|張票|位乘客)/u, "total"],
];
const ZH_COUNTED = /([0-9一二两兩三四五六七八九十]{1,3})\s*(?:个|個|位|名|张|張)?\s*(成人|大人|成年人|儿童|兒童|小孩|孩子|小朋友|老人|长者|長者|老年人|长辈|残疾人|殘疾人|残障|殘障|张票|張票|位乘客|人)/gu;

/** Fuzzy lookups already made: a long text repeats its words, and each lookup tries every noun. */
const nearNouns = new Map<string, ClaimKey | undefined>();
const MAX_REMEMBERED = 10_000;

/** The rider noun a word is, allowing one wrong letter or two swapped in longer words ("adluts"). */
function nounOf(word: string | undefined): ClaimKey | undefined {
  if (word === undefined) return undefined;
  const exact = NOUNS[word];
  if (exact !== undefined || word.length < 5 || !/^[a-z]+$/.test(word)) return exact;
  if (nearNouns.has(word)) return nearNouns.get(word);
  let found: ClaimKey | undefined;
  for (const [noun, key] of Object.entries(NOUNS)) {
    if (noun.length < 5 || Math.abs(noun.length - word.length) > 1) continue;
    if (distance(noun, word) <= 1 || swapped(noun, word)) {
      found = key;
      break;
    }
  }
  if (nearNouns.size >= MAX_REMEMBERED) nearNouns.clear();
  nearNouns.set(word, found);
  return found;
}

function swapped(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  const diff = [...a].flatMap((c, i) => (c === b[i] ? [] : [i]));
  return diff.length === 2 && diff[1] === diff[0]! + 1 && a[diff[0]!] === b[diff[1]!] && a[diff[1]!] === b[diff[0]!];
}


function hasDiscount(system: SystemData, key: "senior_65_plus" | "disabled"): boolean {
  const discounts = system.fares.discounts as Record<string, unknown> | undefined;
  return discounts?.[key] !== undefined;
}

class ClaimSet {
  readonly exact: Partial<Record<ClaimKey, number>> = {};
  readonly atLeast: Partial<Record<ClaimKey, number>> = {};
  readonly evidence: string[] = [];
  private readonly counted: Partial<Record<ClaimKey, { sum: number; explicit: boolean }>> = {};

  count(key: ClaimKey, n: number, explicit: boolean, phrase: string): void {
    const c = (this.counted[key] ??= { sum: 0, explicit: false });
    // Riders of a type add up ("2 adults … 1 adult"); a group's size said twice is one group
    // ("we are four people", "2 tickets for 2 people").
    c.sum = key === "total" ? Math.max(c.sum, n) : c.sum + n;
    c.explicit ||= explicit;
    this.evidence.push(phrase);
  }

  least(key: ClaimKey, n: number, phrase: string): void {
    this.atLeast[key] = Math.max(this.atLeast[key] ?? 0, n);
    this.evidence.push(phrase);
  }

  /** The speaker travels alone: exactly one rider; only claims about one person stay. */
  alone(): void {
    for (const key of Object.keys(this.counted) as (ClaimKey)[]) delete this.counted[key];
    for (const [key, n] of Object.entries(this.atLeast) as [ClaimKey, number][]) this.atLeast[key] = Math.min(n, 1);
    delete this.atLeast.total;
    this.count("total", 1, true, "just me");
  }

  finish(): void {
    for (const [key, c] of Object.entries(this.counted) as [ClaimKey, { sum: number; explicit: boolean }][]) {
      if (c.explicit) this.exact[key] = c.sum;
      else this.least(key, c.sum, "");
    }
    this.evidence.splice(0, this.evidence.length, ...this.evidence.filter(Boolean));
  }
}

/**
 * The claims of one text: each statement between corrections read alone, a later one replacing
 * the counts it states (the whole party when it says "just"/"only" and states a count).
 */
export function readRiderText(system: SystemData, text: string): RiderClaims {
  const merged: RiderClaims = { exact: {}, atLeast: {}, evidence: [] };
  let from = 0;
  const parts: string[] = [];
  for (const m of text.matchAll(CORRECTION)) {
    parts.push(text.slice(from, m.index));
    from = (m.index ?? 0) + m[0].length;
  }
  parts.push(text.slice(from));
  parts.forEach((part, i) => {
    const claims = readStatement(system, part);
    // "12 adults, I mean 2", "Three adults. Sorry, four": a bare number corrects the one count before it.
    const bare = numberWord(normalize(part));
    const stated = (Object.keys(merged.exact) as ClaimKey[]).filter((k) => k !== "total" && k !== "notChildren");
    if (i > 0 && bare !== undefined && Object.keys(claims.exact).length === 0 && stated.length === 1) {
      claims.exact[stated[0]!] = bare;
      claims.evidence.push(`corrected to ${bare}`);
    }
    const restart = i > 0 && EXCLUSIVE.test(part) && Object.keys(claims.exact).length > 0;
    if (restart) merged.restart = true;
    mergeClaims(merged, claims, restart);
  });
  return merged;
}

/** Merge a later statement into earlier claims: its counts replace theirs; a restart replaces all. */
function mergeClaims(into: RiderClaims, later: RiderClaims, restart: boolean): void {
  if (restart) {
    for (const k of Object.keys(into.exact) as (ClaimKey)[]) delete into.exact[k];
    for (const k of Object.keys(into.atLeast) as (ClaimKey)[]) delete into.atLeast[k];
  }
  for (const [k, v] of Object.entries(later.exact) as [ClaimKey, number][]) {
    into.exact[k] = v;
    delete into.atLeast[k];
  }
  for (const [k, v] of Object.entries(later.atLeast) as [ClaimKey, number][]) {
    if (later.exact[k] === undefined) into.atLeast[k] = Math.max(into.atLeast[k] ?? 0, v);
  }
  into.evidence.push(...later.evidence);
}

/** The claims of one statement. */
function readStatement(system: SystemData, text: string): RiderClaims {
  const claims = new ClaimSet();
  const norm = normalize(text);
  const w = words(norm);
  const childLimit = childAgeLimit(system.fares.discounts?.children?.qualifier);
  // Where the fare table has no senior (or disabled) fare, those riders buy adult tickets.
  const seniorKey: RiderKey = hasDiscount(system, "senior_65_plus") ? "seniors" : "adults";
  const disabledKey: RiderKey = hasDiscount(system, "disabled") ? "disabled" : "adults";

  const typed = (key: ClaimKey): ClaimKey => (key === "seniors" ? seniorKey : key === "disabled" ? disabledKey : key);
  // People named one by one, ages told after them or in brackets (interlock/party.ts).
  const party = readParty(text);
  const groupAgeWords = new Set(party.groupAgeWords);
  const ages: number[] = [];
  // Ages told of someone other than the speaker, past the child ticket's age and under 18: children
  // who pay ("our 8 year old son" on MARTA, where children under 5 ride free).
  let pastChildAge = 0;
  for (let i = 0; i < w.length; i++) {
    const token = w[i]!;
    // Arabic duals: the noun is its own count ("طفلين": two children).
    const dual = DUALS[token];
    if (dual) claims.count(typed(dual), 2, true, token);
    let n = numberWord(token);
    if (n === undefined) continue;
    // "seventy two": one number.
    const unit = numberWord(w[i + 1] ?? "");
    let end = i;
    if (n >= 20 && n < 100 && n % 10 === 0 && unit !== undefined && unit > 0 && unit < 10 && !VAGUE.has(w[i + 1]!)) {
      n += unit;
      end = i + 1;
    }
    let j = end + 1;
    while (j < w.length && FILLERS.has(w[j]!) && j - end <= 2) j++;
    const noun = w[j];
    // "two little ones": small children.
    const key = noun === "ones" && w[j - 1] === "little" ? "children" : nounOf(noun);
    if (key !== undefined) {
      // "اثنين طفلين": the dual noun already counted itself.
      if (noun !== undefined && DUALS[noun]) continue;
      // "a child" is at least one; "two children", "no children" are exact. "1 adult aged 70": the
      // ages say who the counted riders are, so the count is of riders, not of adults.
      const vague = VAGUE.has(token);
      const aged = key === "adults" && /^(?:aged?|ages)$/.test(w[j + 1] ?? "");
      claims.count(aged ? "total" : typed(key), n, !vague, `${token} ${noun}`);
      continue;
    }
    // "5 of us"
    if (w[end + 1] === "of" && w[end + 2] === "us") {
      claims.count("total", n, true, `${token} of us`);
      continue;
    }
    // Lists of ages ("aged 1 and 3", "de 2 y 4 años") and a group's age ("twins aged 2") are read by party.ts.
    if (VAGUE.has(token) || n >= 120 || inNumberList(w, i) || groupAgeWords.has(i)) continue;
    // Ages: "a 4 year old", "aged 70", "my son is 4", "my wife is 63", "I am 70".
    const next = w[end + 1];
    const yearsAfter = YEARS.has(next ?? "");
    const aged = w[i - 1] === "aged" || w[i - 1] === "age";
    const personIs = w[i - 1] === "is" && PERSONS.has(w[i - 2] ?? "");
    const iAm = (w[i - 1] === "am" && w[i - 2] === "i") || w[i - 1] === "im";
    if (yearsAfter || aged || personIs || (iAm && n >= 18 && (next === undefined || !NOT_AFTER_AGE.has(next)))) {
      ages.push(n);
      const ofSpeaker = iAm || (w[i - 1] === "am" && w[i - 2] === "i");
      if (!ofSpeaker && childLimit !== undefined && n >= childLimit && n < 18) pastChildAge++;
    }
    i = end;
  }
  ages.push(...party.ages);
  for (const n of party.ages) if (childLimit !== undefined && n >= childLimit && n < 18) pastChildAge++;
  const byAge: Partial<Record<RiderKey, number>> = {};
  for (const n of ages) {
    const type: RiderKey | undefined = n >= 65 ? seniorKey : n >= 18 ? "adults" : childLimit !== undefined && n < childLimit ? "children" : undefined;
    if (type) byAge[type] = (byAge[type] ?? 0) + 1;
  }
  if (party.babies > 0) byAge.children = Math.max(byAge.children ?? 0, party.babies);
  // What is said of a companion: "my disabled brother", "my elderly mother", "my adult son".
  if (party.disabled > 0) byAge[disabledKey] = (byAge[disabledKey] ?? 0) + party.disabled;
  if (party.elderly > 0) byAge[seniorKey] = Math.max(byAge[seniorKey] ?? 0, party.elderly);
  if (party.grownUp > 0) byAge.adults = Math.max(byAge.adults ?? 0, party.grownUp);
  if (party.bothSenior) byAge[seniorKey] = Math.max(byAge[seniorKey] ?? 0, 2);
  for (const [type, n] of Object.entries(byAge) as [RiderKey, number][]) claims.least(type, n, `${n} ${type} by age`);
  // No child's ticket for grown-ups (told by age, or the speaker, a spouse, a parent named) nor for
  // children past its age; the two groups are different people, so they add up.
  const grownUps = Math.max(ages.filter((n) => n >= 18).length, (party.speakerTravels ? 1 : 0) + party.neverChildren);
  if (grownUps + pastChildAge > 0) claims.least("notChildren", grownUps + pastChildAge, `${grownUps + pastChildAge} not on a child's ticket`);
  const typedByAge = Object.values(byAge).reduce((a, b) => a + b, 0);
  if (Math.max(party.people, typedByAge, ages.length) > 1) claims.least("total", Math.max(party.people, typedByAge, ages.length), party.evidence.join(", "));
  // Everyone named one by one and nothing else counted: that many, not more ("me and a friend").
  if (party.complete && party.people >= typedByAge) claims.count("total", party.people, true, `exactly ${party.evidence.join(", ")}`);
  // Group sizes in words: "family of four", "party of 5", "we are three", "there are 4 of us".
  for (const m of norm.matchAll(/\b(?:family|group|party|grupo|familia) (?:of|de) (\w+)/g)) {
    const n = numberWord(m[1] ?? "");
    if (n !== undefined && n > 0) claims.count("total", n, true, m[0]);
  }
  for (const m of norm.matchAll(/\b(?:we are|we re|somos) (\w+)\b/g)) {
    const n = numberWord(m[1] ?? "");
    if (n !== undefined && n > 1) claims.count("total", n, true, m[0]);
  }
  // "just me", "only me", "by myself", "alone", "solo yo".
  const alone = /\b(?:just|only) (?:me|myself)\b(?! (?:and|plus|with|y)\b)|\bby myself\b|\b(?:travell?ing|going|ride|riding) alone\b|\bsolo yo\b/.test(norm);
  // "without children", "sin ninos".
  for (const m of norm.matchAll(/\b(?:without|sin) (?:any |my |mis )?(\w+)/g)) {
    const key = NOUNS[m[1] ?? ""];
    if (key && key !== "total") claims.count(typed(key), 0, true, m[0]);
  }
  // Companions: "with my wife" (≥ 2 riders), "me and my kids" (≥ 2 children).
  for (const m of norm.matchAll(COMPANIONS)) {
    const who = m[1] ?? "";
    claims.least("total", PLURAL_CHILDREN.has(who) || who === "parents" || who === "friends" ? 3 : 2, m[0]);
    if (PLURAL_CHILDREN.has(who)) claims.least("children", 2, m[0]);
    else if (SINGLE_CHILD.has(who)) claims.least("children", 1, m[0]);
  }
  // "I'm a senior", "I am disabled", "senior citizen here".
  if (/\b(?:im|i am|i m) (?:a |both a |also a )?(?:senior|pensioner|retiree)\b/.test(norm)) claims.least(seniorKey, 1, "I am a senior");
  if (/\b(?:im|i am|i m) (?:both a senior and |also |a )?disabled\b|\bwith a disability\b/.test(norm)) claims.least(disabledKey, 1, "I am disabled");
  // Chinese: "两个大人一个小孩", "三位老人", "我们四个人".
  for (const m of text.matchAll(ZH_COUNTED)) {
    const n = chineseNumber(m[1] ?? "");
    const noun = m[2] ?? "";
    const key = ZH_NOUNS.find(([re]) => re.test(noun))?.[1];
    if (n !== undefined && key) claims.count(typed(key), n, true, m[0]);
  }
  // "I have 2 kids at home, just me today": the speaker alone is the whole party — what else the
  // statement counted is not travelling; what it said of the speaker (an age) still holds.
  if (alone) claims.alone();
  claims.finish();
  return { exact: claims.exact, atLeast: claims.atLeast, evidence: claims.evidence };
}

/**
 * The claims of a whole session: each text's claims in order, a later statement of a count
 * replacing an earlier one, and everything typed before the last on-screen count change dropped
 * (the passenger used the counter after typing).
 */
export function textRiderClaims(system: SystemData, turns: readonly (readonly KioskEvent[])[]): RiderClaims {
  const events = turns.flat();
  let lastCount = -1;
  events.forEach((e, i) => {
    if (e.type === "passenger_count_changed") lastCount = i;
  });
  const merged: RiderClaims = { exact: {}, atLeast: {}, evidence: [] };
  events.forEach((e, i) => {
    if (i < lastCount || e.type !== "freetext_input" || typeof e.text !== "string") return;
    const claims = readRiderText(system, e.text);
    mergeClaims(merged, claims, claims.restart === true);
  });
  return merged;
}

/** Where a quoted rider mix disagrees with what the passenger wrote (empty: no disagreement). */
export function riderDisagreements(claims: RiderClaims, riders: RiderMix): string[] {
  const out: string[] = [];
  const total = RIDER_KEYS.reduce((s, k) => s + riders[k], 0);
  const value = (k: ClaimKey): number => (k === "total" ? total : k === "notChildren" ? total - riders.children : riders[k]);
  for (const [k, n] of Object.entries(claims.exact) as [ClaimKey, number][]) {
    if (value(k) !== n) out.push(`${k}: the passenger wrote ${n}, quoted ${value(k)}`);
  }
  for (const [k, n] of Object.entries(claims.atLeast) as [ClaimKey, number][]) {
    if (value(k) < n) out.push(`${k}: the passenger wrote at least ${n}, quoted ${value(k)}`);
  }
  return out;
}
