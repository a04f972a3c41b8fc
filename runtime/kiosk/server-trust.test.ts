// `kiosk serve` between clients: one client that floods unpaid asks or wrong PINs holds back that
// client only — another passenger is answered and can buy, the operator elsewhere logs in.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { FramebookStore } from "../framebook/store.ts";
import { OperatorConsole } from "../operator/console.ts";
import { hashPin, PinGate } from "../operator/pin.ts";
import { MAX_LIVE_SESSIONS, MAX_UNPAID_PER_CLIENT } from "./limits.ts";
import { requestSource } from "./node/http-guards.ts";
import { startKioskServer, type RunningKioskServer } from "./node/server.ts";
import { askFromCase, testApp, testPack } from "./testing.ts";

const running: RunningKioskServer[] = [];
afterEach(async () => {
  for (const s of running.splice(0)) await s.close();
});

const FLOODER = "flooder-0000000000000000";
const PASSENGER = "passenger-000000000000000";

describe("kiosk serve: one client's flood holds back that client only", () => {
  it("200+ unpaid asks from one client: another passenger is answered (not 503) and buys; the flooder holds its cap", { timeout: 60_000 }, async () => {
    const { app, ledger } = testApp();
    const operator = new OperatorConsole({ framebooks: new FramebookStore(testPack(), mkdtempSync(path.join(tmpdir(), "kiosk-trust-"))), pin: new PinGate({ hash: await hashPin("246810", { N: 1024, r: 8, p: 1 }) }), systems: testPack().systemIds, log: () => undefined });
    const server = await startKioskServer({ backend: app, operator, staticDir: null, port: 0, log: () => undefined });
    running.push(server);
    const post = (route: string, body: unknown, client?: string): Promise<Response> =>
      fetch(new URL(route, server.url), { method: "POST", headers: { "content-type": "application/json", ...(client ? { "x-kiosk-client": client } : {}) }, body: JSON.stringify(body) });
    for (let i = 0; i < MAX_LIVE_SESSIONS + 5; i++) expect((await post("api/ask", askFromCase("MARTA-A-001"), FLOODER)).status).toBe(200);
    expect(app.unpaidSessions(`127.0.0.1 ${FLOODER}`)).toBeLessThanOrEqual(MAX_UNPAID_PER_CLIENT);
    const asked = await post("api/ask", askFromCase("MARTA-A-001"), PASSENGER);
    expect(asked.status).toBe(200);
    const answer = (await asked.json()) as { sessionId: string; purchasable: boolean; confirmation: { id: string } };
    expect(answer.purchasable).toBe(true);
    const bought = await post("api/purchase", { sessionId: answer.sessionId, paymentMethod: "breeze_card", confirmation: answer.confirmation.id }, PASSENGER);
    expect(await bought.json()).toMatchObject({ ok: true });
    expect(ledger.sales()).toHaveLength(1);

    // Wrong PINs from one page lock out that page; the operator at another logs in.
    for (const pin of ["000000", "000001", "000002"]) await post("api/operator/login", { operator: "Mallory", pin }, FLOODER);
    expect(await (await post("api/operator/login", { operator: "Alice", pin: "246810" }, FLOODER)).json()).toMatchObject({ ok: false, reason: "locked" });
    expect(await (await post("api/operator/login", { operator: "Alice", pin: "246810" }, PASSENGER)).json()).toMatchObject({ ok: true });
  });

  it("a request's source: its address; on loopback also its page's client id (made-up ids from the network count for nothing)", () => {
    expect(requestSource("10.0.0.66", PASSENGER)).toBe("10.0.0.66");
    expect(requestSource("::ffff:127.0.0.1", PASSENGER)).toBe(`127.0.0.1 ${PASSENGER}`);
    expect(requestSource("::1", "bad id")).toBe("::1");
    expect(requestSource(undefined, undefined)).toBe("");
  });
});
