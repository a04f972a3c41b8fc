import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, expect, it } from "vitest";
import { sellOne } from "../../../test/fleet-kiosk.ts";
import { Ledger } from "./ledger.ts";

let dir: string | null = null;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = null;
});

it("prunes sent outbox rows older than the retention and never unsent ones (real SQLite ledger)", () => {
  dir = mkdtempSync(path.join(tmpdir(), "kiosk-prune-"));
  const ledger = Ledger.open(path.join(dir, "ledger.sqlite"));
  try {
    for (let n = 1; n <= 4; n++) sellOne(ledger, "k", n);
    const rows = ledger.outbox.pending(100);
    expect(rows.length).toBeGreaterThanOrEqual(8);
    const old = rows.slice(0, 4).map((r) => r.key);
    const recent = rows.slice(4, 6).map((r) => r.key);
    ledger.outbox.markSent(old, "2026-01-01T00:00:00.000Z");
    ledger.outbox.markSent(recent, "2026-03-01T00:00:00.000Z");
    const unsent = rows.length - 6;
    expect(ledger.outbox.pruneSent("2026-02-01T00:00:00.000Z")).toBe(4);
    expect(ledger.outbox.lag().pending).toBe(unsent);
    // Far in the future: the recent sent rows go too, the unsent ones stay.
    expect(ledger.outbox.pruneSent("2099-01-01T00:00:00.000Z")).toBe(2);
    expect(ledger.outbox.pending(100).map((r) => r.key)).toEqual(rows.slice(6).map((r) => r.key));
  } finally {
    ledger.close();
  }
});
