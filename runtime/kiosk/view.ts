// SystemView: everything the screen needs to draw one system, built from the validated system data
// plus the run-time extras (coordinates, local names, attribution). Pure.
import type { SystemData } from "../../tools/data/system.ts";
import { AIRPORT_WORDS, airportStations } from "../language/airports.ts";
import { pinyinKey } from "../language/pinyin.ts";
import { hasCjk } from "../language/text.ts";
import { sha256hex12 } from "../../tools/py/text.ts";
import { passengerLanguageOf, type RiderType, type StationView, type SystemSummary, type SystemView } from "./bridge.ts";
import type { LineShapes, OperatorLocalNames, StationGeoIndex } from "./extras.ts";

export interface ViewExtras {
  geo?: StationGeoIndex;
  lineShapes?: LineShapes;
  operatorNames?: OperatorLocalNames;
  attribution: string;
}

export function systemSummary(system: SystemData): SystemSummary {
  return { id: system.id, orgName: system.framebook.org_name, fullName: system.framebook.full_name };
}

/**
 * The framebook's identity for the ledger and the screen: its own `version` when it has one,
 * plus a content hash so an edited framebook never passes for the old one.
 */
export function framebookVersion(system: SystemData): string {
  const declared = (system.framebook as Record<string, unknown>).version;
  const hash = sha256hex12(JSON.stringify(system.framebook));
  return typeof declared === "string" || typeof declared === "number" ? `${declared}+${hash}` : `fb-${hash}`;
}

function squash(s: string): string {
  return s.toLowerCase().replace(/[^a-z0-9]+/g, "");
}

function titleWords(key: string): string {
  return key
    .split(/[_\s-]+/)
    .filter(Boolean)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(" ");
}

/** A label as a button shows it: its first letter a capital ("smart card" → "Smart card"), the rest as written. */
function buttonLabel(label: string): string {
  return label.charAt(0).toLocaleUpperCase("en") + label.slice(1);
}

/**
 * Payment methods of fares.json with the framebook's wording: the terminology entry whose label
 * starts with the method key ("breeze_card" → "Breeze Card", "gold_travel_card" → "Gold Travel
 * Card", "mobile_pay" → "Mobile payment (…)"), `contactless` → its label, otherwise the key in words.
 * Fares that name no method (an imported feed's) are paid the two ways every framebook names and
 * the assistant offers: its `smartcard` and `contactless` (the fare does not depend on the method).
 */
export function paymentMethodsOf(system: SystemData): { id: string; label: string }[] {
  const terminology = system.framebook.terminology as Record<string, unknown>;
  const labels = Object.values(terminology).filter((v): v is string => typeof v === "string" && v.trim() !== "");
  const ids = Object.keys(system.fares.payment_methods ?? {});
  if (ids.length === 0) {
    const { smartcard, contactless } = system.framebook.terminology;
    return [
      { id: "smartcard", label: buttonLabel(smartcard) },
      { id: "contactless", label: buttonLabel(contactless) },
    ];
  }
  return ids.map((id) => {
    const key = squash(id);
    const byPrefix = labels.find((l) => squash(l).startsWith(key));
    const direct = typeof terminology[id] === "string" ? (terminology[id] as string) : undefined;
    return { id, label: byPrefix ?? direct ?? titleWords(id) };
  });
}

export function riderTypesOf(system: SystemData): RiderType[] {
  const d = system.fares.discounts ?? {};
  const out: RiderType[] = ["adults"];
  if (d.children) out.push("children");
  if (d.senior_65_plus) out.push("seniors");
  if (d.disabled) out.push("disabled");
  return out;
}

/** Who qualifies for each discounted rider type and whether they ride free (for the fare card). */
export function riderRulesOf(system: SystemData): NonNullable<SystemView["riderRules"]> {
  const d = (system.fares.discounts ?? {}) as Record<string, Record<string, unknown> | undefined>;
  const keys: Record<string, string> = { children: "children", seniors: "senior_65_plus", disabled: "disabled" };
  const out: NonNullable<SystemView["riderRules"]> = {};
  for (const [rider, key] of Object.entries(keys)) {
    const rule = d[key];
    if (!rule) continue;
    const qualifier = typeof rule.qualifier === "string" && rule.qualifier.trim() ? rule.qualifier.trim() : null;
    const free = rule.fare === 0 || rule.multiplier === 0;
    const maxPerAdult = typeof rule.max_per_adult === "number" ? rule.max_per_adult : null;
    out[rider] = { qualifier, free, maxPerAdult };
  }
  return out;
}

/** Miles on the US systems (fares in USD), kilometres everywhere else; a framebook `distance_unit` wins. */
export function distanceUnitOf(system: SystemData): "mi" | "km" {
  const declared = (system.framebook as Record<string, unknown>).distance_unit;
  if (declared === "mi" || declared === "km") return declared;
  return system.framebook.currency_code === "USD" ? "mi" : "km";
}

function operatingHours(system: SystemData): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const [k, v] of Object.entries(system.framebook.operating_hours as Record<string, unknown>)) {
    if (typeof v === "string" || typeof v === "number") out[k] = v;
    else if (Array.isArray(v)) out[k] = v.map(String).join(", ");
  }
  return out;
}

function terminologyOf(system: SystemData): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  for (const [k, v] of Object.entries(system.framebook.terminology as Record<string, unknown>)) {
    if (typeof v === "string" || v === null) out[k] = v;
  }
  return out;
}

export function buildSystemView(system: SystemData, extras: ViewExtras): SystemView {
  const fb = system.framebook;
  // The pack's native names are in the system's own language; the operator file says its language.
  const packLanguage = passengerLanguageOf(fb.primary_language);
  const operatorLanguage = extras.operatorNames ? passengerLanguageOf(extras.operatorNames.language) : null;
  // Each station's native (pack) and operator names, read once for the airport reading and the view.
  const localNamesById = new Map(system.stations.map((s) => [s.id, [...new Set([...(extras.geo?.find(s)?.nativeNames ?? []), ...(extras.operatorNames?.byStation.get(s.id) ?? [])])]]));
  const aliasesOf = (id: string): string[] => [...(extras.operatorNames?.aliases.get(id) ?? [])];
  // The same airport reading as the passenger-language layer's, so typing "airport" finds what saying it does.
  const airports = airportStations(system.stations.map((s) => [s.id, [s.name, ...(localNamesById.get(s.id) ?? []), ...aliasesOf(s.id)]] as const));
  const landmarksOf = new Map<string, string[]>();
  for (const [landmark, ids] of extras.operatorNames?.landmarks ?? []) for (const id of ids) landmarksOf.set(id, [...(landmarksOf.get(id) ?? []), landmark]);
  const stations: StationView[] = system.stations.map((s) => {
    const geo = extras.geo?.find(s);
    const operatorNames = extras.operatorNames?.byStation.get(s.id) ?? [];
    const localNames = localNamesById.get(s.id) ?? [];
    const localized: Record<string, string> = {};
    const native = geo?.nativeNames[0];
    if (packLanguage && packLanguage !== "en" && native) localized[packLanguage] = native;
    if (operatorLanguage && operatorNames[0]) localized[operatorLanguage] = operatorNames[0];
    const aliases = [...new Set([...aliasesOf(s.id), ...(landmarksOf.get(s.id) ?? []), ...(airports.has(s.id) ? AIRPORT_WORDS : [])])];
    // The generic airport words stay out: the candidate bar offers a system's own names, in its own script.
    const pinyin = Object.fromEntries([...localNames, ...aliases].filter((n) => hasCjk(n) && !AIRPORT_WORDS.includes(n)).map((n) => [n, pinyinKey(n)]));
    return {
      id: s.id,
      name: s.name,
      localNames,
      lines: [...s.lines],
      lat: geo?.lat ?? null,
      lon: geo?.lon ?? null,
      ...(Object.keys(localized).length > 0 ? { localized } : {}),
      ...(aliases.length > 0 ? { aliases } : {}),
      ...(Object.keys(pinyin).length > 0 ? { pinyin } : {}),
    };
  });
  const localizedBy = (map: ReadonlyMap<string, string> | undefined, id: string): { localized?: Record<string, string> } => {
    const name = map?.get(id);
    return operatorLanguage && name ? { localized: { [operatorLanguage]: name } } : {};
  };
  let attribution = extras.attribution;
  if (extras.operatorNames) {
    attribution += ` Station names (${extras.operatorNames.language}): operator data, not from the data pack.`;
  }
  return {
    ...systemSummary(system),
    primaryLanguage: fb.primary_language,
    currencySymbol: fb.currency_symbol,
    currencyCode: fb.currency_code,
    fareDisplayFormat: fb.fare_display_format,
    terminology: terminologyOf(system),
    paymentMethods: paymentMethodsOf(system).map((m) => ({ ...m, ...localizedBy(extras.operatorNames?.byPaymentMethod, m.id) })),
    riderTypes: riderTypesOf(system),
    riderRules: riderRulesOf(system),
    distanceUnit: distanceUnitOf(system),
    operatingHours: operatingHours(system),
    stations,
    lines: system.lines.map((l) => {
      const shape = extras.lineShapes?.get(l.id);
      return { id: l.id, name: l.name, color: l.color, stations: [...l.stations], ...(shape && shape.length > 1 ? { shape: shape.map(([lat, lon]) => [lat, lon] as [number, number]) } : {}), ...localizedBy(extras.operatorNames?.byLine, l.id) };
    }),
    framebookVersion: framebookVersion(system),
    attribution,
  };
}
