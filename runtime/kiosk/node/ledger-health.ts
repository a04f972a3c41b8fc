// Is the sales ledger fit to record sales? SQLite's quick_check (page and b-tree structure, every
// table and index; no full index content comparison, so it is fast enough for every start) plus
// the schema the kiosk writes. A ledger that fails it is opened for nothing: sales stay disabled,
// the status says why, and the passenger is told before paying, not after (issue 13, finding 8).
import type Database from "better-sqlite3";
import type { LedgerHealth } from "../sales.ts";

export type { LedgerHealth };

/** quick_check of an open database (never throws: an unreadable file is itself a finding). */
export function ledgerHealth(db: Database.Database): LedgerHealth {
  try {
    const rows = db.pragma("quick_check(5)") as { quick_check: string }[];
    const findings = rows.map((r) => r.quick_check).filter((r) => r !== "ok");
    if (findings.length > 0) return { ok: false, problem: `the ledger file is damaged (quick_check: ${findings.join("; ").slice(0, 300)})` };
    return { ok: true, problem: null };
  } catch (err) {
    return { ok: false, problem: `the ledger file cannot be checked: ${(err as Error).message}` };
  }
}
