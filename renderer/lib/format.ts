// Money and passenger wording as the framebook wants them shown.
import type { TFunction } from "i18next";
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

/** "2 adults, 1 child and 1 senior" (in the UI language, list joined the locale's way). */
export function passengersInWords(summary: Partial<PassengerSummary>, t: TFunction, language: string): string {
  const parts: string[] = [];
  for (const rider of KNOWN_RIDER_TYPES) {
    const count = summary[rider] ?? 0;
    if (count > 0) parts.push(t(`riders.${rider}`, { count }));
  }
  if ((summary.free_riders ?? 0) > 0) parts.push(t("riders.free", { count: summary.free_riders ?? 0 }));
  return new Intl.ListFormat(language, { style: "long", type: "conjunction" }).format(parts);
}

/** A rider type as a label ("adults" → "Adults"); unknown types are shown as given. */
export function riderLabel(riderType: string, t: TFunction): string {
  return isKnownRiderType(riderType) ? t(`riderType.${riderType}`) : riderType;
}
