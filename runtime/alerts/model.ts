// Service alerts: an operator's (or a GTFS-Realtime feed's) disruption, in the data pack's
// vocabulary — type, severity, lines, stations or a segment, a validity window, passenger text per
// language. The file format is the pack's own spelling (snake_case, `valid_from`, `eta_resolution`).
// Validation is pure: zod for the shape, then checks against the system's data (stations, lines,
// a segment that lies on a line), every problem reported with the field it concerns.
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";
import { z } from "zod";
import { SystemIdSchema, UnreadDecisionSchema, type SystemId } from "../../tools/data/schemas.ts";
import type { SystemData } from "../../tools/data/system.ts";
import { defaultSeverity, DisruptionSeveritySchema, DisruptionTypeSchema, isLineType, isStationType } from "./vocabulary.ts";

const LOCAL_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;
const ZONED_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})$/;
export const ALERT_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,79}$/;
const LANGUAGE_TAG = /^[a-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$/;

/** Local wall-clock ISO time without zone, to the second, as the pack writes it (2026-03-09T06:00:00). */
export function localIso(date: Date): string {
  const pad = (n: number): string => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

/**
 * A time as the kiosk compares it: local wall-clock "YYYY-MM-DDTHH:MM[:SS]" (kept as written, with
 * seconds added), or a time with a zone ("…Z", "…+02:00") converted to this machine's local time.
 * Null when it is not a real time of day.
 */
export function normaliseTime(text: string): string | null {
  const t = text.trim();
  const local = LOCAL_TIME.exec(t);
  if (local) {
    const [, y, mo, d, h, mi, s] = local.map(Number) as [number, number, number, number, number, number, number];
    const date = new Date(y, mo - 1, d, h, mi, Number.isNaN(s) ? 0 : s);
    if (date.getFullYear() !== y || date.getMonth() !== mo - 1 || date.getDate() !== d || date.getHours() !== h || date.getMinutes() !== mi) return null;
    return localIso(date);
  }
  if (ZONED_TIME.test(t)) {
    const date = new Date(t);
    return Number.isNaN(date.getTime()) ? null : localIso(date);
  }
  return null;
}

const nonBlank = z.string().trim().min(1, "must not be empty");
const timeField = z.string().refine((v) => normaliseTime(v) !== null, 'expected a local time "YYYY-MM-DDTHH:MM" (or an ISO time with a zone)');

/** Passenger text per language (BCP 47 tag → text): at least one language, every text non-blank. */
export const AlertTextSchema = z.record(z.string(), nonBlank).superRefine((t, ctx) => {
  if (Object.keys(t).length === 0) ctx.addIssue({ code: "custom", message: "at least one language's text is needed" });
  for (const tag of Object.keys(t)) {
    if (!LANGUAGE_TAG.test(tag)) ctx.addIssue({ code: "custom", path: [tag], message: `'${tag}' is not a language tag such as en, es, zh-TW` });
  }
});

/**
 * The passenger text the operator screen sends: English always (every screen language falls back
 * to it), the system's local language and the other screen languages optional. A feed or a CLI
 * import may carry only the local language; an operator at the kiosk writes the English one too.
 */
export const OperatorAlertTextSchema = AlertTextSchema.superRefine((t, ctx) => {
  if (!Object.hasOwn(t, "en")) ctx.addIssue({ code: "custom", path: ["en"], message: "the English text is required (every screen language falls back to it)" });
});

/** An alert as an operator writes it (CLI flags, a JSON/YAML file, the operator screen). */
export const AlertInputSchema = z.strictObject({
  id: z.string().regex(ALERT_ID, "letters, digits and . _ : - only, at most 80 characters").optional(),
  system: SystemIdSchema,
  type: DisruptionTypeSchema,
  /** Default: the framebook's advisory_severity_mapping for the type, else by kind. */
  severity: DisruptionSeveritySchema.optional(),
  /** Line ids or names. */
  lines: z.array(nonBlank).default([]),
  /** Station ids or names (station closures, entry restrictions, elevator outages). */
  stations: z.array(nonBlank).default([]),
  /** No service between two stations of one line (ids or names). */
  segment: z.strictObject({ from_station: nonBlank, to_station: nonBlank }).nullable().default(null),
  valid_from: timeField.nullable().default(null),
  valid_until: timeField.nullable().default(null),
  /** Passenger text per language (BCP 47 tag → text); at least one. */
  text: AlertTextSchema,
  alternative: nonBlank.nullable().default(null),
  eta_resolution: nonBlank.nullable().default(null),
  /** The operator's decision on words that stop service where the kiosk cannot map it. */
  if_unread: UnreadDecisionSchema.optional(),
});
export type AlertInput = z.input<typeof AlertInputSchema>;

export const AlertSourceSchema = z.discriminatedUnion("kind", [
  z.strictObject({ kind: z.literal("operator") }),
  /** From a GTFS-Realtime feed: the feed (file or URL) and the entity id in it. */
  z.strictObject({ kind: z.literal("gtfs-rt"), feed: z.string(), entity: z.string() }),
  /** Published by the fleet's back office, under the id it gave the alert. */
  z.strictObject({ kind: z.literal("backoffice"), id: z.string() }),
]);
export type AlertSource = z.infer<typeof AlertSourceSchema>;

/**
 * Alert ids are one space for every system and source, so the ids of feeds and of the back office
 * carry their system and source (runtime/alerts/gtfs-rt.ts feedAlertId, backofficeAlertId): an
 * alert of one system or source can never replace another's. Operators' ids may not use these prefixes.
 */
export const FEED_ALERT_PREFIX = "gtfs:";
export const BACKOFFICE_ALERT_PREFIX = "bo:";
const RESERVED_PREFIXES = [FEED_ALERT_PREFIX, BACKOFFICE_ALERT_PREFIX] as const;

/** A hash of `text`, `hexDigits` long (ids of sources whose own names do not fit an alert id). */
export function idHash(text: string, hexDigits = 8): string {
  return bytesToHex(sha256(utf8ToBytes(text))).slice(0, hexDigits);
}

/** A published alert's id in this kiosk: "bo:<system>:<the back office's id>" (hashed if too long). */
export function backofficeAlertId(system: SystemId, id: string): string {
  const prefix = `${BACKOFFICE_ALERT_PREFIX}${system}:`;
  return ALERT_ID.test(prefix + id) ? prefix + id : `${prefix}${idHash(id, 16)}`;
}

/** A validated alert: stations and lines as the system's ids, the segment's stations listed, times normalised. */
export const AlertSchema = z.strictObject({
  id: z.string().regex(ALERT_ID),
  system: SystemIdSchema,
  type: DisruptionTypeSchema,
  severity: DisruptionSeveritySchema,
  lines: z.array(z.string()),
  stations: z.array(z.string()),
  segment: z.strictObject({ from_station: z.string(), to_station: z.string(), stations: z.array(z.string()).min(2) }).nullable(),
  valid_from: z.string().nullable(),
  valid_until: z.string().nullable(),
  text: z.record(z.string(), z.string()),
  alternative: z.string().nullable(),
  eta_resolution: z.string().nullable(),
  if_unread: UnreadDecisionSchema.optional(),
  source: AlertSourceSchema,
});
export type Alert = z.infer<typeof AlertSchema>;

export interface AlertIssue {
  /** The field, e.g. "stations[1]", "segment.to_station", "valid_until". */
  path: string;
  message: string;
}

export type AlertValidation = { ok: true; alert: Alert } | { ok: false; issues: AlertIssue[] };

function pathText(path: readonly PropertyKey[]): string {
  return path.reduce<string>((out, key) => (typeof key === "number" ? `${out}[${key}]` : out ? `${out}.${String(key)}` : String(key)), "");
}

export function formatAlertIssues(issues: readonly AlertIssue[], where = "alert"): string {
  return issues.map((i) => `${where}${i.path ? `.${i.path}` : ""}: ${i.message}`).join("\n");
}

/** The stations of `line` from one station to another, inclusive, in travel order; null if either is not on it. */
function lineSection(system: SystemData, lineId: string, from: string, to: string): string[] | null {
  const stations = system.lineById(lineId)?.stations ?? [];
  const a = stations.indexOf(from);
  const b = stations.indexOf(to);
  if (a < 0 || b < 0 || a === b) return null;
  return a < b ? stations.slice(a, b + 1) : stations.slice(b, a + 1).reverse();
}

export interface ValidateAlertOptions {
  /** The system's data for the alert's `system` (undefined: that system is not served here). */
  system: (id: SystemId) => SystemData | undefined;
  source?: AlertSource;
  /** Makes an id for an alert given without one. */
  newId?: (input: { type: string; system: SystemId }) => string;
  /** Require the English text (OperatorAlertTextSchema): alerts written on the operator screen. */
  requireEnglish?: boolean;
}

export function defaultAlertId(input: { type: string; system: SystemId }): string {
  const random = globalThis.crypto.randomUUID().replace(/-/g, "").slice(0, 8);
  return `${input.system}-${input.type.replace(/_/g, "-")}-${random}`;
}

/** Validate an alert for the system it names. Never throws for bad input. */
export function validateAlert(input: unknown, options: ValidateAlertOptions): AlertValidation {
  const schema = options.requireEnglish ? AlertInputSchema.extend({ text: OperatorAlertTextSchema }) : AlertInputSchema;
  const parsed = schema.safeParse(input);
  if (!parsed.success) {
    return { ok: false, issues: parsed.error.issues.map((i) => ({ path: pathText(i.path), message: i.code === "unrecognized_keys" ? `unknown field(s): ${i.keys.join(", ")}` : i.message })) };
  }
  const a = parsed.data;
  const system = options.system(a.system);
  if (!system) return { ok: false, issues: [{ path: "system", message: `this kiosk does not serve '${a.system}'` }] };
  const issues: AlertIssue[] = [];
  const source = options.source ?? { kind: "operator" };
  const reserved = RESERVED_PREFIXES.find((prefix) => a.id?.toLowerCase().startsWith(prefix));
  const owner = reserved === FEED_ALERT_PREFIX ? "gtfs-rt" : "backoffice";
  if (reserved && source.kind !== owner) issues.push({ path: "id", message: `ids starting with '${reserved}' are kept for ${reserved === FEED_ALERT_PREFIX ? "GTFS-Realtime feeds" : "the back office's alerts"}` });

  const stationId = (value: string, path: string): string | undefined => {
    const station = system.resolveStation(value);
    if (!station) issues.push({ path, message: `unknown station '${value}' for ${system.id}` });
    return station?.id;
  };
  const lines = a.lines.flatMap((value, i) => {
    const id = system.aliasLine(value);
    if (system.lineById(id)) return [id];
    issues.push({ path: `lines[${i}]`, message: `unknown line '${value}' for ${system.id} (known: ${system.lines.map((l) => l.id).join(", ")})` });
    return [];
  });
  const stations = a.stations.flatMap((value, i) => {
    const id = stationId(value, `stations[${i}]`);
    return id ? [id] : [];
  });

  if (isStationType(a.type)) {
    if (a.stations.length === 0) issues.push({ path: "stations", message: `a ${a.type} names the station(s) it concerns` });
    if (a.segment) issues.push({ path: "segment", message: `a ${a.type} concerns stations, not a segment between two stations` });
  } else if (!isLineType(a.type) && a.segment) {
    issues.push({ path: "segment", message: `a ${a.type} is an area-wide advisory; a segment belongs to a line disruption` });
  }

  let segment: Alert["segment"] = null;
  if (a.segment) {
    const from = stationId(a.segment.from_station, "segment.from_station");
    const to = stationId(a.segment.to_station, "segment.to_station");
    if (lines.length > 1) issues.push({ path: "segment", message: "a segment lies on one line: give one line (or none)" });
    else if (from && to) {
      const candidates = lines.length === 1 ? lines : system.lines.map((l) => l.id);
      const section = candidates.map((l) => lineSection(system, l, from, to)).find((s): s is string[] => s !== null);
      if (section) segment = { from_station: from, to_station: to, stations: section };
      else issues.push({ path: "segment", message: `${from} and ${to} are not two stations of ${lines.length === 1 ? `line ${lines[0]}` : "one line"}` });
    }
  }

  const validFrom = a.valid_from === null ? null : normaliseTime(a.valid_from);
  const validUntil = a.valid_until === null ? null : normaliseTime(a.valid_until);
  if (validFrom && validUntil && validUntil <= validFrom) issues.push({ path: "valid_until", message: `valid_until ${validUntil} is not after valid_from ${validFrom}` });

  if (issues.length > 0) return { ok: false, issues };
  return {
    ok: true,
    alert: {
      id: a.id ?? (options.newId ?? defaultAlertId)({ type: a.type, system: a.system }),
      system: a.system,
      type: a.type,
      severity: a.severity ?? defaultSeverity(a.type, system.framebook.advisory_severity_mapping),
      lines,
      stations,
      segment,
      valid_from: validFrom,
      valid_until: validUntil,
      text: Object.fromEntries(Object.entries(a.text).map(([lang, t]) => [lang, t.trim()])),
      alternative: a.alternative,
      eta_resolution: a.eta_resolution,
      ...(a.if_unread ? { if_unread: a.if_unread } : {}),
      source,
    },
  };
}

/** The text for a passenger: their language, its base language, the system's language, English, then any. */
export function alertText(alert: Pick<Alert, "text">, language: string | undefined, primaryLanguage: string): string {
  const tags = Object.keys(alert.text);
  const pick = (tag: string | undefined): string | undefined => {
    if (!tag) return undefined;
    const exact = tags.find((t) => t.toLowerCase() === tag.toLowerCase());
    if (exact) return alert.text[exact];
    const base = tag.split("-")[0]!.toLowerCase();
    const sameBase = tags.find((t) => t.split("-")[0]!.toLowerCase() === base);
    return sameBase ? alert.text[sameBase] : undefined;
  };
  return pick(language) ?? pick(primaryLanguage) ?? pick("en") ?? alert.text[tags[0] ?? ""] ?? "";
}
