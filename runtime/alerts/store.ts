// The alert store (SQLite through better-sqlite3, WAL, synchronous=FULL): the alerts operators and
// feeds created, edited and ended, and an audit row for every change — who, when, what — written
// in the same transaction as the change, so a change and its audit line are never apart. Several
// processes may share the file (`kiosk serve` reads it for every new passenger session while
// `kiosk alerts add` writes it). Alerts expire by their validity window (runtime/alerts/active.ts);
// nothing has to delete them.
import path from "node:path";
import type Database from "better-sqlite3";
import type { SystemId } from "../../tools/data/schemas.ts";
import { openMigrated } from "../storage/sqlite.ts";
import { alertStatus, type AlertStatus } from "./active.ts";
import { AlertSchema, type Alert } from "./model.ts";

export const ALERTS_DB_ENV = "METRO_ALERTS_DB";
export const DEFAULT_ALERTS_DB = path.join("var", "alerts.sqlite");

/** --alerts-db, else $METRO_ALERTS_DB, else ./var/alerts.sqlite. */
export function alertsDbPath(flag?: string, env: NodeJS.ProcessEnv = process.env): string {
  return flag ?? env[ALERTS_DB_ENV] ?? DEFAULT_ALERTS_DB;
}

export class AlertStoreError extends Error {
  override name = "AlertStoreError";
}

export interface AlertRecord {
  alert: Alert;
  created_at: string;
  created_by: string;
  updated_at: string;
  updated_by: string;
  /** When an operator (or the alert's feed) ended it; null while it runs its course. */
  ended_at: string | null;
  ended_by: string | null;
  end_reason: string | null;
}

export type AlertAuditAction = "add" | "edit" | "end" | "import";

export interface AlertAuditEntry {
  seq: number;
  at: string;
  who: string;
  action: AlertAuditAction;
  alert_id: string;
  system: SystemId;
  detail: string | null;
}

const MIGRATIONS: readonly string[] = [
  `CREATE TABLE alerts (
     id          TEXT PRIMARY KEY,
     system      TEXT NOT NULL,
     alert_json  TEXT NOT NULL,
     source_kind TEXT NOT NULL,
     source_feed TEXT,
     created_at  TEXT NOT NULL,
     created_by  TEXT NOT NULL,
     updated_at  TEXT NOT NULL,
     updated_by  TEXT NOT NULL,
     ended_at    TEXT,
     ended_by    TEXT,
     end_reason  TEXT
   ) STRICT;
   CREATE INDEX alerts_system ON alerts(system);
   CREATE TABLE alert_audit (
     seq        INTEGER PRIMARY KEY AUTOINCREMENT,
     at         TEXT NOT NULL,
     who        TEXT NOT NULL,
     action     TEXT NOT NULL CHECK (action IN ('add', 'edit', 'end', 'import')),
     alert_id   TEXT NOT NULL,
     system     TEXT NOT NULL,
     detail     TEXT,
     alert_json TEXT
   ) STRICT;`,
];

type Row = Record<string, unknown>;

function toRecord(r: Row): AlertRecord {
  const str = (k: string): string => String(r[k]);
  const opt = (k: string): string | null => (r[k] === null || r[k] === undefined ? null : String(r[k]));
  return {
    alert: AlertSchema.parse(JSON.parse(str("alert_json"))),
    created_at: str("created_at"),
    created_by: str("created_by"),
    updated_at: str("updated_at"),
    updated_by: str("updated_by"),
    ended_at: opt("ended_at"),
    ended_by: opt("ended_by"),
    end_reason: opt("end_reason"),
  };
}

export interface FeedSyncResult {
  added: string[];
  updated: string[];
  unchanged: string[];
  /** Alerts of this feed that a full-dataset feed no longer lists (or that it marked deleted). */
  ended: string[];
}

export class AlertStore {
  private constructor(
    readonly file: string,
    private readonly db: Database.Database,
    private readonly clock: () => Date,
  ) {}

  /** Open (creating the folder and file when needed) and migrate. Throws AlertStoreError. */
  static open(file: string, options: { clock?: () => Date } = {}): AlertStore {
    try {
      return new AlertStore(file, openMigrated(file, MIGRATIONS, { synchronous: "FULL" }), options.clock ?? (() => new Date()));
    } catch (err) {
      throw new AlertStoreError(`cannot open the alert store ${file}: ${(err as Error).message}`);
    }
  }

  close(): void {
    if (this.db.open) this.db.close();
  }

  private stamp(): string {
    return this.clock().toISOString();
  }

  private static operator(who: string): string {
    const name = who.trim();
    if (!name) throw new AlertStoreError("the operator's name is required (who is making this change?)");
    return name;
  }

  get(id: string): AlertRecord | undefined {
    const row = this.db.prepare("SELECT * FROM alerts WHERE id = ?").get(id) as Row | undefined;
    return row ? toRecord(row) : undefined;
  }

  /** Every alert (of a system), newest first. */
  list(system?: SystemId): AlertRecord[] {
    const rows = (system
      ? this.db.prepare("SELECT * FROM alerts WHERE system = ? ORDER BY created_at DESC, id").all(system)
      : this.db.prepare("SELECT * FROM alerts ORDER BY created_at DESC, id").all()) as Row[];
    return rows.map(toRecord);
  }

  /** The alerts of a system that have not been ended (the pure active-disruptions function filters by time). */
  current(system: SystemId): AlertRecord[] {
    return (this.db.prepare("SELECT * FROM alerts WHERE system = ? AND ended_at IS NULL ORDER BY created_at, id").all(system) as Row[]).map(toRecord);
  }

  status(id: string, now: string): AlertStatus | undefined {
    const record = this.get(id);
    return record ? alertStatus(record, now) : undefined;
  }

  private audit(who: string, action: AlertAuditAction, alert: Pick<Alert, "id" | "system">, detail: string | null, json: string | null): void {
    this.db
      .prepare("INSERT INTO alert_audit (at, who, action, alert_id, system, detail, alert_json) VALUES (?, ?, ?, ?, ?, ?, ?)")
      .run(this.stamp(), who, action, alert.id, alert.system, detail, json);
  }

  private insert(alert: Alert, who: string): void {
    const at = this.stamp();
    const source = alert.source;
    this.db
      .prepare(
        `INSERT OR REPLACE INTO alerts (id, system, alert_json, source_kind, source_feed, created_at, created_by, updated_at, updated_by, ended_at, ended_by, end_reason)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL, NULL)`,
      )
      .run(alert.id, alert.system, JSON.stringify(alert), source.kind, source.kind === "gtfs-rt" ? source.feed : null, at, who, at, who);
  }

  private update(alert: Alert, who: string): void {
    this.db.prepare("UPDATE alerts SET alert_json = ?, system = ?, updated_at = ?, updated_by = ? WHERE id = ?").run(JSON.stringify(alert), alert.system, this.stamp(), who, alert.id);
  }

  private markEnded(alert: Alert, who: string, reason: string | null): void {
    this.db.prepare("UPDATE alerts SET ended_at = ?, ended_by = ?, end_reason = ? WHERE id = ?").run(this.stamp(), who, reason, alert.id);
  }

  /** An alert of one system never replaces, edits or ends another system's (ids are one space: model.ts). */
  private static sameSystem(existing: AlertRecord | undefined, alert: Pick<Alert, "id" | "system">): void {
    if (existing && existing.alert.system !== alert.system) throw new AlertStoreError(`alert id '${alert.id}' is already used by ${existing.alert.system}'s alert; choose another id for ${alert.system}`);
  }

  /** Inside a transaction: add the alert, or edit it when it is running and changed; audited as `audit` says. */
  private upsert(alert: Alert, who: string, audit: (change: "added" | "updated") => { action: AlertAuditAction; detail: string }): "added" | "updated" | "unchanged" {
    const existing = this.get(alert.id);
    AlertStore.sameSystem(existing, alert);
    const running = existing !== undefined && existing.ended_at === null;
    if (running && JSON.stringify(existing.alert) === JSON.stringify(alert)) return "unchanged";
    const change = running ? "updated" : "added";
    if (running) this.update(alert, who);
    else this.insert(alert, who);
    const { action, detail } = audit(change);
    this.audit(who, action, alert, detail, JSON.stringify(alert));
    return change;
  }

  /** A new alert. An id that is already running is refused (edit it with `replace`); an ended one may be reused. */
  add(alert: Alert, who: string): AlertRecord {
    const name = AlertStore.operator(who);
    const checked = AlertSchema.parse(alert);
    this.db
      .transaction(() => {
        const existing = this.get(checked.id);
        AlertStore.sameSystem(existing, checked);
        if (existing && existing.ended_at === null) throw new AlertStoreError(`alert '${checked.id}' already exists (edit it, or end it first)`);
        this.insert(checked, name);
        this.audit(name, "add", checked, null, JSON.stringify(checked));
      })
      .immediate();
    return this.get(checked.id)!;
  }

  /** Edit a running alert (same id). */
  replace(alert: Alert, who: string): AlertRecord {
    const name = AlertStore.operator(who);
    const checked = AlertSchema.parse(alert);
    this.db
      .transaction(() => {
        const existing = this.get(checked.id);
        if (!existing) throw new AlertStoreError(`there is no alert '${checked.id}' to edit`);
        if (existing.ended_at !== null) throw new AlertStoreError(`alert '${checked.id}' has ended; add it again instead`);
        if (existing.alert.system !== checked.system) throw new AlertStoreError(`alert '${checked.id}' belongs to ${existing.alert.system}, not ${checked.system}`);
        this.update(checked, name);
        this.audit(name, "edit", checked, null, JSON.stringify(checked));
      })
      .immediate();
    return this.get(checked.id)!;
  }

  /** End an alert now: it stops reaching passengers from the next session. */
  end(id: string, who: string, reason?: string): AlertRecord {
    const name = AlertStore.operator(who);
    this.db
      .transaction(() => {
        const existing = this.get(id);
        if (!existing) throw new AlertStoreError(`there is no alert '${id}'`);
        if (existing.ended_at !== null) throw new AlertStoreError(`alert '${id}' already ended at ${existing.ended_at} (by ${existing.ended_by ?? "?"})`);
        this.markEnded(existing.alert, name, reason?.trim() || null);
        this.audit(name, "end", existing.alert, reason?.trim() || null, null);
      })
      .immediate();
    return this.get(id)!;
  }

  /**
   * Bring one feed's alerts up to date in one transaction: add new ones, update changed ones and —
   * for a full-dataset feed — end those of this feed whose entity the feed no longer lists.
   * `presentIds` are the alert ids of every entity in the feed, mapped or not: an entity that
   * could not be mapped this time keeps the alert it gave before.
   */
  syncFeed(system: SystemId, feed: string, alerts: readonly Alert[], options: { who: string; presentIds: ReadonlySet<string>; fullDataset: boolean; deletedIds?: ReadonlySet<string> }): FeedSyncResult {
    const name = AlertStore.operator(options.who);
    const result: FeedSyncResult = { added: [], updated: [], unchanged: [], ended: [] };
    this.db
      .transaction(() => {
        for (const raw of alerts) {
          const alert = AlertSchema.parse(raw);
          if (alert.system !== system) throw new AlertStoreError(`feed alert '${alert.id}' is for ${alert.system}, not ${system}`);
          result[this.upsert(alert, name, (change) => ({ action: "import", detail: `${change} from ${feed}` }))].push(alert.id);
        }
        const ours = (this.db.prepare("SELECT * FROM alerts WHERE system = ? AND source_feed = ? AND ended_at IS NULL").all(system, feed) as Row[]).map(toRecord);
        for (const record of ours) {
          const deleted = options.deletedIds?.has(record.alert.id) ?? false;
          if (!deleted && (!options.fullDataset || options.presentIds.has(record.alert.id))) continue;
          const reason = deleted ? "deleted by the feed" : "no longer in the feed";
          this.markEnded(record.alert, name, reason);
          this.audit(name, "end", record.alert, `${reason} ${feed}`, null);
          result.ended.push(record.alert.id);
        }
      })
      .immediate();
    return result;
  }

  /**
   * A set of alerts the back office published for `system` (distribution), in one transaction: each
   * alert is added, or edited when it is running and changed; the running alerts named in
   * `withdraw` (the previous set's that this one no longer lists) are ended — only this system's
   * and only the back office's, never a local one. All of it, or — on any error — nothing.
   */
  applySet(system: SystemId, alerts: readonly Alert[], options: { who: string; withdraw: readonly string[]; detail: string }): { added: string[]; updated: string[]; unchanged: string[]; ended: string[] } {
    const name = AlertStore.operator(options.who);
    const result = { added: [] as string[], updated: [] as string[], unchanged: [] as string[], ended: [] as string[] };
    this.db
      .transaction(() => {
        for (const raw of alerts) {
          const alert = AlertSchema.parse(raw);
          if (alert.system !== system || alert.source.kind !== "backoffice") throw new AlertStoreError(`published alert '${alert.id}' is not a back-office alert of ${system}`);
          result[this.upsert(alert, name, (change) => ({ action: change === "added" ? "add" : "edit", detail: options.detail }))].push(alert.id);
        }
        const keep = new Set(alerts.map((a) => a.id));
        for (const id of options.withdraw) {
          const existing = this.get(id);
          if (keep.has(id) || !existing || existing.ended_at !== null || existing.alert.system !== system) continue;
          // Sets applied before alerts were keyed by source carry plain ids: only what the back office created may go.
          if (existing.alert.source.kind !== "backoffice" && !existing.created_by.startsWith("backoffice")) continue;
          this.markEnded(existing.alert, name, "withdrawn by the back office");
          this.audit(name, "end", existing.alert, options.detail, null);
          result.ended.push(id);
        }
      })
      .immediate();
    return result;
  }

  /** The audit log (of a system), oldest first. */
  auditLog(system?: SystemId): AlertAuditEntry[] {
    const rows = (system
      ? this.db.prepare("SELECT seq, at, who, action, alert_id, system, detail FROM alert_audit WHERE system = ? ORDER BY seq").all(system)
      : this.db.prepare("SELECT seq, at, who, action, alert_id, system, detail FROM alert_audit ORDER BY seq").all()) as Row[];
    return rows.map((r) => ({
      seq: Number(r["seq"]),
      at: String(r["at"]),
      who: String(r["who"]),
      action: String(r["action"]) as AlertAuditAction,
      alert_id: String(r["alert_id"]),
      system: String(r["system"]) as SystemId,
      detail: r["detail"] === null ? null : String(r["detail"]),
    }));
  }
}
