import { describe, expect, it } from "vitest";
import { escapeHtml, kioskViews, KIOSKS_PER_PAGE, renderFleetPage } from "./pages.ts";
import type { KioskOverview } from "./store.ts";

const now = new Date("2026-12-01T12:00:00Z");
const kiosk = (over: Partial<KioskOverview>): KioskOverview => ({
  kioskId: "k1",
  lastBatchAt: new Date("2026-12-01T11:00:00Z"),
  lastHeartbeatAt: new Date("2026-12-01T11:59:30Z"),
  pending: 0,
  oldestPendingAt: null,
  heartbeat: null,
  salesToday: [],
  ...over,
});

describe("fleet page", () => {
  it("marks a kiosk stale only after the silence, from its last heartbeat or batch", () => {
    const [fresh, silent, batchOnly] = kioskViews(
      [kiosk({ kioskId: "fresh" }), kiosk({ kioskId: "silent", lastHeartbeatAt: new Date("2026-12-01T11:57:59Z") }), kiosk({ kioskId: "b", lastHeartbeatAt: null, lastBatchAt: new Date("2026-12-01T11:59:00Z") })],
      now,
      120,
    );
    expect(fresh).toMatchObject({ stale: false, silentS: 30 });
    expect(silent).toMatchObject({ stale: true, silentS: 121 });
    expect(batchOnly).toMatchObject({ stale: false, silentS: 60, lastHeartbeatAt: null });
    const html = renderFleetPage(kioskViews([kiosk({ kioskId: "fresh" }), kiosk({ kioskId: "silent", lastHeartbeatAt: new Date("2026-12-01T11:50:00Z") })], now, 120), { user: "ops", now, timeZone: "UTC", staleAfterS: 120 });
    expect(html.match(/class="badge stale">STALE/g)).toHaveLength(1);
    expect(html).toContain("<strong>1 stale</strong>");
    expect(html).toContain("10 min ago");
  });

  it("escapes every value that comes from a kiosk", () => {
    const evil = '<script>alert("x")</script>';
    const heartbeat = {
      kioskId: "k1",
      sentAt: now.toISOString(),
      softwareVersion: evil,
      systems: [{ system: evil, framebookVersion: `v"${evil}`, alerts: [{ id: evil, updatedAt: "'&" }] }],
      model: { assistant: "rule" as const, state: evil },
      replication: { pending: 0, oldestPendingAt: null },
      bench: { runId: 3, policy: evil, finishedAt: null, tier1Pct: 91.25, casesScored: 10 },
    };
    const html = renderFleetPage(kioskViews([kiosk({ heartbeat, salesToday: [{ currency: evil, sales: 1, voided: 0, totalMinor: 250 }] })], now, 120), { user: evil, now, timeZone: "UTC", staleAfterS: 120 });
    expect(html).not.toContain("<script");
    expect(html).toContain(escapeHtml(evil));
    expect(html).toContain("&#39;&amp;");
    expect(html).toContain("91.3 %");
  });

  it("shows sales today per currency (not voided) and the replication lag", () => {
    const html = renderFleetPage(
      kioskViews([kiosk({ pending: 4, oldestPendingAt: new Date("2026-12-01T11:58:00Z"), salesToday: [{ currency: "EUR", sales: 3, voided: 1, totalMinor: 1250 }, { currency: "USD", sales: 2, voided: 0, totalMinor: 500 }] })], now, 120),
      { user: "ops", now, timeZone: "Europe/Paris", staleAfterS: 120 },
    );
    expect(html).toContain("3 · 12.50 EUR");
    expect(html).toContain("(1 voided)");
    expect(html).toContain("2 · 5.00 USD");
    expect(html).toContain("4 pending since <time>2026-12-01T11:58:00.000Z</time>");
    expect(html).toContain("sales today in Europe/Paris");
  });

  it("keeps to a size budget: long values cut, at most ten alerts per kiosk shown with how many more, a page of kiosks with links to the others", () => {
    const heartbeat = {
      kioskId: "k1",
      sentAt: "2026-12-01T11:59:30Z",
      softwareVersion: "v".repeat(64),
      systems: [{ system: "marta", framebookVersion: "f".repeat(200), alerts: Array.from({ length: 500 }, (_, i) => ({ id: `${"a".repeat(190)}${i}`, updatedAt: "2026-12-01T11:00:00Z" })) }],
      model: { assistant: "rule" as const, state: null },
      replication: { pending: 0, oldestPendingAt: null },
      bench: null,
    };
    const views = kioskViews(Array.from({ length: KIOSKS_PER_PAGE }, (_, i) => kiosk({ kioskId: `k${i}`, heartbeat })), now, 120);
    expect(views[0]!.systems[0]!.alerts).toHaveLength(10);
    expect(views[0]!.alertsNotShown).toBe(490);
    expect(views[0]!.systems[0]!.framebookVersion).toHaveLength(80);
    const html = renderFleetPage(views, { user: "ops", now, timeZone: "UTC", staleAfterS: 120, paging: { page: 2, pages: 3, kiosks: 120, stale: 7 } });
    // Fifty kiosks each reporting 500 alerts of 200 characters (100 kB each) still make a page of a few hundred kB.
    expect(Buffer.byteLength(html)).toBeLessThan(400_000);
    expect(html).toContain("and 490 more");
    expect(html).toContain("<strong>7 stale</strong>");
    expect(html).toContain('<a href="/?page=1">← previous</a> page 2 of 3 <a href="/?page=3">next →</a>');
  });
});
