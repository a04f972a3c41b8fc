// The sales ledger (SQLite through better-sqlite3): every ticket sale is committed — WAL journal,
// synchronous=FULL, so a committed sale survives a power cut — before the ticket is handed out.
// Passenger sessions are logged for audit without personal data: no free text, no names, only
// outcome / action / reason / policy / timings. Schema changes are numbered migrations tracked in
// PRAGMA user_version.
import { mkdirSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import type { LedgerHealth, SaleRecord, SaleRow, SalesLedger, SessionLogEntry } from "../sales.ts";

export type { SaleRow };
import { ledgerHealth } from "./ledger-health.ts";
import { OUTBOX_MIGRATION, OUTBOX_PARKING_MIGRATION, Outbox } from "./outbox.ts";

export const LEDGER_ENV = "METRO_LEDGER";
export const DEFAULT_LEDGER_FILE = "var/ledger.sqlite";

/** Where the ledger lives: --ledger, then $METRO_LEDGER, then ./var/ledger.sqlite. */
export function ledgerPath(options: { flag?: string; env?: NodeJS.ProcessEnv; cwd?: string } = {}): string {
  const cwd = options.cwd ?? process.cwd();
  const chosen = options.flag || (options.env ?? process.env)[LEDGER_ENV] || DEFAULT_LEDGER_FILE;
  return chosen === ":memory:" ? chosen : path.resolve(cwd, chosen);
}

export class LedgerError extends Error {
  override name = "LedgerError";
}

/** Numbered schema migrations: index i takes the schema from version i to i + 1. */
export const MIGRATIONS: readonly string[] = [
  `CREATE TABLE sales (
     ticket_id         TEXT PRIMARY KEY,
     issued_at         TEXT NOT NULL,
     system            TEXT NOT NULL,
     session_id        TEXT NOT NULL,
     origin_id         TEXT NOT NULL,
     origin_name       TEXT NOT NULL,
     destination_id    TEXT NOT NULL,
     destination_name  TEXT NOT NULL,
     stops_json        TEXT NOT NULL,
     riders_json       TEXT NOT NULL,
     total             REAL NOT NULL,
     total_minor       INTEGER NOT NULL,
     currency          TEXT NOT NULL,
     payment_method    TEXT NOT NULL,
     payment_terminal  TEXT NOT NULL,
     authorization_id  TEXT NOT NULL,
     state_json        TEXT NOT NULL,
     transcript_id     TEXT NOT NULL,
     framebook_version TEXT NOT NULL,
     policy            TEXT NOT NULL,
     voided_at         TEXT,
     void_reason       TEXT
   ) STRICT;
   CREATE INDEX sales_issued_at ON sales(issued_at);
   CREATE TABLE session_log (
     id                    INTEGER PRIMARY KEY AUTOINCREMENT,
     at                    TEXT NOT NULL,
     session_id            TEXT NOT NULL,
     system                TEXT NOT NULL,
     event                 TEXT NOT NULL,
     turn                  INTEGER,
     outcome               TEXT,
     action                TEXT,
     reason_code           TEXT,
     policy                TEXT,
     fallback              INTEGER,
     assistant_unavailable INTEGER,
     termination           TEXT,
     purchasable           INTEGER,
     problems              TEXT,
     elapsed_ms            REAL,
     rounds                INTEGER,
     tool_calls            INTEGER,
     ticket_id             TEXT
   ) STRICT;
   CREATE INDEX session_log_session ON session_log(session_id);`,
  // Idempotent purchases: a retried request finds the ticket it already issued.
  `ALTER TABLE sales ADD COLUMN request_id TEXT;
   CREATE UNIQUE INDEX sales_session_request ON sales(session_id, request_id) WHERE request_id IS NOT NULL;`,
  // The fleet outbox (issue 18): triggers write one row per sale, void and session log line in the
  // very transaction that writes them, so a SIGKILL can never leave a sale without its outbox row.
  // Existing rows are enqueued once, so a kiosk that joins a fleet later still sends its history.
  OUTBOX_MIGRATION,
  OUTBOX_PARKING_MIGRATION,
];


function toMinor(amount: number): number {
  // Half away from zero on the cent; amounts are at most a few hundred major units.
  return Math.sign(amount) * Math.round(Math.abs(amount) * 100 + 1e-9);
}

function flag(v: boolean | null | undefined): number | null {
  return v === undefined || v === null ? null : v ? 1 : 0;
}

export class Ledger implements SalesLedger {
  /** What is waiting to be replicated to the back office (runtime/kiosk/node/replicator.ts sends it). */
  readonly outbox: Outbox;

  private constructor(
    readonly file: string,
    readonly db: Database.Database,
  ) {
    this.outbox = new Outbox(db);
  }

  /** Open (creating folders and the file when needed) and migrate. Throws LedgerError. */
  static open(file: string): Ledger {
    let db: Database.Database | undefined;
    try {
      if (file !== ":memory:") mkdirSync(path.dirname(file), { recursive: true });
      db = new Database(file);
      if (file !== ":memory:") {
        const mode = db.pragma("journal_mode = WAL", { simple: true });
        if (String(mode).toLowerCase() !== "wal") throw new Error(`journal_mode is ${String(mode)}, WAL is required`);
      }
      db.pragma("synchronous = FULL");
      db.pragma("foreign_keys = ON");
      db.pragma("busy_timeout = 5000");
      // A damaged file is refused at start, before a single sale is committed into it.
      const health = ledgerHealth(db);
      if (!health.ok) throw new Error(health.problem ?? "damaged");
      const ledger = new Ledger(file, db);
      ledger.migrate();
      ledger.outbox.prepare();
      return ledger;
    } catch (err) {
      db?.close();
      throw new LedgerError(`cannot open the ledger ${file}: ${(err as Error).message}`);
    }
  }

  get schemaVersion(): number {
    return Number(this.db.pragma("user_version", { simple: true }));
  }

  private migrate(): void {
    const current = this.schemaVersion;
    if (current > MIGRATIONS.length) {
      throw new Error(`ledger schema version ${current} is newer than this kiosk understands (${MIGRATIONS.length}); update the kiosk software`);
    }
    for (let v = current; v < MIGRATIONS.length; v++) {
      const step = this.db.transaction(() => {
        this.db.exec(MIGRATIONS[v]!);
        this.db.pragma(`user_version = ${v + 1}`);
      });
      step.immediate();
    }
  }

  /** The durability settings in force (for the status screen and tests). */
  pragmas(): { journalMode: string; synchronous: number } {
    return {
      journalMode: String(this.db.pragma("journal_mode", { simple: true })),
      synchronous: Number(this.db.pragma("synchronous", { simple: true })),
    };
  }

  recordSale(sale: SaleRecord): void {
    try {
      const insert = this.db.prepare(
        `INSERT INTO sales (ticket_id, issued_at, system, session_id, origin_id, origin_name, destination_id, destination_name,
           stops_json, riders_json, total, total_minor, currency, payment_method, payment_terminal, authorization_id,
           state_json, transcript_id, framebook_version, policy, request_id)
         VALUES (@ticketId, @issuedAt, @system, @sessionId, @originId, @originName, @destinationId, @destinationName,
           @stopsJson, @ridersJson, @total, @totalMinor, @currency, @paymentMethod, @paymentTerminal, @authorizationId,
           @stateJson, @transcriptId, @framebookVersion, @policy, @requestId)`,
      );
      const { stops, riders, requestId, ...rest } = sale;
      this.db
        .transaction(() =>
          insert.run({ ...rest, requestId: requestId ?? null, stopsJson: JSON.stringify(stops), ridersJson: JSON.stringify(riders), totalMinor: toMinor(sale.total) }),
        )
        .immediate();
    } catch (err) {
      throw new LedgerError(`sale ${sale.ticketId} not recorded: ${(err as Error).message}`);
    }
  }

  voidSale(ticketId: string, reason: string, at: string): void {
    try {
      this.db.prepare("UPDATE sales SET voided_at = ?, void_reason = ? WHERE ticket_id = ?").run(at, reason, ticketId);
    } catch (err) {
      throw new LedgerError(`sale ${ticketId} not voided: ${(err as Error).message}`);
    }
  }

  logSession(entry: SessionLogEntry): void {
    try {
      this.db
        .prepare(
          `INSERT INTO session_log (at, session_id, system, event, turn, outcome, action, reason_code, policy, fallback,
             assistant_unavailable, termination, purchasable, problems, elapsed_ms, rounds, tool_calls, ticket_id)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          entry.at,
          entry.sessionId,
          entry.system,
          entry.event,
          entry.turn ?? null,
          entry.outcome ?? null,
          entry.action ?? null,
          entry.reasonCode ?? null,
          entry.policy ?? null,
          flag(entry.fallback),
          flag(entry.assistantUnavailable),
          entry.termination ?? null,
          flag(entry.purchasable),
          entry.problems && entry.problems.length > 0 ? entry.problems.join(",") : null,
          entry.elapsedMs ?? null,
          entry.rounds ?? null,
          entry.toolCalls ?? null,
          entry.ticketId ?? null,
        );
    } catch (err) {
      throw new LedgerError(`session log not written: ${(err as Error).message}`);
    }
  }

  health(): LedgerHealth {
    if (!this.db.open) return { ok: false, problem: "the ledger is closed" };
    return ledgerHealth(this.db);
  }

  saleByRequest(sessionId: string, requestId: string): SaleRow | undefined {
    return this.db.prepare("SELECT * FROM sales WHERE session_id = ? AND request_id = ?").get(sessionId, requestId) as SaleRow | undefined;
  }

  saleById(ticketId: string): SaleRow | undefined {
    return this.db.prepare("SELECT * FROM sales WHERE ticket_id = ?").get(ticketId) as SaleRow | undefined;
  }

  sales(): SaleRow[] {
    return this.db.prepare("SELECT * FROM sales ORDER BY issued_at, ticket_id").all() as SaleRow[];
  }

  sessionLog(): Record<string, unknown>[] {
    return this.db.prepare("SELECT * FROM session_log ORDER BY id").all() as Record<string, unknown>[];
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
