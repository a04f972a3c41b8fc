// Policy "llm" on LlamaEngine with the tiny generated GGUF, on a real case prompt from the data pack:
// two rounds of one session, then a second session on the same framebook; on both tiny
// architectures (llama and the student's qwen35 hybrid).
//
// Test-only mechanism: the engine's `forcedOutputPrefix` makes every round start with
// "…</think>\n\n<tool_call>\n" (the random model would never write it), and the tiny model prefers a
// few closing tokens so that free text ends. Everything after the trigger is sampled by the model
// under the tool-call grammar: the test checks that those calls name real tools and that their
// arguments validate against the tool's schema, and that the second session reuses the KV prefix.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pyJsonDumps } from "../tools/py/index.ts";
import { checkJsonSchema } from "../runtime/model/testing/schema-check.ts";
import { LlmPolicy, type LlmRoundInfo } from "../runtime/policies/llm.ts";
import { caseSetup } from "../runtime/session/case.ts";
import type { ChatMessage, PolicyStep, SessionSetup } from "../runtime/session/policy.ts";
import { eventsToUserMessage } from "../runtime/prompt/index.ts";
import { LlamaEngine } from "./engine.ts";
import { makeTinyModel, TINY_ARCHITECTURES, type TinyModelFixture } from "./testing/tiny-model.ts";

describe.each(TINY_ARCHITECTURES)("%s", (architecture) => {
  let tiny: TinyModelFixture;
  let engine: LlamaEngine;
  const rounds: LlmRoundInfo[] = [];

  beforeAll(async () => {
    tiny = makeTinyModel({ architecture });
    engine = new LlamaEngine({
      modelPath: tiny.file,
      gpu: false,
      threads: 1,
      contextSize: 16384,
      forcedOutputPrefix: "The passenger needs help.\n</think>\n\n<tool_call>\n",
    });
    await engine.load();
  });

  afterAll(async () => {
    await engine?.unload();
    tiny?.cleanup();
  });

  function firstMessages(setup: SessionSetup): ChatMessage[] {
    const profile = tiny.pack.promptProfile();
    return [
      { role: "system", content: setup.systemPrompt },
      { role: "user", content: eventsToUserMessage(setup.scriptedTurns?.[0] ?? [], profile) },
    ];
  }

  /** The calls must name real tools with arguments valid for the schema the grammar enforces. */
  function expectValidCalls(step: PolicyStep, setup: SessionSetup): void {
    expect(step.type).toBe("tool_calls");
    if (step.type !== "tool_calls") return;
    expect(step.calls).toHaveLength(1);
    for (const call of step.calls) {
      const tool = setup.tools.find((t) => t.function.name === call.name);
      expect(tool, `unknown tool ${call.name}`).toBeDefined();
      const schema = tool?.function.parameters as { properties: Record<string, { type?: string }> };
      // String parameters are free text in the paper's grammar (enums not enforced there).
      const properties = Object.fromEntries(Object.entries(schema.properties).map(([k, v]) => [k, v.type === "string" ? { type: "string" } : v]));
      expect(checkJsonSchema(JSON.parse(call.arguments as string), { ...schema, properties })).toEqual([]);
    }
  }

  function appendRound(messages: ChatMessage[], step: PolicyStep): ChatMessage[] {
    if (step.type !== "tool_calls") throw new Error("expected a tool call");
    return [
      ...messages,
      {
        role: "assistant",
        content: step.content ?? null,
        reasoning_content: step.reasoning ?? null,
        tool_calls: step.calls.map((c) => ({ id: c.id as string, type: "function", function: { name: c.name, arguments: c.arguments as string } })),
      },
      ...step.calls.map((c): ChatMessage => ({ role: "tool", tool_call_id: c.id as string, content: pyJsonDumps({ error: `stub result for ${c.name}` }) })),
    ];
  }

  describe("policy llm on the tiny model", () => {
    it("two rounds of a MARTA case, then a second session reusing the shared prefix", async () => {
      const cases = tiny.pack.cases("marta");
      const setupA = caseSetup(tiny.pack, cases[0] as (typeof cases)[number]);
      const setupB = caseSetup(tiny.pack, cases[1] as (typeof cases)[number]);
      const policy = new LlmPolicy({ backend: engine, onRound: (r) => rounds.push(r) });
      const signal = new AbortController().signal;

      const runA = policy.start(setupA);
      let messages = firstMessages(setupA);
      const a1 = await runA.next({ turns: [], messages, toolCalls: [], signal });
      expectValidCalls(a1, setupA);
      messages = appendRound(messages, a1);
      const a2 = await runA.next({ turns: [], messages, toolCalls: [], signal });
      expectValidCalls(a2, setupA);

      const b1 = await policy.start(setupB).next({ turns: [], messages: firstMessages(setupB), toolCalls: [], signal });
      expectValidCalls(b1, setupB);

      const [ua1, ua2, ub1] = [a1, a2, b1].map((s) => (s.type === "done" ? undefined : s.usage));
      expect(ua1?.cachedPromptTokens).toBe(0);
      // Round 2 of the same session reuses the whole round-1 prompt.
      expect(ua2?.cachedPromptTokens).toBeGreaterThanOrEqual((ua1?.promptTokens ?? 0) - 1);
      // Session B shares the tools block and the framebook's part of the system prompt.
      expect(ub1?.cachedPromptTokens).toBeGreaterThan(0);
      expect(ub1?.ttftMs).toBeLessThan(ua1?.ttftMs ?? 0);
      expect(rounds).toHaveLength(3);
      for (const r of rounds) {
        expect(r.result.grammarTriggered).toBe(true);
        expect(r.renderMs + r.parseMs).toBeLessThan(r.result.usage.totalMs);
      }
      console.log(
        `tiny-model rounds (${architecture}):`,
        rounds.map((r) => ({
          call: r.message?.tool_calls[0]?.function,
          prompt: r.result.usage.promptTokens,
          cached: r.result.usage.cachedPromptTokens,
          ttftMs: Math.round(r.result.usage.ttftMs),
        })),
      );
    });
  });
});
