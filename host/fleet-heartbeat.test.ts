// The kiosk host sends heartbeats to the back office (issue 18): at start and every interval, with
// nothing to replicate, carrying the framebook in force per system and who answers passengers.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import type { Heartbeat } from "../runtime/fleet/protocol.ts";
import { TEST_NOW, testPack } from "../runtime/kiosk/testing.ts";
import { startBackOfficeServer } from "./backoffice/server.ts";
import { createKioskRuntime } from "./runtime.ts";
import { saleBoundsFromPack } from "./backoffice/plausible.ts";

const dir = mkdtempSync(path.join(tmpdir(), "kiosk-heartbeat-host-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("a fleet kiosk sends heartbeats with no records pending, with its framebook versions and model state", async () => {
  const beats: Heartbeat[] = [];
  const office = await startBackOfficeServer({ saleBounds: saleBoundsFromPack(testPack()),
    store: { schemaVersion: async () => 1, ingest: async () => ({ acknowledged: [], inserted: 0 }) },
    heartbeats: { recordHeartbeat: async (h) => void beats.push(h) },
    token: "fleet-token-for-tests",
    port: 0,
    log: () => undefined,
  });
  const runtime = await createKioskRuntime({
    pack: testPack(),
    ledger: path.join(dir, "k.sqlite"),
    operatorDir: path.join(dir, "operator"),
    pin: { hash: null },
    benchDb: null,
    clock: () => new Date(TEST_NOW),
    log: () => undefined,
    heartbeatSeconds: 0.05,
    replication: { url: office.url, kioskId: "station-12-a", token: "fleet-token-for-tests", idleMs: 10 },
  });
  try {
    await expect.poll(() => beats.length, { timeout: 5000, interval: 10 }).toBeGreaterThanOrEqual(2);
    const beat = beats[0]!;
    expect(beat).toMatchObject({ kioskId: "station-12-a", model: { assistant: "rule", state: null }, replication: { pending: 0, oldestPendingAt: null }, bench: null });
    expect(beat.systems.map((s) => s.system)).toEqual(runtime.pack.systemIds);
    for (const s of beat.systems) expect(s.framebookVersion).toBe(runtime.framebooks.inForce(s.system as never).version);
    expect(runtime.heartbeat?.failures).toBe(0);
  } finally {
    await runtime.close();
    await office.close();
  }
});
