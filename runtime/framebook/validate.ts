// Validating an operator's framebook before it can reach passengers: YAML syntax (line/column),
// the schema (path + line), then checks against the system it is meant for.
import { DataFileError, formatPath, type DataIssue } from "../../tools/data/errors.ts";
import { parseFramebookText } from "../../tools/data/datapack.ts";
import { locateInYaml } from "../../tools/data/parse.ts";
import type { Framebook } from "../../tools/data/schemas.ts";
import type { SystemData } from "../../tools/data/system.ts";
import { systemFramebookIssues } from "./checks.ts";
import { farePolicyIssues } from "./fare-bounds.ts";
import { announcedText, FarePolicyEntrySchema, fareOverrideIssues, inForce } from "./fare-rules.ts";
import { needsDecision, readFarePolicy } from "./policy-reading.ts";

export interface FramebookIssue extends DataIssue {
  severity: "error" | "warning";
}

export interface FramebookValidation {
  ok: boolean;
  file: string;
  issues: FramebookIssue[];
  framebook?: Framebook;
  framebookPy?: unknown;
}

const HOURS = /^([01]\d|2[0-3]):([0-5]\d)-([01]\d|2[0-3]):([0-5]\d)$/;
const HOUR_KEYS = /^(default|weekday|weekend|monday|tuesday|wednesday|thursday|friday|saturday|sunday|holiday)$/;
/** A late-night headway is a positive number of minutes, at most a day. */
const MAX_HEADWAY_MIN = 24 * 60;
const STATION_ID = /\b[A-Z]{2,6}-[A-Z0-9]{2,6}\b/g;

/** Full validation of framebook text for one system. Never throws for bad input. */
export function validateFramebook(text: string, file: string, system: SystemData): FramebookValidation {
  let parsed: { framebook: Framebook; framebookPy: unknown };
  try {
    parsed = parseFramebookText(text, file);
  } catch (err) {
    if (err instanceof DataFileError) return { ok: false, file, issues: err.issues.map((i) => ({ ...i, severity: "error" })) };
    throw err;
  }
  const fb = parsed.framebook;
  const issues: FramebookIssue[] = [];
  const at = (path: (string | number)[], message: string, severity: FramebookIssue["severity"] = "error"): void => {
    issues.push({ message, path, severity, ...locateInYaml(text, path) });
  };

  // The schema asks for non-empty text; a blank one would show as nothing on the screen.
  for (const key of ["org_name", "full_name", "primary_language", "currency_symbol", "currency_code", "fare_display_format"] as const) {
    if (fb[key].trim() === "") at(["framebook", key], `${key} is blank`);
  }
  for (const key of ["smartcard", "contactless"] as const) {
    if (fb.terminology[key].trim() === "") at(["framebook", "terminology", key], `terminology.${key} is blank`);
  }
  if (fb.currency_code !== system.fares.currency) {
    at(["framebook", "currency_code"], `currency_code '${fb.currency_code}' does not match the fare table's currency '${system.fares.currency}'`);
  }
  if (!fb.fare_display_format.includes("X")) {
    at(["framebook", "fare_display_format"], `fare_display_format '${fb.fare_display_format}' has no 'X' placeholder for the amount`);
  }
  const hours = fb.operating_hours as Record<string, unknown>;
  for (const [key, value] of Object.entries(hours)) {
    if (!HOUR_KEYS.test(key)) continue;
    if (typeof value !== "string" || !HOURS.test(value.trim())) {
      at(["framebook", "operating_hours", key], `operating hours '${String(value)}' are not "HH:MM-HH:MM" with a valid time of day`);
    }
  }
  const headway = hours.late_night_headway_min;
  if (headway !== undefined && !(typeof headway === "number" && Number.isFinite(headway) && headway > 0 && headway <= MAX_HEADWAY_MIN)) {
    at(["framebook", "operating_hours", "late_night_headway_min"], `late_night_headway_min ${String(headway)} is not a number of minutes between 0 and ${MAX_HEADWAY_MIN} (a day)`);
  }
  const lineKnown = (name: string): boolean => system.lineById(system.aliasLine(name)) !== undefined;
  const nightLines = hours.twenty_four_hour_lines;
  if (nightLines !== undefined) {
    if (!Array.isArray(nightLines)) at(["framebook", "operating_hours", "twenty_four_hour_lines"], "twenty_four_hour_lines must be a list of line names");
    else nightLines.forEach((l, i) => {
      if (typeof l !== "string" || !lineKnown(l)) at(["framebook", "operating_hours", "twenty_four_hour_lines", i], `unknown line '${String(l)}'`);
    });
  }
  const texts: { path: (string | number)[]; text: string }[] = fb.cultural_notes.map((note, i) => ({ path: ["framebook", "cultural_notes", i], text: note }));
  const policies = (fb as Record<string, unknown>).fare_policies;
  if (policies !== undefined) {
    if (!Array.isArray(policies)) at(["framebook", "fare_policies"], "fare_policies must be a list of {policy_id, text, rule?, valid_from?, valid_until?, if_unread?}");
    else policies.forEach((p: unknown, i) => {
      const entry = FarePolicyEntrySchema.safeParse(p);
      if (!entry.success) {
        for (const issue of entry.error.issues) at(["framebook", "fare_policies", i, ...issue.path.map((k) => (typeof k === "symbol" ? String(k) : k))], issue.message);
        return;
      }
      const { valid_from: from, valid_until: until } = entry.data;
      if (from && until && until < from) at(["framebook", "fare_policies", i, "valid_until"], `valid_until ${until} is before valid_from ${from}`);
      texts.push({ path: ["framebook", "fare_policies", i, "text"], text: entry.data.text });
      // Words the kiosk cannot price must never silently stop sales: the operator decides.
      const reading = readFarePolicy(entry.data);
      if (needsDecision(reading)) at(["framebook", "fare_policies", i, "text"], undecidedMessage(reading.unread));
      // A decision about unread words the kiosk reads whole changes nothing: say so, or the operator
      // believes it guards something.
      else if (reading.if_unread !== undefined && reading.unread.length === 0) {
        const why = entry.data.rule ? "the entry has a rule, which the kiosk applies exactly" : "the kiosk reads every clause of this text";
        at(["framebook", "fare_policies", i, "if_unread"], `if_unread: ${reading.if_unread} has no effect: ${why}`, "warning");
      }
    });
  }
  for (const { path, text: t } of texts) {
    for (const id of t.match(STATION_ID) ?? []) {
      if (id.startsWith(`${system.stations[0]?.id.split("-")[0] ?? ""}-`) && !system.hasStationId(id)) at(path, `unknown station '${id}'`);
    }
    for (const m of t.matchAll(/\b([A-Z][a-z]+) Line\b/g)) {
      const name = `${m[1]} Line`;
      if (!lineKnown(name) && !system.lines.some((l) => l.name.startsWith(name))) at(path, `unknown line '${name}'`, "warning");
    }
  }
  for (const issue of systemFramebookIssues(fb, system)) at(issue.path, issue.message);
  const bounds = farePolicyIssues(fb, system, framebookPolicyChange(fb)?.text);
  const override = fareOverrideIssues(fb, bounds.some((b) => b.implausible));
  for (const issue of override.issues) at(issue.path, issue.message);
  for (const bound of bounds) {
    if (!bound.implausible) at(bound.path, bound.message);
    else if (override.confirmed) at(bound.path, `${bound.message} (accepted: fare_override confirmed by ${override.confirmed.confirmed_by}: ${override.confirmed.reason})`, "warning");
    else at(bound.path, `${bound.message}; if that is intended, confirm it with fare_override: {allow_implausible: true, reason, confirmed_by}`);
  }
  const ok = !issues.some((i) => i.severity === "error");
  return { ok, file, issues, ...(ok ? { framebook: fb, framebookPy: parsed.framebookPy } : {}) };
}

function undecidedMessage(unread: readonly string[]): string {
  const quoted = unread.map((c) => `"${c}"`).join(", ");
  return (
    `the kiosk cannot read ${quoted}; say what it does: add a \`rule:\` saying exactly what it does, ` +
    "or `if_unread: refer` (while in force the kiosk refers sales to staff), " +
    "or `if_unread: ignore` (tickets sold at the usual fare, the text shown to passengers)"
  );
}

export function formatIssues(validation: FramebookValidation): string {
  return validation.issues
    .map((i) => {
      const where = i.line !== undefined ? `${validation.file}:${i.line}:${i.column ?? 1}` : validation.file;
      return `${i.severity}: ${where}${i.path?.length ? ` at ${formatPath(i.path)}` : ""}: ${i.message}`;
    })
    .join("\n");
}

export interface FramebookChange {
  path: string;
  before: unknown;
  after: unknown;
}

/** What changes between two framebooks, key by key (lists compared whole). */
export function diffFramebooks(before: unknown, after: unknown, prefix = ""): FramebookChange[] {
  const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);
  if (isObject(before) && isObject(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
    return keys.flatMap((k) => diffFramebooks(before[k], after[k], prefix ? `${prefix}.${k}` : k));
  }
  return JSON.stringify(before) === JSON.stringify(after) ? [] : [{ path: prefix || "(root)", before, after }];
}

/**
 * Temporary fare policies the operator announced in the framebook, as the policy change the
 * session's prompt and the fare engine understand (several are joined into one announcement).
 * `display_text`, when the passengers are shown more than is priced (an entry whose unread part
 * the operator chose to ignore), is what the passenger's banner says.
 */
export function framebookPolicyChange(framebook: Framebook, nowIso?: string): { policy_id: string; text: string; display_text?: string } | null {
  const list = (framebook as Record<string, unknown>).fare_policies;
  if (!Array.isArray(list)) return null;
  // An entry with a structured rule announces the rule's own sentences; one outside its validity
  // window (at the kiosk's local time) announces nothing.
  const valid = list.flatMap((p) => {
    const entry = FarePolicyEntrySchema.safeParse(p);
    return entry.success && inForce(entry.data, nowIso) ? [entry.data] : [];
  });
  if (valid.length === 0) return null;
  const text = valid.map(announcedText).filter(Boolean).join(" ");
  const shown = valid.map((p) => (p.if_unread === "ignore" && !p.rule ? p.text.trim() : announcedText(p))).join(" ");
  return { policy_id: valid.map((p) => p.policy_id).join("+"), text, ...(shown !== text ? { display_text: shown } : {}) };
}
