import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import type { SaleRecord } from "../sales.ts";
import { DEFAULT_LEDGER_FILE, Ledger, LedgerError, MIGRATIONS, ledgerPath } from "./ledger.ts";

const dirs: string[] = [];
function tempFile(name = "ledger.sqlite"): string {
  const dir = mkdtempSync(path.join(tmpdir(), "kiosk-ledger-"));
  dirs.push(dir);
  return path.join(dir, "nested", name);
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function sale(overrides: Partial<SaleRecord> = {}): SaleRecord {
  return {
    ticketId: "T-1",
    issuedAt: "2026-03-09T14:00:00.000Z",
    system: "marta",
    sessionId: "s-1",
    originId: "MARTA-AP",
    originName: "Airport",
    destinationId: "MARTA-FP",
    destinationName: "Five Points",
    stops: ["MARTA-AP", "MARTA-FP"],
    riders: { adults: 1, children: 0, seniors: 0, disabled: 0 },
    total: 2.5,
    currency: "USD",
    paymentMethod: "breeze_card",
    paymentTerminal: "simulated",
    authorizationId: "SIM-000001",
    stateJson: "{}",
    transcriptId: "tr-abc",
    framebookVersion: "fb-123",
    policy: "rule",
    ...overrides,
  };
}

describe("ledger", () => {
  it("opens with WAL and synchronous=FULL, creating the folder, and migrates to the latest version", () => {
    const file = tempFile();
    const ledger = Ledger.open(file);
    expect(ledger.pragmas()).toEqual({ journalMode: "wal", synchronous: 2 });
    expect(ledger.schemaVersion).toBe(MIGRATIONS.length);
    ledger.close();
    // Reopening does not re-run migrations.
    const again = Ledger.open(file);
    expect(again.schemaVersion).toBe(MIGRATIONS.length);
    again.close();
  });

  it("commits a sale durably: a second connection sees it at once", () => {
    const file = tempFile();
    const ledger = Ledger.open(file);
    ledger.recordSale(sale({ total: 4.9 }));
    const reader = new Database(file, { readonly: true });
    const row = reader.prepare("SELECT ticket_id, total, total_minor, riders_json, transcript_id FROM sales").get();
    expect(row).toEqual({ ticket_id: "T-1", total: 4.9, total_minor: 490, riders_json: '{"adults":1,"children":0,"seniors":0,"disabled":0}', transcript_id: "tr-abc" });
    reader.close();
    ledger.close();
  });

  it("refuses a duplicate ticket id and reports a closed database as LedgerError", () => {
    const ledger = Ledger.open(":memory:");
    ledger.recordSale(sale());
    expect(() => ledger.recordSale(sale())).toThrow(LedgerError);
    ledger.close();
    expect(() => ledger.recordSale(sale({ ticketId: "T-2" }))).toThrow(/not recorded/);
  });

  it("refuses a database from a newer kiosk version", () => {
    const file = tempFile();
    const db = (Ledger.open(file), new Database(file));
    db.pragma(`user_version = ${MIGRATIONS.length + 1}`);
    db.close();
    expect(() => Ledger.open(file)).toThrow(/newer than this kiosk understands/);
  });

  it("fails clearly when the location cannot be used", () => {
    const file = tempFile();
    const blocker = path.dirname(file);
    Ledger.open(path.join(blocker, "x.sqlite")).close();
    // A path under a file (not a folder) cannot be created.
    expect(() => Ledger.open(path.join(blocker, "x.sqlite", "ledger.sqlite"))).toThrow(LedgerError);
  });

  it("logs sessions without free text and voids sales", () => {
    const ledger = Ledger.open(":memory:");
    ledger.recordSale(sale());
    ledger.voidSale("T-1", "capture_failed", "2026-03-09T14:01:00.000Z");
    expect(ledger.sales()[0]).toMatchObject({ voided_at: "2026-03-09T14:01:00.000Z", void_reason: "capture_failed" });
    ledger.logSession({ at: "t", sessionId: "s-1", system: "marta", event: "answer", outcome: "route_and_fare_ready", purchasable: true, problems: ["fare_mismatch"] });
    const [row] = ledger.sessionLog();
    expect(row).toMatchObject({ event: "answer", outcome: "route_and_fare_ready", purchasable: 1, problems: "fare_mismatch" });
    const columns = (ledger.db.prepare("PRAGMA table_info(session_log)").all() as { name: string }[]).map((c) => c.name);
    expect(columns.some((c) => /text|message|name/.test(c))).toBe(false);
    ledger.close();
  });

  it("resolves its location from --ledger, $METRO_LEDGER, then ./var/ledger.sqlite", () => {
    expect(ledgerPath({ flag: "a.sqlite", env: { METRO_LEDGER: "b.sqlite" }, cwd: "/k" })).toBe("/k/a.sqlite");
    expect(ledgerPath({ env: { METRO_LEDGER: "b.sqlite" }, cwd: "/k" })).toBe("/k/b.sqlite");
    expect(ledgerPath({ env: {}, cwd: "/k" })).toBe(path.join("/k", DEFAULT_LEDGER_FILE));
  });
});
