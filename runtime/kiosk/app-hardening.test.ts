// KioskApp under the outside review's attacks (issue 13): unbounded sessions (finding 6), corrupt
// and failing ledgers (8, 13), lost purchase answers (9) and session eviction (15).
import { closeSync, mkdtempSync, openSync, statSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { LEDGER_RECHECK_MS } from "./app.ts";
import { Ledger, LedgerError } from "./node/ledger.ts";
import type { SalesLedger } from "./sales.ts";
import { KioskLimitError, MAX_LIVE_SESSIONS, MAX_SESSION_BYTES, MAX_TURNS_PER_SESSION } from "./limits.ts";
import { SimulatedPaymentTerminal } from "./payment.ts";
import { askFromCase, tamperingPolicy, testApp } from "./testing.ts";

const tempDir = (): string => mkdtempSync(path.join(tmpdir(), "kiosk-h13-"));

describe("session limits (finding 6)", () => {
  it("refuses a follow-up past the turn cap with a clear message; a new session works", async () => {
    const { app } = testApp();
    const first = await app.ask(askFromCase("MARTA-A-001"));
    for (let i = 1; i < MAX_TURNS_PER_SESSION; i++) await app.ask({ system: "marta", sessionId: first.sessionId, events: [{ type: "passenger_count_changed", adults: 1 + (i % 2) }] });
    const over = app.ask({ system: "marta", sessionId: first.sessionId, events: [{ type: "passenger_count_changed", adults: 1 }] });
    await expect(over).rejects.toBeInstanceOf(KioskLimitError);
    await expect(over).rejects.toThrow(/start again/);
    expect((await app.ask(askFromCase("MARTA-A-001"))).purchasable).toBe(true);
  });

  it("refuses a follow-up that would take the session past its byte cap", async () => {
    const { app } = testApp();
    const big = "x".repeat(Math.floor(MAX_SESSION_BYTES * 0.6));
    const first = await app.ask({ system: "marta", events: [{ type: "freetext_input", text: big }] });
    await expect(app.ask({ system: "marta", sessionId: first.sessionId, events: [{ type: "freetext_input", text: big }] })).rejects.toMatchObject({ code: "session_bytes" });
  });
});

/** A ledger file with `sales` committed, its WAL checkpointed into the main file. */
async function ledgerWithSales(file: string, sales: number): Promise<void> {
  const { app, ledger } = testApp({ ledgerFile: file });
  for (let i = 0; i < sales; i++) {
    const answer = await app.ask(askFromCase("MARTA-A-001"));
    expect((await app.purchase({ sessionId: answer.sessionId, paymentMethod: "breeze_card" })).ok).toBe(true);
  }
  ledger.db.pragma("wal_checkpoint(TRUNCATE)");
  ledger.close();
}

describe("a corrupt ledger (finding 8)", () => {
  it("is refused at start (quick_check), so not a single sale is committed into it", async () => {
    const file = path.join(tempDir(), "ledger.sqlite");
    await ledgerWithSales(file, 40);
    // Overwrite 20 pages in the middle of the file (as the review did).
    const pageSize = 4096;
    const pages = Math.floor(statSync(file).size / pageSize);
    expect(pages).toBeGreaterThan(24);
    const fd = openSync(file, "r+");
    for (let p = 2; p < 22; p++) writeSync(fd, Buffer.alloc(pageSize, 0xa5), 0, pageSize, p * pageSize);
    closeSync(fd);
    expect(() => Ledger.open(file)).toThrow(LedgerError);
    expect(() => Ledger.open(file)).toThrow(/damaged|quick_check|malformed/);
    // What the hosts do with it: information only, sales off, the status says why.
    const { app } = testApp({ ledger: null, ledgerProblem: "the ledger file is damaged (quick_check)" });
    const answer = await app.ask(askFromCase("MARTA-A-001"));
    expect(answer.purchasable).toBe(false);
    expect(answer.interlock?.codes).toContain("sales_unavailable");
    expect(answer.confirmation).toBeUndefined();
    expect(app.status()).toMatchObject({ salesAvailable: false, message: expect.stringMatching(/damaged/) });
    expect(await app.purchase({ sessionId: answer.sessionId, paymentMethod: "breeze_card" })).toMatchObject({ ok: false, reason: "ledger_unavailable" });
  });

  it("a healthy ledger passes quick_check and keeps its sales", async () => {
    const file = path.join(tempDir(), "ledger.sqlite");
    await ledgerWithSales(file, 3);
    const ledger = Ledger.open(file);
    expect(ledger.health()).toEqual({ ok: true, problem: null });
    expect(ledger.sales()).toHaveLength(3);
    ledger.close();
  });
});

/** A ledger whose writes fail ("disk I/O error"); its health check passes once `healthy()` says so. */
function failingLedger(healthy: () => boolean): SalesLedger {
  return {
    recordSale: () => {
      throw new Error("disk I/O error");
    },
    voidSale: () => undefined,
    logSession: () => undefined,
    health: () => (healthy() ? { ok: true, problem: null } : { ok: false, problem: "disk I/O error" }),
  };
}

describe("a failing ledger (finding 13)", () => {
  it("after a sale the ledger could not record, answers are not purchasable and the status is degraded", async () => {
    let healthy = false;
    let clock = 0;
    const failing = failingLedger(() => healthy);
    const payment = new SimulatedPaymentTerminal();
    const { app } = testApp({ ledger: failing, payment, now: () => clock });
    const answer = await app.ask(askFromCase("MARTA-A-001"));
    expect(answer.purchasable).toBe(true);
    expect(await app.purchase({ sessionId: answer.sessionId, paymentMethod: "breeze_card" })).toMatchObject({ ok: false, reason: "ledger_unavailable" });
    // Every further sale would void: the next answer says so before the passenger pays.
    const next = await app.ask(askFromCase("MARTA-A-001"));
    expect(next.purchasable).toBe(false);
    expect(next.interlock?.codes).toEqual(["sales_unavailable"]);
    expect(app.status()).toMatchObject({ salesAvailable: false, message: expect.stringMatching(/Ticket sales unavailable/) });
    expect(await app.purchase({ sessionId: next.sessionId, paymentMethod: "breeze_card" })).toMatchObject({ ok: false, reason: "ledger_unavailable" });
    expect(payment.operations.filter((o) => o.op === "authorize")).toHaveLength(1);
    // Still failing its health check after the re-check interval: still off. Healthy again: sales resume.
    clock += LEDGER_RECHECK_MS;
    expect(app.status().salesAvailable).toBe(false);
    healthy = true;
    clock += LEDGER_RECHECK_MS;
    expect(app.status().salesAvailable).toBe(true);
    expect((await app.ask(askFromCase("MARTA-A-001"))).purchasable).toBe(true);
  });

  it("the screen is told at once: the pushed kiosk state turns salesAvailable off, and on again after a passing check", async () => {
    let healthy = false;
    let clock = 0;
    const failing = failingLedger(() => healthy);
    const { app } = testApp({ ledger: failing, now: () => clock });
    const pushed: boolean[] = [];
    app.onState((state) => pushed.push(state.salesAvailable));
    const answer = await app.ask(askFromCase("MARTA-A-001"));
    await app.purchase({ sessionId: answer.sessionId, paymentMethod: "breeze_card" });
    expect(pushed).toEqual([false]);
    healthy = true;
    clock += LEDGER_RECHECK_MS;
    await app.ask(askFromCase("MARTA-A-001")); // the next answer runs the health check
    await Promise.resolve();
    expect(pushed).toEqual([false, true]);
  });

  it("a real ledger whose database went away stays off", async () => {
    let clock = 0;
    const { app, ledger } = testApp({ now: () => clock });
    const answer = await app.ask(askFromCase("MARTA-A-001"));
    ledger.close();
    expect((await app.purchase({ sessionId: answer.sessionId, paymentMethod: "breeze_card" })).ok).toBe(false);
    clock += 10 * LEDGER_RECHECK_MS;
    expect(app.status().salesAvailable).toBe(false);
    expect((await app.ask(askFromCase("MARTA-A-001"))).purchasable).toBe(false);
  });
});

describe("idempotent purchases (finding 9)", () => {
  it("a retry with the same request id returns the ticket already issued, never a second sale", async () => {
    const { app, ledger, payment } = testApp();
    const answer = await app.ask(askFromCase("MARTA-A-001"));
    const request = { sessionId: answer.sessionId, paymentMethod: "breeze_card", requestId: "req-0001-abcdef" };
    const first = await app.purchase(request);
    expect(first.ok).toBe(true);
    // The answer was lost on the way to the screen; the screen retries the same request.
    const retry = await app.purchase(request);
    expect(retry).toEqual(first);
    expect(ledger.sales()).toHaveLength(1);
    expect(payment.operations.filter((o) => o.op === "capture")).toHaveLength(1);
    // A new request id for the same answer is a second purchase: refused.
    expect(await app.purchase({ ...request, requestId: "req-0002-abcdef" })).toMatchObject({ ok: false, reason: "not_purchasable" });
    // Even after the session ended (or the kiosk restarted), the ledger still answers the retry.
    app.endSession(answer.sessionId);
    expect(await app.purchase(request)).toEqual(first);
    // And the issued ticket can be fetched again.
    if (!first.ok) return;
    expect(app.ticket(first.ticket.ticketId)).toEqual({ found: true, ticket: first.ticket, voided: false });
    expect(app.ticket("T-NOPE")).toEqual({ found: false });
  });

  it("two concurrent taps with the same request id make one sale", async () => {
    const { app, ledger } = testApp({ payment: new SimulatedPaymentTerminal({ delayMs: 20 }) });
    const answer = await app.ask(askFromCase("MARTA-A-001"));
    const request = { sessionId: answer.sessionId, paymentMethod: "breeze_card", requestId: "req-concurrent-1" };
    const [a, b] = await Promise.all([app.purchase(request), app.purchase(request)]);
    expect(a.ok && b.ok).toBe(true);
    expect(a).toEqual(b);
    expect(ledger.sales()).toHaveLength(1);
  });

  it("refuses a purchase whose confirmation is not the current answer's", async () => {
    const { app } = testApp();
    const answer = await app.ask(askFromCase("MARTA-A-001"));
    expect(answer.confirmation).toMatchObject({ from: "Airport", to: "Five Points", riders: { adults: 1, children: 0, seniors: 0, disabled: 0 }, total: 2.5, currency: "USD" });
    const stale = await app.purchase({ sessionId: answer.sessionId, paymentMethod: "breeze_card", confirmation: "not-this-one" });
    expect(stale).toMatchObject({ ok: false, reason: "not_purchasable", message: expect.stringMatching(/confirm again/) });
    expect((await app.purchase({ sessionId: answer.sessionId, paymentMethod: "breeze_card", confirmation: answer.confirmation!.id })).ok).toBe(true);
  });
});

describe("session eviction (finding 15)", () => {
  it("201 new asks do not evict a passenger with a purchasable answer; eviction is by idle time", { timeout: 60_000 }, async () => {
    let clock = 0;
    const { app } = testApp({ now: () => clock });
    const buyer = await app.ask(askFromCase("MARTA-A-001"));
    expect(buyer.purchasable).toBe(true);
    clock += 1;
    const idle = await app.ask({ system: "marta", events: [{ type: "freetext_input", text: "What's the refund policy?" }] });
    for (let i = 0; i < MAX_LIVE_SESSIONS + 1; i++) {
      clock += 1;
      await app.ask({ system: "marta", events: [{ type: "freetext_input", text: `What's the refund policy? ${i}` }] });
    }
    expect(app.activeSessions).toBe(MAX_LIVE_SESSIONS);
    // The idle information-only session went; the buyer can still pay.
    await expect(app.ask({ system: "marta", sessionId: idle.sessionId, events: [{ type: "freetext_input", text: "and?" }] })).rejects.toThrow(/Unknown or finished session/);
    expect((await app.purchase({ sessionId: buyer.sessionId, paymentMethod: "breeze_card" })).ok).toBe(true);
  });

  it("a new passenger is refused (kiosk_busy) only while every session is paying or answering", { timeout: 60_000 }, async () => {
    let clock = 0;
    const { app, ledger } = testApp({ now: () => clock, payment: new SimulatedPaymentTerminal({ delayMs: 50 }) });
    const buyers: string[] = [];
    for (let i = 0; i < MAX_LIVE_SESSIONS; i++) {
      clock += 1;
      buyers.push((await app.ask(askFromCase("MARTA-A-001"), undefined, `client-${i}`)).sessionId);
    }
    const paying = buyers.map((sessionId) => app.purchase({ sessionId, paymentMethod: "breeze_card" }));
    await expect(app.ask(askFromCase("MARTA-A-001"))).rejects.toMatchObject({ code: "kiosk_busy" });
    expect((await Promise.all(paying)).every((r) => r.ok)).toBe(true);
    expect(ledger.sales()).toHaveLength(MAX_LIVE_SESSIONS);
    expect((await app.ask(askFromCase("MARTA-A-001"))).purchasable).toBe(true);
  });
});

describe("block codes in the operator log", () => {
  it("the session log records the codes the screen explained", async () => {
    // A model that offers the afternoon's ticket at 03:00, when MARTA does not run.
    const daytime = (await testApp().app.ask(askFromCase("MARTA-A-001"))).state;
    const { app, ledger } = testApp({
      clock: () => new Date(2026, 2, 14, 3, 0, 0),
      assistant: { mode: "model", policy: () => tamperingPolicy(() => structuredClone(daytime) as unknown as Record<string, unknown>) },
    });
    const answer = await app.ask(askFromCase("MARTA-A-001"));
    expect(answer.purchasable).toBe(false);
    expect(answer.interlock?.codes).toContain("outside_service_hours");
    const row = ledger.sessionLog().find((r) => r.event === "answer");
    expect(String(row?.problems)).toContain("outside_service_hours");
    expect(row?.purchasable).toBe(0);
  });
});
