// Issue 18 (s18b): the back office's heartbeat, per-kiosk tokens, login and fleet page against a
// real PostgreSQL, with kiosks replicating real ledger records and an injected clock for staleness.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startTestPostgres, type TestPostgres } from "../test/postgres.ts";
import { fleetReplicator, sellOne } from "../test/fleet-kiosk.ts";
import { testPack } from "../runtime/kiosk/testing.ts";
import { startBackOffice } from "./backoffice.ts";
import { HEARTBEAT_PATH, INGEST_PATH, type Heartbeat } from "../runtime/fleet/protocol.ts";
import { Ledger } from "../runtime/kiosk/node/ledger.ts";
import { hashKioskToken, hashPassword, newKioskToken } from "../host/backoffice/auth.ts";

let cluster: TestPostgres;
let dir: string;
beforeAll(async () => {
  cluster = await startTestPostgres();
  dir = mkdtempSync(path.join(tmpdir(), "kiosk-fleet-page-"));
});
afterAll(async () => {
  await cluster?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const beat = (kioskId: string, sentAt: Date, extra: Partial<Heartbeat> = {}): Heartbeat => ({
  kioskId,
  sentAt: sentAt.toISOString(),
  softwareVersion: "0.1.0",
  systems: [{ system: "marta", framebookVersion: "fb-2026-11-30", alerts: [{ id: "marta-elevator-5p", updatedAt: "2026-12-01T08:00:00.000Z" }] }],
  model: { assistant: "model", state: "ready" },
  replication: { pending: 0, oldestPendingAt: null },
  bench: { runId: 7, policy: "hybrid", finishedAt: "2026-12-01T07:00:00.000Z", tier1Pct: 93.4, casesScored: 955 },
  ...extra,
});

it("per-kiosk tokens, heartbeats, login and the fleet page with sales today and stale marking", async () => {
  let now = new Date();
  const office = await startBackOffice({ pack: testPack(), db: await cluster.createDatabase("page"), token: null, port: 0, staleAfterS: 120, clock: () => now, log: () => {} });
  try {
    const { store, url } = office;
    const tokens: Record<string, string> = {};
    for (const id of ["kiosk-a", "kiosk-b", "kiosk-c"]) {
      tokens[id] = newKioskToken();
      await store.setKioskToken(id, hashKioskToken(tokens[id]!));
    }
    const post = (p: string, token: string, body: unknown) => fetch(new URL(p, url), { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${token}` }, body: JSON.stringify(body) });

    // A's token cannot post as B; a revoked token is refused.
    expect((await post(HEARTBEAT_PATH, tokens["kiosk-a"]!, beat("kiosk-b", now))).status).toBe(403);
    expect((await post(INGEST_PATH, tokens["kiosk-a"]!, { kioskId: "kiosk-b", records: [{ kind: "session", key: "s/1", seq: 1, at: now.toISOString(), payload: { sessionId: "x", event: "e" } }], lag: { pending: 0, oldestPendingAt: null } })).status).toBe(403);
    expect((await post(HEARTBEAT_PATH, tokens["kiosk-c"]!, beat("kiosk-c", now))).status).toBe(200);
    await store.revokeKioskToken("kiosk-c");
    expect((await post(HEARTBEAT_PATH, tokens["kiosk-c"]!, beat("kiosk-c", now))).status).toBe(403);

    // Kiosk A replicates real ledger sales (every 9th voided) with its own token.
    const ledger = Ledger.open(path.join(dir, "a.sqlite"));
    for (let n = 1; n <= 9; n++) sellOne(ledger, "kiosk-a", n);
    const replicator = fleetReplicator(ledger, "kiosk-a", url, tokens["kiosk-a"]!);
    while ((await replicator.sendBatch()) > 0);
    const sold = ledger.sales().filter((s) => s.voided_at === null);
    ledger.close();
    expect((await post(HEARTBEAT_PATH, tokens["kiosk-a"]!, beat("kiosk-a", now))).status).toBe(200);
    expect((await post(HEARTBEAT_PATH, tokens["kiosk-b"]!, beat("kiosk-b", now, { model: { assistant: "rule", state: null }, bench: null }))).status).toBe(200);

    // Without a session: the page redirects to the login, the JSON is 401.
    expect((await fetch(new URL("/", url), { redirect: "manual" })).headers.get("location")).toBe("/login");
    expect((await fetch(new URL("/v1/kiosks", url))).status).toBe(401);

    await store.setUser("ops", hashPassword("correct horse battery"));
    const login = (password: string, origin = url) =>
      fetch(new URL("/login", url), { method: "POST", redirect: "manual", headers: { "content-type": "application/x-www-form-urlencoded", origin }, body: new URLSearchParams({ user: "ops", password }).toString() });
    expect((await login("correct horse battery", "http://evil.example")).status).toBe(403);
    const wrong = await login("wrong password!");
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toContain("Wrong user name or password.");
    const ok = await login("correct horse battery");
    expect(ok.status).toBe(302);
    const setCookie = ok.headers.get("set-cookie") ?? "";
    expect(setCookie).toMatch(/HttpOnly; SameSite=Strict; Path=\//);
    const cookie = setCookie.split(";")[0]!;

    const pageRes = await fetch(new URL("/", url), { headers: { cookie } });
    expect(pageRes.headers.get("content-security-policy")).toContain("default-src 'none'");
    const html = await pageRes.text();
    const takings = sold.reduce((sum, s) => sum + s.total_minor, 0);
    expect(html).toContain(`${sold.length} · ${(takings / 100).toFixed(2)} USD`);
    expect(html).toContain("(1 voided)");
    expect(html).toContain("fb-2026-11-30");
    expect(html).toContain("marta-elevator-5p");
    expect(html).toContain("93.4 %");
    expect(html).not.toContain("STALE");

    const json = async () => (await (await fetch(new URL("/v1/kiosks", url), { headers: { cookie } })).json()) as { kiosks: { kioskId: string; stale: boolean; salesToday: { sales: number; totalMinor: number }[] }[] };
    expect((await json()).kiosks.map((k) => [k.kioskId, k.stale])).toEqual([["kiosk-a", false], ["kiosk-b", false], ["kiosk-c", false]]);

    // 100 s later B speaks again; at 150 s A and C have been silent over 120 s.
    now = new Date(now.getTime() + 100_000);
    expect((await post(HEARTBEAT_PATH, tokens["kiosk-b"]!, beat("kiosk-b", now))).status).toBe(200);
    now = new Date(now.getTime() + 50_000);
    const later = await json();
    expect(later.kiosks.map((k) => [k.kioskId, k.stale])).toEqual([["kiosk-a", true], ["kiosk-b", false], ["kiosk-c", true]]);
    expect(later.kiosks[0]!.salesToday[0]).toMatchObject({ sales: sold.length, totalMinor: takings });
    const staleHtml = await (await fetch(new URL("/", url), { headers: { cookie } })).text();
    expect(staleHtml.match(/STALE/g)).toHaveLength(2);

    if (process.env.FLEET_PAGE_SCREENSHOT) {
      const { chromium } = await import("playwright-core");
      const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--headless", "--no-sandbox", "--disable-gpu"] });
      const context = await browser.newContext({ viewport: { width: 1400, height: 520 } });
      await context.addCookies([{ name: cookie.split("=")[0]!, value: cookie.split("=").slice(1).join("="), url }]);
      const p = await context.newPage();
      await p.goto(url);
      await p.screenshot({ path: process.env.FLEET_PAGE_SCREENSHOT, fullPage: true });
      await browser.close();
    }

    // Logout ends the session.
    expect((await fetch(new URL("/logout", url), { method: "POST", redirect: "manual", headers: { cookie, origin: url } })).status).toBe(302);
    expect((await fetch(new URL("/v1/kiosks", url), { headers: { cookie } })).status).toBe(401);
  } finally {
    await office.close();
  }
}, 120_000);
