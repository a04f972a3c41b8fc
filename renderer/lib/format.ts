// Money and passenger wording as the framebook wants them shown.
import type { TFunction } from "i18next";
import type { SystemView } from "../../runtime/kiosk/bridge.ts";
import type { PassengerSummary } from "./types.ts";

/**
 * An amount in the framebook's `fareDisplayFormat`: "$X.XX" → "$2.50", "¥X" → "¥4", "QR X" →
 * "QR 2", "NT$X" → "NT$25". The number of X's after the point fixes the decimals; a format without
 * decimals still shows the cents of an amount that has some (money is never hidden).
 */
export function formatFare(amount: number, displayFormat: string, currencySymbol = ""): string {
  const match = /X(?:\.(X+))?/.exec(displayFormat);
  const negative = amount < 0;
  const value = Math.abs(amount);
  const decimals = match?.[1]?.length ?? 0;
  const figures = new Intl.NumberFormat("en-US", {
    minimumFractionDigits: Number.isInteger(value) ? decimals : Math.max(decimals, 2),
    maximumFractionDigits: Number.isInteger(value) ? decimals : Math.max(decimals, 2),
  }).format(value);
  const text = match ? displayFormat.slice(0, match.index) + figures + displayFormat.slice(match.index + match[0].length) : `${currencySymbol}${figures}`;
  return negative ? `−${text}` : text;
}

export const KNOWN_RIDER_TYPES = ["adults", "children", "seniors", "disabled"] as const;
export type KnownRiderType = (typeof KNOWN_RIDER_TYPES)[number];

export function isKnownRiderType(value: string): value is KnownRiderType {
  return (KNOWN_RIDER_TYPES as readonly string[]).includes(value);
}

export type RiderRules = NonNullable<SystemView["riderRules"]>;

/** Numbers in the screen's language, always in Latin digits (as fares and signage show them). */
export function numberLocale(language: string): string {
  return `${language}-u-nu-latn`;
}

/** A fare qualifier of the pack ("under 5", "under 120cm") in the screen's language. */
export function qualifierText(qualifier: string | null, t: TFunction): string {
  if (!qualifier) return "";
  const age = /^under\s+(\d+)$/i.exec(qualifier.trim());
  if (age) return t("fare.underAge", { age: age[1] ?? "" });
  const height = /^under\s+(\d+)\s*cm$/i.exec(qualifier.trim());
  if (height) return t("fare.underHeight", { cm: height[1] ?? "" });
  return qualifier;
}

/**
 * "2 adults and 1 child (under 5, free)" in the UI language. Free riders are the passengers of a
 * rider type that rides free, said next to that type — never as an extra person ("… and 1 rides
 * free" read as a fourth traveller); only free riders no type explains get "of whom N ride free".
 */
export function passengersInWords(summary: Partial<PassengerSummary>, t: TFunction, language: string, rules?: RiderRules): string {
  const parts: string[] = [];
  let unexplained = summary.free_riders ?? 0;
  for (const rider of KNOWN_RIDER_TYPES) {
    const count = summary[rider] ?? 0;
    if (count <= 0) continue;
    const rule = rules?.[rider];
    if (rule?.free && rider !== "adults" && unexplained > 0) {
      const note = rule.qualifier ? t("riders.freeNote", { qualifier: qualifierText(rule.qualifier, t) }) : t("riders.freeNoteNoQualifier");
      parts.push(`${t(`riders.${rider}`, { count })} (${note})`);
      unexplained = Math.max(0, unexplained - count);
    } else {
      parts.push(t(`riders.${rider}`, { count }));
    }
  }
  const list = new Intl.ListFormat(language, { style: "long", type: "conjunction" }).format(parts);
  return unexplained > 0 ? `${list}, ${t("riders.ofWhomFree", { count: unexplained })}` : list;
}

/** The route's length in the system's unit ("8.8 miles", "14.2 km"). */
export function formatDistance(miles: number, unit: "mi" | "km", t: TFunction, language: string): string {
  const format = new Intl.NumberFormat(numberLocale(language), { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  return unit === "km" ? t("route.distanceKm", { km: format.format(miles * 1.609344) }) : t("route.distance", { miles: format.format(miles) });
}

const SINGULAR: Readonly<Record<string, KnownRiderType>> = { adult: "adults", child: "children", senior: "seniors", disabled_rider: "disabled" };

/** A fare line's rider type as the screen's rider type ("adult" and "adults" are one type). */
export function knownRiderType(riderType: string): KnownRiderType | null {
  const key = riderType.trim().toLowerCase();
  return isKnownRiderType(key) ? key : (SINGULAR[key] ?? null);
}

/** A rider type as a label ("adults" → "Adults"); unknown types are shown as given. */
export function riderLabel(riderType: string, t: TFunction): string {
  const known = knownRiderType(riderType);
  return known ? t(`riderType.${known}`) : riderType;
}
