// Which alerts are in force for a system at a time, as the disruption records the session's live
// conditions and `disruption_feed` take (the pack's shape). Pure: the host passes the alerts, the
// time and the passenger's language.
import type { Disruption, SystemId } from "../../tools/data/schemas.ts";
import { alertText, localIso, type Alert } from "./model.ts";

/** An alert as a store keeps it: ended by an operator (or its feed) — at once, whatever its window — or not. */
export interface AlertRecordLike {
  alert: Alert;
  ended_at: string | null;
}

export type AlertStatus = "upcoming" | "active" | "expired" | "ended";

/** Announced alerts reach passengers this long before they start (a weekend closure on Friday). */
export const DEFAULT_ANNOUNCE_AHEAD_HOURS = 24;

/** `now` and the alert's times are local ISO strings ("2026-03-09T14:00:00"), compared as text. */
export function alertStatus(record: AlertRecordLike, now: string): AlertStatus {
  if (record.ended_at !== null) return "ended";
  const { valid_from: from, valid_until: until } = record.alert;
  if (until !== null && until <= now) return "expired";
  if (from !== null && from > now) return "upcoming";
  return "active";
}

function addHours(time: string, hours: number): string {
  return localIso(new Date(new Date(time).getTime() + hours * 3_600_000));
}

const SEVERITY_ORDER: Readonly<Record<string, number>> = { critical: 0, warning: 1, info: 2 };

export interface ActiveDisruptionsOptions {
  system: SystemId;
  /** Local ISO time of the session. */
  now: string;
  /** The passenger's language (the text falls back to the system's, then English). */
  language?: string;
  /** The system's framebook primary_language. */
  primaryLanguage: string;
  /** Upcoming alerts starting within this many hours are included (with their valid_from). */
  announceAheadHours?: number;
}

/** A disruption record made from an alert: its id is always there (the alert's, "#n" for each of several). */
export type AlertDisruption = Disruption & { id: string };

/** One alert as the pack's disruption records: one per line, or per station for station disruptions. */
export function alertDisruptions(alert: Alert, language: string | undefined, primaryLanguage: string): AlertDisruption[] {
  const message = alertText(alert, language, primaryLanguage);
  const base = {
    type: alert.type,
    severity: alert.severity,
    message,
    alternative: alert.alternative,
    eta_resolution: alert.eta_resolution,
    valid_from: alert.valid_from,
    valid_until: alert.valid_until,
    ...(alert.if_unread ? { if_unread: alert.if_unread } : {}),
  };
  const segment = alert.segment ? { from_station: alert.segment.from_station, to_station: alert.segment.to_station, stations: [...alert.segment.stations] } : null;
  if (alert.stations.length > 0 && !alert.segment) {
    const line = alert.lines.length === 1 ? alert.lines[0]! : null;
    return alert.stations.map((station, i) => ({ id: alert.stations.length === 1 ? alert.id : `${alert.id}#${i + 1}`, line, segment: null, ...base, station_id: station }));
  }
  if (alert.lines.length <= 1) return [{ id: alert.id, line: alert.lines[0] ?? null, segment, ...base }];
  return alert.lines.map((line, i) => ({ id: `${alert.id}#${i + 1}`, line, segment, ...base }));
}

/**
 * The disruptions of a system at `now`: every alert in force (not ended, not expired, started), and
 * those announced to start within `announceAheadHours`, most severe first.
 */
export function activeDisruptions(records: readonly AlertRecordLike[], options: ActiveDisruptionsOptions): AlertDisruption[] {
  const ahead = addHours(options.now, options.announceAheadHours ?? DEFAULT_ANNOUNCE_AHEAD_HOURS);
  const chosen = records.filter((r) => {
    if (r.alert.system !== options.system) return false;
    const status = alertStatus(r, options.now);
    return status === "active" || (status === "upcoming" && (r.alert.valid_from ?? "") <= ahead);
  });
  chosen.sort(
    (a, b) =>
      (SEVERITY_ORDER[a.alert.severity] ?? 3) - (SEVERITY_ORDER[b.alert.severity] ?? 3) ||
      (a.alert.valid_from ?? "").localeCompare(b.alert.valid_from ?? "") ||
      a.alert.id.localeCompare(b.alert.id),
  );
  return chosen.flatMap((r) => alertDisruptions(r.alert, options.language, options.primaryLanguage));
}
