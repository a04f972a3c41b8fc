// Records no kiosk could make are refused one by one with a reason naming the field; what a kiosk's
// own ledger writes passes.
import { describe, expect, it } from "vitest";
import { testPack } from "../../runtime/kiosk/testing.ts";
import type { OutboxRecord } from "../../runtime/fleet/protocol.ts";
import { recordProblem, saleBoundsFromPack, screenRecords } from "./plausible.ts";

const bounds = saleBoundsFromPack(testPack());
const at = "2026-03-09T14:00:00.000Z";
const sale = (over: Partial<Record<string, unknown>> = {}, key = "sale/T-1"): OutboxRecord => ({
  kind: "sale",
  key,
  seq: 1,
  at,
  payload: { ticketId: "T-1", issuedAt: at, system: "marta", totalMinor: 250, total: 2.5, currency: "USD", ...over },
});

describe("record plausibility", () => {
  it("passes a sale as a kiosk writes it, in each system's own currency", () => {
    expect(recordProblem(sale(), bounds)).toBeNull();
    const currency = bounds("bart")?.currency;
    expect(currency).toBe("USD");
    expect(recordProblem(sale({ system: "bart", totalMinor: 0, total: 0 }), bounds)).toBeNull();
    expect(recordProblem({ kind: "void", key: "void/T-1", seq: 2, at, payload: { ticketId: "T-1", voidedAt: at, reason: "capture_failed" } }, bounds)).toBeNull();
    expect(recordProblem({ kind: "session", key: "session/abc/7", seq: 3, at, payload: { sessionId: "s", event: "ask" } }, bounds)).toBeNull();
  });

  it.each([
    ["negative millions", sale({ totalMinor: -500_000_000, total: -5_000_000 }), /payload\.totalMinor: -500000000 is outside/],
    ["a currency no system of the fleet sells in", sale({ currency: "XBT" }), /payload\.currency: marta sells in USD, not 'XBT'/],
    ["2^53 minor units", sale({ totalMinor: 2 ** 53 - 1, total: (2 ** 53 - 1) / 100 }), /payload\.totalMinor: 9007199254740991 is outside/],
    ["a system the fleet does not have", sale({ system: "atlantis" }), /payload\.system: 'atlantis' is not a system of this fleet/],
    ["a total that disagrees with its minor units", sale({ total: 25 }), /payload\.total: 25 disagrees/],
    ["one ticket under a second key", sale({}, "sale/T-1-again"), /keyed 'sale\/T-1', not 'sale\/T-1-again'/],
    ["a void keyed as a sale", { kind: "void", key: "sale/T-1", seq: 2, at, payload: { ticketId: "T-1", voidedAt: at, reason: null } } as OutboxRecord, /a void of ticket T-1 is keyed 'void\/T-1'/],
    ["a NUL byte", sale({ originName: "Five\u0000Points" }), /payload\.originName: contains a NUL character/],
    ["half a surrogate pair", sale({ originName: "Five \ud800Points" }), /payload\.originName: contains a NUL character or a broken surrogate pair/],
  ])("refuses %s", (_what, record, reason) => {
    expect(recordProblem(record, bounds)).toMatch(reason);
  });

  it("reads each record of a batch on its own: the refusal names the key and the field, the good ones pass", () => {
    const screened = screenRecords([sale(), { kind: "sale", key: "sale/T-2", seq: 2, at, payload: { ticketId: "T-2" } }, sale({ currency: "XBT", ticketId: "T-3" }, "sale/T-3"), 42], bounds);
    expect(screened.records.map((r) => r.key)).toEqual(["sale/T-1"]);
    expect(screened.refused.map((r) => r.key)).toEqual(["sale/T-2", "sale/T-3", "records[3]"]);
    expect(screened.refused[0]!.reason).toMatch(/payload\.issuedAt/);
  });
});
