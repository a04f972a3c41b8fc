// The bench measures the kiosk as shipped: `bench run --policy hybrid` (the hybrid factory's
// kioskHybridHandle) and the kiosk itself (KioskApp, what `kiosk serve` and Electron run) answer the
// same cases through the same code — the answer pipeline — and so give the same answers, the same
// router decisions and the same kiosk verdicts (purchasable, interlock problems, who decided,
// fallback). The model is a deterministic stand-in that quotes a wrong fare, so the model path is
// visibly different from the rule path (and blocked by the interlock) wherever it is taken, and
// gives no answer for one system (so the provisional answer stands, with its banner).
//
// "The same cases": the same passenger events under the same live conditions (time, disruptions,
// accessibility). A kiosk always knows the time of day, so each case is given to the bench with
// the context a kiosk builds for those conditions (liveContext), written to a case file.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import type { Case, Disruption } from "../../tools/data/schemas.ts";
import { AnswerConversation } from "../../runtime/answer/pipeline.ts";
import { liveContext } from "../../runtime/kiosk/service.ts";
import { tamperingPolicy, testApp, testPack } from "../../runtime/kiosk/testing.ts";
import { caseTurns } from "../../runtime/session/case.ts";
import type { Policy } from "../../runtime/session/policy.ts";
import { kioskHybridHandle } from "../model-policies.ts";
import { registerPolicyFactory } from "../policies.ts";
import { BenchStore } from "../store/store.ts";
import { startRun } from "./execute.ts";

const pack = testPack();
const dir = mkdtempSync(path.join(tmpdir(), "kiosk-parity-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The model: the rule policy quoting every fare 25 cents too low — and, for Doha, no answer at all. */
const cheaper = tamperingPolicy((state) => {
  const quote = state.fare_quote as { total?: number } | null | undefined;
  if (quote && typeof quote.total === "number" && quote.total > 0.25) quote.total = Math.round((quote.total - 0.25) * 100) / 100;
  return state;
});
const model: Policy = {
  id: "stand-in-model",
  start: (setup) => (setup.system.id === "doha" ? { next: async () => ({ type: "message", content: "Let me think about it." }) } : cheaper.start(setup)),
};

/** A spread of cases: structured trips, typed requests, disruptions, follow-ups, several systems. */
function sample(): Case[] {
  const picked: Case[] = [];
  for (const system of ["marta", "bart", "doha"] as const) {
    for (const category of ["A", "C", "D", "F", "H"]) picked.push(...pack.cases(system).filter((c) => c.category === category).slice(0, 2));
  }
  picked.push(...pack.allCases().filter((c) => (c.multi_turn_events?.length ?? 0) > 1).slice(0, 3));
  return picked;
}

function caseTime(kase: Case): Date {
  return new Date(kase.system_context.temporal_context?.current_time || kase.system_context.current_time);
}

describe("bench hybrid = the kiosk", () => {
  it("gives the same answers, router decisions and kiosk verdicts on the same cases, through the same pipeline", async () => {
    const cases = sample().map((kase): Case => {
      const conditions = { now: caseTime(kase), disruptions: kase.system_context.active_disruptions, accessibilityMode: kase.system_context.accessibility_mode === true };
      return { ...kase, system_context: liveContext(pack.system(kase.system), conditions) };
    });
    const casesFile = path.join(dir, "cases.json");
    writeFileSync(casesFile, JSON.stringify(cases));
    const turns = cases.reduce((n, c) => n + caseTurns(c).length, 0);
    const answered = vi.spyOn(AnswerConversation.prototype, "answer");

    // The bench: `--policy hybrid` with the stand-in model.
    const store = BenchStore.open(":memory:");
    const restore = registerPolicyFactory({
      name: "hybrid",
      description: "test: the kiosk pipeline over a stand-in model",
      deterministic: false,
      accepts: [],
      create: () => ({ ...kioskHybridHandle(model), model: "stand-in" }),
    });
    let runId: number;
    try {
      runId = (await startRun({ pack, store, policy: "hybrid", selection: { casesFile } })).runId;
    } finally {
      restore();
    }
    const bench = new Map(store.casesWithRecords(runId).map((c) => [c.caseId, c.record]));
    store.close();
    expect(bench.size).toBe(cases.length);
    expect(answered).toHaveBeenCalledTimes(turns);

    // The kiosk: the same events, turn by turn, under each case's live conditions.
    let live: { now: Date; disruptions: readonly Disruption[] } = { now: new Date(), disruptions: [] };
    const { app } = testApp({ assistant: { mode: "hybrid", policy: () => model }, conditions: () => live, clock: () => new Date(live.now) });
    const paths = new Set<string>();
    for (const kase of cases) {
      live = { now: caseTime(kase), disruptions: kase.system_context.active_disruptions };
      let answer;
      for (const events of caseTurns(kase)) {
        answer = await app.ask({
          system: kase.system,
          events,
          ...(answer ? { sessionId: answer.sessionId } : {}),
          ...(kase.system_context.accessibility_mode ? { accessibilityMode: true } : {}),
        });
      }
      const record = bench.get(kase.id)!;
      const verdict = record.kiosk.verdict!;
      expect(answer!.state, kase.id).toEqual(record.kiosk.state);
      expect(answer!.check?.decidedBy, kase.id).toBe(verdict.decidedBy);
      expect(answer!.check?.reason, kase.id).toBe((record.kiosk.policyInfo?.router as { reason: string }).reason);
      expect(answer!.purchasable, kase.id).toBe(verdict.purchasable);
      expect(answer!.interlock?.problems ?? [], kase.id).toEqual(verdict.interlockProblems);
      expect(answer!.fallback, kase.id).toBe(verdict.fallback);
      paths.add(verdict.decidedBy);
    }
    expect(answered).toHaveBeenCalledTimes(2 * turns);
    answered.mockRestore();
    // Both paths were exercised: the rule path sells, the stand-in model's wrong fares are blocked on both sides.
    expect([...paths].sort()).toEqual(["model", "rule", "rule-fallback"]);
    const verdicts = [...bench.values()].map((r) => r.kiosk.verdict!);
    expect(verdicts.some((v) => v.decidedBy === "rule" && v.purchasable)).toBe(true);
    expect(verdicts.some((v) => v.decidedBy === "model" && v.interlockProblems.some((p) => p.startsWith("fare_mismatch")))).toBe(true);
    // Where the model gave no answer, both show the standard answer with the kiosk's banner.
    const fellBack = [...bench.values()].find((r) => r.kiosk.verdict!.decidedBy === "rule-fallback")!;
    expect(fellBack.kiosk.state.advisory_banners?.at(-1)).toMatchObject({ title: "Assistant unavailable" });
  });
});
