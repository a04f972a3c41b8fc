// Figures: the trust boundaries between systems, kiosks, the back office and the clients of a kiosk,
// each an attack an outside review ran against the fleet, replayed against the real code:
//   - service alerts of one system touched by another system's feed (same entity ids) or a set;
//   - records no kiosk could make (negative millions, XBT, 2^53, a second key for a ticket, a void
//     keyed as a sale, a void of a ticket never sold, a NUL byte) stored by the back office, over
//     HTTP into a throw-away PostgreSQL;
//   - kiosks frozen by a publication id: a replay under a higher id, garbage under id 1006 from a
//     network attacker, a report answered 404, a restore of the back office's database — after each,
//     the next real publication must be applied;
//   - the kiosk's memory while every back-office answer and a feed are 400 MB;
//   - the back office's heartbeat latency while 40 failed logins arrive at once from 40 addresses;
//   - passengers turned away by one client's unpaid asks, the operator locked out by others' PINs;
//   - implausible fare policies in a valid framebook accepted.
import { generateKeyPairSync } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import GtfsRealtimeBindings from "gtfs-realtime-bindings";
import type { DataPack } from "../../tools/data/datapack.ts";
import type { SystemId } from "../../tools/data/schemas.ts";
import { AlertStore } from "../../runtime/alerts/store.ts";
import { loadGtfsIdIndex } from "../../runtime/alerts/gtfs-ids.ts";
import { fetchFeedBytes, ingestFeed } from "../../runtime/alerts/ingest.ts";
import { backofficeAlertId, validateAlert } from "../../runtime/alerts/model.ts";
import { FramebookStore } from "../../runtime/framebook/store.ts";
import { validateFramebook } from "../../runtime/framebook/validate.ts";
import { fitHeartbeat, type Heartbeat } from "../../runtime/fleet/protocol.ts";
import { Distribution } from "../../runtime/kiosk/node/distribution.ts";
import { HeartbeatSender } from "../../runtime/kiosk/node/heartbeat-sender.ts";
import { Ledger } from "../../runtime/kiosk/node/ledger.ts";
import { Replicator } from "../../runtime/kiosk/node/replicator.ts";
import { hashKioskToken, hashPassword, kioskAuthorizer } from "../../host/backoffice/auth.ts";
import { kioskViews, renderFleetPage } from "../../host/backoffice/pages.ts";
import { saleBoundsFromPack } from "../../host/backoffice/plausible.ts";
import { PublicationStore } from "../../host/backoffice/publications.ts";
import { startBackOfficeServer, type RunningBackOffice } from "../../host/backoffice/server.ts";
import { BackOfficeStore } from "../../host/backoffice/store.ts";
import { startTestPostgres, type TestPostgres } from "../../test/postgres.ts";
import { errorText, figure, info, percentile, type RunOptions, type SectionResult } from "./common.ts";
import { kioskServerTrustFigures } from "./trust-kiosk-server.ts";

const rt = GtfsRealtimeBindings.transit_realtime;
const NOW = new Date(2026, 2, 9, 14, 0, 0);
const TOKEN = "fleet-token-for-the-trust-section";
const HUGE_ANSWER_BYTES = 400 * 1024 * 1024;

/** For every ordered pair of systems: A's feed, then B's feed with the same entity ids, then a set for B naming A's local alert ids. */
function alertCollisions(pack: DataPack): { collisions: number; imported: number; pairs: number } {
  const nowSec = Math.floor(NOW.getTime() / 1000);
  const feedOf = (stopId: string, entities: number): Uint8Array =>
    rt.FeedMessage.encode(
      rt.FeedMessage.create({
        header: { gtfsRealtimeVersion: "2.0", incrementality: rt.FeedHeader.Incrementality.FULL_DATASET, timestamp: nowSec - 30 },
        entity: Array.from({ length: entities }, (_, i) =>
          rt.FeedEntity.create({
            id: String(i + 1),
            alert: { informedEntity: [{ stopId }], effect: rt.Alert.Effect.NO_SERVICE, activePeriod: [{ start: nowSec - 600, end: nowSec + 3600 }], headerText: { translation: [{ text: "Station closed", language: "en" }] } },
          }),
        ),
      }),
    ).finish();
  let collisions = 0;
  let imported = 0;
  let pairs = 0;
  for (const a of pack.systemIds) {
    for (const b of pack.systemIds) {
      if (a === b) continue;
      pairs++;
      const store = AlertStore.open(":memory:", { clock: () => NOW });
      const [dataA, dataB] = [pack.system(a), pack.system(b)];
      const local = validateAlert({ id: "closure", system: a, type: "station_closure", stations: [dataA.stations[0]!.id], text: { en: "closed" } }, { system: (s) => pack.system(s) });
      if (!local.ok) throw new Error(`the probe alert for ${a} is invalid`);
      store.add(local.alert, "operator");
      const feedA = `https://${a}.example.invalid/alerts.pb`;
      ingestFeed(store, feedOf(dataA.stations[0]!.name, 3), { system: dataA, index: loadGtfsIdIndex(pack.root, dataA), feed: feedA, who: "feed", now: NOW });
      const before = JSON.stringify(store.current(a));
      imported += store.current(a).length - 1;
      // B's feed with A's entity ids, a full dataset of B's that is empty, and a set for B naming A's ids.
      const feedB = `https://${b}.example.invalid/alerts.pb`;
      ingestFeed(store, feedOf(dataB.stations[0]!.name, 3), { system: dataB, index: loadGtfsIdIndex(pack.root, dataB), feed: feedB, who: "feed", now: NOW });
      ingestFeed(store, feedOf(dataB.stations[0]!.name, 0), { system: dataB, index: loadGtfsIdIndex(pack.root, dataB), feed: feedB, who: "feed", now: NOW });
      const set = validateAlert({ id: "closure", system: b, type: "station_closure", stations: [dataB.stations[0]!.id], text: { en: "closed" } }, { system: (s) => pack.system(s) });
      if (set.ok) {
        try {
          store.applySet(b, [{ ...set.alert, id: backofficeAlertId(b, "closure"), source: { kind: "backoffice", id: "closure" } }], { who: "backoffice", withdraw: ["closure", ...store.current(a).map((r) => r.alert.id)], detail: "probe" });
        } catch {
          // Refused (a withdrawal naming another system's alert): nothing changed, as it should be.
        }
      }
      if (JSON.stringify(store.current(a)) !== before) collisions++;
      store.close();
    }
  }
  return { collisions, imported, pairs };
}

/** Records no kiosk could make, each sent in a batch of its own after a good sale; how many the back office stored. */
async function implausibleRecords(pack: DataPack, cluster: TestPostgres): Promise<{ accepted: number; tried: number; goodStored: number }> {
  const store = await BackOfficeStore.open(await cluster.createDatabase("trust_records"));
  const office = await startBackOfficeServer({ saleBounds: saleBoundsFromPack(pack), store, token: TOKEN, port: 0, log: () => undefined });
  const at = NOW.toISOString();
  const sale = (ticketId: string, over: Record<string, unknown> = {}, key = `sale/${ticketId}`) => ({ kind: "sale", key, seq: 1, at, payload: { ticketId, issuedAt: at, system: "marta", totalMinor: 250, total: 2.5, currency: "USD", ...over } });
  const voidOf = (ticketId: string, key = `void/${ticketId}`) => ({ kind: "void", key, seq: 2, at, payload: { ticketId, voidedAt: at, reason: null } });
  const bad = [
    sale("NEG", { totalMinor: -500_000_000, total: -5_000_000 }),
    sale("XBT", { currency: "XBT" }),
    sale("HUGE", { totalMinor: 2 ** 53 - 1, total: (2 ** 53 - 1) / 100 }),
    sale("GOOD", {}, "sale/GOOD-second-key"),
    voidOf("GOOD", "sale/GOOD-void"),
    voidOf("NEVER-SOLD"),
    voidOf("GOOD", "void/GOOD-again"),
    sale("NUL", { originName: "Five\u0000Points" }),
    sale("ATLANTIS", { system: "atlantis" }),
  ];
  const post = (records: unknown[]) =>
    fetch(`${office.url}/v1/records`, { method: "POST", headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" }, body: JSON.stringify({ kioskId: "trust-1", records, lag: { pending: 0, oldestPendingAt: null } }) });
  try {
    if ((await post([sale("GOOD"), voidOf("GOOD")])).status !== 200) throw new Error("a good sale and its void were not stored");
    for (const record of bad) await post([record]);
    const rows = await store.pool.query<{ key: string }>("SELECT key FROM records WHERE kiosk_id = 'trust-1'");
    const stored = new Set(rows.rows.map((r) => r.key));
    return { accepted: bad.filter((r) => stored.has(r.key)).length, tried: bad.length, goodStored: stored.size };
  } finally {
    await office.close();
    await store.close();
  }
}

/**
 * Tokens used where they must not work, over HTTP against the PostgreSQL store: the shared fleet
 * token for a kiosk with its own token and for a revoked one, one kiosk's token for another kiosk,
 * and a kiosk's token reading another kiosk's publication results. How many were accepted.
 */
async function tokenMisuse(pack: DataPack, cluster: TestPostgres): Promise<{ accepted: number; tried: number }> {
  const store = await BackOfficeStore.open(await cluster.createDatabase("trust_tokens"));
  const ownA = "kiosk-a-own-token-0123456789abcdef";
  const ownB = "kiosk-b-own-token-0123456789abcdef";
  await store.setKioskToken("kiosk-a", hashKioskToken(ownA));
  await store.setKioskToken("kiosk-b", hashKioskToken(ownB));
  await store.revokeKioskToken("kiosk-b");
  const office = await startBackOfficeServer({ saleBounds: saleBoundsFromPack(pack), store, heartbeats: store, publications: new PublicationStore(store.pool), token: kioskAuthorizer(store, TOKEN), port: 0, log: () => undefined });
  const beat = (kioskId: string, token: string) =>
    fetch(`${office.url}/v1/heartbeat`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ kioskId, sentAt: NOW.toISOString(), softwareVersion: "1", systems: [], model: { assistant: "rule", state: null }, replication: { pending: 0, oldestPendingAt: null }, bench: null }),
    });
  try {
    if ((await beat("kiosk-a", ownA)).status !== 200) throw new Error("a kiosk's own token was refused");
    const attempts = [
      await beat("kiosk-a", TOKEN),
      await beat("kiosk-b", TOKEN),
      await beat("kiosk-b", ownB),
      await beat("kiosk-c", ownA),
      await fetch(`${office.url}/v1/publications/report?kiosk=kiosk-c`, { headers: { authorization: `Bearer ${ownA}` } }),
    ];
    return { accepted: attempts.filter((r) => r.ok).length, tried: attempts.length };
  } finally {
    await office.close();
    await store.close();
  }
}

/** The fleet page's size for a full page of kiosks each sending the largest heartbeat the back office takes. */
function fleetPageBytes(): number {
  const heartbeat: Heartbeat = {
    kioskId: "k",
    sentAt: NOW.toISOString(),
    softwareVersion: "v".repeat(64),
    systems: Array.from({ length: 64 }, (_, s) => ({ system: `system-${s}`, framebookVersion: "f".repeat(200), alerts: Array.from({ length: 500 }, (_, i) => ({ id: `${"a".repeat(190)}-${i}`, updatedAt: NOW.toISOString() })) })),
    model: { assistant: "model", state: "s".repeat(64) },
    replication: { pending: 0, oldestPendingAt: null },
    bench: null,
  };
  const largest = JSON.parse(fitHeartbeat(heartbeat)) as Heartbeat;
  const overview = Array.from({ length: 50 }, (_, i) => ({ kioskId: `kiosk-${i}`, lastBatchAt: NOW, lastHeartbeatAt: NOW, pending: 0, oldestPendingAt: null, heartbeat: largest, salesToday: [] }));
  return Buffer.byteLength(renderFleetPage(kioskViews(overview, NOW, 120), { user: "ops", now: NOW, timeZone: "UTC", staleAfterS: 120, paging: { page: 1, pages: 1, kiosks: 50, stale: 0 } }));
}

/** A proxy in front of the back office that adds `injected` items to every poll's answer and may answer a report path itself. */
async function attackerProxy(target: string): Promise<{ url: string; injected: unknown[]; refuseReports: Set<string>; close(): Promise<void> }> {
  const injected: unknown[] = [];
  const refuseReports = new Set<string>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      if (refuseReports.has(req.url ?? "")) {
        res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: "no such publication" }));
        return;
      }
      const upstream = request(new URL(req.url ?? "/", target), { method: req.method, headers: { ...req.headers, host: new URL(target).host } }, (answer) => {
        const parts: Buffer[] = [];
        answer.on("data", (c: Buffer) => parts.push(c));
        answer.on("end", () => {
          let body = Buffer.concat(parts).toString("utf8");
          if (req.url === "/v1/publications/poll" && answer.statusCode === 200) {
            const list = JSON.parse(body) as { publications: unknown[] };
            body = JSON.stringify({ publications: [...list.publications, ...injected] });
          }
          res.writeHead(answer.statusCode ?? 502, { "content-type": "application/json" }).end(body);
        });
      });
      upstream.on("error", () => res.writeHead(502).end());
      upstream.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    injected,
    refuseReports,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** After each attack on the publication stream, whether the kiosk applies the next real publication. */
async function frozenKiosks(pack: DataPack, cluster: TestPostgres, dir: string): Promise<{ frozen: number; scenarios: number; notes: string[] }> {
  const store = await BackOfficeStore.open(await cluster.createDatabase("trust_publications"));
  const publications = new PublicationStore(store.pool);
  const office = await startBackOfficeServer({ saleBounds: saleBoundsFromPack(pack), store, publications, token: TOKEN, port: 0, log: () => undefined });
  const proxy = await attackerProxy(office.url);
  const keys = generateKeyPairSync("ed25519");
  const original = readFileSync(path.join(pack.root, "data/systems/marta/framebook.yaml"), "utf8");
  let n = 0;
  const publish = () =>
    publications.publish({ pack, kind: "framebook", system: "marta", content: original.replace("cultural_notes: []", `cultural_notes: ["edition ${++n}"]`), file: `marta-${n}.yaml`, publisher: "Ops Desk", key: keys.privateKey });
  const kiosk = Distribution.open({ kioskId: "trust-k", url: proxy.url, token: TOKEN, publicKey: keys.publicKey, systems: ["marta"], framebooks: new FramebookStore(pack, path.join(dir, "framebooks")), alerts: null, stateFile: ":memory:" });
  const notes: string[] = [];
  let frozen = 0;
  const attack = async (name: string, before: () => Promise<void>): Promise<void> => {
    await before();
    await kiosk.pollOnce().catch(() => undefined);
    const next = await publish();
    await kiosk.pollOnce().catch((err: unknown) => notes.push(`${name}: ${errorText(err)}`));
    const at = kiosk.applied().find((a) => a.kind === "framebook" && a.system === "marta")?.version ?? 0;
    if (at !== next.envelope.version) {
      frozen++;
      notes.push(`${name}: the kiosk stayed at v${at} after v${next.envelope.version} was published`);
    }
  };
  try {
    const first = await publish();
    await kiosk.pollOnce();
    await attack("replay under a higher id", async () => void proxy.injected.push({ ...first, id: first.id + 1000 }));
    await attack("garbage under id 1006", async () => void proxy.injected.push({ id: 1006, envelope: { ...first.envelope, version: 999_999, content: "x: 1" }, signature: first.signature }));
    await attack("a report answered 404", async () => {
      const stale = await publish();
      proxy.refuseReports.add(`/v1/publications/${stale.id}/result`);
    });
    await attack("the back office's database restored from an empty backup", async () => {
      await store.pool.query("DELETE FROM publication_results");
      await store.pool.query("DELETE FROM publications");
      await store.pool.query("DELETE FROM publication_floor");
    });
    return { frozen, scenarios: 4, notes };
  } finally {
    await kiosk.stop();
    await proxy.close();
    await office.close();
    await store.close();
  }
}

/** Peak growth of this process's memory while a kiosk reads 400 MB answers from the back office and a feed. */
async function memoryUnderHugeAnswers(dir: string): Promise<{ growthMb: number; failedAsExpected: number }> {
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  const server = createServer((req, res) => {
    req.resume();
    res.writeHead(200, { "content-type": "application/json" });
    let sent = 0;
    const pump = (): void => {
      while (!res.destroyed && sent < HUGE_ANSWER_BYTES) {
        sent += chunk.length;
        if (!res.write(chunk)) return void res.once("drain", pump);
      }
      res.end();
    };
    pump();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const ledger = Ledger.open(path.join(dir, "memory-ledger.sqlite"));
  ledger.recordSale({
    ticketId: "T-1", issuedAt: NOW.toISOString(), system: "marta", sessionId: "s-1", originId: "a", originName: "A", destinationId: "b", destinationName: "B",
    stops: ["a", "b"], riders: { adults: 1 }, total: 2.5, currency: "USD", paymentMethod: "card", paymentTerminal: "sim", authorizationId: "A-1", stateJson: "{}",
    transcriptId: "t", framebookVersion: "f", policy: "rule",
  });
  const base = process.memoryUsage().rss;
  let peak = base;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
  let failedAsExpected = 0;
  try {
    const replicator = new Replicator({ outbox: ledger.outbox, kioskId: "k", url, token: "t", timeoutMs: 60_000 });
    await replicator.sendBatch().catch(() => failedAsExpected++);
    const heartbeat = new HeartbeatSender({ url, token: "t", timeoutMs: 60_000, collect: () => ({ kioskId: "k", sentAt: NOW.toISOString(), softwareVersion: "1", systems: [], model: { assistant: "rule", state: null }, replication: { pending: 0, oldestPendingAt: null }, bench: null }) });
    if (!(await heartbeat.send())) failedAsExpected++;
    await fetchFeedBytes(`${url}/feed.pb`, AbortSignal.timeout(60_000)).catch(() => failedAsExpected++);
  } finally {
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);
    ledger.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  return { growthMb: Math.round(((peak - base) / (1024 * 1024)) * 10) / 10, failedAsExpected };
}

/** Heartbeat round trips to the back office while 40 failed logins from 40 addresses arrive at once. */
async function heartbeatsDuringLogins(): Promise<{ p99Ms: number; heartbeats: number; loginsAnswered: number; passwordsChecked: number }> {
  const hash = hashPassword("the real password of ops");
  const office: RunningBackOffice = await startBackOfficeServer({
    saleBounds: () => null,
    store: { ingest: async () => ({ acknowledged: [], inserted: 0 }), schemaVersion: async () => 5 },
    heartbeats: { recordHeartbeat: async () => undefined },
    pages: { store: { fleetOverview: async () => [], fleetCounts: async () => ({ kiosks: 0, stale: 0 }), userPasswordHash: async (user) => (user === "ops" ? hash : null) } },
    token: TOKEN,
    port: 0,
    log: () => undefined,
  });
  const port = office.port;
  const login = (i: number): Promise<number> => {
    const body = new URLSearchParams({ user: "ops", password: `guess-${i}` }).toString();
    return new Promise((resolve) => {
      const req = request(
        { host: "127.0.0.1", port, path: "/login", method: "POST", localAddress: `127.0.${Math.floor(i / 200)}.${(i % 200) + 2}`, headers: { origin: `http://127.0.0.1:${port}`, "content-type": "application/x-www-form-urlencoded", "content-length": Buffer.byteLength(body) } },
        (res) => {
          res.resume();
          res.on("end", () => resolve(res.statusCode ?? 0));
        },
      );
      req.on("error", () => resolve(0));
      req.end(body);
    });
  };
  const beat = JSON.stringify({ kioskId: "k", sentAt: NOW.toISOString(), softwareVersion: "1", systems: [], model: { assistant: "rule", state: null }, replication: { pending: 0, oldestPendingAt: null }, bench: null });
  const latencies: number[] = [];
  try {
    let done = false;
    const logins = Promise.all(Array.from({ length: 40 }, (_, i) => login(i))).finally(() => (done = true));
    const deadline = performance.now() + 20_000;
    while ((!done || latencies.length < 20) && performance.now() < deadline) {
      const t0 = performance.now();
      await fetch(`${office.url}/v1/heartbeat`, { method: "POST", headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" }, body: beat });
      latencies.push(performance.now() - t0);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const statuses = await logins;
    // 401: the password was checked and wrong; 429: refused by the limit before any check.
    return { p99Ms: Math.round(percentile(latencies, 99) * 10) / 10, heartbeats: latencies.length, loginsAnswered: statuses.filter((s) => s > 0).length, passwordsChecked: statuses.filter((s) => s === 401).length };
  } finally {
    await office.close();
  }
}

/** The review's fare policies in an otherwise valid framebook: how many validation accepts. */
function implausibleFares(pack: DataPack): { accepted: number; tried: number } {
  const original = readFileSync(path.join(pack.root, "data/systems/marta/framebook.yaml"), "utf8");
  const policies = ['rule: { multiplier: 0.01 }', 'text: "Base fare capped at -$1.00 today."', 'rule: { base_fare_cap: -1 }', 'text: "All fares are 99% off today."'];
  let accepted = 0;
  for (const p of policies) {
    // A text entry is refused for its amount, not for lacking the operator's decision on unread words.
    const entry = p.startsWith("rule") ? `      text: "Promotion"\n      ${p}\n` : `      ${p}\n      if_unread: refer\n`;
    const text = original.replace("cultural_notes: []", `cultural_notes: []\n  fare_policies:\n    - policy_id: "p"\n${entry}`);
    if (validateFramebook(text, "candidate.yaml", pack.system("marta" as SystemId)).ok) accepted++;
  }
  return { accepted, tried: policies.length };
}

export async function trustBoundaries(pack: DataPack, options: RunOptions): Promise<SectionResult> {
  const t0 = performance.now();
  const dir = mkdtempSync(path.join(tmpdir(), "kiosk-trust-section-"));
  const cluster = await startTestPostgres();
  try {
    options.log("  trust: alert ids across systems");
    const alerts = alertCollisions(pack);
    options.log("  trust: replicated records");
    const records = await implausibleRecords(pack, cluster);
    options.log("  trust: tokens");
    const tokens = await tokenMisuse(pack, cluster);
    options.log("  trust: publication stream attacks");
    const stream = await frozenKiosks(pack, cluster, dir);
    options.log("  trust: 400 MB answers");
    const memory = await memoryUnderHugeAnswers(dir);
    options.log("  trust: heartbeats during failed logins");
    const logins = await heartbeatsDuringLogins();
    options.log("  trust: kiosk serve between clients");
    const clients = await kioskServerTrustFigures(pack);
    const fares = implausibleFares(pack);
    return {
      id: "trust",
      title: "Trust boundaries: systems, kiosks, back office, clients",
      figures: [
        figure("trust.alert_collisions", "alerts of one system changed by another's feed or set", alerts.collisions, { op: "eq", value: 0 }, { of: `of ${alerts.pairs} system pairs (${alerts.imported} feed alerts imported)` }),
        figure("trust.implausible_records_accepted", "records no kiosk could make, stored", records.accepted, { op: "eq", value: 0 }, { of: `of ${records.tried} (good sale and void stored: ${records.goodStored})` }),
        figure("trust.tokens_misused", "tokens accepted where they must not work", tokens.accepted, { op: "eq", value: 0 }, { of: `of ${tokens.tried} (shared token for bound and revoked kiosks, one kiosk's token for another, another's results)` }),
        figure("trust.kiosks_frozen", "kiosks frozen by a publication id, a 404 report or a restore", stream.frozen, { op: "eq", value: 0 }, { of: `of ${stream.scenarios} attacks` }),
        figure("trust.memory_growth_mb", "peak memory growth under 400 MB answers", memory.growthMb, { op: "le", value: 64 }, { unit: "MB", of: `${memory.failedAsExpected} of 3 reads refused at their cap` }),
        figure("trust.heartbeat_p99_ms", "heartbeat p99 during 40 failed logins", logins.p99Ms, { op: "le", value: 50 }, { unit: "ms", of: `${logins.heartbeats} heartbeats, ${logins.loginsAnswered} of 40 logins answered` }),
        figure("trust.passwords_checked", "passwords checked of 40 failed logins from 40 addresses for one user", logins.passwordsChecked, { op: "le", value: 5 }, { of: "the per-user limit is 5 a minute" }),
        figure("trust.fleet_page_kb", "fleet page with 50 kiosks at the largest heartbeat", Math.round(fleetPageBytes() / 1024), { op: "le", value: 512 }, { unit: "kB" }),
        figure("trust.passengers_turned_away", "passengers turned away by one client's unpaid asks", clients.passengersTurnedAway, { op: "eq", value: 0 }, { of: "of 20 after 200 unpaid asks" }),
        info("trust.flooder_sessions_held", "unpaid sessions the flooding client still holds", clients.flooderSessionsHeld),
        figure("trust.operator_locked_out", "operator locked out by others' wrong PINs", clients.operatorLockedOutByOthers, { op: "eq", value: 0 }, { of: "after 10 wrong PINs from another source" }),
        figure("trust.implausible_fares_accepted", "implausible fare policies accepted", fares.accepted, { op: "eq", value: 0 }, { of: `of ${fares.tried}` }),
      ],
      details: { streamNotes: stream.notes },
      ms: Math.round(performance.now() - t0),
    };
  } finally {
    await cluster.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
