// Shared types of the passenger-language layer. Pure domain code (no Node I/O).

/** The languages a passenger can use at the kiosk (mirrors the bridge's PassengerLanguage). */
export type PassengerLanguage = "en" | "zh-Hans" | "zh-Hant" | "ar" | "es";

/** Extra names per station the data pack's stations.json lacks (local script, common names). */
export interface LanguageData {
  /** Station id → names in the local language (pack gtfs native names, operator local-names.yaml). */
  localNames: ReadonlyMap<string, readonly string[]>;
  /** Station id → common names and codes passengers use ("SFO", "Ximending"). */
  aliases: ReadonlyMap<string, readonly string[]>;
  /** Landmark → the station(s) serving it; several stations make the landmark ambiguous. */
  landmarks: ReadonlyMap<string, readonly string[]>;
  /** Line id → its name in the local language ("亦庄线", "文湖線"), as operators' notices call it. */
  lineNames?: ReadonlyMap<string, string>;
  /** Line id → other names notices call it by (a former name: "木柵線" for 文湖線). */
  lineAliases?: ReadonlyMap<string, readonly string[]>;
}

export const EMPTY_LANGUAGE_DATA: LanguageData = { localNames: new Map(), aliases: new Map(), landmarks: new Map() };

export type RiderCounts = { adults: number; children: number; seniors: number; disabled: number };

/** How a name in the text was matched. */
export type MatchKind = "name" | "part" | "local" | "alias" | "landmark" | "pinyin" | "abbreviation" | "fuzzy" | "group";

export interface StationMatch {
  /** Candidate station ids, best first; more than one means the words are ambiguous. */
  candidates: string[];
  /** 0..1: 1 for an exact official name, lower for parts, aliases and typos. */
  confidence: number;
  kind: MatchKind;
  /** Where in the (original) text the name was found. */
  start: number;
  end: number;
  /** The words as the passenger wrote them. */
  words: string;
}
