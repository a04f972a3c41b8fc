// What the passenger's own words say about who travels — the interlock's own, conservative
// reader (no policy code). It only ever produces claims the quote must agree with; it never makes
// a sale possible. It reads:
//   - counted rider types: "3 adults and 2 children", "two kids", "dos adultos", "两个大人", "طفلين";
//   - group sizes: "5 of us", "a family of four", "we are 3", "4 people", "3 tickets", "三个人";
//   - lower bounds: "with my wife" (≥ 2 riders), "me and my kids" (≥ 2 children), "I'm a senior",
//     "a 4-year-old" (a child where the fare table names a child age), "I am 70" (a senior);
//   - "just me", "alone" (exactly 1), "no children" (exactly 0).
// A later text that states a count replaces what an earlier one said about that count (a
// correction), and a later on-screen count change supersedes what was typed before it.
import type { KioskEvent } from "../../../tools/data/schemas.ts";
import type { SystemData } from "../../../tools/data/system.ts";
import { chineseNumber, normalize, numberWord, words } from "./text.ts";

export type RiderKey = "adults" | "children" | "seniors" | "disabled";
export const RIDER_KEYS: readonly RiderKey[] = ["adults", "children", "seniors", "disabled"];
export type RiderMix = Record<RiderKey, number>;

/** What the text says: exact counts, lower bounds, per rider type and for the whole group. */
export interface RiderClaims {
  exact: Partial<Record<RiderKey | "total", number>>;
  atLeast: Partial<Record<RiderKey | "total", number>>;
  /** The phrases the claims came from (for the operator log and tests). */
  evidence: string[];
}

const NOUNS: Record<string, RiderKey | "total"> = {};
const addNouns = (key: RiderKey | "total", list: string): void => {
  for (const w of list.split(" ")) NOUNS[w] = key;
};
addNouns("adults", "adult adults grown grownup grownups adulto adultos adulta adultas mayores");
addNouns("children", "child children childs kid kids kiddo kiddos baby babies infant infants toddler toddlers nino ninos nina ninas bebe bebes");
addNouns("seniors", "senior seniors elderly pensioner pensioners retiree retirees jubilado jubilados jubilada jubiladas");
addNouns("disabled", "disabled discapacitado discapacitados");
addNouns("total", "people persons person passengers passenger riders rider travelers traveler travellers traveller tickets ticket men women personas persona pasajeros pasajero boletos boleto billetes billete");
// Arabic (after normalize(): hamza marks stripped).
addNouns("adults", "بالغ بالغين بالغان كبار");
addNouns("children", "طفل اطفال طفلين طفلان");
addNouns("seniors", "مسن مسنين");
addNouns("total", "اشخاص شخص شخصين ركاب راكب تذاكر تذكرة");

/** Arabic dual nouns carry their own count ("طفلين": two children). */
const DUALS: Record<string, RiderKey | "total"> = { طفلين: "children", طفلان: "children", شخصين: "total", بالغين: "adults", بالغان: "adults" };

/** Words that may stand between a number and its noun ("3 more adults", "two small children"). */
const FILLERS = new Set(["more", "other", "additional", "extra", "small", "little", "young", "older", "de", "mas", "otros", "otras", "pequenos"]);
/** Number words that only say "at least one" ("a child"). */
const VAGUE = new Set(["a", "an", "un", "una", "single"]);
const YEARS = new Set(["year", "years", "yo", "yr", "yrs", "anos"]);
/** Who "is N" can be said of ("my son is 4"). */
const PERSONS = new Set(["child", "son", "daughter", "kid", "baby", "boy", "girl", "he", "she", "hijo", "hija"]);
/** What may follow "I am 70" when it is an age. */
const AFTER_AGE = new Set(["and", "but", "so", "y", "now", "today"]);
/** People who travel with the speaker ("with my wife"). */
const COMPANIONS = /\b(?:with|and|y|con) (?:my|our|mi|mis) (wife|husband|partner|friend|friends|mom|mum|mother|dad|father|parents|brother|sister|son|daughter|sons|daughters|kids|children|child|kid|family|grandma|grandpa|grandmother|grandfather|colleague|colleagues|boyfriend|girlfriend|esposa|esposo|hijo|hija|hijos|hijas|amigo|amiga|amigos|familia)\b/g;
const PLURAL_CHILDREN = new Set(["kids", "children", "hijos", "hijas"]);
const SINGLE_CHILD = new Set(["kid", "child"]);

const ZH_NOUNS: [RegExp, RiderKey | "total"][] = [
  [/(成人|大人|成年人)/u, "adults"],
  [/(儿童|兒童|小孩|孩子|小朋友)/u, "children"],
  [/(老人|长者|長者|老年人|长辈)/u, "seniors"],
  [/(残疾人|殘疾人|残障|殘障)/u, "disabled"],
  [/(人|张票|張票|位乘客)/u, "total"],
];
const ZH_COUNTED = /([0-9一二两兩三四五六七八九十]{1,3})\s*(?:个|個|位|名|张|張)?\s*(成人|大人|成年人|儿童|兒童|小孩|孩子|小朋友|老人|长者|長者|老年人|长辈|残疾人|殘疾人|残障|殘障|张票|張票|位乘客|人)/gu;

/** The age up to which a child rides as a child, when the fare table says so ("under 5"). */
function childAgeLimit(system: SystemData): number | undefined {
  const qualifier = (system.fares.discounts as { children?: { qualifier?: unknown } } | undefined)?.children?.qualifier;
  const m = typeof qualifier === "string" ? /under (\d{1,2})\b(?!\s*cm)/i.exec(qualifier) : null;
  return m ? Number(m[1]) : undefined;
}

function hasDiscount(system: SystemData, key: "senior_65_plus" | "disabled"): boolean {
  const discounts = system.fares.discounts as Record<string, unknown> | undefined;
  return discounts?.[key] !== undefined;
}

class ClaimSet {
  readonly exact: Partial<Record<RiderKey | "total", number>> = {};
  readonly atLeast: Partial<Record<RiderKey | "total", number>> = {};
  readonly evidence: string[] = [];
  private readonly counted: Partial<Record<RiderKey | "total", { sum: number; explicit: boolean }>> = {};

  count(key: RiderKey | "total", n: number, explicit: boolean, phrase: string): void {
    const c = (this.counted[key] ??= { sum: 0, explicit: false });
    c.sum += n;
    c.explicit ||= explicit;
    this.evidence.push(phrase);
  }

  least(key: RiderKey | "total", n: number, phrase: string): void {
    this.atLeast[key] = Math.max(this.atLeast[key] ?? 0, n);
    this.evidence.push(phrase);
  }

  finish(): void {
    for (const [key, c] of Object.entries(this.counted) as [RiderKey | "total", { sum: number; explicit: boolean }][]) {
      if (c.explicit) this.exact[key] = c.sum;
      else this.least(key, c.sum, "");
    }
    this.evidence.splice(0, this.evidence.length, ...this.evidence.filter(Boolean));
  }
}

/** The claims of one text. */
export function readRiderText(system: SystemData, text: string): RiderClaims {
  const claims = new ClaimSet();
  const norm = normalize(text);
  const w = words(norm);
  const childLimit = childAgeLimit(system);
  // Where the fare table has no senior (or disabled) fare, those riders buy adult tickets.
  const seniorKey: RiderKey = hasDiscount(system, "senior_65_plus") ? "seniors" : "adults";
  const disabledKey: RiderKey = hasDiscount(system, "disabled") ? "disabled" : "adults";

  const typed = (key: RiderKey | "total"): RiderKey | "total" => (key === "seniors" ? seniorKey : key === "disabled" ? disabledKey : key);
  for (let i = 0; i < w.length; i++) {
    const token = w[i]!;
    // Arabic duals: the noun is its own count ("طفلين": two children).
    const dual = DUALS[token];
    if (dual) claims.count(typed(dual), 2, true, token);
    const n = numberWord(token);
    if (n === undefined) continue;
    let j = i + 1;
    while (j < w.length && FILLERS.has(w[j]!) && j - i <= 2) j++;
    const noun = w[j];
    const key = noun !== undefined ? NOUNS[noun] : undefined;
    if (key !== undefined) {
      // "اثنين طفلين": the dual noun already counted itself.
      if (noun !== undefined && DUALS[noun]) continue;
      // "a child" is at least one; "two children", "no children" are exact.
      const vague = VAGUE.has(token);
      claims.count(typed(key), n, !vague, `${token} ${noun}`);
      continue;
    }
    // "5 of us"
    if (w[i + 1] === "of" && w[i + 2] === "us") {
      claims.count("total", n, true, `${token} of us`);
      continue;
    }
    if (VAGUE.has(token) || n >= 120) continue;
    // Ages: "a 4 year old", "aged 70", "my son is 4", "I am 70".
    const yearsAfter = YEARS.has(w[i + 1] ?? "");
    const aged = w[i - 1] === "aged" || w[i - 1] === "age";
    const personIs = w[i - 1] === "is" && PERSONS.has(w[i - 2] ?? "");
    const iAm = (w[i - 1] === "am" && w[i - 2] === "i") || w[i - 1] === "im";
    if (yearsAfter || aged || personIs || (iAm && n >= 18 && (w[i + 1] === undefined || AFTER_AGE.has(w[i + 1]!)))) {
      const type: RiderKey | undefined = n >= 65 ? seniorKey : n >= 18 ? "adults" : childLimit !== undefined && n < childLimit ? "children" : undefined;
      if (type) claims.least(type, 1, `age ${n}`);
    }
  }
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
  if (/\b(?:just|only) (?:me|myself)\b|\bby myself\b|\b(?:travell?ing|going|ride|riding) alone\b|\bsolo yo\b/.test(norm)) claims.count("total", 1, true, "just me");
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
    const c = readRiderText(system, e.text);
    for (const [k, v] of Object.entries(c.exact) as [RiderKey | "total", number][]) {
      merged.exact[k] = v;
      delete merged.atLeast[k];
    }
    for (const [k, v] of Object.entries(c.atLeast) as [RiderKey | "total", number][]) {
      if (c.exact[k] === undefined) merged.atLeast[k] = Math.max(merged.atLeast[k] ?? 0, v);
    }
    merged.evidence.push(...c.evidence);
  });
  return merged;
}

/** Where a quoted rider mix disagrees with what the passenger wrote (empty: no disagreement). */
export function riderDisagreements(claims: RiderClaims, riders: RiderMix): string[] {
  const out: string[] = [];
  const total = RIDER_KEYS.reduce((s, k) => s + riders[k], 0);
  const value = (k: RiderKey | "total"): number => (k === "total" ? total : riders[k]);
  for (const [k, n] of Object.entries(claims.exact) as [RiderKey | "total", number][]) {
    if (value(k) !== n) out.push(`${k}: the passenger wrote ${n}, quoted ${value(k)}`);
  }
  for (const [k, n] of Object.entries(claims.atLeast) as [RiderKey | "total", number][]) {
    if (value(k) < n) out.push(`${k}: the passenger wrote at least ${n}, quoted ${value(k)}`);
  }
  return out;
}
