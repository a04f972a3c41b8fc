// The kiosk host with a back office configured (issue 18): a ticket bought through the kiosk's own
// purchase path reaches the back office, and the kiosk's status shows the replication lag.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { RecordBatch } from "../runtime/fleet/protocol.ts";
import { askFromCase, TEST_NOW, testPack } from "../runtime/kiosk/testing.ts";
import { startBackOfficeServer } from "./backoffice/server.ts";
import { createKioskRuntime } from "./runtime.ts";
import { Ledger } from "../runtime/kiosk/node/ledger.ts";
import { Replicator } from "../runtime/kiosk/node/replicator.ts";
import { saleBoundsFromPack } from "./backoffice/plausible.ts";

const dir = mkdtempSync(path.join(tmpdir(), "kiosk-fleet-host-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function kiosk(name: string, replication?: { url: string }) {
  return createKioskRuntime({
    pack: testPack(),
    ledger: path.join(dir, `${name}.sqlite`),
    operatorDir: path.join(dir, "operator"),
    pin: { hash: null },
    benchDb: null,
    clock: () => new Date(TEST_NOW),
    log: () => undefined,
    ...(replication ? { replication: { url: replication.url, kioskId: "station-12-a", token: "fleet-token-for-tests", idleMs: 10, backoff: { minMs: 10, maxMs: 50 } } } : {}),
  });
}

describe("kiosk host with a back office", () => {
  it("replicates a purchase and its session lines, and shows the lag in the status until they are acknowledged", async () => {
    const received: RecordBatch[] = [];
    let accept = false;
    const office = await startBackOfficeServer({ saleBounds: saleBoundsFromPack(testPack()),
      store: {
        schemaVersion: async () => 1,
        ingest: async (batch) => {
          if (!accept) throw new Error("database down");
          received.push(batch);
          return { acknowledged: batch.records.map((r) => r.key), inserted: batch.records.length };
        },
      },
      token: "fleet-token-for-tests",
      port: 0,
      log: () => undefined,
    });
    const runtime = await kiosk("fleet", office);
    const answer = await runtime.backend.ask(askFromCase("MARTA-A-001"));
    const bought = await runtime.backend.purchase({ sessionId: answer.sessionId, paymentMethod: "breeze_card" });
    expect(bought).toMatchObject({ ok: true });
    // The back office refuses for now: the kiosk still sold, and its status says what is waiting and why.
    await expect.poll(() => runtime.app.status().replication?.failures ?? 0, { timeout: 5000, interval: 10 }).toBeGreaterThan(0);
    const waiting = runtime.app.status().replication;
    expect(waiting).toMatchObject({ kioskId: "station-12-a", backOffice: office.url, lastError: expect.stringMatching(/503/) });
    expect(waiting?.pending).toBeGreaterThanOrEqual(2); // the sale and its session lines
    expect(waiting?.oldestPendingAt).not.toBeNull();
    accept = true;
    await expect.poll(() => runtime.app.status().replication?.pending, { timeout: 5000, interval: 10 }).toBe(0);
    expect(runtime.app.status().replication).toMatchObject({ lagMs: 0, lastError: null });
    // /metrics on a fleet kiosk carries the replication state.
    expect(await runtime.metrics.text()).toMatch(/^kiosk_replication_pending_records 0$/m);
    const sale = received.flatMap((b) => b.records).find((r) => r.kind === "sale");
    if (!bought.ok) throw new Error("not sold");
    expect(sale?.payload).toMatchObject({ ticketId: bought.ticket.ticketId, system: "marta", currency: bought.ticket.currency, totalMinor: Math.round(bought.ticket.total * 100) });
    expect(received.flatMap((b) => b.records).some((r) => r.kind === "session")).toBe(true);
    await runtime.close();
    await office.close();
  });

  it("parks a record the back office refuses as one no kiosk could make (kept in the ledger with the reason), and delivers the rest", async () => {
    const received: string[] = [];
    const office = await startBackOfficeServer({
      saleBounds: saleBoundsFromPack(testPack()),
      store: { schemaVersion: async () => 1, ingest: async (batch) => (received.push(...batch.records.map((r) => r.key)), { acknowledged: batch.records.map((r) => r.key), inserted: batch.records.length }) },
      token: "fleet-token-for-tests",
      port: 0,
      log: () => undefined,
    });
    const ledger = Ledger.open(path.join(dir, "parking.sqlite"));
    const logged: string[] = [];
    const replicator = new Replicator({ outbox: ledger.outbox, kioskId: "station-12-b", url: office.url, token: "fleet-token-for-tests", idleMs: 10, backoff: { minMs: 10, maxMs: 50 }, log: (m) => logged.push(m) });
    const sell = (n: number, currency: string): void =>
      ledger.recordSale({
        ticketId: `T-${n}`, issuedAt: new Date(TEST_NOW).toISOString(), system: "marta", sessionId: `s-${n}`, originId: "a", originName: "A", destinationId: "b", destinationName: "B",
        stops: ["a", "b"], riders: { adults: 1 }, total: 2.5, currency, paymentMethod: "card", paymentTerminal: "sim", authorizationId: `A-${n}`, stateJson: "{}",
        transcriptId: "t", framebookVersion: "f", policy: "rule",
      });
    sell(1, "USD");
    sell(2, "XBT");
    sell(3, "USD");
    replicator.start();
    try {
      await expect.poll(() => ledger.outbox.lag().pending, { timeout: 5000, interval: 10 }).toBe(0);
      expect(received).toEqual(["sale/T-1", "sale/T-3"]);
      expect(ledger.outbox.parked()).toEqual([{ key: "sale/T-2", kind: "sale", parkedAt: expect.any(String), reason: expect.stringMatching(/payload\.currency: marta sells in USD, not 'XBT'/) }]);
      expect(replicator.status()).toMatchObject({ parked: 1, pending: 0, lastError: null });
      expect(logged.some((m) => m.includes("refused record sale/T-2"))).toBe(true);
    } finally {
      await replicator.stop();
      ledger.close();
      await office.close();
    }
  });

  it("without a back office nothing replicates and the status has no replication part", async () => {
    const runtime = await kiosk("alone");
    expect(runtime.replication).toBeNull();
    expect(runtime.app.status()).not.toHaveProperty("replication");
    await runtime.close();
  });
});
