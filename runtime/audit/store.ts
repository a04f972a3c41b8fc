// The session audit store (SQLite through better-sqlite3, WAL): one row per passenger session with
// its whole audit record (JSON) and the columns operators filter on. Sessions older than the
// retention period are deleted (on open, and by `prune`); nothing here holds payment data beyond
// what the ledger keeps (runtime/audit/model.ts).
import path from "node:path";
import type Database from "better-sqlite3";
import type { SystemId } from "../../tools/data/schemas.ts";
import { openMigrated } from "../storage/sqlite.ts";
import { AuditPurchaseSchema, AuditTurnSchema, SessionAuditSchema, summarizeSession, type AuditPurchase, type AuditTurn, type SessionAudit, type SessionAuditInput, type SessionSummary } from "./model.ts";

export const AUDIT_DB_ENV = "METRO_AUDIT_DB";
export const DEFAULT_AUDIT_DB = path.join("var", "audit.sqlite");
export const DEFAULT_RETENTION_DAYS = 30;

/** --audit-db, else $METRO_AUDIT_DB, else ./var/audit.sqlite. */
export function auditDbPath(flag?: string, env: NodeJS.ProcessEnv = process.env): string {
  return flag ?? env[AUDIT_DB_ENV] ?? DEFAULT_AUDIT_DB;
}

export class AuditStoreError extends Error {
  override name = "AuditStoreError";
}

const MIGRATIONS: readonly string[] = [
  `CREATE TABLE audit_sessions (
     session_id  TEXT PRIMARY KEY,
     system      TEXT NOT NULL,
     language    TEXT NOT NULL,
     started_at  TEXT NOT NULL,
     last_at     TEXT NOT NULL,
     turns       INTEGER NOT NULL,
     outcome     TEXT NOT NULL,
     action      TEXT NOT NULL,
     reason_code TEXT NOT NULL,
     answered_by TEXT NOT NULL,
     fallback    INTEGER NOT NULL,
     blocked     INTEGER NOT NULL,
     refused     INTEGER NOT NULL,
     sold        INTEGER NOT NULL,
     block_codes TEXT NOT NULL,
     record_json TEXT NOT NULL
   ) STRICT;
   CREATE INDEX audit_sessions_started ON audit_sessions(started_at);
   CREATE INDEX audit_sessions_last ON audit_sessions(last_at);`,
];

export interface SessionFilter {
  system?: SystemId;
  /** Sessions started at or after / before these instants. */
  from?: Date;
  to?: Date;
  outcome?: string;
  fallback?: boolean;
  blocked?: boolean;
  refused?: boolean;
  language?: string;
  limit?: number;
}

type Row = Record<string, unknown>;

function summaryOf(r: Row): SessionSummary {
  return {
    sessionId: String(r["session_id"]),
    system: String(r["system"]) as SystemId,
    language: String(r["language"]),
    startedAt: String(r["started_at"]),
    turns: Number(r["turns"]),
    outcome: String(r["outcome"]),
    action: String(r["action"]),
    reasonCode: String(r["reason_code"]),
    answeredBy: String(r["answered_by"]) as SessionSummary["answeredBy"],
    fallback: r["fallback"] === 1,
    blocked: r["blocked"] === 1,
    refused: r["refused"] === 1,
    sold: r["sold"] === 1,
    blockCodes: String(r["block_codes"]).split(",").filter(Boolean),
  };
}

/** The local calendar day around `now`, as instants [from, to). */
export function localDay(now: Date): { from: Date; to: Date } {
  const from = new Date(now.getFullYear(), now.getMonth(), now.getDate());
  return { from, to: new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1) };
}

export class SessionAuditStore {
  private constructor(
    readonly file: string,
    private readonly db: Database.Database,
    readonly retentionDays: number,
    private readonly clock: () => Date,
  ) {}

  static open(file: string, options: { retentionDays?: number; clock?: () => Date } = {}): SessionAuditStore {
    const retentionDays = options.retentionDays ?? DEFAULT_RETENTION_DAYS;
    if (!(retentionDays > 0)) throw new AuditStoreError(`the retention period must be a positive number of days (got ${retentionDays})`);
    let db: Database.Database;
    try {
      db = openMigrated(file, MIGRATIONS, { synchronous: "NORMAL" });
    } catch (err) {
      throw new AuditStoreError(`cannot open the session audit ${file}: ${(err as Error).message}`);
    }
    const store = new SessionAuditStore(file, db, retentionDays, options.clock ?? (() => new Date()));
    store.prune();
    return store;
  }

  close(): void {
    if (this.db.open) this.db.close();
  }

  /** Store (or replace) a session's whole audit record. */
  put(input: SessionAuditInput): SessionAudit {
    const audit = SessionAuditSchema.parse(input);
    const s = summarizeSession(audit);
    const lastAt = [audit.endedAt, ...audit.turns.map((t) => t.at), ...audit.purchases.map((p) => p.at)].filter((x): x is string => x !== null).sort().pop() ?? audit.startedAt;
    this.db
      .prepare(
        `INSERT OR REPLACE INTO audit_sessions (session_id, system, language, started_at, last_at, turns, outcome, action, reason_code, answered_by,
           fallback, blocked, refused, sold, block_codes, record_json) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(s.sessionId, s.system, s.language, s.startedAt, lastAt, s.turns, s.outcome, s.action, s.reasonCode, s.answeredBy, +s.fallback, +s.blocked, +s.refused, +s.sold, s.blockCodes.join(","), JSON.stringify(audit));
    return audit;
  }

  /** One more answered turn: a new session (with its metadata) or the next turn of one. */
  addTurn(session: { sessionId: string; system: SystemId; language: string; accessibilityMode?: boolean }, turn: AuditTurn): SessionAudit {
    const checked = AuditTurnSchema.parse(turn);
    return this.update(session.sessionId, (existing) =>
      existing
        ? { ...existing, turns: [...existing.turns, checked] }
        : { sessionId: session.sessionId, system: session.system, language: session.language, accessibilityMode: session.accessibilityMode ?? false, startedAt: checked.at, turns: [checked] },
    );
  }

  addPurchase(sessionId: string, purchase: AuditPurchase): SessionAudit {
    const checked = AuditPurchaseSchema.parse(purchase);
    return this.update(sessionId, (existing) => {
      if (!existing) throw new AuditStoreError(`no audited session '${sessionId}'`);
      return { ...existing, purchases: [...existing.purchases, checked] };
    });
  }

  end(sessionId: string, at: Date): SessionAudit | undefined {
    if (!this.get(sessionId)) return undefined;
    return this.update(sessionId, (existing) => ({ ...existing!, endedAt: at.toISOString() }));
  }

  private update(sessionId: string, change: (existing: SessionAudit | undefined) => SessionAuditInput): SessionAudit {
    let out: SessionAudit | undefined;
    this.db.transaction(() => (out = this.put(change(this.get(sessionId))))).immediate();
    return out!;
  }

  get(sessionId: string): SessionAudit | undefined {
    const row = this.db.prepare("SELECT record_json FROM audit_sessions WHERE session_id = ?").get(sessionId) as Row | undefined;
    return row ? SessionAuditSchema.parse(JSON.parse(String(row["record_json"]))) : undefined;
  }

  /** Sessions matching the filter, newest first (summaries; `get` opens one). */
  sessions(filter: SessionFilter = {}): SessionSummary[] {
    const where: string[] = [];
    const args: (string | number)[] = [];
    const eq = (column: string, value: string | number | undefined): void => {
      if (value === undefined) return;
      where.push(`${column} = ?`);
      args.push(value);
    };
    eq("system", filter.system);
    eq("outcome", filter.outcome);
    eq("language", filter.language);
    for (const key of ["fallback", "blocked", "refused"] as const) eq(key, filter[key] === undefined ? undefined : +filter[key]);
    if (filter.from) {
      where.push("started_at >= ?");
      args.push(filter.from.toISOString());
    }
    if (filter.to) {
      where.push("started_at < ?");
      args.push(filter.to.toISOString());
    }
    const sql = `SELECT * FROM audit_sessions ${where.length ? `WHERE ${where.join(" AND ")}` : ""} ORDER BY started_at DESC, session_id LIMIT ?`;
    return (this.db.prepare(sql).all(...args, filter.limit ?? 500) as Row[]).map(summaryOf);
  }

  /** Today's sessions (the kiosk's local day), with the filters. */
  today(filter: Omit<SessionFilter, "from" | "to"> = {}): SessionSummary[] {
    return this.sessions({ ...filter, ...localDay(this.clock()) });
  }

  /** The last `n` sessions (newest first) as whole records: what a replay replays. */
  recent(n: number, system?: SystemId): SessionAudit[] {
    const rows = (system
      ? this.db.prepare("SELECT record_json FROM audit_sessions WHERE system = ? ORDER BY started_at DESC, session_id LIMIT ?").all(system, n)
      : this.db.prepare("SELECT record_json FROM audit_sessions ORDER BY started_at DESC, session_id LIMIT ?").all(n)) as Row[];
    return rows.map((r) => SessionAuditSchema.parse(JSON.parse(String(r["record_json"]))));
  }

  /** Delete sessions whose last activity is older than the retention period. Returns how many. */
  prune(): number {
    const cutoff = new Date(this.clock().getTime() - this.retentionDays * 86_400_000).toISOString();
    return this.db.prepare("DELETE FROM audit_sessions WHERE last_at < ?").run(cutoff).changes;
  }

  get size(): number {
    return Number(this.db.prepare("SELECT COUNT(*) FROM audit_sessions").pluck().get());
  }
}
