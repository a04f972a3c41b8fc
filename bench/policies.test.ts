import { describe, expect, it } from "vitest";
import { rulePolicy } from "../runtime/policies/rule/index.ts";
import { createPolicy, listPolicies, PolicyNotAvailableError, registerPolicyFactory } from "./policies.ts";
import { createJudge, registerJudgeFactory } from "./judges.ts";
import { noJudge } from "./scorer/index.ts";

describe("bench policy registry", () => {
  it("builds the deterministic policies", async () => {
    const rule = await createPolicy("rule", {});
    expect(rule.handle.policy.id).toBe("rule");
    expect(rule.factory.deterministic).toBe(true);
    const ref = await createPolicy("rule-ref", {});
    expect(ref.handle.policy.id).toBe("rule-ref");
    expect(ref.handle.model).toBe("rule-based");
  });

  it("says why a model policy is not available until its factory is registered", async () => {
    await expect(createPolicy("llm", { model: "student.gguf" })).rejects.toThrow(/^policy 'llm' not available: no bench factory is registered/);
    await expect(createPolicy("openai", {})).rejects.toBeInstanceOf(PolicyNotAvailableError);
    await expect(createPolicy("gpt9", {})).rejects.toThrow(/not available: unknown policy \(known: rule, rule-ref, llm, openai\)/);
    expect(listPolicies().find((p) => p.name === "llm")).toMatchObject({ available: false });
  });

  it("plugs in a factory, passes it the options it accepts and refuses the others", async () => {
    const seen: unknown[] = [];
    const restore = registerPolicyFactory({
      name: "llm",
      description: "test double",
      deterministic: false,
      accepts: ["model", "threads"],
      create: (options) => {
        seen.push(options);
        return { policy: { ...rulePolicy, id: "llm" }, model: options.model ?? "default" };
      },
    });
    try {
      const built = await createPolicy("llm", { model: "student.gguf", threads: 4, baseUrl: undefined });
      expect(built.handle.model).toBe("student.gguf");
      expect(seen).toEqual([{ model: "student.gguf", threads: 4 }]);
      await expect(createPolicy("llm", { baseUrl: "http://localhost:8080/v1" })).rejects.toThrow("policy 'llm' does not take --base-url");
      await expect(createPolicy("llm", { threads: 0 })).rejects.toThrow(/invalid --threads/);
      expect(listPolicies().find((p) => p.name === "llm")).toMatchObject({ available: true });
    } finally {
      restore();
    }
    await expect(createPolicy("llm", {})).rejects.toThrow(/not available/);
  });

  it("refuses options a rule policy does not read", async () => {
    await expect(createPolicy("rule", { model: "x" })).rejects.toThrow("policy 'rule' does not take --model");
  });
});

describe("bench judge registry", () => {
  it("has the no-judge built in and takes registered judges", async () => {
    expect(await createJudge("none")).toBe(noJudge);
    await expect(createJudge("haiku")).rejects.toThrow("judge 'haiku' not available (known: none)");
    const judge = { id: "fake", judge: () => Promise.resolve({ score: 2, reason: "ok" }) };
    const restore = registerJudgeFactory({ name: "fake", description: "test", create: () => judge });
    try {
      expect(await createJudge("fake")).toBe(judge);
    } finally {
      restore();
    }
  });
});
