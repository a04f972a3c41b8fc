// A kiosk facing a back office (or whoever answers in its place) that sends endless answers: the
// replicator, the heartbeat, signed distribution and the alert feed each stop reading at their cap
// and fail that one request — what waits to be sent stays, and the kiosk goes on selling. The back office in
// turn refuses a heartbeat over its cap, and a kiosk shortens one that would be.
import { generateKeyPairSync } from "node:crypto";
import { createServer, type Server } from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fitHeartbeat, MAX_HEARTBEAT_BYTES, type Heartbeat } from "../runtime/fleet/protocol.ts";
import { Ledger } from "../runtime/kiosk/node/ledger.ts";
import { Replicator } from "../runtime/kiosk/node/replicator.ts";
import { HeartbeatSender } from "../runtime/kiosk/node/heartbeat-sender.ts";
import { Distribution } from "../runtime/kiosk/node/distribution.ts";
import { FramebookStore } from "../runtime/framebook/store.ts";
import { testPack } from "../runtime/kiosk/testing.ts";
import { startBackOfficeServer } from "./backoffice/server.ts";
import { fetchFeedBytes } from "../runtime/alerts/ingest.ts";
import { GtfsFeedError } from "../runtime/alerts/gtfs-rt.ts";
import { saleBoundsFromPack } from "./backoffice/plausible.ts";

const dir = mkdtempSync(path.join(tmpdir(), "kiosk-hostile-bo-"));
let server: Server;
let url: string;
/** Bytes written per request path before the kiosk hung up. */
const written = new Map<string, number>();

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    res.writeHead(200, { "content-type": "application/json" });
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const key = (req.url ?? "/").split("?")[0]!;
    written.set(key, 0);
    const pump = (): void => {
      while (!res.destroyed && written.get(key)! < 400 * 1024 * 1024) {
        written.set(key, written.get(key)! + chunk.length);
        if (!res.write(chunk)) return void res.once("drain", pump);
      }
      res.end();
    };
    pump();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

const heartbeat = (alerts: number): Heartbeat => ({
  kioskId: "k-1",
  sentAt: "2026-12-06T12:00:00.000Z",
  softwareVersion: "1.0.0",
  systems: [{ system: "marta", framebookVersion: "v1", alerts: Array.from({ length: alerts }, (_, i) => ({ id: `${"x".repeat(190)}-${i}`, updatedAt: "2026-12-06T11:00:00.000Z" })) }],
  model: { assistant: "rule", state: null },
  replication: { pending: 0, oldestPendingAt: null },
  bench: null,
});

describe("a kiosk reading endless answers", () => {
  it("the replicator stops at its cap, fails that batch and keeps the records pending", async () => {
    const ledger = Ledger.open(path.join(dir, "ledger.sqlite"));
    ledger.recordSale({
      ticketId: "T-1", issuedAt: new Date().toISOString(), system: "marta", sessionId: "s-1", originId: "a", originName: "A", destinationId: "b", destinationName: "B",
      stops: ["a", "b"], riders: { adults: 1 }, total: 2.5, currency: "USD", paymentMethod: "card", paymentTerminal: "sim", authorizationId: "A-1", stateJson: "{}",
      transcriptId: "t", framebookVersion: "f", policy: "rule",
    });
    const replicator = new Replicator({ outbox: ledger.outbox, kioskId: "k-1", url, token: "t" });
    await expect(replicator.sendBatch()).rejects.toThrow(/larger than the limit of 262144 bytes/);
    expect(ledger.outbox.lag().pending).toBe(1);
    expect(written.get("/v1/records")).toBeLessThan(64 * 1024 * 1024);
    ledger.close();
  });

  it("the heartbeat and signed distribution stop at theirs too", async () => {
    const logs: string[] = [];
    const sender = new HeartbeatSender({ url, token: "t", collect: () => heartbeat(1), log: (m) => logs.push(m) });
    expect(await sender.send()).toBe(false);
    expect(logs.join(" ")).toMatch(/larger than the limit of 65536 bytes/);
    const pack = testPack();
    const distribution = Distribution.open({
      kioskId: "k-1",
      url,
      token: "t",
      publicKey: generateKeyPairSync("ed25519").publicKey,
      systems: ["marta"],
      framebooks: new FramebookStore(pack, path.join(dir, "operator")),
      alerts: null,
      stateFile: ":memory:",
    });
    await expect(distribution.pollOnce()).rejects.toThrow(/larger than the limit/);
    await distribution.stop();
    for (const key of ["/v1/heartbeat", "/v1/publications/poll"]) expect(written.get(key)).toBeLessThan(64 * 1024 * 1024);
  });
});

describe("a service-alert feed that never ends", () => {
  it("is refused at the feed cap as unusable (the alerts in force stay)", async () => {
    await expect(fetchFeedBytes(`${url}/feed.pb`, AbortSignal.timeout(30_000))).rejects.toSatisfy(
      (err: unknown) => err instanceof GtfsFeedError && err.kind === "malformed" && /larger than the limit of 8388608 bytes/.test(err.message),
    );
    expect(written.get("/feed.pb")).toBeLessThan(96 * 1024 * 1024);
  });
});

describe("heartbeat size", () => {
  it("a kiosk with very many alerts shortens its heartbeat to fit; the back office refuses one over the cap with 413", async () => {
    const fitted = fitHeartbeat(heartbeat(3000));
    expect(Buffer.byteLength(fitted)).toBeLessThanOrEqual(MAX_HEARTBEAT_BYTES);
    expect((JSON.parse(fitted) as Heartbeat).systems[0]!.alerts.at(-1)!.id).toMatch(/-2999$/);
    expect(fitHeartbeat(heartbeat(3))).toBe(JSON.stringify(heartbeat(3)));
    const recorded: Heartbeat[] = [];
    const office = await startBackOfficeServer({
      saleBounds: saleBoundsFromPack(testPack()),
      store: { ingest: async () => ({ acknowledged: [], inserted: 0 }), schemaVersion: async () => 5 },
      heartbeats: { recordHeartbeat: async (h) => void recorded.push(h) },
      token: "fleet-token",
      port: 0,
      log: () => undefined,
    });
    try {
      const post = (body: string) => fetch(`${office.url}/v1/heartbeat`, { method: "POST", headers: { authorization: "Bearer fleet-token", "content-type": "application/json" }, body });
      expect((await post(JSON.stringify(heartbeat(3000)))).status).toBe(413);
      expect((await post(fitted)).status).toBe(200);
      expect(recorded).toHaveLength(1);
    } finally {
      await office.close();
    }
  });
});
