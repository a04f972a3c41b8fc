import { describe, expect, it } from "vitest";
import { DataPack } from "../../tools/data/datapack.ts";
import type { KioskEvent } from "../../tools/data/schemas.ts";
import { SHARED_DATA_DIR } from "../../test/paths.ts";
import { AnswerPipeline, type ProvisionalAnswer } from "../answer/pipeline.ts";
import { rulePolicy } from "../policies/rule/index.ts";
import type { Policy, PolicyStep } from "../session/policy.ts";
import { KioskService } from "./service.ts";

const pack = new DataPack(SHARED_DATA_DIR);
const monday = () => new Date(2026, 2, 9, 14, 0, 0);

const structured: KioskEvent[] = [
  { type: "station_selected", field: "origin", value: "Airport", station_id: "MARTA-AP" },
  { type: "station_selected", field: "destination", value: "Five Points", station_id: "MARTA-FP" },
  { type: "passenger_count_changed", adults: 1, seniors: 1 },
];
const typed: KioskEvent[] = [...structured, { type: "freetext_input", text: "Is there anything I should know?" }];

function model(behaviour: "hang" | "throw" | "cheaper" | "same"): Policy & { calls: number } {
  const m: Policy & { calls: number } = {
    id: "fake-llm",
    calls: 0,
    start: async (setup) => {
      const rule = await rulePolicy.start(setup);
      return {
        next: async (input): Promise<PolicyStep> => {
          m.calls++;
          if (behaviour === "hang") return new Promise(() => undefined);
          if (behaviour === "throw") throw new Error("model process crashed");
          const step = await rule.next(input);
          // The "model" finds the senior discount is free today: change the quoted total.
          if (behaviour === "cheaper" && step.type === "tool_calls" && step.calls[0]?.name === "submit_assistant_state") {
            const args = step.calls[0].arguments as { fare_quote?: { total: number } };
            if (args.fare_quote) args.fare_quote = { ...args.fare_quote, total: 2.5 };
          }
          return step;
        },
      };
    },
  };
  return m;
}

function service(model: Policy, modelDeadlineMs = 2_000): KioskService {
  const pipeline = new AnswerPipeline({ rule: rulePolicy, assistant: { mode: "hybrid", policy: () => model, modelDeadlineMs }, profile: pack.promptProfile(), log: () => undefined });
  return new KioskService({ pack, pipeline, clock: monday });
}

/** The parts of an answer the hybrid check is about. */
const check = (a: { decidedBy: string; route: { reason: string } | null; changed: boolean; note: string | null }) => ({ decidedBy: a.decidedBy, reason: a.route?.reason, changed: a.changed, note: a.note });

function ruleOnly(): KioskService {
  return new KioskService({ pack, pipeline: new AnswerPipeline({ rule: rulePolicy, profile: pack.promptProfile() }), clock: monday });
}

describe("hybrid kiosk service", () => {
  it("answers a structured request with rule alone: no provisional step, no model", async () => {
    const m = model("throw");
    const provisional: ProvisionalAnswer[] = [];
    const result = await service(m).start({ system: "marta", events: structured }, { onProvisional: (r) => provisional.push(r) });
    expect(m.calls).toBe(0);
    expect(provisional).toHaveLength(0);
    expect(check(result)).toEqual({ decidedBy: "rule", reason: "structured_request", changed: false, note: null });
  });

  it("shows the deterministic answer first, then the model's, with a note when it differs", async () => {
    const provisional: ProvisionalAnswer[] = [];
    const result = await service(model("cheaper")).start({ system: "marta", events: typed }, { onProvisional: (r) => provisional.push(r) });
    expect(provisional).toHaveLength(1);
    expect(provisional[0]?.record.kiosk.state.fare_quote?.total).toBe(3.75);
    expect(provisional[0]?.verdict.ok).toBe(true);
    expect(check(result)).toMatchObject({ decidedBy: "model", reason: "free_text", changed: true });
    expect(result.note).toBe("The fare changed from $3.75 to $2.50.");
    expect(result.record.kiosk.state.fare_quote?.total).toBe(2.5);
  });

  it("says nothing changed when the model agrees", async () => {
    const result = await service(model("same")).start({ system: "marta", events: typed });
    expect(check(result)).toMatchObject({ decidedBy: "model", changed: false, note: null });
  });

  it("falls back to the deterministic answer with a banner when the model misses its deadline", async () => {
    const started = Date.now();
    const result = await service(model("hang"), 300).start({ system: "marta", events: typed });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(result.decidedBy).toBe("rule-fallback");
    expect(result.assistantUnavailable).toBe(false);
    expect(result.record.kiosk.state.advisory_banners?.at(-1)).toMatchObject({ title: "Standard answer" });
    expect(result.record.kiosk.state.fare_quote?.total).toBe(3.75);
  });

  it("reports the assistant unavailable when the model crashes, and still answers", async () => {
    const result = await service(model("throw")).start({ system: "marta", events: typed });
    expect(result.assistantUnavailable).toBe(true);
    expect(result.modelFailure).toMatchObject({ termination: "policy_error", error: "model process crashed" });
    expect(result.record.kiosk.state.kiosk_action.action).toBe("prompt_purchase");
  });
});

describe("live follow-ups", () => {
  it("answers many follow-ups in one passenger session, each with its own round budget", async () => {
    const svc = ruleOnly();
    const first = await svc.start({ system: "marta", events: structured });
    let origin = "MARTA-FP";
    let destination = "MARTA-AP";
    for (let i = 0; i < 12; i++) {
      const swap: KioskEvent[] = [
        { type: "station_selected", field: "origin", value: origin, station_id: origin },
        { type: "station_selected", field: "destination", value: destination, station_id: destination },
      ];
      const answer = await svc.continue(first.sessionId, swap);
      expect(answer.record.kiosk.fallback, `follow-up ${i}: ${answer.record.error}`).toBe(false);
      expect(answer.record.kiosk.state.route?.stops[0]?.station_id).toBe(origin);
      [origin, destination] = [destination, origin];
    }
  });
});

describe("hybrid kiosk app (what the screen receives)", () => {
  it("pushes the deterministic answer as a provisional, non-purchasable result, then the checked one", async () => {
    const { testApp } = await import("./testing.ts");
    const { app } = testApp({ assistant: { mode: "hybrid", policy: () => model("cheaper"), modelDeadlineMs: 2_000 } });
    const seen: { type: string; purchasable?: boolean; total?: number }[] = [];
    app.onProgress((e) => {
      if (e.type === "provisional") seen.push({ type: e.type, purchasable: e.result.purchasable, total: e.result.state.fare_quote?.total });
    });
    const answer = await app.ask({ system: "marta", events: typed });
    expect(seen).toEqual([{ type: "provisional", purchasable: false, total: 3.75 }]);
    expect(answer.check).toMatchObject({ decidedBy: "model", changed: true, note: "The fare changed from $3.75 to $2.50." });
    expect(answer.state.fare_quote?.total).toBe(2.5);
  });
});

describe("a model that keeps timing out", () => {
  it("is marked unavailable after three missed deadlines in a row, so passengers stop waiting for it", async () => {
    const { testApp } = await import("./testing.ts");
    const slow = model("hang");
    const { app, logs } = testApp({ assistant: { mode: "hybrid", policy: () => slow, modelDeadlineMs: 100 } });
    for (let i = 0; i < 3; i++) await app.ask({ system: "marta", events: typed });
    expect(app.status().assistant).toBe("unavailable");
    expect(logs.some((l) => /missed its deadline 3 times in a row/.test(l))).toBe(true);
    const calls = slow.calls;
    const answer = await app.ask({ system: "marta", events: typed });
    expect(slow.calls).toBe(calls);
    expect(answer.assistantUnavailable).toBe(true);
  });
});

describe("events that slipped past the boundary", () => {
  it("never take the session down: the passenger still gets a renderable state", async () => {
    const svc = ruleOnly();
    const garbled = [{ type: "station_selected", field: "origin", value: ["not", "a", "string"] }] as unknown as KioskEvent[];
    const result = await svc.start({ system: "marta", events: garbled });
    expect(result.record.kiosk.state.kiosk_action.action).toBeDefined();
  });
});
