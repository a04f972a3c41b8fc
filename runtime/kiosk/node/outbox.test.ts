import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { BatchAckSchema, RecordBatchSchema, type RecordBatch } from "../../fleet/protocol.ts";
import type { SaleRecord } from "../sales.ts";
import { Ledger, MIGRATIONS } from "./ledger.ts";
import { Replicator } from "./replicator.ts";
import { OUTBOX_MIGRATION } from "./outbox.ts";

const dirs: string[] = [];
function tempFile(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "kiosk-outbox-"));
  dirs.push(dir);
  return path.join(dir, "ledger.sqlite");
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function sale(n: number, overrides: Partial<SaleRecord> = {}): SaleRecord {
  return {
    ticketId: `T-${n}`,
    issuedAt: new Date(Date.UTC(2026, 2, 9, 14, 0, n)).toISOString(),
    system: "marta",
    sessionId: `s-${n}`,
    originId: "MARTA-AP",
    originName: "Airport",
    destinationId: "MARTA-FP",
    destinationName: "Five Points",
    stops: ["MARTA-AP", "MARTA-FP"],
    riders: { adults: 1 },
    total: 2.5 + n,
    currency: "USD",
    paymentMethod: "breeze_card",
    paymentTerminal: "simulated",
    authorizationId: `SIM-${n}`,
    stateJson: "{}",
    transcriptId: "tr",
    framebookVersion: "fb",
    policy: "rule",
    ...overrides,
  };
}

/** A back office in a function: stores keys once, optionally fails or acknowledges only some. */
function fakeBackOffice(behaviour: { fail?: () => boolean; ackOnly?: (keys: string[]) => string[] } = {}) {
  const stored = new Map<string, RecordBatch["records"][number]>();
  const batches: RecordBatch[] = [];
  const fetchImpl = (async (_url: unknown, init?: RequestInit) => {
    if (behaviour.fail?.()) throw new TypeError("fetch failed (connection refused)");
    const batch = RecordBatchSchema.parse(JSON.parse(String(init?.body)));
    batches.push(batch);
    let inserted = 0;
    for (const r of batch.records) {
      if (!stored.has(r.key)) inserted++;
      stored.set(r.key, r);
    }
    const keys = batch.records.map((r) => r.key);
    const ack = BatchAckSchema.parse({ acknowledged: behaviour.ackOnly ? behaviour.ackOnly(keys) : keys, inserted });
    return new Response(JSON.stringify(ack), { status: 200, headers: { "content-type": "application/json" } });
  }) as typeof fetch;
  return { stored, batches, fetch: fetchImpl };
}

function replicator(ledger: Ledger, fetchImpl: typeof fetch, batchSize = 3): Replicator {
  return new Replicator({ outbox: ledger.outbox, kioskId: "k-1", url: "http://backoffice.invalid", token: "t", batchSize, fetch: fetchImpl, backoff: { minMs: 1, maxMs: 5 }, idleMs: 5 });
}

describe("ledger outbox", () => {
  it("writes one outbox row per sale, void and session line, in commit order, with stable keys", () => {
    const ledger = Ledger.open(tempFile());
    ledger.recordSale(sale(1));
    ledger.logSession({ at: "2026-03-09T14:00:02.000Z", sessionId: "s-1", system: "marta", event: "sale", ticketId: "T-1" });
    ledger.recordSale(sale(2));
    ledger.voidSale("T-1", "capture_failed", "2026-03-09T14:00:05.000Z");
    ledger.voidSale("T-1", "again", "2026-03-09T14:00:06.000Z"); // a second void of the same ticket is not a second record
    const records = ledger.outbox.pending(100);
    const id = ledger.outbox.ledgerId();
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(records.map((r) => [r.kind, r.key])).toEqual([
      ["sale", "sale/T-1"],
      ["session", `session/${id}/1`],
      ["sale", "sale/T-2"],
      ["void", "void/T-1"],
    ]);
    expect(records.map((r) => r.seq)).toEqual([...records.map((r) => r.seq)].sort((a, b) => a - b));
    expect(records[0]).toMatchObject({ at: sale(1).issuedAt, payload: { ticketId: "T-1", totalMinor: 350, currency: "USD", stops: ["MARTA-AP", "MARTA-FP"], riders: { adults: 1 } } });
    expect(records[3]?.payload).toEqual({ ticketId: "T-1", voidedAt: "2026-03-09T14:00:05.000Z", reason: "capture_failed" });
    // Every record is what the back office accepts.
    expect(RecordBatchSchema.safeParse({ kioskId: "k-1", records, lag: ledger.outbox.lag() }).success).toBe(true);
    ledger.close();
  });

  it("writes the outbox row in the sale's own transaction: a sale that fails leaves no record, one rolled back takes its record with it", () => {
    const ledger = Ledger.open(tempFile());
    ledger.recordSale(sale(1));
    expect(() => ledger.recordSale(sale(1))).toThrow(/not recorded/);
    expect(ledger.outbox.pending(10).map((r) => r.key)).toEqual(["sale/T-1"]);
    // An enclosing transaction that is rolled back after the sale: neither the sale nor its outbox row remain.
    const rollback = ledger.db.transaction(() => {
      ledger.recordSale(sale(2));
      expect(ledger.outbox.pending(10)).toHaveLength(2);
      throw new Error("power cut");
    });
    expect(() => rollback()).toThrow("power cut");
    expect(ledger.sales().map((s) => s.ticket_id)).toEqual(["T-1"]);
    expect(ledger.outbox.pending(10).map((r) => r.key)).toEqual(["sale/T-1"]);
    ledger.close();
  });

  it("enqueues a ledger's existing sales, voids and session lines when it is migrated to the outbox", () => {
    const file = tempFile();
    // A ledger of the previous schema version, with history.
    const db = new Database(file);
    for (const [i, sql] of MIGRATIONS.slice(0, MIGRATIONS.indexOf(OUTBOX_MIGRATION)).entries()) {
      db.exec(sql);
      db.pragma(`user_version = ${i + 1}`);
    }
    db.prepare(
      `INSERT INTO sales (ticket_id, issued_at, system, session_id, origin_id, origin_name, destination_id, destination_name, stops_json, riders_json,
         total, total_minor, currency, payment_method, payment_terminal, authorization_id, state_json, transcript_id, framebook_version, policy, voided_at, void_reason)
       VALUES ('OLD-1', '2026-03-01T10:00:00.000Z', 'marta', 's', 'a', 'A', 'b', 'B', '[]', '{}', 2.5, 250, 'USD', 'card', 'sim', 'x', '{}', 't', 'f', 'rule', '2026-03-01T10:01:00.000Z', 'capture_failed')`,
    ).run();
    db.prepare("INSERT INTO session_log (at, session_id, system, event) VALUES ('2026-03-01T10:00:00.000Z', 's', 'marta', 'end')").run();
    db.close();
    const ledger = Ledger.open(file);
    expect(ledger.outbox.pending(10).map((r) => r.kind)).toEqual(["sale", "void", "session"]);
    ledger.close();
  });

  it("reports the replication lag: how many are pending and since when", () => {
    const ledger = Ledger.open(tempFile());
    expect(ledger.outbox.lag()).toEqual({ pending: 0, oldestPendingAt: null });
    ledger.recordSale(sale(1));
    ledger.recordSale(sale(2));
    const lag = ledger.outbox.lag();
    expect(lag.pending).toBe(2);
    expect(Date.now() - Date.parse(lag.oldestPendingAt ?? "")).toBeLessThan(60_000);
    ledger.close();
  });
});

describe("replicator", () => {
  it("sends pending records oldest first in batches and marks only acknowledged keys sent", async () => {
    const ledger = Ledger.open(tempFile());
    for (let n = 1; n <= 7; n++) ledger.recordSale(sale(n));
    const office = fakeBackOffice();
    const rep = replicator(ledger, office.fetch);
    expect(await rep.sendBatch()).toBe(3);
    expect(await rep.sendBatch()).toBe(3);
    expect(await rep.sendBatch()).toBe(1);
    expect(await rep.sendBatch()).toBe(0);
    expect(office.batches.map((b) => b.records.map((r) => r.payload.ticketId))).toEqual([
      ["T-1", "T-2", "T-3"],
      ["T-4", "T-5", "T-6"],
      ["T-7"],
    ]);
    expect(office.batches[0]?.lag.pending).toBe(7);
    expect(rep.status()).toMatchObject({ pending: 0, lagMs: 0, sent: 7 });
    ledger.close();
  });

  it("keeps what was not acknowledged pending and sends it again", async () => {
    const ledger = Ledger.open(tempFile());
    for (let n = 1; n <= 3; n++) ledger.recordSale(sale(n));
    let partial = true;
    const office = fakeBackOffice({ ackOnly: (keys) => (partial ? keys.slice(0, 1) : keys) });
    const rep = replicator(ledger, office.fetch);
    await expect(rep.sendBatch()).rejects.toThrow(/acknowledged 1 of 3/);
    expect(ledger.outbox.pending(10).map((r) => r.key)).toEqual(["sale/T-2", "sale/T-3"]);
    partial = false;
    expect(await rep.sendBatch()).toBe(2);
    expect(ledger.outbox.lag().pending).toBe(0);
    ledger.close();
  });

  it("retries with backoff while the back office is unreachable, then catches up", async () => {
    const ledger = Ledger.open(tempFile());
    for (let n = 1; n <= 5; n++) ledger.recordSale(sale(n));
    let down = 4;
    const office = fakeBackOffice({ fail: () => down-- > 0 });
    const logs: string[] = [];
    const rep = new Replicator({ outbox: ledger.outbox, kioskId: "k-1", url: "http://backoffice.invalid", token: "t", batchSize: 2, fetch: office.fetch, backoff: { minMs: 2, maxMs: 10 }, idleMs: 5, log: (m) => logs.push(m) });
    rep.start();
    await expect.poll(() => ledger.outbox.lag().pending, { timeout: 5000, interval: 10 }).toBe(0);
    await rep.stop();
    expect(rep.status()).toMatchObject({ failures: 4, sent: 5, lastError: null });
    expect(office.stored.size).toBe(5);
    expect(logs[0]).toMatch(/failed \(fetch failed.*retrying with backoff/);
    expect(logs).toContain("replication to http://backoffice.invalid resumed");
    ledger.close();
  });

  it("resumes after a restart from what the outbox still holds (nothing resent that was acknowledged)", async () => {
    const file = tempFile();
    const office = fakeBackOffice();
    let ledger = Ledger.open(file);
    for (let n = 1; n <= 4; n++) ledger.recordSale(sale(n));
    await replicator(ledger, office.fetch, 2).sendBatch();
    ledger.close(); // the kiosk stops (or is killed) here
    ledger = Ledger.open(file);
    ledger.recordSale(sale(5));
    const rep = replicator(ledger, office.fetch, 10);
    expect(await rep.sendBatch()).toBe(3);
    expect(office.batches.flatMap((b) => b.records.map((r) => r.key))).toEqual(["sale/T-1", "sale/T-2", "sale/T-3", "sale/T-4", "sale/T-5"]);
    ledger.close();
  });

  it("treats a reply that is not an acknowledgement as a failure and marks nothing", async () => {
    const ledger = Ledger.open(tempFile());
    ledger.recordSale(sale(1));
    const bad = (async () => new Response(JSON.stringify({ ok: true }), { status: 200 })) as typeof fetch;
    await expect(replicator(ledger, bad).sendBatch()).rejects.toThrow(/not an acknowledgement.*acknowledged/);
    const refused = (async () => new Response(JSON.stringify({ error: "wrong token" }), { status: 403 })) as typeof fetch;
    await expect(replicator(ledger, refused).sendBatch()).rejects.toThrow(/answered 403.*wrong token/);
    expect(ledger.outbox.lag().pending).toBe(1);
    ledger.close();
  });
});
