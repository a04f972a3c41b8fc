// Money and passenger wording as the framebook wants them shown.
import type { TFunction } from "i18next";
import type { SystemView } from "../../runtime/kiosk/bridge.ts";
import type { PassengerSummary } from "./types.ts";

/** What an amount is written with: the framebook's ISO 4217 currency code, its display format and symbol. */
export type MoneyFormat = Pick<SystemView, "currencyCode" | "fareDisplayFormat" | "currencySymbol">;

/** Intl's currency formatter for `code` (null: not a well-formed currency code). */
function currencyFormatter(code: string, display: "symbol" | "narrowSymbol", decimals?: number): Intl.NumberFormat | null {
  try {
    return new Intl.NumberFormat("en-US", {
      style: "currency",
      currency: code,
      currencyDisplay: display,
      ...(decimals === undefined ? {} : { minimumFractionDigits: decimals, maximumFractionDigits: decimals }),
    });
  } catch {
    return null;
  }
}

/** Currency signs ($, ¥, ₹, …) in a text. */
function currencySigns(text: string): string[] {
  return text.match(/\p{Sc}/gu) ?? [];
}

/**
 * An amount in the system's currency, through Intl.NumberFormat with the framebook's currency
 * code (its grouping and usual decimals; its sign where the framebook gives none), written as the
 * framebook's `fareDisplayFormat` shows it: "$X.XX" → "$2.50", "¥X" → "¥4", "QR X" → "QR 2",
 * "NT$X" → "NT$25", "₹X.XX" → "₹50.00". The X's after the point fix the decimals; a whole-unit
 * format still shows the cents of an amount that has some (money is never hidden). A format whose
 * sign is not the code's (a draft's "$X.XX" for INR) gives way to the code's own sign: a fare is
 * never shown in another currency.
 */
export function formatFare(amount: number, money: MoneyFormat): string {
  const format = money.fareDisplayFormat;
  const match = /X(?:\.(X+))?/.exec(format);
  const negative = amount < 0;
  const value = Math.abs(amount);
  const usual = currencyFormatter(money.currencyCode, "narrowSymbol")?.resolvedOptions().maximumFractionDigits ?? 2;
  const wanted = match ? (match[1]?.length ?? 0) : usual;
  const decimals = Number.isInteger(value) ? wanted : Math.max(wanted, 2);
  const intl = currencyFormatter(money.currencyCode, "narrowSymbol", decimals);
  const parts = intl?.formatToParts(value) ?? new Intl.NumberFormat("en-US", { minimumFractionDigits: decimals, maximumFractionDigits: decimals }).formatToParts(value);
  const figures = parts
    .filter((p) => p.type === "integer" || p.type === "group" || p.type === "decimal" || p.type === "fraction")
    .map((p) => p.value)
    .join("");
  const before = match ? format.slice(0, match.index) : "";
  const after = match ? format.slice(match.index + match[0].length) : "";
  const signOf = (f: Intl.NumberFormat | null): string => f?.formatToParts(0).find((p) => p.type === "currency")?.value ?? "";
  const codeSigns = new Set([...currencySigns(signOf(intl)), ...currencySigns(signOf(currencyFormatter(money.currencyCode, "symbol")))]);
  const formatFits = intl === null || currencySigns(before + after).every((sign) => codeSigns.has(sign));
  let text: string;
  if (match && formatFits) text = before + figures + after;
  else if (intl) text = parts.map((p) => p.value).join("");
  else text = `${money.currencySymbol}${figures}`;
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
