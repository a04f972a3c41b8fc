// Signed distribution end to end on a real PostgreSQL (issue 18, part 3): the back office validates,
// signs and stores a framebook; a kiosk runtime fetches it over HTTP, verifies and applies it; its
// result lands in publication_results and in the JSON report. An invalid framebook is refused before
// it is signed; versions count up per kind and system.
import { generateKeyPairSync } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { SHARED_DATA_DIR } from "../../test/paths.ts";
import { startTestPostgres, type TestPostgres } from "../../test/postgres.ts";
import { testPack } from "../../runtime/kiosk/testing.ts";
import { hashPin } from "../../runtime/operator/pin.ts";
import type { KioskEvent } from "../../tools/data/schemas.ts";
import { createKioskRuntime } from "../runtime.ts";
import { PublicationRejectedError, PublicationStore } from "./publications.ts";
import { startBackOfficeServer } from "./server.ts";
import { BackOfficeStore } from "./store.ts";
import { saleBoundsFromPack } from "./plausible.ts";

const TOKEN = "fleet-test-token-0123456789";
// A fixed local afternoon: with the wall clock the trip would be out of service hours at night.
const NOW = new Date(2026, 2, 9, 14, 0);
const keys = generateKeyPairSync("ed25519");
const original = readFileSync(path.join(SHARED_DATA_DIR, "data/systems/marta/framebook.yaml"), "utf8");
const SENIORS_FREE = original.replace("cultural_notes: []", 'cultural_notes: []\n  fare_policies:\n    - policy_id: "seniors_free"\n      text: "EFFECTIVE TODAY: Senior citizens (65+) ride free."');
const trip: KioskEvent[] = [
  { type: "station_selected", field: "origin", value: "Airport", station_id: "MARTA-AP" },
  { type: "station_selected", field: "destination", value: "Five Points", station_id: "MARTA-FP" },
  { type: "passenger_count_changed", adults: 1, seniors: 1 },
];

let cluster: TestPostgres;
let dir: string;
beforeAll(async () => {
  cluster = await startTestPostgres();
  dir = mkdtempSync(path.join(tmpdir(), "kiosk-distribution-pg-"));
});
afterAll(async () => {
  await cluster?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

it("back office publishes a signed framebook → a kiosk applies it → its result row is in PostgreSQL", async () => {
  const pack = testPack();
  const store = await BackOfficeStore.open(await cluster.createDatabase("distribution"));
  const publications = new PublicationStore(store.pool);
  const office = await startBackOfficeServer({ saleBounds: saleBoundsFromPack(testPack()), store, publications, token: TOKEN, port: 0, log: () => {} });
  const kiosk = await createKioskRuntime({
    pack,
    ledger: path.join(dir, "ledger.sqlite"),
    operatorDir: path.join(dir, "operator"),
    pin: { hash: await hashPin("246810", { N: 1024, r: 8, p: 1 }) },
    benchDb: null,
    clock: () => NOW,
    replication: { kioskId: "kiosk-7", url: office.url, token: TOKEN, idleMs: 60_000 },
    distribution: { publicKey: keys.publicKey, intervalMs: 60_000 },
    log: () => undefined,
  });
  try {
    // The kiosk polls once as it starts: let that poll finish, so the first fare below is the old one.
    await kiosk.distribution!.pollOnce();
    // Refused before signing: nothing is stored, no version is used up.
    await expect(publications.publish({ pack, kind: "framebook", system: "marta", content: SENIORS_FREE.replace('currency_code: "USD"', 'currency_code: "EUR"'), file: "bad.yaml", publisher: "Ops Desk", key: keys.privateKey })).rejects.toSatisfy(
      (err: unknown) => err instanceof PublicationRejectedError && err.issues.length > 0 && err.issues.every((i) => i.file === "bad.yaml"),
    );
    const published = await publications.publish({ pack, kind: "framebook", system: "marta", content: SENIORS_FREE, file: "seniors.yaml", publisher: "Ops Desk", key: keys.privateKey });
    expect(published.envelope).toMatchObject({ kind: "framebook", system: "marta", version: 1, publisher: "Ops Desk" });

    expect((await kiosk.backend.ask({ system: "marta", events: trip })).state.fare_quote?.total).toBe(3.75);
    await kiosk.distribution!.pollOnce();
    expect(kiosk.distribution!.status().applied).toMatchObject([{ kind: "framebook", system: "marta", version: 1, publicationId: published.id }]);
    expect((await kiosk.backend.ask({ system: "marta", events: trip })).state.fare_quote?.total).toBe(2.5);

    const rows = await store.pool.query("SELECT publication_id, kiosk_id, outcome, reasons, active_version FROM publication_results");
    expect(rows.rows).toEqual([{ publication_id: String(published.id), kiosk_id: "kiosk-7", outcome: "applied", reasons: [], active_version: 1 }]);

    // The next version counts up; a row tampered in the database is refused by the kiosk and reported.
    const second = await publications.publish({ pack, kind: "framebook", system: "marta", content: SENIORS_FREE.replace("ride free.", "ride free today."), file: "seniors2.yaml", publisher: "Ops Desk", key: keys.privateKey });
    expect(second.envelope.version).toBe(2);
    await store.pool.query("UPDATE publications SET content = replace(content, '(65+)', '(18+)') WHERE id = $1", [second.id]);
    await kiosk.distribution!.pollOnce();
    const response = await fetch(`${office.url}/v1/publications/report?kiosk=kiosk-7`, { headers: { authorization: `Bearer ${TOKEN}` } });
    const report = (await response.json()) as { publications: { id: number; version: number; results: { kioskId: string; outcome: string; reasons: string[] }[] }[] };
    expect(report.publications.map((p) => [p.version, p.results.map((r) => [r.kioskId, r.outcome, r.reasons])])).toEqual([
      [2, [["kiosk-7", "rejected", ["hash_mismatch"]]]],
      [1, [["kiosk-7", "applied", []]]],
    ]);
    expect((await kiosk.backend.ask({ system: "marta", events: trip })).state.fare_quote?.total).toBe(2.5);
    // Without the fleet token nothing is listed.
    const ask = (headers: Record<string, string>) => fetch(`${office.url}/v1/publications/poll`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify({ kioskId: "kiosk-7", have: [] }) });
    expect((await ask({})).status).toBe(401);
    expect((await ask({ authorization: "Bearer wrong-token-wrong-token" })).status).toBe(403);
    expect((await ask({ authorization: `Bearer ${TOKEN}` })).status).toBe(200);

    // The back office's database restored from a backup taken before anything was published: the
    // next publication is still above what the kiosk applied (its poll told the back office), so the
    // kiosk applies it instead of refusing it as stale for ever.
    await store.pool.query("DELETE FROM publication_results");
    await store.pool.query("DELETE FROM publications");
    await store.pool.query("DELETE FROM publication_floor");
    await kiosk.distribution!.pollOnce();
    const restored = await publications.publish({ pack, kind: "framebook", system: "marta", content: SENIORS_FREE.replace("ride free.", "ride free, restored."), file: "seniors3.yaml", publisher: "Ops Desk", key: keys.privateKey });
    expect(restored.envelope.version).toBe(2);
    await kiosk.distribution!.pollOnce();
    expect(kiosk.distribution!.status().applied).toMatchObject([{ kind: "framebook", system: "marta", version: 2, publicationId: restored.id }]);
  } finally {
    await kiosk.close();
    await office.close();
    await store.close();
  }
});
