// The answer pipeline on benchmark cases (answerCase: what `bench run --policy hybrid` runs) and
// its modes: who answers, the fallbacks, the breaker, and the kiosk's verdict in the record.
import { describe, expect, it } from "vitest";
import { SHARED_DATA_DIR } from "../../test/paths.ts";
import { DataPack } from "../../tools/data/datapack.ts";
import { rulePolicy } from "../policies/rule/index.ts";
import { runCase } from "../session/case.ts";
import type { AssistantState } from "../contract/index.ts";
import type { Policy, PolicyStep } from "../session/policy.ts";
import { ModelBreaker } from "./breaker.ts";
import { answerCase } from "./case.ts";
import { AnswerPipeline, describeChange, type ModelAssistant } from "./pipeline.ts";

const pack = new DataPack(SHARED_DATA_DIR);
const structured = pack.caseById("MARTA-A-001")!;
const judgement = pack.allCases().find((c) => c.category === "D" && c.system === "marta")!;

/** A stand-in model: behaves as told, and counts its calls. */
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

function pipeline(model: Policy, assistant: Partial<ModelAssistant> = {}, breaker?: ModelBreaker): AnswerPipeline {
  return new AnswerPipeline({
    rule: rulePolicy,
    assistant: { mode: "hybrid", policy: () => model, ...assistant },
    profile: pack.promptProfile(),
    log: () => undefined,
    ...(breaker ? { breaker } : {}),
  });
}

describe("answerCase: a benchmark case answered as the kiosk answers a passenger", () => {
  it("tells the model when its answer is due (the kiosk's thinking budget is sized to it)", async () => {
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
    await answerCase(pipeline(model, { modelDeadlineMs: 150 }), pack, judgement);
    expect(deadlineAt).toBeGreaterThanOrEqual(before + 100);
    expect(deadlineAt).toBeLessThanOrEqual(Date.now() + 150);
  });

  it("answers structured requests with rule, without touching the model, and records the kiosk's verdict", async () => {
    const model = fakeModel("throw");
    const record = await answerCase(pipeline(model), pack, structured);
    expect(model.calls).toBe(0);
    expect(record.kiosk.policyInfo).toMatchObject({ mode: "hybrid", router: { path: "rule", reason: "structured_request" }, answeredBy: "rule", turns: 1 });
    expect(record.kiosk.verdict).toEqual({ purchasable: true, interlockProblems: [], decidedBy: "rule", fallback: false });
    // The rule path is the benchmark loop's own answer, state for state.
    expect(record.kiosk.state).toEqual((await runCase(pack, structured, rulePolicy)).kiosk.state);
  });

  it("uses the model where judgement is needed", async () => {
    const model = fakeModel("rule");
    const record = await answerCase(pipeline(model), pack, judgement);
    expect(model.calls).toBeGreaterThan(0);
    expect(record.kiosk.policyInfo).toMatchObject({ router: { path: "model", reason: "free_text" }, answeredBy: "model" });
    expect(record.kiosk.verdict?.decidedBy).toBe("model");
  });

  it.each([
    ["times out", "hang", /^deadline: deadline of 200 ms exceeded/, "Standard answer"],
    ["crashes", "throw", /^policy_error: model process crashed/, "Assistant unavailable"],
    ["ends without a state", "text", /^text_reply/, "Assistant unavailable"],
    ["loops without finishing", "loop", /^round_budget_exhausted/, "Assistant unavailable"],
  ] as const)("shows the deterministic answer, with a banner, when the model %s", async (_n, behaviour, reason, banner) => {
    const record = await answerCase(pipeline(fakeModel(behaviour), { modelDeadlineMs: 200 }), pack, judgement);
    const reference = await runCase(pack, judgement, rulePolicy);
    expect(record.kiosk.fallback).toBe(false);
    expect(record.kiosk.policyInfo).toMatchObject({ answeredBy: "rule-fallback" });
    expect(String(record.kiosk.policyInfo?.fallbackReason)).toMatch(reason);
    expect(record.kiosk.verdict?.decidedBy).toBe("rule-fallback");
    const { advisory_banners: banners, ...state } = record.kiosk.state;
    const { advisory_banners: referenceBanners, ...referenceState } = reference.kiosk.state;
    expect(state).toEqual(referenceState);
    expect(banners?.slice(0, -1)).toEqual(referenceBanners ?? []);
    expect(banners?.at(-1)).toMatchObject({ severity: "info", title: banner });
  });

  it("aborts the model's generation at the model deadline instead of leaving it running", async () => {
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
    await answerCase(pipeline(model, { modelDeadlineMs: 100 }), pack, judgement);
    expect(seen?.aborted).toBe(true);
    expect(String(seen?.reason)).toMatch(/deadline of 100 ms exceeded/);
  });

  it("gives a multi-turn case's turns one at a time, never read ahead", async () => {
    const kase = pack.allCases().find((c) => (c.multi_turn_events?.length ?? 0) > 1)!;
    const seen: number[] = [];
    const counting: Policy = {
      id: "counting-rule",
      start: async (setup) => {
        expect(setup.scriptedTurns).toBeUndefined();
        const run = await rulePolicy.start(setup);
        return { next: (input) => (seen.push(input.turns.length), run.next(input)) };
      },
    };
    const record = await answerCase(new AnswerPipeline({ rule: counting, profile: pack.promptProfile() }), pack, kase);
    expect(record.kiosk.policyInfo).toMatchObject({ mode: "rule", answeredBy: "rule", turns: kase.multi_turn_events!.length });
    expect(Math.max(...seen)).toBe(kase.multi_turn_events!.length);
    expect(seen[0]).toBe(1);
  });
});

describe("the breaker in the pipeline", () => {
  it("a crash opens it: the model is skipped (rule-fallback, assistant unavailable) until it is reset", async () => {
    const model = fakeModel("throw");
    const breaker = new ModelBreaker();
    const p = pipeline(model, {}, breaker);
    await answerCase(p, pack, judgement);
    expect(breaker.current).toMatchObject({ open: true, reason: "model process crashed" });
    const calls = model.calls;
    const skipped = await answerCase(p, pack, judgement);
    expect(model.calls).toBe(calls);
    expect(skipped.kiosk.policyInfo).toMatchObject({ answeredBy: "rule-fallback", router: { path: "model" } });
    // Structured requests never needed the model: still "rule".
    expect((await answerCase(p, pack, structured)).kiosk.policyInfo).toMatchObject({ answeredBy: "rule" });
    breaker.reset();
    await answerCase(p, pack, judgement);
    expect(model.calls).toBeGreaterThan(calls);
  });

  it("model mode: the model answers everything; when it fails the deterministic policy does", async () => {
    const good = fakeModel("rule");
    const answered = await answerCase(pipeline(good, { mode: "model" }), pack, structured);
    expect(good.calls).toBeGreaterThan(0);
    expect(answered.kiosk.policyInfo).toMatchObject({ mode: "model", answeredBy: "model" });
    expect(answered.kiosk.policyInfo?.router).toBeUndefined();
    const failing = await answerCase(pipeline(fakeModel("text"), { mode: "model" }), pack, structured);
    expect(failing.kiosk.policyInfo).toMatchObject({ answeredBy: "rule-fallback" });
    expect(failing.kiosk.verdict).toMatchObject({ purchasable: true, decidedBy: "rule-fallback" });
  });
});

/** The deterministic policy, with its submitted state edited (a stand-in for a model's answer). */
function editing(id: string, edit: (state: Record<string, unknown>) => void): Policy {
  return {
    id,
    start: async (setup) => {
      const run = await rulePolicy.start(setup);
      return {
        next: async (input): Promise<PolicyStep> => {
          const step = await run.next(input);
          if (step.type !== "tool_calls") return step;
          const calls = step.calls.map((c) => {
            if (c.name !== "submit_assistant_state") return c;
            const state = (typeof c.arguments === "string" ? JSON.parse(c.arguments) : structuredClone(c.arguments)) as Record<string, unknown>;
            edit(state);
            return { ...c, arguments: JSON.stringify(state) };
          });
          return { ...step, calls };
        },
      };
    },
  };
}

describe("the hybrid note says only what is true", () => {
  // The provisional answer refers to staff; the model's offers the trip.
  const provisional = editing("rule-staff", (s) => (s.kiosk_action = { ...(s.kiosk_action as object), action: "refer_to_staff" }));
  const hybrid = (model: Policy): AnswerPipeline =>
    new AnswerPipeline({ rule: provisional, assistant: { mode: "hybrid", policy: () => model, router: () => ({ path: "model", reason: "free_text", detail: "test" }) }, profile: pack.promptProfile(), log: () => undefined });

  it("says the trip can be bought only when the interlock allows the sale", async () => {
    const sold = await answerCase(hybrid(rulePolicy), pack, structured);
    expect(sold.kiosk.verdict).toMatchObject({ purchasable: true, decidedBy: "model" });
    expect(sold.kiosk.policyInfo?.changed).toBe("The assistant confirmed this trip can be bought.");

    // The model offers the trip at a fare the kiosk's own calculation refuses.
    const wrongFare = editing("model-wrong-fare", (s) => {
      const quote = s.fare_quote as { total: number };
      quote.total = Math.round((quote.total + 1) * 100) / 100;
    });
    const refused = await answerCase(hybrid(wrongFare), pack, structured);
    expect(refused.kiosk.state.kiosk_action.action).toBe("prompt_purchase");
    expect(refused.kiosk.verdict).toMatchObject({ purchasable: false, decidedBy: "model" });
    expect(refused.kiosk.policyInfo?.changed).toBe("This kiosk cannot sell this trip. The fare changed from $2.50 to $3.50.");
  });

  it("decides from the interlock's verdict on the final state", () => {
    const system = pack.system("marta");
    const offer = { outcome: "route_and_fare_ready", kiosk_action: { action: "prompt_purchase" } } as unknown as AssistantState;
    const staff = { outcome: "route_and_fare_ready", kiosk_action: { action: "refer_to_staff" } } as unknown as AssistantState;
    expect(describeChange(system, staff, offer, true)).toBe("The assistant confirmed this trip can be bought.");
    expect(describeChange(system, staff, offer, false)).toBe("This kiosk cannot sell this trip.");
    expect(describeChange(system, offer, staff, false)).toBe("After checking, the assistant changed what this kiosk can do for this trip.");
    expect(describeChange(system, offer, offer, false)).toBeNull();
  });
});
