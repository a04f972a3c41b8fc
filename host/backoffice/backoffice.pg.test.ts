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
import { BACKOFFICE_MIGRATIONS, BackOfficeStore, RecordsRefusedError } from "./store.ts";
import { startBackOfficeServer } from "./server.ts";
import { saleBoundsFromPack } from "./plausible.ts";
import { testPack } from "../../runtime/kiosk/testing.ts";

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
    // A void of a sale the back office does not hold is refused (a kiosk sends a sale before its void); nothing of that batch is stored.
    await expect(store.ingest({ kioskId: "k-1", records: [saleRecord("k-1", 2, 400), void1], lag })).rejects.toSatisfy(
      (err: unknown) => err instanceof RecordsRefusedError && err.refused.length === 1 && err.refused[0]!.key === "void/T-1" && /never sold/.test(err.refused[0]!.reason),
    );
    expect(await store.ingest({ kioskId: "k-1", records: [saleRecord("k-1", 1), saleRecord("k-1", 2, 400)], lag })).toEqual({ acknowledged: ["sale/T-1", "sale/T-2"], inserted: 2 });
    expect(await store.ingest({ kioskId: "k-1", records: [saleRecord("k-1", 2, 400), void1], lag: { pending: 3, oldestPendingAt: "2026-03-09T14:00:00.000Z" } })).toEqual({ acknowledged: ["sale/T-2", "void/T-1"], inserted: 1 });
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

  it("counts each ticket once in the sales view, also where records stored before the checks hold it under two keys or two voids", async () => {
    const store = await BackOfficeStore.open(await cluster.createDatabase("legacy"));
    await store.ingest({ kioskId: "k-1", records: [saleRecord("k-1", 1), saleRecord("k-1", 2, 400)], lag });
    const insert = (key: string, kind: string, at: string, total: number | null) =>
      store.pool.query("INSERT INTO records (kiosk_id, key, seq, kind, at, ticket_id, total_minor, currency, payload) VALUES ('k-1', $1, 9, $2, $3, 'T-1', $4, $5, '{}')", [key, kind, at, total, total === null ? null : "USD"]);
    await insert("sale/T-1-copy", "sale", "2026-03-09T14:00:05.000Z", 250);
    await insert("void/T-1", "void", "2026-03-09T14:05:00.000Z", null);
    await insert("void/T-1-again", "void", "2026-03-09T14:06:00.000Z", null);
    const rows = await store.pool.query("SELECT ticket_id, voided_at FROM fleet_sales ORDER BY ticket_id");
    expect(rows.rows).toEqual([
      { ticket_id: "T-1", voided_at: new Date("2026-03-09T14:05:00.000Z") },
      { ticket_id: "T-2", voided_at: null },
    ]);
    expect(await store.totals()).toEqual([{ kioskId: "k-1", currency: "USD", sales: 2, voided: 1, totalMinor: 400 }]);
    await store.close();
  });

  it("answers a batch holding records no kiosk could make with 400 naming each (a NUL byte included, never 503), storing nothing of it", async () => {
    const store = await BackOfficeStore.open(await cluster.createDatabase("implausible"));
    const office = await startBackOfficeServer({ saleBounds: saleBoundsFromPack(testPack()), store, token: "fleet", port: 0, log: () => {} });
    const post = (records: unknown[]) =>
      fetch(`${office.url}/v1/records`, { method: "POST", headers: { authorization: "Bearer fleet", "content-type": "application/json" }, body: JSON.stringify({ kioskId: "k-3", records, lag }) });
    try {
      const nul = { ...saleRecord("k-3", 5), payload: { ...saleRecord("k-3", 5).payload, originName: "Five\u0000Points" } };
      const xbt = { ...saleRecord("k-3", 6), payload: { ...saleRecord("k-3", 6).payload, currency: "XBT" } };
      const response = await post([saleRecord("k-3", 1), nul, xbt, { kind: "void", key: "void/T-404", seq: 9, at: "2026-03-09T14:05:00.000Z", payload: { ticketId: "T-404", voidedAt: "2026-03-09T14:05:00.000Z", reason: null } }]);
      expect(response.status).toBe(400);
      const body = (await response.json()) as { error: string; refused: { key: string; reason: string }[] };
      expect(body.refused.map((r) => r.key)).toEqual(["sale/T-5", "sale/T-6"]);
      expect(body.refused[0]!.reason).toMatch(/originName: contains a NUL/);
      expect((await store.pool.query("SELECT count(*)::int AS n FROM records")).rows[0]).toEqual({ n: 0 });
      // Once the record-by-record refusals are gone, the void of a ticket never sold is refused by the store's check.
      const again = await post([saleRecord("k-3", 1), { kind: "void", key: "void/T-404", seq: 9, at: "2026-03-09T14:05:00.000Z", payload: { ticketId: "T-404", voidedAt: "2026-03-09T14:05:00.000Z", reason: null } }]);
      expect(again.status).toBe(400);
      expect(((await again.json()) as { refused: { key: string }[] }).refused.map((r) => r.key)).toEqual(["void/T-404"]);
      expect((await post([saleRecord("k-3", 1)])).status).toBe(200);
    } finally {
      await office.close();
      await store.close();
    }
  });

  it("pages the fleet: counts and stale kiosks over the whole fleet, kiosks a page at a time with only their own sales", async () => {
    const store = await BackOfficeStore.open(await cluster.createDatabase("paging"));
    const now = new Date("2026-03-09T15:00:00.000Z");
    for (let i = 0; i < 120; i++) {
      const kioskId = `k-${String(i).padStart(3, "0")}`;
      // Every tenth kiosk went silent ten minutes ago.
      const at = new Date(now.getTime() - (i % 10 === 0 ? 600_000 : 30_000));
      await store.recordHeartbeat({ kioskId, sentAt: at.toISOString(), softwareVersion: "1", systems: [], model: { assistant: "rule", state: null }, replication: { pending: 0, oldestPendingAt: null }, bench: null }, at);
      await store.pool.query("UPDATE kiosks SET last_seen = $2 WHERE kiosk_id = $1", [kioskId, at]);
    }
    await store.ingest({ kioskId: "k-051", records: [saleRecord("k-051", 1)], lag });
    expect(await store.fleetCounts(now, 120)).toEqual({ kiosks: 120, stale: 12 });
    const second = await store.fleetOverview(now, "UTC", { offset: 50, limit: 50 });
    expect(second.map((k) => k.kioskId)).toEqual(Array.from({ length: 50 }, (_, i) => `k-${String(50 + i).padStart(3, "0")}`));
    expect(second.find((k) => k.kioskId === "k-051")?.salesToday).toEqual([{ currency: "USD", sales: 1, voided: 0, totalMinor: 250 }]);
    await store.close();
  });

  it("a kiosk's replicator delivers its ledger over HTTP, and resumes after the back office restarts", async () => {
    const url = await cluster.createDatabase("replicate");
    const dir = mkdtempSync(path.join(tmpdir(), "kiosk-bo-"));
    dirs.push(dir);
    const ledger = Ledger.open(path.join(dir, "ledger.sqlite"));
    let store = await BackOfficeStore.open(url);
    let office = await startBackOfficeServer({ saleBounds: saleBoundsFromPack(testPack()), store, token: "fleet", port: 0, log: () => {} });
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
    office = await startBackOfficeServer({ saleBounds: saleBoundsFromPack(testPack()), store, token: "fleet", port, log: () => {} });
    await expect.poll(() => ledger.outbox.lag().pending, { timeout: 20_000, interval: 20 }).toBe(0);
    await replicator.stop();
    expect(await store.totals()).toEqual([{ kioskId: "k-9", currency: "USD", sales: 20, voided: 0, totalMinor: 5000 }]);
    await office.close();
    await store.close();
    ledger.close();
  });
});
