import { describe, expect, it } from "vitest";
import { DataPack } from "../../tools/data/datapack.ts";
import { SHARED_DATA_DIR } from "../../test/paths.ts";
import { caseSetup, runCase } from "../session/case.ts";
import type { Policy, PolicyStep } from "../session/policy.ts";
import { decideRoute, HybridPolicy, type HybridPath } from "./hybrid.ts";
import { rulePolicy } from "./rule/index.ts";

const pack = new DataPack(SHARED_DATA_DIR);

/** A stand-in model: behaves as told, and says which call it got. */
function fakeModel(behaviour: "hang" | "throw" | "text" | "loop" | "rule"): Policy & { calls: number } {
  const model: Policy & { calls: number } = {
    id: "fake-llm",
    calls: 0,
    start: (setup) => {
      const delegate = behaviour === "rule" ? rulePolicy.start(setup) : undefined;
      return {
        next: async (input): Promise<PolicyStep> => {
          model.calls++;
          if (behaviour === "hang") return new Promise(() => undefined);
          if (behaviour === "throw") throw new Error("model process crashed");
          if (behaviour === "text") return { type: "message", content: "I think you should take the train." };
          if (behaviour === "loop") return { type: "tool_calls", calls: [{ name: "knowledge_base", arguments: '{"query": "hours"}' }] };
          return (await delegate)!.next(input);
        },
      };
    },
  };
  return model;
}

describe("hybrid router decision table (all 955 cases, no case keyed by id)", () => {
  it("sends every case down a documented path with a reason, and never reads the answer key", () => {
    const counts: Record<string, number> = {};
    for (const kase of pack.allCases()) {
      const turns = kase.multi_turn_events ?? [kase.events];
      const decision = decideRoute(pack.system(kase.system), kase.system_context, turns);
      counts[`${decision.path}:${decision.reason}`] = (counts[`${decision.path}:${decision.reason}`] ?? 0) + 1;
      // Structured A/B cases need no judgement; every case with typed text goes to the model.
      const typed = turns.flat().some((e) => e.type === "freetext_input");
      if ((kase.category === "A" || kase.category === "B") && !typed) expect(decision.path, kase.id).toBe("rule");
      if (typed) expect(decision).toMatchObject({ path: "llm", reason: "free_text" });
      if (kase.system_context.active_disruptions.length > 0) expect(decision.path).toBe("llm");
    }
    console.log("hybrid routing over 955 cases:", counts);
    expect(Object.values(counts).reduce((a, b) => a + b, 0)).toBe(955);
  });

  it("routes near closing time and after hours to the model, daytime structured trips to rule", () => {
    const marta = pack.system("marta");
    const trip = [[{ type: "station_selected" as const, field: "origin" as const, value: "Airport" }, { type: "station_selected" as const, field: "destination" as const, value: "Five Points" }]];
    const at = (time: string, day = "Wednesday"): HybridPath =>
      decideRoute(marta, { current_time: time, active_disruptions: [], framebook: "marta", temporal_context: { current_time: time, day_of_week: day } }, trip).path;
    expect(at("2026-03-11T14:00:00")).toBe("rule");
    expect(at("2026-03-11T00:30:00")).toBe("llm"); // 30 min before the 01:00 close
    expect(at("2026-03-11T03:00:00")).toBe("llm"); // closed
  });
});

describe("hybrid policy", () => {
  const structured = pack.caseById("MARTA-A-001")!;
  const judgement = pack.allCases().find((c) => c.category === "D")!;

  it("answers structured requests with rule, without touching the model", async () => {
    const model = fakeModel("throw");
    const record = await runCase(pack, structured, new HybridPolicy({ rule: rulePolicy, model }));
    expect(model.calls).toBe(0);
    expect(record.kiosk.policyInfo).toMatchObject({ router: { path: "rule", reason: "structured_request" }, answeredBy: "rule" });
    expect(record.kiosk.fallback).toBe(false);
  });

  it("uses the model where judgement is needed", async () => {
    const model = fakeModel("rule");
    const record = await runCase(pack, judgement, new HybridPolicy({ rule: rulePolicy, model }));
    expect(model.calls).toBeGreaterThan(0);
    expect(record.kiosk.policyInfo).toMatchObject({ router: { path: "llm", reason: "free_text" }, answeredBy: "llm" });
  });

  it.each([
    ["times out", "hang", /model deadline of 200 ms exceeded/],
    ["crashes", "throw", /model process crashed/],
    ["ends without a state", "text", /without submitting a kiosk state/],
    ["loops without finishing", "loop", /used 3 rounds without a final state/],
  ] as const)("falls back to the deterministic answer when the model %s", async (_n, behaviour, reason) => {
    const hybrid = new HybridPolicy({ rule: rulePolicy, model: fakeModel(behaviour), modelDeadlineMs: 200, maxModelRounds: 3 });
    const record = await runCase(pack, judgement, hybrid);
    const reference = await runCase(pack, judgement, rulePolicy);
    expect(record.kiosk.fallback).toBe(false);
    expect(record.kiosk.policyInfo).toMatchObject({ answeredBy: "rule-fallback" });
    expect(String(record.kiosk.policyInfo?.fallbackReason)).toMatch(reason);
    expect(record.kiosk.state).toEqual(reference.kiosk.state);
  });

  it("aborts the model's generation at the deadline instead of leaving it running", async () => {
    let seen: AbortSignal | undefined;
    const model: Policy = {
      id: "slow-llm",
      start: () => ({
        next: (input) => {
          seen = input.signal;
          return new Promise<PolicyStep>(() => undefined);
        },
      }),
    };
    await runCase(pack, judgement, new HybridPolicy({ rule: rulePolicy, model, modelDeadlineMs: 100 }));
    expect(seen?.aborted).toBe(true);
    expect(String(seen?.reason)).toMatch(/model deadline of 100 ms exceeded/);
  });

  it("tells the model when its answer is due (the thinking budget is derived from it)", async () => {
    let deadlineAt: number | undefined;
    const model: Policy = {
      id: "slow-llm",
      start: () => ({
        next: (input) => {
          deadlineAt = input.deadlineAt;
          return new Promise<PolicyStep>(() => undefined);
        },
      }),
    };
    const before = Date.now();
    await runCase(pack, judgement, new HybridPolicy({ rule: rulePolicy, model, modelDeadlineMs: 150 }));
    expect(deadlineAt).toBeGreaterThanOrEqual(before + 100);
    expect(deadlineAt).toBeLessThanOrEqual(Date.now() + 150);
  });

  it("records the router's decision in the transcript setup it was given", () => {
    const setup = caseSetup(pack, structured);
    expect(decideRoute(setup.system, setup.context, setup.scriptedTurns ?? [])).toMatchObject({ path: "rule" });
  });
});
