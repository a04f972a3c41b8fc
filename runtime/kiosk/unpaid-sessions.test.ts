// Unpaid purchasable sessions: one client that asks for many tickets and pays for none holds only
// a few of them, each for a few minutes, and never turns another passenger away (kiosk_busy).
import { describe, expect, it } from "vitest";
import { MAX_LIVE_SESSIONS, MAX_UNPAID_PER_CLIENT, UNPAID_SESSION_TTL_MS } from "./limits.ts";
import { askFromCase, testApp } from "./testing.ts";

const TRIP = askFromCase("MARTA-A-001");

describe("unpaid purchasable sessions", () => {
  it("a flood of unpaid asks from one client leaves another passenger served, and the flooder capped", { timeout: 60_000 }, async () => {
    let clock = 0;
    const { app, ledger } = testApp({ now: () => clock });
    const flood: string[] = [];
    for (let i = 0; i < MAX_LIVE_SESSIONS + 5; i++) {
      clock += 1;
      const answer = await app.ask(TRIP, undefined, "flooder");
      expect(answer.purchasable).toBe(true);
      flood.push(answer.sessionId);
    }
    expect(app.unpaidSessions("flooder")).toBeLessThanOrEqual(MAX_UNPAID_PER_CLIENT);
    // A new passenger at the screen is answered and can buy.
    clock += 1;
    const passenger = await app.ask(TRIP, undefined, "passenger");
    expect(passenger.purchasable).toBe(true);
    expect(await app.purchase({ sessionId: passenger.sessionId, paymentMethod: "breeze_card", confirmation: passenger.confirmation!.id })).toMatchObject({ ok: true });
    // The flooder's oldest answers were ended: paying one is refused cleanly, nothing charged.
    expect(await app.purchase({ sessionId: flood[0]!, paymentMethod: "breeze_card" })).toMatchObject({ ok: false, reason: "unknown_session" });
    expect(ledger.sales()).toHaveLength(1);
  });

  it("a client's next unpaid session ends its oldest; other clients keep theirs", async () => {
    let clock = 0;
    const { app, logs } = testApp({ now: () => clock });
    const other = await app.ask(TRIP, undefined, "other");
    const mine: string[] = [];
    for (let i = 0; i <= MAX_UNPAID_PER_CLIENT; i++) {
      clock += 1;
      mine.push((await app.ask(TRIP, undefined, "mine")).sessionId);
    }
    expect(app.unpaidSessions("mine")).toBe(MAX_UNPAID_PER_CLIENT);
    expect(app.unpaidSessions("other")).toBe(1);
    expect(await app.purchase({ sessionId: mine[0]!, paymentMethod: "breeze_card" })).toMatchObject({ ok: false, reason: "unknown_session" });
    expect(logs.join("\n")).toMatch(/unpaid/);
    expect((await app.purchase({ sessionId: mine[MAX_UNPAID_PER_CLIENT]!, paymentMethod: "breeze_card" })).ok).toBe(true);
    expect((await app.purchase({ sessionId: other.sessionId, paymentMethod: "breeze_card" })).ok).toBe(true);
  });

  it("an unpaid quote expires after the configured minutes: paying it is refused clearly and charges nothing", async () => {
    let clock = 0;
    const { app, ledger, payment } = testApp({ now: () => clock, unpaidSessionMs: 2 * 60_000 });
    const early = await app.ask(TRIP);
    const late = await app.ask(TRIP);
    clock += 2 * 60_000 - 1;
    expect((await app.purchase({ sessionId: early.sessionId, paymentMethod: "breeze_card" })).ok).toBe(true);
    clock += 1;
    const stale = await app.purchase({ sessionId: late.sessionId, paymentMethod: "breeze_card" });
    expect(stale).toMatchObject({ ok: false, reason: "unknown_session", message: expect.stringMatching(/expired.*Nothing was charged/) });
    expect(payment.operations.filter((o) => o.op === "authorize")).toHaveLength(1);
    expect(ledger.sales()).toHaveLength(1);
    expect(ledger.sessionLog().some((r) => r.event === "purchase_refused" && String(r.problems).includes("quote_expired"))).toBe(true);
    // Asking again gives a fresh quote that can be bought.
    const again = await app.ask(TRIP);
    expect((await app.purchase({ sessionId: again.sessionId, paymentMethod: "breeze_card" })).ok).toBe(true);
  });

  it("by default a quote is held three minutes", async () => {
    let clock = 0;
    const { app } = testApp({ now: () => clock });
    const answer = await app.ask(TRIP);
    expect(UNPAID_SESSION_TTL_MS).toBe(3 * 60_000);
    clock += UNPAID_SESSION_TTL_MS;
    expect(await app.purchase({ sessionId: answer.sessionId, paymentMethod: "breeze_card" })).toMatchObject({ ok: false, reason: "unknown_session" });
  });

  it("a full kiosk evicts expired quotes before anything else and refuses only when every session is busy", { timeout: 60_000 }, async () => {
    let clock = 0;
    const { app } = testApp({ now: () => clock, maxUnpaidPerClient: MAX_LIVE_SESSIONS });
    for (let i = 0; i < MAX_LIVE_SESSIONS; i++) {
      clock += 1;
      await app.ask(TRIP, undefined, `client-${i}`);
    }
    clock += UNPAID_SESSION_TTL_MS;
    const fresh = await app.ask(TRIP, undefined, "passenger");
    expect(fresh.purchasable).toBe(true);
    expect(app.activeSessions).toBe(MAX_LIVE_SESSIONS);
  });
});
