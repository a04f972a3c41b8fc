// The ledger's outbox (issue 18, store and forward): every sale, void and session log line the
// ledger commits gets one outbox row, written by SQLite triggers inside the same transaction, so
// what the kiosk sold offline is always waiting to be sent and nothing is lost on a SIGKILL. The
// replicator (replicator.ts) reads pending rows in sequence order and marks them sent only after
// the back office acknowledged their keys. Keys are stable and unique per ledger, so a resend after
// a lost acknowledgement is recognised by the back office (ON CONFLICT DO NOTHING):
//   sale/<ticket id>, void/<ticket id>, session/<ledger id>/<session log row id>.
import type Database from "better-sqlite3";
import type { OutboxKind, OutboxRecord } from "../../fleet/protocol.ts";

const SALE_PAYLOAD = `json_object(
  'ticketId', NEW.ticket_id, 'issuedAt', NEW.issued_at, 'system', NEW.system, 'sessionId', NEW.session_id,
  'originId', NEW.origin_id, 'originName', NEW.origin_name, 'destinationId', NEW.destination_id,
  'destinationName', NEW.destination_name, 'stops', json(NEW.stops_json), 'riders', json(NEW.riders_json),
  'total', NEW.total, 'totalMinor', NEW.total_minor, 'currency', NEW.currency, 'paymentMethod', NEW.payment_method,
  'paymentTerminal', NEW.payment_terminal, 'authorizationId', NEW.authorization_id, 'transcriptId', NEW.transcript_id,
  'framebookVersion', NEW.framebook_version, 'policy', NEW.policy, 'requestId', NEW.request_id)`;
const VOID_PAYLOAD = `json_object('ticketId', NEW.ticket_id, 'voidedAt', NEW.voided_at, 'reason', NEW.void_reason)`;
const SESSION_PAYLOAD = `json_object(
  'id', NEW.id, 'at', NEW.at, 'sessionId', NEW.session_id, 'system', NEW.system, 'event', NEW.event, 'turn', NEW.turn,
  'outcome', NEW.outcome, 'action', NEW.action, 'reasonCode', NEW.reason_code, 'policy', NEW.policy,
  'fallback', NEW.fallback, 'assistantUnavailable', NEW.assistant_unavailable, 'termination', NEW.termination,
  'purchasable', NEW.purchasable, 'problems', NEW.problems, 'elapsedMs', NEW.elapsed_ms, 'rounds', NEW.rounds,
  'toolCalls', NEW.tool_calls, 'ticketId', NEW.ticket_id)`;
const SESSION_KEY = `'session/' || (SELECT value FROM ledger_meta WHERE name = 'ledger_id') || '/' || NEW.id`;
/** The same expressions over the existing rows (the backfill reads the tables as NEW). */
const asBackfill = (expr: string): string => expr.replaceAll("NEW.", "NEW_.");

/** Ledger migration 3 (see ledger.ts MIGRATIONS). */
export const OUTBOX_MIGRATION = `
  CREATE TABLE ledger_meta (name TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;
  INSERT INTO ledger_meta (name, value) VALUES ('ledger_id', lower(hex(randomblob(16))));
  CREATE TABLE outbox (
    seq        INTEGER PRIMARY KEY AUTOINCREMENT,
    key        TEXT NOT NULL UNIQUE,
    kind       TEXT NOT NULL CHECK (kind IN ('sale', 'void', 'session')),
    at         TEXT NOT NULL,
    payload    TEXT NOT NULL,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    sent_at    TEXT
  ) STRICT;
  CREATE INDEX outbox_pending ON outbox(seq) WHERE sent_at IS NULL;
  INSERT INTO outbox (key, kind, at, payload)
    SELECT 'sale/' || NEW_.ticket_id, 'sale', NEW_.issued_at, ${asBackfill(SALE_PAYLOAD)} FROM sales AS NEW_ ORDER BY NEW_.issued_at, NEW_.ticket_id;
  INSERT INTO outbox (key, kind, at, payload)
    SELECT 'void/' || NEW_.ticket_id, 'void', NEW_.voided_at, ${asBackfill(VOID_PAYLOAD)} FROM sales AS NEW_ WHERE NEW_.voided_at IS NOT NULL ORDER BY NEW_.voided_at;
  INSERT INTO outbox (key, kind, at, payload)
    SELECT ${asBackfill(SESSION_KEY)}, 'session', NEW_.at, ${asBackfill(SESSION_PAYLOAD)} FROM session_log AS NEW_ ORDER BY NEW_.id;
  CREATE TRIGGER outbox_sale AFTER INSERT ON sales BEGIN
    INSERT OR IGNORE INTO outbox (key, kind, at, payload) VALUES ('sale/' || NEW.ticket_id, 'sale', NEW.issued_at, ${SALE_PAYLOAD});
  END;
  CREATE TRIGGER outbox_void AFTER UPDATE OF voided_at ON sales WHEN NEW.voided_at IS NOT NULL AND OLD.voided_at IS NULL BEGIN
    INSERT OR IGNORE INTO outbox (key, kind, at, payload) VALUES ('void/' || NEW.ticket_id, 'void', NEW.voided_at, ${VOID_PAYLOAD});
  END;
  CREATE TRIGGER outbox_session AFTER INSERT ON session_log BEGIN
    INSERT OR IGNORE INTO outbox (key, kind, at, payload) VALUES (${SESSION_KEY}, 'session', NEW.at, ${SESSION_PAYLOAD});
  END;`;

/**
 * Ledger migration 5: a record the back office refused as one no kiosk could make is parked — kept
 * with the reason, never resent on its own, never pruned — so the rest of the outbox keeps flowing.
 */
export const OUTBOX_PARKING_MIGRATION = `
  ALTER TABLE outbox ADD COLUMN parked_at TEXT;
  ALTER TABLE outbox ADD COLUMN parked_reason TEXT;
  DROP INDEX outbox_pending;
  CREATE INDEX outbox_pending ON outbox(seq) WHERE sent_at IS NULL AND parked_at IS NULL;`;

/** Sent outbox rows are kept this long (the back office has them), then pruned. */
export const DEFAULT_OUTBOX_RETENTION_DAYS = 30;

/** How far behind the back office is: rows not yet acknowledged and the age of the oldest. */
export interface OutboxLag {
  pending: number;
  /** When the oldest unsent row was written (ISO), null when nothing is pending. */
  oldestPendingAt: string | null;
}

/** A record the back office refused, kept on the kiosk with its reason. */
export interface ParkedRecord {
  key: string;
  kind: OutboxKind;
  parkedAt: string;
  reason: string;
}

interface OutboxRow {
  seq: number;
  key: string;
  kind: OutboxKind;
  at: string;
  payload: string;
}

export class Outbox {
  private statements: {
    pending: Database.Statement<[number], OutboxRow>;
    markSent: Database.Statement<[string, string]>;
    park: Database.Statement<[string, string, string]>;
    lag: Database.Statement<[], { pending: number; oldest: string | null }>;
    ledgerId: Database.Statement<[], { value: string }>;
  } | null = null;

  constructor(private readonly db: Database.Database) {}

  /** Prepare the statements (after the ledger's migrations ran). */
  prepare(): void {
    this.statements = {
      pending: this.db.prepare("SELECT seq, key, kind, at, payload FROM outbox WHERE sent_at IS NULL AND parked_at IS NULL ORDER BY seq LIMIT ?"),
      markSent: this.db.prepare("UPDATE outbox SET sent_at = ? WHERE key = ? AND sent_at IS NULL"),
      park: this.db.prepare("UPDATE outbox SET parked_at = ?, parked_reason = ? WHERE key = ? AND sent_at IS NULL AND parked_at IS NULL"),
      lag: this.db.prepare("SELECT count(*) AS pending, min(created_at) AS oldest FROM outbox WHERE sent_at IS NULL AND parked_at IS NULL"),
      ledgerId: this.db.prepare("SELECT value FROM ledger_meta WHERE name = 'ledger_id'"),
    };
  }

  private get s(): NonNullable<Outbox["statements"]> {
    if (!this.statements) throw new Error("the outbox is not prepared (the ledger is not open)");
    return this.statements;
  }

  /** This ledger's own id (random, made when the outbox was created): part of session record keys. */
  ledgerId(): string {
    return this.s.ledgerId.get()?.value ?? "";
  }

  /** The oldest `limit` records not yet acknowledged, in the order they were committed. */
  pending(limit: number): OutboxRecord[] {
    return this.s.pending.all(limit).map((r) => ({ seq: r.seq, key: r.key, kind: r.kind, at: r.at, payload: JSON.parse(r.payload) as Record<string, unknown> }) as OutboxRecord);
  }

  /** Mark these keys acknowledged by the back office (one transaction); returns how many were newly marked. */
  markSent(keys: readonly string[], at: string): number {
    let marked = 0;
    this.db
      .transaction(() => {
        for (const key of keys) marked += this.s.markSent.run(at, key).changes;
      })
      .immediate();
    return marked;
  }

  /** Park records the back office refused (one transaction); returns how many were newly parked. */
  park(refused: readonly { key: string; reason: string }[], at: string): number {
    let parked = 0;
    this.db
      .transaction(() => {
        for (const r of refused) parked += this.s.park.run(at, r.reason, r.key).changes;
      })
      .immediate();
    return parked;
  }

  parkedCount(): number {
    return (this.db.prepare("SELECT count(*) AS n FROM outbox WHERE parked_at IS NOT NULL").get() as { n: number }).n;
  }

  /** The parked records, oldest first (for the technician and the log). */
  parked(): ParkedRecord[] {
    const rows = this.db.prepare("SELECT key, kind, parked_at, parked_reason FROM outbox WHERE parked_at IS NOT NULL ORDER BY seq").all() as { key: string; kind: OutboxKind; parked_at: string; parked_reason: string }[];
    return rows.map((r) => ({ key: r.key, kind: r.kind, parkedAt: r.parked_at, reason: r.parked_reason }));
  }

  /**
   * Delete the rows the back office acknowledged before `sentBefore` (ISO); rows never sent are
   * kept whatever their age. Returns how many were deleted.
   */
  pruneSent(sentBefore: string): number {
    return this.db.prepare("DELETE FROM outbox WHERE sent_at IS NOT NULL AND sent_at < ?").run(sentBefore).changes;
  }

  lag(): OutboxLag {
    const row = this.s.lag.get();
    return { pending: row?.pending ?? 0, oldestPendingAt: row?.oldest ?? null };
  }
}
