// What a publication carries, validated with the kiosk's own validators (the back office before it
// signs, the kiosk before it applies): a framebook (YAML, runtime/framebook/validate.ts), or
// the content of an "alerts" publication (issue 18, distribution): the complete set of service
// alerts the back office wants in force for one system, as a JSON or YAML list (or {alerts: [...]})
// in the alert file format of `kiosk alerts add FILE`. Publishing a new set replaces the previous
// one: alerts of the previous set that the new one no longer lists are ended on the kiosk; an empty
// list withdraws them all. Alerts an operator added on the kiosk itself are left alone.
// The back office (before signing) and the kiosk (before applying) validate it here, with the
// kiosk's own alert validator; every problem names the file, line and field.
import YAML from "yaml";
import { formatPath } from "../../tools/data/errors.ts";
import { locateInYaml } from "../../tools/data/parse.ts";
import { UnreadDecisionSchema, type SystemId } from "../../tools/data/schemas.ts";
import type { SystemData } from "../../tools/data/system.ts";
import { validateAlert, type Alert } from "../alerts/model.ts";
import { alertReading } from "../kiosk/notice-reading.ts";
import { validateFramebook } from "../framebook/validate.ts";
import type { PublicationIssue, PublicationKind } from "./publication.ts";

export type AlertsContentValidation = { ok: true; alerts: Alert[] } | { ok: false; issues: PublicationIssue[] };

/** "alerts[1].segment.to_station" → ["alerts", 1, "segment", "to_station"]. */
function pathParts(field: string): (string | number)[] {
  return field
    .split(/\.|\[(\d+)\]/)
    .filter((p): p is string => p !== undefined && p !== "")
    .map((p) => (/^\d+$/.test(p) ? Number(p) : p));
}

export interface AlertsContentOptions {
  /**
   * The back office, before it signs: an alert whose words stop service where the kiosk cannot map
   * it needs the publisher's decision (`if_unread`). A kiosk applies such an alert all the same:
   * unconfirmed, it refers only the trips it may touch to staff.
   */
  requireDecisions?: { now: string };
}

/** Validate alerts content for `system` (the active framebook's data). Never throws for bad input. */
export function validateAlertsContent(text: string, file: string, systemId: SystemId, system: SystemData, options: AlertsContentOptions = {}): AlertsContentValidation {
  const issue = (field: string, message: string): PublicationIssue => ({ file, line: field === "(root)" ? null : (locateInYaml(text, pathParts(field))?.line ?? null), field, message });
  let value: unknown;
  try {
    value = YAML.parse(text);
  } catch (err) {
    const line = (err as { linePos?: { line: number }[] }).linePos?.[0]?.line ?? null;
    return { ok: false, issues: [{ file, line, field: "(root)", message: `not valid JSON or YAML: ${(err as Error).message.split("\n")[0] ?? ""}` }] };
  }
  const wrapped = value !== null && typeof value === "object" && !Array.isArray(value) && Array.isArray((value as { alerts?: unknown }).alerts);
  const list = Array.isArray(value) ? value : wrapped ? (value as { alerts: unknown[] }).alerts : null;
  if (list === null) return { ok: false, issues: [issue("(root)", "expected a list of alerts (or {alerts: [...]}); an empty list withdraws them all")] };
  const prefix = (i: number): string => (wrapped ? `alerts[${i}]` : `[${i}]`);
  const issues: PublicationIssue[] = [];
  const alerts: Alert[] = [];
  const seen = new Set<string>();
  list.forEach((input, i) => {
    // A published alert needs an id: the next publication names it again to keep or change it.
    if (input === null || typeof input !== "object" || typeof (input as { id?: unknown }).id !== "string") {
      issues.push(issue(prefix(i), "each published alert needs an id (the next publication keeps, changes or withdraws it by that id)"));
      return;
    }
    const checked = validateAlert(input, { system: (id) => (id === systemId ? system : undefined) });
    if (!checked.ok) {
      for (const p of checked.issues) {
        const field = `${prefix(i)}${p.path ? `.${p.path}` : ""}`;
        const message = p.path === "system" ? `this publication is for ${systemId}; ${p.message}` : p.message;
        issues.push(issue(field, message));
      }
      return;
    }
    if (seen.has(checked.alert.id)) issues.push(issue(`${prefix(i)}.id`, `alert '${checked.alert.id}' is listed twice`));
    if (options.requireDecisions && !checked.alert.if_unread && alertReading(checked.alert, system, options.requireDecisions.now).unread) {
      issues.push(issue(`${prefix(i)}.text`, `says service stops but not where the kiosk can map: give its lines, stations or segment, or decide with if_unread: ${UnreadDecisionSchema.options.join(" | ")} (refer: the trips it may touch go to staff; block: not sold; ignore: sold as usual)`));
    }
    seen.add(checked.alert.id);
    alerts.push(checked.alert);
  });
  return issues.length > 0 ? { ok: false, issues } : { ok: true, alerts };
}

/** A framebook's errors (warnings do not stop it) as publication issues. */
export function framebookContentIssues(text: string, file: string, system: SystemData): PublicationIssue[] {
  const validation = validateFramebook(text, file, system);
  if (validation.ok) return [];
  return validation.issues
    .filter((i) => i.severity === "error")
    .map((i) => ({ file, line: i.line ?? null, field: formatPath(i.path), message: i.message }));
}

/** The problems of a publication's content for `system` (empty: it may be applied). */
export function publicationContentIssues(kind: PublicationKind, text: string, file: string, systemId: SystemId, system: SystemData, options: AlertsContentOptions = {}): PublicationIssue[] {
  if (kind === "framebook") return framebookContentIssues(text, file, system);
  const checked = validateAlertsContent(text, file, systemId, system, options);
  return checked.ok ? [] : checked.issues;
}

/** "file:line: field: message" lines for a terminal or a log. */
export function formatPublicationIssues(issues: readonly PublicationIssue[]): string {
  return issues.map((i) => `${i.file}${i.line !== null ? `:${i.line}` : ""}: ${i.field}: ${i.message}`).join("\n");
}
