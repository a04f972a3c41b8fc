// Station, line and payment names in the passenger's language: the name the pack or the operator's
// local-names file gives for that language, else (Chinese screens) the other Chinese script, else
// the system's own-language name on a screen in that language, else the English name.
import type { SystemView } from "../../runtime/kiosk/bridge.ts";
import { screenLanguageOf, type Language } from "../i18n/catalog.ts";
import type { StationView } from "./types.ts";

type Named = { localized?: Record<string, string> | undefined };

const CHINESE_FALLBACK: Partial<Record<Language, Language>> = { "zh-Hans": "zh-Hant", "zh-Hant": "zh-Hans" };

function localizedOf(item: Named, language: Language): string | undefined {
  const own = item.localized?.[language];
  if (own) return own;
  const other = CHINESE_FALLBACK[language];
  return other ? item.localized?.[other] : undefined;
}

/** A place's name in `language` where it has one (the other Chinese script for Chinese), else its own name. */
export function nameIn(item: Named & { name: string }, language: Language): string {
  return localizedOf(item, language) ?? item.name;
}

/** A station's name on a screen in `language`. */
export function stationName(system: SystemView, station: StationView, language: Language): string {
  const localized = localizedOf(station, language);
  if (localized) return localized;
  // Views without `localized` (older hosts, demo data): local names are in the system's language.
  const systemLanguage = screenLanguageOf(system.primaryLanguage);
  if (station.localized === undefined && station.localNames[0] && systemLanguage !== "en" && (systemLanguage === language || CHINESE_FALLBACK[language] === systemLanguage)) {
    return station.localNames[0];
  }
  return station.name;
}

/** By station id, or by the pack's English name (a route's `origin`/`destination` may be either). */
export function stationNameById(system: SystemView, id: string, language: Language, fallback?: string): string {
  const station = system.stations.find((s) => s.id === id) ?? system.stations.find((s) => s.name === id);
  return station ? stationName(system, station, language) : (fallback ?? id);
}

export function lineName(system: SystemView, lineId: string, language: Language): string {
  const line = system.lines.find((l) => l.id === lineId);
  return line ? (localizedOf(line, language) ?? line.name) : lineId;
}

export function paymentLabel(system: SystemView, methodId: string, language: Language): string {
  const method = system.paymentMethods.find((m) => m.id === methodId);
  return method ? (localizedOf(method, language) ?? method.label) : methodId;
}

/**
 * Text inside first-strong isolates (U+2068 … U+2069): a Latin station name in an Arabic sentence
 * (or an Arabic one in an English sentence) keeps its place and does not drag the arrow or the
 * words around it into its own direction.
 */
export function isolate(text: string): string {
  return `\u2068${text}\u2069`;
}
