// The ingestion endpoint's guards, with a store standing in for PostgreSQL (backoffice.pg.test.ts
// runs it against a real one): a bad batch is a 4xx naming its fields and never reaches the store.
import { afterEach, describe, expect, it } from "vitest";
import { INGEST_PATH, MAX_BATCH_BYTES, type RecordBatch } from "../../runtime/fleet/protocol.ts";
import { startBackOfficeServer, type RunningBackOffice } from "./server.ts";
import { saleBoundsFromPack } from "./plausible.ts";
import { testPack } from "../../runtime/kiosk/testing.ts";

const TOKEN = "fleet-secret";
let running: RunningBackOffice | null = null;
const ingested: RecordBatch[] = [];
afterEach(async () => {
  await running?.close();
  running = null;
  ingested.length = 0;
});

async function start(store: Partial<Parameters<typeof startBackOfficeServer>[0]["store"]> = {}): Promise<RunningBackOffice> {
  running = await startBackOfficeServer({ saleBounds: saleBoundsFromPack(testPack()),
    store: {
      ingest: async (batch) => {
        ingested.push(batch);
        return { acknowledged: batch.records.map((r) => r.key), inserted: batch.records.length };
      },
      schemaVersion: async () => 1,
      ...store,
    },
    token: TOKEN,
    port: 0,
    log: () => {},
  });
  return running;
}

const GOOD: RecordBatch = {
  kioskId: "kiosk-01",
  lag: { pending: 1, oldestPendingAt: "2026-03-09T14:00:00.000Z" },
  records: [
    { kind: "sale", key: "sale/T-1", seq: 1, at: "2026-03-09T14:00:00.000Z", payload: { ticketId: "T-1", issuedAt: "2026-03-09T14:00:00.000Z", system: "marta", totalMinor: 250, currency: "USD" } },
  ],
};

async function post(body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; json: Record<string, unknown>; connection: string | null }> {
  const server = running ?? (await start());
  const res = await fetch(new URL(INGEST_PATH, server.url), {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${TOKEN}`, ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown>, connection: res.headers.get("connection") };
}

describe("back office ingestion", () => {
  it("stores a valid batch and acknowledges its keys", async () => {
    const { status, json } = await post(GOOD);
    expect(status).toBe(200);
    expect(json).toEqual({ acknowledged: ["sale/T-1"], inserted: 1 });
    expect(ingested).toHaveLength(1);
  });

  it.each([
    ["a kiosk id with a slash", { ...GOOD, kioskId: "../etc" }, ["kioskId"]],
    ["no records", { ...GOOD, records: [] }, ["records"]],
    ["no lag", { kioskId: "k", records: GOOD.records }, ["lag"]],
  ])("answers 400 naming the fields for %s, storing nothing", async (_what, body, fields) => {
    const { status, json } = await post(body);
    expect(status).toBe(400);
    expect(json.fields).toEqual(expect.arrayContaining(fields));
    for (const field of fields) expect(String(json.error)).toContain(field);
    expect(ingested).toHaveLength(0);
  });

  it.each([
    ["a sale without its total", { ...GOOD.records[0], payload: { ticketId: "T-1", issuedAt: "2026-03-09T14:00:00.000Z", system: "marta", currency: "USD" } }, "payload.totalMinor"],
    ["an unknown kind", { ...GOOD.records[0], kind: "refund" }, "kind"],
    ["a time that is not ISO", { ...GOOD.records[0], at: "yesterday" }, "at"],
    ["a negative sequence", { ...GOOD.records[0], seq: -1 }, "seq"],
  ])("answers 400 refusing the record with %s by its key and the field, storing nothing of the batch", async (_what, record, field) => {
    const second = { kind: "sale", key: "sale/T-2", seq: 2, at: "2026-03-09T14:00:00.000Z", payload: { ticketId: "T-2", issuedAt: "2026-03-09T14:00:00.000Z", system: "marta", totalMinor: 250, currency: "USD" } };
    const { status, json } = await post({ ...GOOD, records: [second, record] });
    expect(status).toBe(400);
    expect(json.refused).toEqual([{ key: "sale/T-1", reason: expect.stringContaining(`${field}:`) }]);
    expect(ingested).toHaveLength(0);
  });

  it("refuses a body that is not JSON (400), not declared JSON (415) or too large (413)", async () => {
    expect((await post("{not json")).status).toBe(400);
    expect((await post(GOOD, { "content-type": "text/plain" })).status).toBe(415);
    const huge = { ...GOOD, records: [{ ...GOOD.records[0], payload: { ...GOOD.records[0]!.payload, pad: "x".repeat(MAX_BATCH_BYTES) } }] };
    const { status, json } = await post(huge);
    expect(status).toBe(413);
    expect(String(json.error)).toMatch(new RegExp(`limit of ${MAX_BATCH_BYTES} bytes`));
    expect(ingested).toHaveLength(0);
  });

  it("closes the connection after refusing a request whose body it did not read, and keeps it after a read one", async () => {
    // A body that does not fit in one read, so the refusal comes before the client has sent it all.
    const big = { ...GOOD, records: [{ ...GOOD.records[0], payload: { ...GOOD.records[0]!.payload, pad: "x".repeat(MAX_BATCH_BYTES / 2) } }] };
    const notJson = await post(big, { "content-type": "text/plain" });
    const noToken = await post(big, { authorization: "" });
    const tooLarge = await post({ ...big, records: [{ ...big.records[0], payload: { ...big.records[0]!.payload, pad: "x".repeat(MAX_BATCH_BYTES) } }] });
    expect([notJson.status, notJson.connection, noToken.status, noToken.connection, tooLarge.status, tooLarge.connection]).toEqual([415, "close", 401, "close", 413, "close"]);
    // A refusal after the whole body was read (invalid JSON) leaves the connection for the next call.
    const badJson = await post("{not json");
    expect([badJson.status, badJson.connection]).toEqual([400, "keep-alive"]);
    expect((await post(GOOD)).status).toBe(200);
  });

  it("refuses a kiosk without the fleet token (401) or with a wrong one (403)", async () => {
    const server = await start();
    const res = await fetch(new URL(INGEST_PATH, server.url), { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(GOOD) });
    expect(res.status).toBe(401);
    const wrong = await post(GOOD, { authorization: "Bearer guessed" });
    expect(wrong.status).toBe(403);
    expect(String(wrong.json.error)).toContain("kiosk-01");
    expect(ingested).toHaveLength(0);
  });

  it("answers 503 (retry later) when the database fails, so the kiosk keeps the records", async () => {
    await start({
      ingest: async () => {
        throw new Error("connection terminated");
      },
    });
    const { status, json } = await post(GOOD);
    expect(status).toBe(503);
    expect(String(json.error)).toMatch(/retry later/);
  });
});
