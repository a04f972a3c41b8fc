// Type-ahead over station names, ids, local-language names (Chinese, Arabic, …), the other words
// passengers use (aliases, landmarks, "airport") and the pinyin of Chinese names. Matching is
// case-, accent-, tone-, apostrophe- and space-insensitive ("tiananmen" finds Tian'anmendong and
// 天安门东) and (for Arabic) diacritic-insensitive; prefixes rank above inner matches.
import type { StationView } from "./types.ts";

const ARABIC_DIACRITICS = /[\u064B-\u065F\u0670\u06D6-\u06ED\u0640]/g; // harakat, dagger alif, Quranic marks, tatweel
const LATIN_MARKS = /[\u0300-\u036f]/g;

/** Folds a name or query for comparison. */
export function foldForSearch(text: string): string {
  return text
    .normalize("NFKD")
    .replace(LATIN_MARKS, "")
    .replace(ARABIC_DIACRITICS, "")
    .replace(/[أإآٱ]/g, "ا")
    .replace(/ى/g, "ي")
    .replace(/ة/g, "ه")
    .replace(/ؤ/g, "و")
    .replace(/ئ/g, "ي")
    // Taiwan writes 臺 as 台 (台北): either finds the other.
    .replace(/臺/g, "台")
    .toLowerCase()
    // A middle dot joins two names in one (Busan's 경성대·부경대): a separator, like "/".
    .replace(/[\s'’`\-_/.()·]+/g, " ")
    .trim();
}

export interface StationMatch {
  station: StationView;
  /** The name that matched (the station's name, id, one of its local names or aliases; a Chinese name its pinyin matched). */
  matched: string;
  rank: number;
}

function rankOf(candidate: string, query: string): number | null {
  const folded = foldForSearch(candidate);
  if (folded === query) return 0;
  if (folded.startsWith(query)) return 1;
  if (folded.split(" ").some((word) => word.startsWith(query))) return 2;
  // Pinyin written without its apostrophes or spaces, or with others: "tiananmen", "tian an men".
  if (folded.replace(/ /g, "").startsWith(query.replace(/ /g, ""))) return 2;
  if (folded.includes(query)) return 3;
  // Ignore the Arabic article: "wakra" finds "Al Wakra", "وكرة" finds "الوكرة".
  const withoutArticle = folded.replace(/^(al |el |ال)/, "");
  if (withoutArticle !== folded && withoutArticle.startsWith(query.replace(/^(al |el |ال)/, ""))) return 2;
  return null;
}

/**
 * How the list is ordered: by the name the screen shows, in its language's alphabetical order (an
 * Arabic screen lists الوكرة under و, not Al Wakra under A). Default: the English name.
 */
export interface SearchOrder {
  nameOf: (station: StationView) => string;
  collator: Intl.Collator;
}

const ENGLISH_ORDER: SearchOrder = { nameOf: (s) => s.name, collator: new Intl.Collator("en") };

/** Stations matching the query, best first (all stations, alphabetically, for an empty query). */
export function searchStations(stations: readonly StationView[], query: string, limit = 50, order: SearchOrder = ENGLISH_ORDER): StationMatch[] {
  const folded = foldForSearch(query);
  const byName = (a: StationView, b: StationView): number => order.collator.compare(order.nameOf(a), order.nameOf(b));
  if (folded === "") {
    return [...stations]
      .sort(byName)
      .slice(0, limit)
      .map((station) => ({ station, matched: station.name, rank: 0 }));
  }
  const matches: StationMatch[] = [];
  for (const station of stations) {
    let best: StationMatch | null = null;
    for (const candidate of [station.name, station.id, ...station.localNames]) {
      const rank = rankOf(candidate, folded);
      if (rank !== null && (best === null || rank < best.rank)) best = { station, matched: candidate, rank };
    }
    // Another word for it ranks below its names unless typed whole ("SFO", "airport"): "tiananmen"
    // lists Tian'anmendong before Qianmen, which serves Tiananmen Square.
    for (const candidate of station.aliases ?? []) {
      const found = rankOf(candidate, folded);
      const rank = found === null || found === 0 ? found : found + 1;
      if (rank !== null && (best === null || rank < best.rank)) best = { station, matched: candidate, rank };
    }
    // Typed pinyin finds the Chinese name it spells ("tiananmen" → 天安门东), a prefix at least.
    const compact = folded.replace(/ /g, "");
    for (const [name, key] of Object.entries(station.pinyin ?? {})) {
      const rank = key === compact ? 0 : key.startsWith(compact) ? 1 : null;
      if (rank !== null && (best === null || rank < best.rank)) best = { station, matched: name, rank };
    }
    if (best) matches.push(best);
  }
  return matches
    .sort((a, b) => a.rank - b.rank || byName(a.station, b.station))
    .slice(0, limit);
}
