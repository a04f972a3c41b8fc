// Issue 18's verification: five kiosks (separate SQLite ledgers; one in its own process, SIGKILLed
// mid-replication and restarted) sell tickets through the real ledger API and replicate to one back
// office on a real PostgreSQL, through a proxy that kills connections, loses acknowledgements,
// duplicates and reorders deliveries, while the back office itself is restarted once. At the end:
// no sale lost, none duplicated, and every kiosk's totals in PostgreSQL equal its ledger's.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startChaosProxy, seededRandom, type ChaosProxy } from "../../test/chaos-proxy.ts";
import { fleetReplicator, sellRange } from "../../test/fleet-kiosk.ts";
import { REPO_ROOT } from "../../test/paths.ts";
import { startTestPostgres, type TestPostgres } from "../../test/postgres.ts";
import { Ledger } from "../../runtime/kiosk/node/ledger.ts";
import type { Replicator } from "../../runtime/kiosk/node/replicator.ts";
import { startBackOfficeServer, type RunningBackOffice } from "./server.ts";
import { BackOfficeStore } from "./store.ts";
import { saleBoundsFromPack } from "./plausible.ts";
import { testPack } from "../../runtime/kiosk/testing.ts";

const SALES_PER_KIOSK = 60;
const TOKEN = "fleet-test-token-0123456789";
const CHILD = path.join(REPO_ROOT, "test", "fleet-kiosk-child.ts");
const CHILD_KIOSK = "kiosk-5";
/** The child is killed when the proxy holds its 3rd and 9th request (the batch is then still delivered: its acknowledgement is lost). */
const KILL_AT_REQUEST = new Set([3, 9]);
const seed = Number(process.env.FLEET_SEED ?? Math.floor(Math.random() * 1e9));

let cluster: TestPostgres;
let dir: string;
const cleanups: (() => Promise<void> | void)[] = [];
beforeAll(async () => {
  cluster = await startTestPostgres();
  dir = mkdtempSync(path.join(tmpdir(), "kiosk-fleet-"));
});
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
  await cluster?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

it(`five kiosks, a lossy network, a SIGKILLed kiosk and a back-office restart: 0 sales lost, 0 duplicated, totals equal ledger for ledger (seed ${seed})`, async () => {
  const started = Date.now();
  const random = seededRandom(seed);
  const db = await cluster.createDatabase("fleet");
  let store = await BackOfficeStore.open(db);
  let delivered = 0;
  let stored = 0;
  // The real store, counting what arrives and what was new (the rest are duplicates it absorbed).
  const counting = {
    schemaVersion: () => store.schemaVersion(),
    ingest: async (batch: Parameters<BackOfficeStore["ingest"]>[0]) => {
      const result = await store.ingest(batch);
      delivered += batch.records.length;
      stored += result.inserted;
      return result;
    },
  };
  let office: RunningBackOffice = await startBackOfficeServer({ saleBounds: saleBoundsFromPack(testPack()), store: counting, token: TOKEN, port: 0, log: () => {} });
  const officePort = office.port;

  // The child kiosk: SIGKILLed mid-replication (while the proxy holds its request), restarted each time.
  let childRequests = 0;
  let kills = 0;
  let child: ChildProcess | null = null;
  let childExited: Promise<void> = Promise.resolve();
  let childDone!: () => void;
  const childFinished = new Promise<void>((resolve) => (childDone = resolve));
  const childLedger = path.join(dir, `${CHILD_KIOSK}.sqlite`);
  let childLog = "";
  let stopping = false;
  const startChild = (url: string): void => {
    const proc = spawn(process.execPath, ["--import", "tsx", CHILD, CHILD_KIOSK, childLedger, url, TOKEN, String(SALES_PER_KIOSK)], { cwd: REPO_ROOT, stdio: ["ignore", "pipe", "pipe"] });
    child = proc;
    proc.stdout?.on("data", (d: Buffer) => (childLog += d.toString()));
    proc.stderr?.on("data", (d: Buffer) => (childLog += d.toString()));
    childExited = new Promise((resolve) =>
      proc.once("exit", (code, signal) => {
        child = null;
        if (signal === "SIGKILL" && !stopping) startChild(url);
        else if (code === 0) childDone();
        else childLog += `\n(exited with ${code ?? signal})`;
        resolve();
      }),
    );
  };
  cleanups.push(async () => {
    stopping = true;
    (child as ChildProcess | null)?.kill("SIGKILL");
    await childExited;
  });

  const proxy: ChaosProxy = await startChaosProxy({
    target: office.url,
    odds: { dropBefore: 0.1, dropAfter: 0.12, duplicate: 0.15, delay: 0.15, maxDelayMs: 500 },
    random,
    onRequest: async (body) => {
      if ((body as { kioskId?: string } | null)?.kioskId !== CHILD_KIOSK) return;
      childRequests++;
      const running = child as ChildProcess | null;
      if (KILL_AT_REQUEST.has(childRequests) && running) {
        const exited = childExited;
        running.kill("SIGKILL");
        kills++;
        await exited;
      }
    },
  });
  cleanups.push(() => proxy.close());
  startChild(proxy.url);

  // Four kiosks in this process, each its own ledger and replicator.
  const inProcess = ["kiosk-1", "kiosk-2", "kiosk-3", "kiosk-4"].map((kioskId) => {
    const ledger = Ledger.open(path.join(dir, `${kioskId}.sqlite`));
    const replicator: Replicator = fleetReplicator(ledger, kioskId, proxy.url, TOKEN);
    replicator.start();
    cleanups.push(async () => {
      await replicator.stop();
      ledger.close();
    });
    return { kioskId, ledger, replicator };
  });
  const selling = inProcess.map((k) => sellRange(k.ledger, k.kioskId, 1, SALES_PER_KIOSK, seededRandom(seed + k.kioskId.length + Number(k.kioskId.slice(-1)))));

  // The back office restarts while the kiosks sell (same port; the proxy's deliveries fail meanwhile).
  await expect.poll(() => inProcess[0]!.ledger.sales().length, { timeout: 30_000, interval: 10 }).toBeGreaterThanOrEqual(SALES_PER_KIOSK / 2);
  await office.close();
  await store.close();
  await new Promise((r) => setTimeout(r, 300));
  store = await BackOfficeStore.open(db);
  office = await startBackOfficeServer({ saleBounds: saleBoundsFromPack(testPack()), store: counting, token: TOKEN, port: officePort, log: () => {} });
  cleanups.push(async () => {
    await office.close();
    await store.close();
  });

  await Promise.all(selling);
  await childFinished;
  for (const k of inProcess) await expect.poll(() => k.ledger.outbox.lag().pending, { timeout: 30_000, interval: 20 }).toBe(0);
  for (const k of inProcess) await k.replicator.stop();
  expect(kills, childLog).toBe(KILL_AT_REQUEST.size);

  // Ledger for ledger: every sale (with its void state and amount) and every record, exactly once.
  const ledgers = [...inProcess.map((k) => ({ kioskId: k.kioskId, ledger: k.ledger })), { kioskId: CHILD_KIOSK, ledger: Ledger.open(childLedger) }];
  cleanups.push(() => ledgers[4]!.ledger.close());
  const pgTotals = await store.totals();
  let lost = 0;
  let duplicated = 0;
  let sales = 0;
  let records = 0;
  for (const { kioskId, ledger } of ledgers) {
    const local = ledger.sales().map((s) => `${s.ticket_id} ${s.total_minor} ${s.voided_at === null ? "sold" : "void"}`).sort();
    const remote = (
      await store.pool.query<{ line: string }>(
        "SELECT ticket_id || ' ' || total_minor || ' ' || CASE WHEN voided_at IS NULL THEN 'sold' ELSE 'void' END AS line FROM fleet_sales WHERE kiosk_id = $1",
        [kioskId],
      )
    ).rows.map((r) => r.line).sort();
    lost += local.filter((l) => !remote.includes(l)).length;
    duplicated += remote.length - new Set(remote).size;
    expect(remote, kioskId).toEqual(local);
    expect(local).toHaveLength(SALES_PER_KIOSK);
    sales += local.length;
    // Every outbox record (sales, voids, session lines) arrived once.
    const outboxKeys = (ledger.db.prepare("SELECT key FROM outbox ORDER BY key").all() as { key: string }[]).map((r) => r.key);
    const pgKeys = (await store.pool.query<{ key: string }>("SELECT key FROM records WHERE kiosk_id = $1 ORDER BY key COLLATE \"C\"", [kioskId])).rows.map((r) => r.key);
    expect(pgKeys, kioskId).toEqual(outboxKeys);
    records += outboxKeys.length;
    // The totals the back office reports equal the ledger's own.
    const rows = ledger.sales();
    const mine = { kioskId, currency: "USD", sales: rows.length, voided: rows.filter((r) => r.voided_at !== null).length, totalMinor: rows.filter((r) => r.voided_at === null).reduce((sum, r) => sum + r.total_minor, 0) };
    expect(pgTotals.find((t) => t.kioskId === kioskId)).toEqual(mine);
  }
  expect(lost).toBe(0);
  expect(duplicated).toBe(0);
  // The chaos really happened: without it this test would prove little.
  const s = proxy.stats;
  expect(s.killedBefore + s.killedAfter).toBeGreaterThan(0);
  expect(s.duplicated).toBeGreaterThan(0);
  expect(delivered).toBeGreaterThan(stored);
  expect(stored).toBe(records);
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(
    `fleet (seed ${seed}): 5 kiosks, ${sales} sales (${records} records with voids and session lines) in ${seconds} s; ` +
      `network: ${s.requests} requests, ${s.killedBefore} connections killed before and ${s.killedAfter} after delivery, ${s.duplicated} duplicated, ${s.delayed} held up to 500 ms (the kiosk gives up after 300 ms and resends), ${s.upstreamDown} during the back-office restart; ` +
      `${kills} kiosk SIGKILLs mid-replication, 1 back-office restart; ${delivered} records delivered, ${stored} stored, ${delivered - stored} duplicates absorbed; 0 lost, 0 duplicated, totals equal ledger for ledger`,
  );
});
