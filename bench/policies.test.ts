import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { MODELS_DIR_ENV } from "../models/manager.ts";
import { rulePolicy } from "../runtime/policies/rule/index.ts";
import { LocalModelError } from "../models/local.ts";
import { createPolicy, listPolicies, registerPolicyFactory } from "./policies.ts";
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

  it("has the model policies registered, and a missing local model says how to get it", async () => {
    const names = listPolicies().map((p) => [p.name, p.available]);
    expect(names).toEqual([["rule", true], ["rule-ref", true], ["llm", true], ["openai", true], ["hybrid", true]]);
    const modelsDir = mkdtempSync(path.join(tmpdir(), "no-models-"));
    const previous = process.env[MODELS_DIR_ENV];
    process.env[MODELS_DIR_ENV] = modelsDir;
    try {
      await expect(createPolicy("llm", { model: "4b" })).rejects.toThrow(/model '4b' is not downloaded .*run `kiosk model pull 4b` first/);
      await expect(createPolicy("hybrid", {})).rejects.toThrow(/run `kiosk model pull 4b`/);
      await expect(createPolicy("llm", { model: path.join(modelsDir, "student.gguf") })).rejects.toThrow(/model file not found: .*`kiosk model pull 4b`/);
      await expect(createPolicy("llm", { model: "9b" })).rejects.toBeInstanceOf(LocalModelError);
    } finally {
      if (previous === undefined) delete process.env[MODELS_DIR_ENV];
      else process.env[MODELS_DIR_ENV] = previous;
      rmSync(modelsDir, { recursive: true, force: true });
    }
    await expect(createPolicy("llm", { baseUrl: "http://localhost:8080/v1" })).rejects.toThrow("policy 'llm' does not take --base-url");
    await expect(createPolicy("gpt9", {})).rejects.toThrow(/not available: unknown policy \(known: rule, rule-ref, llm, openai, hybrid\)/);
  });

  it("builds the openai policy from --base-url and --model, recording where the key comes from but never the key", async () => {
    await expect(createPolicy("openai", { model: "m" })).rejects.toThrow("policy 'openai' needs --base-url");
    await expect(createPolicy("openai", { baseUrl: "http://localhost:8080/v1" })).rejects.toThrow("policy 'openai' needs --model");
    await expect(createPolicy("openai", { baseUrl: "http://localhost:8080/v1", model: "m", threads: 2 })).rejects.toThrow("does not take --threads");
    const built = await createPolicy("openai", { baseUrl: "http://localhost:8080/v1", model: "qwen" });
    expect(built.handle.policy.id).toBe("openai");
    expect(built.handle.model).toBe("qwen");
    expect(built.factory.deterministic).toBe(false);
    expect(built.handle.settings).toMatchObject({ base_url: "http://localhost:8080/v1", api_key_env: "OPENAI_API_KEY" });
    expect(JSON.stringify(built.handle.settings)).not.toContain(process.env.OPENAI_API_KEY ?? "\u0000no key\u0000");
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
    expect(listPolicies().find((p) => p.name === "llm")?.description).toMatch(/in-process/);
  });

  it("refuses options a rule policy does not read", async () => {
    await expect(createPolicy("rule", { model: "x" })).rejects.toThrow("policy 'rule' does not take --model");
  });
});

describe("bench judge registry", () => {
  it("has the no-judge built in and takes registered judges", async () => {
    expect(await createJudge("none")).toBe(noJudge);
    await expect(createJudge("haiku")).rejects.toThrow("judge 'haiku' not available (known: none, llm, openai)");
    await expect(createJudge("none", { model: "4b" })).rejects.toThrow("judge 'none' does not take --judge-model");
    await expect(createJudge("openai", { model: "m" })).rejects.toThrow("judge 'openai' needs --judge-base-url");
    await expect(createJudge("openai", { baseUrl: "not a url", model: "m" })).rejects.toThrow(/invalid --judge-base-url/);
    await expect(createJudge("llm", { baseUrl: "http://localhost:1/v1" })).rejects.toThrow("judge 'llm' does not take --judge-base-url");
    const judge = { id: "fake", judge: () => Promise.resolve({ score: 2, reason: "ok" }) };
    const restore = registerJudgeFactory({ name: "fake", description: "test", create: () => judge });
    try {
      expect(await createJudge("fake")).toBe(judge);
    } finally {
      restore();
    }
  });
});
