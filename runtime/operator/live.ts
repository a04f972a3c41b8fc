// The operator console's live tools (issue 16): service alerts through the alert store (validated
// field by field, recorded with the operator's name, previewed against the stored sessions) and the
// session audit (today's sessions with filters, one session as a timeline). OperatorConsole checks
// the operator session and delegates here; the host passes the stores it opened.
import type { DataPack } from "../../tools/data/datapack.ts";
import type { SystemId, UnreadDecision } from "../../tools/data/schemas.ts";
import type { SystemData } from "../../tools/data/system.ts";
import { alertStatus } from "../alerts/active.ts";
import { alertLanguages } from "../alerts/languages.ts";
import { localIso, validateAlert, type Alert } from "../alerts/model.ts";
import { AlertStoreError, type AlertRecord, type AlertStore } from "../alerts/store.ts";
import type { SessionAuditStore } from "../audit/store.ts";
import { buildTimeline } from "../audit/timeline.ts";
import type { AlertCause, AlertPlaces, AlertReadingView, AlertsList, AlertSaveResult, AlertEndResult, AlertPreviewResult, AlertView, AuditFilter, AuditSessions, PlaceName, TimelineView } from "../kiosk/operator-live.ts";
import { alertReading, sections } from "../kiosk/notice-reading.ts";
import { alertDraft } from "../replay/drafts.ts";
import { DEFAULT_REPLAY_SESSIONS, replayBeforeApply } from "../replay/replay.ts";
import { OperatorError } from "./console.ts";

export interface OperatorLiveOptions {
  pack: DataPack;
  /** The system data new sessions use (the active framebooks). */
  systemData: (system: SystemId) => SystemData;
  /** Null: this kiosk keeps no service alerts (the calls answer "unavailable"). */
  alerts: AlertStore | null;
  /** Null: this kiosk keeps no session audit. */
  audit: SessionAuditStore | null;
  clock?: () => Date;
  /** Station and line names by language, as the passenger screen shows them (default: the system data's names only). */
  names?: (system: SystemId) => { stations: readonly PlaceName[]; lines: readonly PlaceName[] };
}

/** Places by id, or by name as typed (a route may give names); unknown ones keep their text as the name. */
function placeFinder(places: readonly PlaceName[]): (idOrName: string) => PlaceName {
  const byId = new Map(places.map((p) => [p.id, p]));
  return (key) => byId.get(key) ?? places.find((p) => p.name === key) ?? { id: key, name: key };
}

function alertView(record: AlertRecord, now: string): AlertView {
  return {
    alert: record.alert,
    status: alertStatus(record, now),
    createdAt: record.created_at,
    createdBy: record.created_by,
    updatedAt: record.updated_at,
    updatedBy: record.updated_by,
    endedAt: record.ended_at,
    endedBy: record.ended_by,
    endReason: record.end_reason,
  };
}

export class OperatorLive {
  private readonly clock: () => Date;

  constructor(private readonly options: OperatorLiveOptions) {
    this.clock = options.clock ?? (() => new Date());
  }

  private alerts(): AlertStore {
    if (!this.options.alerts) throw new OperatorError("unavailable", "This kiosk keeps no service alerts (start it with an alert store: kiosk serve --alerts-db).");
    return this.options.alerts;
  }

  private audit(): SessionAuditStore {
    if (!this.options.audit) throw new OperatorError("unavailable", "This kiosk keeps no session audit (start it with kiosk serve --audit-db).");
    return this.options.audit;
  }

  private validate(input: Record<string, unknown>): { ok: true; alert: Alert } | { ok: false; issues: { path: string; message: string }[] } {
    const served = new Set(this.options.pack.systemIds);
    // The operator screen's alerts carry the English text (a feed's or a file's may not).
    return validateAlert(input, { system: (id) => (served.has(id) ? this.options.systemData(id) : undefined), requireEnglish: true });
  }

  listAlerts(system?: SystemId): AlertsList {
    const store = this.alerts();
    const now = localIso(this.clock());
    return {
      now,
      alerts: store.list(system).map((r) => alertView(r, now)),
      audit: store
        .auditLog(system)
        .reverse()
        .map((a) => ({ at: a.at, who: a.who, action: a.action, alertId: a.alert_id, system: a.system, detail: a.detail })),
      places: system ? this.places(system) : null,
    };
  }

  /** What the alerts form shows of a system: its text languages, station and line names (the active framebook's data). */
  private places(id: SystemId): AlertPlaces {
    return { system: id, languages: alertLanguages(id, this.options.systemData(id).framebook), ...this.names(id) };
  }

  private names(id: SystemId): { stations: PlaceName[]; lines: PlaceName[] } {
    const named = this.options.names?.(id);
    const pick = ({ id, name, localized }: PlaceName): PlaceName => ({ id, name, ...(localized ? { localized } : {}) });
    if (named) return { stations: named.stations.map(pick), lines: named.lines.map(pick) };
    const system = this.options.systemData(id);
    return { stations: system.stations.map(pick), lines: system.lines.map(pick) };
  }

  /** The alert by name: its type and where it applies. */
  private cause(alert: Alert): AlertCause {
    const names = this.names(alert.system);
    const station = placeFinder(names.stations);
    const line = placeFinder(names.lines);
    return {
      type: alert.type,
      stations: alert.stations.map(station),
      lines: alert.lines.map(line),
      segment: alert.segment ? { from: station(alert.segment.from_station), to: station(alert.segment.to_station) } : null,
    };
  }

  /** What the kiosk reads in the alert, by name: what the interlock acts on while it holds. */
  private reading(alert: Alert): AlertReadingView {
    const system = this.options.systemData(alert.system);
    const r = alertReading(alert, system, localIso(this.clock()));
    const names = this.names(alert.system);
    const station = placeFinder(names.stations);
    const line = placeFinder(names.lines);
    return {
      systemSuspended: r.systemSuspended,
      lines: r.lines.map(line),
      sections: sections(r.tracks).map(([a, b]) => ({ from: station(a), to: station(b) })),
      closed: r.stations.filter((x) => !x.passThrough).map((x) => station(x.id)),
      passThrough: r.stations.filter((x) => x.passThrough).map((x) => station(x.id)),
      liftsOut: r.liftsOut.map(station),
      unread: r.unread,
      unreadLines: r.unreadLines.map(line),
      decision: r.decision,
      window: r.window ?? null,
    };
  }

  saveAlert(operator: string, input: Record<string, unknown>, mode: "add" | "edit", ifUnread?: UnreadDecision): AlertSaveResult {
    const store = this.alerts();
    const checked = this.validate(input);
    if (!checked.ok) return { ok: false, reason: "invalid", issues: checked.issues };
    const alert: Alert = ifUnread ? { ...checked.alert, if_unread: ifUnread } : checked.alert;
    // Words that stop service where the kiosk cannot map them: the operator decides what they do.
    if (!alert.if_unread && this.reading(alert).unread) {
      return { ok: false, reason: "unread", issues: [{ path: "text", message: "the words say service stops, but not where: give its lines, stations or section, or decide whether the trips it may touch are referred to staff, blocked, or sold as usual." }] };
    }
    try {
      const record = mode === "add" ? store.add(alert, operator) : store.replace(alert, operator);
      return { ok: true, record: alertView(record, localIso(this.clock())) };
    } catch (err) {
      if (err instanceof AlertStoreError) return { ok: false, reason: "conflict", issues: [{ path: "id", message: err.message }] };
      throw err;
    }
  }

  endAlert(operator: string, id: string, reason?: string): AlertEndResult {
    try {
      return { ok: true, record: alertView(this.alerts().end(id, operator, reason), localIso(this.clock())) };
    } catch (err) {
      if (err instanceof AlertStoreError) return { ok: false, message: err.message };
      throw err;
    }
  }

  /** Replay the latest stored sessions of the alert's system with it in force (from its start, or now). */
  async previewAlert(input: Record<string, unknown>, sessions = DEFAULT_REPLAY_SESSIONS): Promise<AlertPreviewResult> {
    const store = this.alerts();
    const checked = this.validate(input);
    if (!checked.ok) return { ok: false, reason: "invalid", issues: checked.issues };
    const { alert } = checked;
    const now = this.clock();
    const start = alert.valid_from ? new Date(alert.valid_from) : now;
    const at = start > now ? start : now;
    const current = store.current(alert.system);
    const draft = [...current.filter((r) => r.alert.id !== alert.id), { alert, ended_at: null }];
    const report = await replayBeforeApply({
      pack: this.options.pack,
      sessions: this.audit().recent(sessions, alert.system),
      ...alertDraft(this.options.systemData, current, draft, at),
    });
    const station = placeFinder(this.names(alert.system).stations);
    const first = report.first.map(({ trip, ...d }) => ({
      ...d,
      trip: { from: trip.origin === null ? null : station(trip.origin), to: trip.destination === null ? null : station(trip.destination), riders: trip.riders },
    }));
    return { ok: true, report: { ...report, byField: { ...report.byField }, first }, cause: this.cause(alert), reading: this.reading(alert) };
  }

  auditSessions(filter: AuditFilter): AuditSessions {
    const now = this.clock();
    return { day: localIso(now).slice(0, 10), sessions: this.audit().today(filter) };
  }

  auditTimeline(sessionId: string): TimelineView {
    const audit = this.audit().get(sessionId);
    if (!audit) throw new OperatorError("rejected", `There is no audited session '${sessionId}' (it may be past the retention period).`);
    const system = this.options.systemData(audit.system);
    return buildTimeline(audit, { stationName: (id) => system.stationById(id)?.name });
  }
}
