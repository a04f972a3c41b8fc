// The back office against a real PostgreSQL (a throw-away cluster, test/postgres.ts): schema
// migration, idempotent ingestion, totals, and a kiosk's replicator over HTTP through a back-office
// restart.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestPostgres, type TestPostgres } from "../../test/postgres.ts";
import type { RecordBatch } from "../../runtime/fleet/protocol.ts";
import { Ledger } from "../../runtime/kiosk/node/ledger.ts";
import { Replicator } from "../../runtime/kiosk/node/replicator.ts";
import { BACKOFFICE_MIGRATIONS, BackOfficeStore } from "./store.ts";
import { startBackOfficeServer } from "./server.ts";

let cluster: TestPostgres;
const dirs: string[] = [];
beforeAll(async () => {
  cluster = await startTestPostgres();
});
afterAll(async () => {
  await cluster?.stop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function saleRecord(kiosk: string, n: number, totalMinor = 250): RecordBatch["records"][number] {
  const at = new Date(Date.UTC(2026, 2, 9, 14, 0, n)).toISOString();
  return { kind: "sale", key: `sale/T-${n}`, seq: n, at, payload: { ticketId: `T-${n}`, issuedAt: at, system: "marta", totalMinor, currency: "USD", kiosk } };
}
const lag = { pending: 0, oldestPendingAt: null };

describe("back office store (PostgreSQL)", () => {
  it("creates its schema on start, records the version, and opens an up-to-date database again without change (also two at once)", async () => {
    const url = await cluster.createDatabase("migrate");
    const [a, b] = await Promise.all([BackOfficeStore.open(url), BackOfficeStore.open(url)]);
    expect(await a.schemaVersion()).toBe(BACKOFFICE_MIGRATIONS.length);
    await Promise.all([a.close(), b.close()]);
    const again = await BackOfficeStore.open(url);
    const rows = await again.pool.query("SELECT version FROM backoffice_schema");
    expect(rows.rows).toEqual([{ version: BACKOFFICE_MIGRATIONS.length }]);
    await again.close();
  });

  it("refuses a database whose schema is newer than it understands", async () => {
    const url = await cluster.createDatabase("newer");
    await (await BackOfficeStore.open(url)).close();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query("UPDATE backoffice_schema SET version = 99");
    await client.end();
    await expect(BackOfficeStore.open(url)).rejects.toThrow(/schema version 99 is newer/);
  });

  it("stores a record delivered twice once, acknowledges both deliveries, and totals what is not voided", async () => {
    const store = await BackOfficeStore.open(await cluster.createDatabase("ingest"));
    const void1: RecordBatch["records"][number] = { kind: "void", key: "void/T-1", seq: 3, at: "2026-03-09T14:05:00.000Z", payload: { ticketId: "T-1", voidedAt: "2026-03-09T14:05:00.000Z", reason: "capture_failed" } };
    // The void arrives before its sale (a reordered delivery): the totals do not depend on the order.
    expect(await store.ingest({ kioskId: "k-1", records: [void1], lag })).toEqual({ acknowledged: ["void/T-1"], inserted: 1 });
    expect(await store.ingest({ kioskId: "k-1", records: [saleRecord("k-1", 1), saleRecord("k-1", 2, 400)], lag })).toEqual({ acknowledged: ["sale/T-1", "sale/T-2"], inserted: 2 });
    expect(await store.ingest({ kioskId: "k-1", records: [saleRecord("k-1", 2, 400), void1], lag: { pending: 3, oldestPendingAt: "2026-03-09T14:00:00.000Z" } })).toEqual({ acknowledged: ["sale/T-2", "void/T-1"], inserted: 0 });
    // The same key from another kiosk is another record.
    await store.ingest({ kioskId: "k-2", records: [saleRecord("k-2", 1, 300)], lag });
    expect(await store.totals()).toEqual([
      { kioskId: "k-1", currency: "USD", sales: 2, voided: 1, totalMinor: 400 },
      { kioskId: "k-2", currency: "USD", sales: 1, voided: 0, totalMinor: 300 },
    ]);
    const kiosks = await store.kiosks();
    expect(kiosks.map((k) => [k.kioskId, k.pending])).toEqual([
      ["k-1", 3],
      ["k-2", 0],
    ]);
    await store.close();
  });

  it("a kiosk's replicator delivers its ledger over HTTP, and resumes after the back office restarts", async () => {
    const url = await cluster.createDatabase("replicate");
    const dir = mkdtempSync(path.join(tmpdir(), "kiosk-bo-"));
    dirs.push(dir);
    const ledger = Ledger.open(path.join(dir, "ledger.sqlite"));
    let store = await BackOfficeStore.open(url);
    let office = await startBackOfficeServer({ store, token: "fleet", port: 0, log: () => {} });
    const port = office.port;
    const replicator = new Replicator({ outbox: ledger.outbox, kioskId: "k-9", url: office.url, token: "fleet", batchSize: 4, backoff: { minMs: 20, maxMs: 200 }, idleMs: 20 });
    replicator.start();
    const sell = (n: number): void =>
      ledger.recordSale({
        ticketId: `T-${n}`, issuedAt: new Date().toISOString(), system: "marta", sessionId: `s-${n}`, originId: "a", originName: "A", destinationId: "b", destinationName: "B",
        stops: ["a", "b"], riders: { adults: 1 }, total: 2.5, currency: "USD", paymentMethod: "card", paymentTerminal: "sim", authorizationId: `A-${n}`, stateJson: "{}",
        transcriptId: "t", framebookVersion: "f", policy: "rule",
      });
    for (let n = 1; n <= 10; n++) sell(n);
    await expect.poll(() => ledger.outbox.lag().pending, { timeout: 20_000, interval: 20 }).toBe(0);
    // The back office goes away; the kiosk keeps selling and the lag grows.
    await office.close();
    await store.close();
    for (let n = 11; n <= 20; n++) sell(n);
    await expect.poll(() => replicator.status().failures, { timeout: 20_000, interval: 20 }).toBeGreaterThan(0);
    expect(replicator.status().pending).toBe(10);
    store = await BackOfficeStore.open(url);
    office = await startBackOfficeServer({ store, token: "fleet", port, log: () => {} });
    await expect.poll(() => ledger.outbox.lag().pending, { timeout: 20_000, interval: 20 }).toBe(0);
    await replicator.stop();
    expect(await store.totals()).toEqual([{ kioskId: "k-9", currency: "USD", sales: 20, voided: 0, totalMinor: 5000 }]);
    await office.close();
    await store.close();
    ledger.close();
  });
});
