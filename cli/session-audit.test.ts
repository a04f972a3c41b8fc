// The session audit wired into the host: a passenger session asked through createKioskRuntime is
// kept in the audit store (turns, tools, state, who answered, the interlock, the sale as the ledger
// keeps it), old sessions are pruned at start, and `kiosk framebook preview` replays what was kept.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { createKioskRuntime } from "../host/runtime.ts";
import { SessionAuditStore } from "../runtime/audit/store.ts";
import { recordSession, trip } from "../runtime/audit/testing.ts";
import { buildTimeline } from "../runtime/audit/timeline.ts";
import { testPack } from "../runtime/kiosk/testing.ts";
import { runKiosk } from "../test/cli.ts";
import { SHARED_DATA_DIR } from "../test/paths.ts";

const dir = mkdtempSync(path.join(tmpdir(), "session-audit-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => {
  process.exitCode = undefined;
  vi.restoreAllMocks();
});

// Today at 14:00 (service hours), so the CLI's real-clock retention keeps the sessions.
const today = new Date();
const NOW = new Date(today.getFullYear(), today.getMonth(), today.getDate(), 14, 0);

describe("the host's session audit", () => {
  it("records every passenger session answered, with its sale, and framebook preview replays it", async () => {
    const auditDb = path.join(dir, "audit.sqlite");
    // An old session, past the retention period: pruned when the kiosk starts.
    const old = new Date(NOW.getTime() - 40 * 86_400_000);
    const seed = SessionAuditStore.open(auditDb, { clock: () => old });
    seed.put(await recordSession(testPack(), { sessionId: "old", system: "marta", turns: [trip("MARTA-AP", "MARTA-FP")], now: old }));
    seed.close();

    const runtime = await createKioskRuntime({
      pack: testPack(),
      ledger: path.join(dir, "ledger.sqlite"),
      operatorDir: path.join(dir, "operator"),
      pin: { hash: null },
      benchDb: null,
      auditDb,
      clock: () => NOW,
      log: () => undefined,
    });
    expect(runtime.audit?.get("old")).toBeUndefined();
    const first = await runtime.backend.ask({ system: "marta", events: trip("MARTA-AP", "MARTA-FP"), language: "es" });
    const second = await runtime.backend.ask({ system: "marta", sessionId: first.sessionId, events: [{ type: "passenger_count_changed", adults: 1, seniors: 1 }] });
    expect(second.purchasable).toBe(true);
    const sale = await runtime.backend.purchase({ sessionId: first.sessionId, paymentMethod: "breeze_card" });
    expect(sale).toMatchObject({ ok: true });
    runtime.backend.endSession(first.sessionId);

    const audited = runtime.audit!.get(first.sessionId)!;
    expect(audited).toMatchObject({ system: "marta", language: "es", endedAt: NOW.toISOString() });
    expect(audited.turns).toHaveLength(2);
    const [t1, t2] = audited.turns;
    expect(t1!.events).toEqual(trip("MARTA-AP", "MARTA-FP"));
    expect(t1!.answeredBy).toBe("rule");
    expect(t1!.toolCalls.map((c) => c.name)).toContain("route_planner");
    expect(t2!.state.fare_quote?.total).toBe(second.state.fare_quote?.total);
    expect(t2!.interlock).toEqual({ offered: true, ok: true, problems: [] });
    const ticket = sale.ok ? sale.ticket : null;
    // The sale as the ledger keeps it: ticket, amount, currency, method — no authorization, no card.
    expect(audited.purchases).toEqual([{ at: NOW.toISOString(), result: "sold", paymentMethod: "breeze_card", problems: [], ticketId: ticket!.ticketId, total: ticket!.total, currency: ticket!.currency }]);
    expect(JSON.stringify(audited)).not.toMatch(/authoriz/i);
    expect(runtime.audit!.today({ language: "es" }).map((s) => s.sessionId)).toEqual([first.sessionId]);
    expect(buildTimeline(audited).entries.map((e) => e.kind)).toContain("purchase");

    // A refused purchase (already sold) is audited with its code.
    const again = await runtime.backend.ask({ system: "marta", events: trip("MARTA-AP", "MARTA-FP") });
    await runtime.backend.purchase({ sessionId: again.sessionId, paymentMethod: "breeze_card" });
    await runtime.backend.purchase({ sessionId: again.sessionId, paymentMethod: "breeze_card" });
    expect(runtime.audit!.get(again.sessionId)!.purchases.map((p) => [p.result, p.problems])).toEqual([["sold", []], ["refused", ["already_sold"]]]);
    await runtime.close();

    // What was kept is what a framebook preview replays: seniors ride free changes the fare.
    const draft = path.join(dir, "seniors.yaml");
    const framebook = readFileSync(path.join(SHARED_DATA_DIR, "data/systems/marta/framebook.yaml"), "utf8");
    writeFileSync(draft, framebook.replace("cultural_notes: []", 'cultural_notes: []\n  fare_policies:\n    - policy_id: "seniors_free"\n      text: "EFFECTIVE TODAY: Senior citizens (65+) ride free."'));
    const preview = await runKiosk("framebook", "--framebooks", path.join(dir, "fbs"), "preview", draft, "--system", "marta", "--audit-db", auditDb, "--json");
    const report = JSON.parse(preview.stdout) as { sessions: number; changedTurns: number; first: { sessionId: string; turn: number; changes: { field: string }[] }[] };
    expect(report.sessions).toBe(2);
    // The senior's fare changed in the second turn of the first session.
    expect(report.first.find((d) => d.sessionId === first.sessionId && d.turn === 2)?.changes.map((c) => c.field)).toContain("fare");
  });

  it("a kiosk whose audit cannot be opened still serves and sells, and says why", async () => {
    const blocker = path.join(dir, "not-a-dir");
    writeFileSync(blocker, "x");
    const logs: string[] = [];
    const runtime = await createKioskRuntime({ pack: testPack(), ledger: ":memory:", operatorDir: path.join(dir, "operator"), pin: { hash: null }, benchDb: null, auditDb: path.join(blocker, "audit.sqlite"), clock: () => NOW, log: (m) => logs.push(m) });
    expect(runtime.audit).toBeNull();
    const r = await runtime.backend.ask({ system: "marta", events: trip("MARTA-AP", "MARTA-FP") });
    expect(await runtime.backend.purchase({ sessionId: r.sessionId, paymentMethod: "breeze_card" })).toMatchObject({ ok: true });
    expect(logs.join("\n")).toMatch(/passenger sessions are not audited until this is fixed/);
    await runtime.close();
  });
});
