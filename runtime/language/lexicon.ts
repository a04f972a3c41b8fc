// Station resolution over every name a passenger may use: official names and their parts, local-
// language names, operator aliases and landmarks, pinyin of Chinese names, and — for what is left —
// near spellings (fastest-levenshtein). Each match carries its candidates and a confidence; line
// names and colours are never stations. Pure: the extra names come in as LanguageData.
import { distance } from "fastest-levenshtein";
import type { SystemData } from "../../tools/data/system.ts";
import { AIRPORT_WORDS, airportStations } from "./airports.ts";
import { compassStem, pinyinKey, simplifiedChinese } from "./pinyin.ts";
import { fold, foldArabic, foldLatin, hasArabic, hasCjk } from "./text.ts";
import type { LanguageData, MatchKind, StationMatch } from "./types.ts";

interface Entry {
  key: string;
  ids: string[];
  kind: MatchKind;
  confidence: number;
}

const COLOURS = ["red", "blue", "green", "gold", "yellow", "orange", "brown", "purple", "pink", "silver", "grey", "gray"];
/** Words that are never (part of) a station mention on their own. */
const STOP = new Set(
  "a an the to from at in on of for and or is are am be i me my we us our you it this that there here go get going take want need please thanks ticket tickets one two three four five way trip ride train trains line metro station stop how much what when where can do does just now today tonight".split(" "),
);
/** Words an initialism leaves out ("Bank of America Plaza" would be BAP). */
const LINK_WORDS = new Set(["and", "of", "the", "de", "del", "la"]);
/** A single letter for a compass word in a name ("N Springs"). */
const COMPASS: Record<string, string> = { n: "north", s: "south", e: "east", w: "west" };

/** Token spellings folded to one form before matching ("Powell Street" = "Powell St"). */
const TOKEN_FORMS: Record<string, string> = { street: "st", international: "intl", int: "intl", stn: "station", univ: "university", "u": "university" };

/** Everyday short forms of the words of station names ("Civic Ctr", "Ashby Ave"). */
const SHORT_FORMS: Record<string, string> = { ed: "education", edu: "education", uni: "university", univ: "university", ctr: "center", cntr: "center", expo: "exhibition", ave: "avenue", av: "avenue", sq: "square", pk: "park", rd: "road", blvd: "boulevard", jct: "junction", hts: "heights", mt: "mount", ft: "fort", pl: "place" };
/** A house number whose ordinal suffix slipped ("43rt", "16h"); the number is group 1. */
const ORDINAL_SLIP = /^(\d{1,3})(?:st|nd|rd|th|rt|nt|td|sd|rth|h|t|d)$/;
/** Words of a name that only say what the place is ("Beijing South railway"). */
const GENERIC_NAME_WORDS = new Set(["railway", "rail", "station", "stn", "terminal"]);
/** More names than a question can offer: the words say too little. */
const MAX_LEADING = 6;
const ordinalSuffix = (n: number): string => (n % 100 >= 11 && n % 100 <= 13 ? "th" : n % 10 === 1 ? "st" : n % 10 === 2 ? "nd" : n % 10 === 3 ? "rd" : "th");

/** Numbers and ordinals in words are their digits in a name too ("Five Points" = "5 Points", "Fifth St" = "5th St"). */
const NUMBER_FORMS = numberForms();
function numberForms(): Record<string, string> {
  const cardinals = "one two three four five six seven eight nine ten eleven twelve".split(" ");
  const ordinals = "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth".split(" ");
  const suffix = (n: number): string => (n === 1 ? "st" : n === 2 ? "nd" : n === 3 ? "rd" : "th");
  return Object.fromEntries([...cardinals.map((w, i) => [w, String(i + 1)]), ...ordinals.map((w, i) => [w, `${i + 1}${suffix(i + 1)}`])]);
}

function canon(folded: string): string {
  return joinInitials(
    folded
      .split(" ")
      .filter(Boolean)
      .map((t) => TOKEN_FORMS[t] ?? t)
      .join(" "),
  );
}

/** Initials are one word however they are written: "L. B. Nagar" = "LB Nagar" = "L B Nagar". */
function joinInitials(key: string): string {
  return key.replace(/(?<![\p{L}\p{N}])\p{L}(?: \p{L}(?![\p{L}\p{N}]))+/gu, (initials) => initials.replace(/ /g, ""));
}

export class StationLexicon {
  private readonly latin = new Map<string, Entry>();
  private readonly cjk = new Map<string, Entry>();
  private readonly arabic = new Map<string, Entry>();
  /** Pinyin key → stations, built on first use (Chinese names need pinyin-pro): see pinyinIds. */
  private pinyin: { keys: Map<string, string[]>; stems: Map<string, string[]> } | undefined;
  private readonly lineWords = new Set<string>();
  private maxTokens = 1;

  constructor(
    readonly system: SystemData,
    data: LanguageData,
  ) {
    for (const c of COLOURS) this.lineWords.add(c);
    for (const line of system.lines) {
      const name = canon(foldLatin(line.name));
      this.lineWords.add(name);
      this.lineWords.add(name.replace(/ line$/, ""));
      this.lineWords.add(`${foldLatin(line.id)} line`);
      this.lineWords.add(`line ${foldLatin(line.id)}`);
    }
    for (const s of system.stations) {
      this.add(s.name, s.id, "name", 1);
      const open = s.name.indexOf("(");
      if (open > 0) {
        this.add(s.name.slice(0, open), s.id, "part", 0.9);
        this.add(s.name.slice(open + 1).replace(/\).*$/, ""), s.id, "part", 0.9);
      }
      if (s.name.includes("/")) for (const part of s.name.replace(/\(.*\)/, "").split("/")) if (part.trim().length >= 4) this.add(part, s.id, "part", 0.85);
      // "Bidda" for Al Bidda: a name written without its Arabic article.
      const article = /^(?:Al|El)[ -](\S.{3,})$/i.exec(s.name.replace(/\(.*\)/, "").trim());
      if (article) this.add(article[1]!, s.id, "part", 0.85);
    }
    // Initials of a name of three words or more ("QNL" is Qatar National Library; "and", "of" left
    // out), and the names' words for abbreviations ("Edu City").
    for (const s of system.stations) {
      if (hasCjk(s.name) || hasArabic(s.name)) continue;
      const words = canon(foldLatin(s.name.replace(/\(.*\)/, ""))).split(" ").filter(Boolean);
      this.named.push({ words, id: s.id });
      const initials = words.filter((w) => !LINK_WORDS.has(w)).map((w) => w[0]).join("");
      if (initials.length >= 3 && !this.latin.has(initials) && !STOP.has(initials)) this.add(initials, s.id, "abbreviation", 0.85);
    }
    for (const [id, names] of data.localNames) for (const n of names) this.add(n, id, "local", 0.95);
    for (const [id, names] of data.aliases) for (const n of names) this.add(n, id, "alias", 0.9);
    for (const [name, ids] of data.landmarks) for (const id of ids) this.add(name, id, "landmark", 0.85);
    // "the airport" in any of the kiosk's languages: every station named or known as an airport.
    const airports = airportStations(system.stations.map((s) => [s.id, [s.name, ...(data.localNames.get(s.id) ?? []), ...(data.aliases.get(s.id) ?? [])]] as const));
    for (const word of AIRPORT_WORDS) for (const id of airports) this.add(word, id, "group", airports.size === 1 ? 0.9 : 0.6);
    this.data = data;
  }

  private readonly data: LanguageData;
  /** Each station's name as words (for abbreviations). */
  private readonly named: { words: string[]; id: string }[] = [];

  /**
   * The one station whose name the words abbreviate word by word ("Edu City" = Education City,
   * "N Springs" = North Springs): each word the name's word, its first three letters or more, or
   * a compass letter; at least one shortened and one whole.
   */
  private abbreviated(words: readonly string[]): string | undefined {
    const fits = (typed: string, word: string): "same" | "short" | undefined =>
      typed === word ? "same" : SHORT_FORMS[typed] === word || (typed.length >= 3 && word.startsWith(typed)) || (typed.length === 1 && COMPASS[typed] === word) ? "short" : undefined;
    const ids = new Set<string>();
    for (const name of this.named) {
      if (name.words.length !== words.length) continue;
      const how = words.map((w, k) => fits(w, name.words[k]!));
      if (how.every(Boolean) && how.includes("short") && how.includes("same")) ids.add(name.id);
    }
    return ids.size === 1 ? [...ids][0] : undefined;
  }

  /** The match of a name's first (or last) words, sure only where the rest only says what the place is. */
  private leadingMatch(words: readonly string[]): Entry | undefined {
    const ids = this.leading(words);
    if (ids.length === 0) return undefined;
    // One name whose other words only say what it is ("Beijing South" of Beijing South railway): sure.
    const name = ids.length === 1 ? this.named.find((x) => x.id === ids[0]) : undefined;
    const sure = name !== undefined && name.words.slice(words.length).every((w) => GENERIC_NAME_WORDS.has(w)) && words.every((w, k) => w === name.words[k]);
    return { key: words.join(" "), ids, kind: "part", confidence: sure ? 0.85 : 0.7 };
  }

  /**
   * Stations whose names begin with these words, each the name's word, an everyday short form of it
   * ("ctr", "ave", "expo") or its first three letters or more, else end with them; a lone house
   * number matches the same number with any ordinal suffix ("43rt" → 43rd). Several names are all
   * returned (a question offers them).
   */
  private leading(words: readonly string[]): string[] {
    const ordinal = words.length === 1 ? ORDINAL_SLIP.exec(words[0]!)?.[1] : undefined;
    const fits = (typed: string, word: string): boolean =>
      typed === word || SHORT_FORMS[typed] === word || (typed.length >= 3 && word.startsWith(typed)) || (ordinal !== undefined && word === `${ordinal}${ordinalSuffix(Number(ordinal))}`);
    const ids = new Set<string>();
    for (const name of this.named) {
      if (name.words.length <= words.length && ordinal === undefined) continue;
      if (words.every((w, k) => name.words[k] !== undefined && fits(w, name.words[k]!))) ids.add(name.id);
    }
    // Else its last words, two or more ("Medical District" of Illinois Medical District).
    if (ids.size === 0 && words.length >= 2) {
      for (const name of this.named) {
        const tail = name.words.slice(name.words.length - words.length);
        if (name.words.length > words.length && words.every((w, k) => w === tail[k])) ids.add(name.id);
      }
    }
    return ids.size <= MAX_LEADING ? [...ids] : [];
  }

  /**
   * Stations by the pinyin key of their names: the official names (Beijing's are pinyin) and the
   * Chinese local names and aliases (Taipei's official names are English: 台北車站 → taibeichezhan).
   * A stem several compass-suffixed names share ("tiananmen" of Tian'anmendong/-xi) names them all.
   */
  private pinyinIds(key: string): { ids: string[]; stem: boolean } | undefined {
    if (!this.pinyin) {
      const keys = new Map<string, string[]>();
      const add = (map: Map<string, string[]>, k: string, id: string): void => {
        if (k && !map.get(k)?.includes(id)) map.set(k, [...(map.get(k) ?? []), id]);
      };
      for (const s of this.system.stations) add(keys, pinyinKey(s.name.replace(/\(.*\)/, "")), s.id);
      for (const source of [this.data.localNames, this.data.aliases]) for (const [id, names] of source) for (const n of names) if (hasCjk(n)) for (const form of new Set([n, n.replace(/站$/, "")])) add(keys, pinyinKey(form), id);
      const stems = new Map<string, string[]>();
      for (const [k, ids] of keys) {
        const stem = compassStem(k);
        if (stem && !keys.has(stem)) for (const id of ids) add(stems, stem, id);
      }
      this.pinyin = { keys, stems };
    }
    const ids = this.pinyin.keys.get(key);
    if (ids) return { ids, stem: false };
    const stemmed = this.pinyin.stems.get(key);
    return stemmed ? { ids: stemmed, stem: true } : undefined;
  }

  private add(text: string, id: string, kind: MatchKind, confidence: number): void {
    if (hasCjk(text)) {
      this.addKey(this.cjk, text.replace(/\s+/g, ""), id, kind, confidence);
      if (text.endsWith("站")) this.addKey(this.cjk, text.slice(0, -1), id, kind, confidence);
      return;
    }
    if (hasArabic(text)) {
      this.addKey(this.arabic, foldArabic(text), id, kind, confidence);
      return;
    }
    const key = canon(foldLatin(text));
    if (key.length < 2 || (kind === "part" && (this.lineWords.has(key) || STOP.has(key) || key.length < 3))) return;
    this.addKey(this.latin, key, id, kind, confidence);
    const digits = key
      .split(" ")
      .map((t) => NUMBER_FORMS[t] ?? t)
      .join(" ");
    if (digits !== key && kind !== "part") this.addKey(this.latin, digits, id, kind, confidence);
  }

  private addKey(map: Map<string, Entry>, key: string, id: string, kind: MatchKind, confidence: number): void {
    if (!key) return;
    const existing = map.get(key);
    if (!existing) {
      map.set(key, { key, ids: [id], kind, confidence });
      if (map === this.latin) this.maxTokens = Math.max(this.maxTokens, key.split(" ").length);
      return;
    }
    if (existing.ids.includes(id)) {
      // The same station by a better kind of name (an official name beats a part of another).
      if (confidence > existing.confidence) Object.assign(existing, { kind, confidence });
      return;
    }
    // An exact official name stays first among the candidates.
    if (kind === "name" && existing.kind !== "name") {
      existing.ids.unshift(id);
      Object.assign(existing, { kind, confidence });
    } else existing.ids.push(id);
  }

  /** Each line's local name and the other names notices call it by, as [line id, name] pairs. */
  private localLineNames(): [string, string][] {
    return [...(this.data.lineNames ?? []), ...[...(this.data.lineAliases ?? [])].flatMap(([id, names]) => names.map((n): [string, string] => [id, n]))];
  }

  /**
   * Lines a Chinese text calls by their local names ("亦庄线", "文湖線", also written in the other
   * script), with where: notices name lines by name as often as by number.
   */
  chineseLines(text: string): { id: string; start: number; end: number }[] {
    const source = simplifiedChinese(text);
    const out: { id: string; start: number; end: number }[] = [];
    for (const [id, name] of this.localLineNames()) {
      if (!hasCjk(name)) continue;
      const key = simplifiedChinese(name);
      for (let at = source.indexOf(key); at >= 0; at = source.indexOf(key, at + 1)) {
        // "3号线" inside "13号线" is not line 3.
        if (/^[\p{L}\p{N}]/u.test(key) && /[A-Za-z0-9]$/u.test(source.slice(0, at))) continue;
        out.push({ id, start: at, end: at + key.length });
      }
    }
    return out.sort((a, b) => a.start - b.start);
  }

  /**
   * Lines an Arabic text names by the word that sets their local name apart ("الخط الأحمر" → "الأحمر",
   * also with a joined preposition or "and": "بالخط الأحمر", "الخطين الأحمر والأخضر").
   */
  arabicLines(text: string): string[] {
    const folded = ` ${foldArabic(text)} `;
    const out: string[] = [];
    for (const [id, name] of this.localLineNames()) {
      if (!hasArabic(name)) continue;
      const words = foldArabic(name.replace(/\(.*$/u, "")).split(" ").filter((w) => w !== "" && !/^(?:الخط|خط)$/u.test(w));
      if (words.length === 0) continue;
      const key = words.join(" ").replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      if (new RegExp(`(?<=\\s[بلوفك]?)${key}(?=\\s)`, "u").test(folded)) out.push(id);
    }
    return out;
  }

  /** Is this (folded) phrase a line name or colour ("red", "red line", "line 1")? */
  isLineWord(folded: string): boolean {
    return this.lineWords.has(canon(folded));
  }

  /** Every station mention in the text, in text order, without overlaps. */
  find(text: string): StationMatch[] {
    const found: StationMatch[] = [];
    if (hasCjk(text)) found.push(...withoutPlaceQualifiers(text, this.findCjk(text)));
    if (hasArabic(text)) found.push(...this.findArabic(text));
    found.push(...this.findLatin(text));
    return found.sort((a, b) => a.start - b.start);
  }

  private findLatin(text: string): StationMatch[] {
    const tokens = [...text.matchAll(/[\p{Script=Latin}\p{N}][\p{Script=Latin}\p{N}'’.]*/gu)].map((m) => ({
      raw: m[0],
      start: m.index ?? 0,
      end: (m.index ?? 0) + m[0].length,
      key: canon(foldLatin(m[0])),
    }));
    const used = new Array<boolean>(tokens.length).fill(false);
    const out: StationMatch[] = [];
    // Initials written apart ("L B Nagar") are rare: only a text that has them joins every span (a regex per span).
    const all = tokens.map((t) => t.key).filter(Boolean).join(" ");
    const spacedInitials = joinInitials(all) !== all;
    const span = (i: number, n: number): string => {
      const key = tokens.slice(i, i + n).map((t) => t.key).filter(Boolean).join(" ");
      return spacedInitials ? joinInitials(key) : key;
    };
    const push = (i: number, n: number, e: Entry, confidence = e.confidence, kind = e.kind): void => {
      for (let k = i; k < i + n; k++) used[k] = true;
      const first = tokens[i]!;
      const last = tokens[i + n - 1]!;
      out.push({ candidates: [...e.ids], confidence, kind, start: first.start, end: last.end, words: text.slice(first.start, last.end) });
    };
    // Exact names, longest first; then, over the same words, glued or pinyin spellings ("Tiananmen
    // dong" = "Tian'anmendong", "taibeichezhan" = 台北車站, "Songshan Jichang" = 松山機場 before
    // "Songshan") and the stem of several names ("tiananmen": Tian'anmendong or Tian'anmenxi,
    // asked about, never picked).
    for (let n = Math.max(Math.min(this.maxTokens, 6), 4); n >= 1; n--) {
      for (let i = 0; i + n <= tokens.length; i++) {
        if (used.slice(i, i + n).some(Boolean)) continue;
        const key = span(i, n);
        const entry = this.latin.get(key);
        if (entry && !(n === 1 && this.isLineWord(key) && entry.kind !== "name")) {
          // "Red Line": a colour followed by "line" is the line, not a station named after it.
          if (!(this.isLineWord(key) && /^line\b/i.test(tokens[i + n]?.raw ?? ""))) push(i, n, entry);
          continue;
        }
        const words = tokens.slice(i, i + n).map((t) => t.key);
        if (STOP.has(words[0]!) || STOP.has(words[words.length - 1]!)) continue;
        // "Beijing South" is Beijing South railway before "Beijing" alone is read as a name.
        const lead = n >= 2 ? this.leadingMatch(words) : undefined;
        if (lead) {
          push(i, n, lead);
          continue;
        }
        const glued = words.join("").replace(/ /g, "");
        const found = glued.length >= 5 ? this.pinyinIds(glued) : undefined;
        if (found) push(i, n, { key: glued, ids: found.ids, kind: "pinyin", confidence: found.stem ? 0.8 : 0.85 });
      }
    }
    // Abbreviations of a name, word by word.
    for (let n = 4; n >= 2; n--) {
      for (let i = 0; i + n <= tokens.length; i++) {
        if (used.slice(i, i + n).some(Boolean)) continue;
        const words = tokens.slice(i, i + n).map((t) => t.key);
        if (STOP.has(words[0]!) || STOP.has(words[words.length - 1]!)) continue;
        const id = this.abbreviated(words);
        if (id) push(i, n, { key: words.join(" "), ids: [id], kind: "abbreviation", confidence: 0.8 });
      }
    }
    // The first words of names, or a house number with a slipped suffix ("16th St" of 16th St
    // Mission, "Civic Ctr" of Civic Center/UN Plaza, "43rt"): unsure, so asked about, never picked.
    for (let n = 3; n >= 1; n--) {
      for (let i = 0; i + n <= tokens.length; i++) {
        if (used.slice(i, i + n).some(Boolean)) continue;
        const words = tokens.slice(i, i + n).map((t) => t.key);
        if (STOP.has(words[0]!) || STOP.has(words[words.length - 1]!)) continue;
        // One word only as a house number, or alone after "from" / "to" at the end of a clause
        // ("traveling from uic"; not "to city zhishan").
        const alone = words[0]!.length >= 3 && /^(?:from|to)$/.test(tokens[i - 1]?.key ?? "") && /^\s*(?:[,.;!?]|$)/.test(text.slice(tokens[i]!.end));
        if (n === 1 && !ORDINAL_SLIP.test(words[0]!) && !alone) continue;
        const lead = this.leadingMatch(words);
        if (lead) push(i, n, lead);
      }
    }
    // Near spellings of what is left.
    for (let n = 3; n >= 1; n--) {
      for (let i = 0; i + n <= tokens.length; i++) {
        if (used.slice(i, i + n).some(Boolean)) continue;
        const words = tokens.slice(i, i + n).map((t) => t.key);
        if (words.every((w) => STOP.has(w) || /^\d+$/.test(w))) continue;
        if (STOP.has(words[0]!) || STOP.has(words[words.length - 1]!)) continue;
        const key = words.join(" ");
        if (key.length < 5) continue;
        const match = this.nearest(key);
        if (match) push(i, n, match, 0.7, "fuzzy");
      }
    }
    return out;
  }

  /** The one entry within a small edit distance of `key` (none when two are equally near). */
  private nearest(key: string): Entry | undefined {
    const allowed = key.length >= 7 ? 2 : 1;
    let best: Entry | undefined;
    let bestD = Infinity;
    let tie = false;
    for (const e of this.latin.values()) {
      if (e.kind === "group" || Math.abs(e.key.length - key.length) > allowed) continue;
      const d = distance(key, e.key);
      if (d < bestD) {
        best = e;
        bestD = d;
        tie = false;
      } else if (d === bestD && best && best.ids.join() !== e.ids.join()) tie = true;
    }
    return best && bestD <= allowed && bestD > 0 && !tie ? best : undefined;
  }

  /**
   * The Chinese names keyed in simplified characters, built on the first Chinese text read: a
   * passenger typing simplified finds a traditional name ("松山机场" is 松山機場, not 松山 and the
   * word airport), and the other way round.
   */
  private simplifiedCjk(): Map<string, Entry> {
    if (!this.cjkSimplified) {
      const map = new Map<string, Entry>();
      for (const e of this.cjk.values()) for (const id of e.ids) this.addKey(map, simplifiedChinese(e.key), id, e.kind, e.confidence);
      this.cjkSimplified = map;
    }
    return this.cjkSimplified;
  }

  private cjkSimplified: Map<string, Entry> | undefined;

  private findCjk(text: string): StationMatch[] {
    const out: StationMatch[] = [];
    const taken = new Array<boolean>(text.length).fill(false);
    // Matched in simplified characters where the conversion keeps every character in its place.
    const simplified = simplifiedChinese(text);
    const [source, names] = simplified.length === text.length ? [simplified, this.simplifiedCjk()] : [text, this.cjk];
    const keys = [...names.keys()].sort((a, b) => b.length - a.length);
    for (const key of keys) {
      let from = 0;
      for (;;) {
        const at = source.indexOf(key, from);
        if (at < 0) break;
        from = at + 1;
        if (taken.slice(at, at + key.length).some(Boolean)) continue;
        for (let k = at; k < at + key.length; k++) taken[k] = true;
        const e = names.get(key)!;
        out.push({ candidates: [...e.ids], confidence: e.confidence, kind: e.kind, start: at, end: at + key.length, words: text.slice(at, at + key.length) });
      }
    }
    // Chinese runs left over, read as pinyin ("西直门" = "Xizhimen").
    for (const run of text.matchAll(/[\u3400-\u9fff]+/gu)) {
      const start = run.index ?? 0;
      const chars = run[0];
      for (let len = Math.min(chars.length, 6); len >= 2; len--) {
        for (let i = 0; i + len <= chars.length; i++) {
          if (taken.slice(start + i, start + i + len).some(Boolean)) continue;
          const sub = chars.slice(i, i + len).replace(/站$/, "");
          const found = sub.length >= 2 ? this.pinyinIds(pinyinKey(sub)) : undefined;
          if (!found) continue;
          for (let k = start + i; k < start + i + len; k++) taken[k] = true;
          out.push({ candidates: [...found.ids], confidence: 0.8, kind: "pinyin", start: start + i, end: start + i + len, words: chars.slice(i, i + len) });
        }
      }
    }
    return out;
  }

  private findArabic(text: string): StationMatch[] {
    const folded = ` ${foldArabic(text)} `;
    const out: StationMatch[] = [];
    const taken = new Array<boolean>(folded.length).fill(false);
    const keys = [...this.arabic.keys()].sort((a, b) => b.length - a.length);
    for (const key of keys) {
      // Arabic attaches prepositions to the word ("لمشيرب", "لعقبة بن نافع"): allow a one-letter
      // prefix anywhere in the text (the text is padded with spaces).
      const pattern = new RegExp(`(?<=\\s[بلوفك]?)${key.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?=\\s)`, "gu");
      for (const m of folded.matchAll(pattern)) {
        const at = m.index ?? 0;
        if (taken.slice(at, at + key.length).some(Boolean)) continue;
        for (let k = at; k < at + key.length; k++) taken[k] = true;
        const e = this.arabic.get(key)!;
        // Positions in the folded text order mentions like the original (folding keeps word order).
        out.push({ candidates: [...e.ids], confidence: e.confidence, kind: e.kind, start: at, end: at + key.length, words: key });
      }
    }
    return out;
  }

  /** Entry lookup by a single name (for tests and the screen's search). */
  lookup(name: string): string[] {
    const key = hasCjk(name) ? name : hasArabic(name) ? foldArabic(name) : canon(fold(name));
    return [...((hasCjk(name) ? this.cjk : hasArabic(name) ? this.arabic : this.latin).get(key)?.ids ?? [])];
  }
}

/** A system's extra names, or how to load them when a lexicon first needs them. */
export type LanguageDataSource = LanguageData | (() => LanguageData);

const registry = new Map<string, LanguageDataSource>();
const lexicons = new WeakMap<SystemData, { lexicon: StationLexicon; data: LanguageData | undefined }>();

/**
 * The host registers the extra names of a system once (loaded outside this pure layer). A loader
 * runs on the first lexicon built for the system: a run that reads no passenger words (the bench's
 * rule-ref replay) never pays for the gtfs and operator files.
 */
export function registerLanguageData(systemId: string, source: LanguageDataSource): void {
  registry.set(systemId, source);
}

export function hasLanguageData(systemId: string): boolean {
  return registry.has(systemId);
}

function languageData(systemId: string): LanguageData | undefined {
  const source = registry.get(systemId);
  if (typeof source !== "function") return source;
  const data = source();
  registry.set(systemId, data);
  return data;
}

/** The lexicon of a system (cached per SystemData). */
export function lexiconFor(system: SystemData): StationLexicon {
  const data = languageData(system.id);
  const cached = lexicons.get(system);
  if (cached && cached.data === data) return cached.lexicon;
  const lexicon = new StationLexicon(system, data ?? { localNames: new Map(), aliases: new Map(), landmarks: new Map() });
  lexicons.set(system, { lexicon, data });
  return lexicon;
}

/**
 * A Chinese name that qualifies the place after it, not a station: "北京天安门东" (Beijing's Tiananmen
 * East), "北京的三元桥", "北京市的人民大学", "北京东城的雍和宫" — a name written without 站 and followed
 * by another station's name, right after it or after 市, a district or 的 ("西单的出口" is still
 * Xidan). The qualifier joins the station's mention, so the words before it still say which end it is.
 */
/** Cities whose names are also a station's short name (北京站, 台北車站). */
const CITY_NAMES = /^(?:北京|台北|臺北|上海)$/u;

function withoutPlaceQualifiers(text: string, found: StationMatch[]): StationMatch[] {
  const out: StationMatch[] = [];
  const joined = new Set<StationMatch>();
  for (const m of found) {
    if (joined.has(m)) continue;
    const next = m.words.endsWith("站")
      ? undefined
      : found.find((n) => n.start >= m.end && n.start <= m.end + 5 && /^(?:市|省)?(?:[\p{Script=Han}]{1,3}?(?:区|區)?)?的?$/u.test(text.slice(m.end, n.start)) && (n.start === m.end || /的$|^市/u.test(text.slice(m.end, n.start))));
    // "北京工业大学西门": a city's name beginning a longer place name the kiosk does not know is not its station.
    if (!next && CITY_NAMES.test(m.words) && /^[\p{Script=Han}]{2}/u.test(text.slice(m.end)) && !/^(?:[站车車客]|[到去往至和跟与與])/u.test(text.slice(m.end))) continue;
    if (!next) {
      out.push(m);
      continue;
    }
    joined.add(next);
    out.push({ ...next, start: m.start, words: text.slice(m.start, next.end) });
  }
  return out;
}
