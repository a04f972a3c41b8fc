// LlamaEngine with the tiny generated GGUF: tokenization (MODEL-PROTOCOL.md §6 fidelity test 5),
// greedy generation, the two-phase lazy grammar end to end (fidelity 8 with a real sampler),
// prefix reuse, warm-boot state and the lifecycle. The model's output is gibberish; what is tested
// is the machinery around it.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LazyToolCallGrammar } from "../runtime/model/grammar.ts";
import { parseModelOutputOrThrow } from "../runtime/model/parse.ts";
import { renderChat } from "../runtime/model/render.ts";
import { checkJsonSchema } from "../runtime/model/testing/schema-check.ts";
import { goldenPrompt } from "../runtime/model/testing/fixtures.ts";
import { toolShapes } from "../runtime/model/tools.ts";
import { LlamaEngine, type EngineState } from "./engine.ts";
import { ModelFileCorruptError, ModelNotFoundError, ModelNotLoadedError } from "./errors.ts";
import { makeTinyModel, type TinyModelFixture } from "./testing/tiny-model.ts";

let tiny: TinyModelFixture;
let engine: LlamaEngine;
const SPECIALS = ["<|im_start|>", "<|im_end|>", "<think>", "</think>", "<tool_call>", "</tool_call>", "<tool_response>", "</tool_response>"];

beforeAll(async () => {
  tiny = makeTinyModel();
  engine = new LlamaEngine({ modelPath: tiny.file, gpu: false, threads: 1, contextSize: 8192 });
  await engine.load();
});

afterAll(async () => {
  await engine?.unload();
  tiny?.cleanup();
});

describe("tiny GGUF", () => {
  it("is small and carries the data pack's chat template", () => {
    expect(tiny.bytes.length).toBeLessThan(600_000);
    expect(engine.chatTemplate()).toBe(tiny.pack.chatTemplate());
  });
});

describe("fidelity 5: special tokens are single tokens (parse_special)", () => {
  it("every special token of a rendered round-3 prompt is one token, and text round-trips", () => {
    const text = goldenPrompt("round3");
    const tokens = engine.tokenize(text, true);
    for (const special of SPECIALS) {
      const id = tiny.specialTokens[special] as number;
      expect(engine.tokenize(special, true)).toEqual([id]);
      expect(tokens.filter((t) => t === id).length).toBe(text.split(special).length - 1);
    }
    expect(engine.detokenize(tokens, true)).toBe(text);
  });
  it("user-defined tokens (<think>, <tool_call>) split even without parse_special; control tokens do not", () => {
    expect(engine.tokenize("<think>", false)).toEqual([tiny.specialTokens["<think>"]]);
    expect(engine.tokenize("<|im_end|>", false).length).toBeGreaterThan(1);
  });
  it("non-ASCII text round-trips through byte-level tokens", () => {
    const text = "Zhōngshān 中山 → café ¥3";
    expect(engine.detokenize(engine.tokenize(text, true), true)).toBe(text);
  });
});

describe("generation", () => {
  const chat = () => renderChat(tiny.pack.chatTemplate(), [{ role: "system", content: "You are a kiosk agent." }, { role: "user", content: "Hello" }]);

  it("greedy decoding is deterministic and stops at the token budget with finishReason 'length'", async () => {
    const prompt = chat();
    const a = await engine.complete({ prompt, maxTokens: 12 });
    const b = await engine.complete({ prompt, maxTokens: 12 });
    expect(a.finishReason).toBe("length");
    expect(a.usage.completionTokens).toBe(12);
    expect(b.text).toBe(a.text);
    expect(a.usage.promptTokens).toBe(engine.tokenize(prompt).length);
    // The second identical request reuses everything but the last prompt token.
    expect(b.usage.cachedPromptTokens).toBe(b.usage.promptTokens - 1);
  });

  it("aborts via the signal", async () => {
    const controller = new AbortController();
    controller.abort(new Error("deadline"));
    await expect(engine.complete({ prompt: chat(), signal: controller.signal })).rejects.toThrow("deadline");
  });
});

describe("two-phase lazy grammar with a real sampler", () => {
  const tools = () => tiny.pack.toolDefinitions();
  const conversation = () =>
    renderChat(tiny.pack.chatTemplate(), [{ role: "system", content: "You are a kiosk agent." }, { role: "user", content: "Origin: Five Points" }], { tools: tools() });

  /** The tool's schema as the paper's grammar enforces it: string parameters are free text. */
  function argumentSchema(name: string): Record<string, unknown> {
    const schema = tools().find((t) => t.function.name === name)?.function.parameters as { properties: Record<string, { type?: string }> };
    const properties = Object.fromEntries(Object.entries(schema.properties).map(([k, v]) => [k, v.type === "string" ? { type: "string" } : v]));
    return { ...schema, properties };
  }

  async function withForced(prefix: string, fn: (e: LlamaEngine) => Promise<void>): Promise<void> {
    const e = new LlamaEngine({ modelPath: tiny.file, gpu: false, threads: 1, contextSize: 8192, forcedOutputPrefix: prefix });
    await e.load();
    try {
      await fn(e);
    } finally {
      await e.unload();
    }
  }

  it("after '<tool_call>\\n' the grammar forces one valid call of a real tool, then end-of-generation", async () => {
    const lazy = new LazyToolCallGrammar(tools());
    await withForced("Plan.\n</think>\n\n<tool_call>\n", async (e) => {
      const result = await e.complete({ prompt: conversation(), lazyGrammar: lazy, maxTokens: 4096 });
      expect(result.grammarTriggered).toBe(true);
      expect(result.finishReason).toBe("stop");
      expect(lazy.check(result.text)).toMatchObject({ triggered: true, accepted: true, complete: true });
      const message = parseModelOutputOrThrow(result.text, { tools: tools() });
      expect(message.reasoning_content).toBe("Plan.\n");
      expect(message.tool_calls).toHaveLength(1);
      const call = message.tool_calls[0]?.function as { name: string; arguments: string };
      const shape = toolShapes(tools()).find((s) => s.name === call.name);
      expect(shape).toBeDefined();
      expect(checkJsonSchema(JSON.parse(call.arguments), argumentSchema(call.name))).toEqual([]);
    });
  });

  it("JSON-typed arguments are generated under their schema (required keys, enums, fixed key order)", async () => {
    const lazy = new LazyToolCallGrammar(tools());
    for (const name of ["submit_assistant_state", "fare_calculator", "route_planner"]) {
      await withForced(`\n</think>\n\n<tool_call>\n<function=${name}>\n`, async (e) => {
        const result = await e.complete({ prompt: conversation(), lazyGrammar: lazy });
        expect(lazy.check(result.text)).toMatchObject({ accepted: true, complete: true });
        const call = parseModelOutputOrThrow(result.text, { tools: tools() }).tool_calls[0]?.function as { name: string; arguments: string };
        expect(call.name).toBe(name);
        const args = JSON.parse(call.arguments) as Record<string, unknown>;
        for (const required of (tools().find((t) => t.function.name === name)?.function.parameters.required as string[]) ?? []) expect(args).toHaveProperty(required);
        expect(checkJsonSchema(args, argumentSchema(name))).toEqual([]);
      });
    }
  });

  it("a trigger inside the think block still activates the grammar (reasoning-only result)", async () => {
    const lazy = new LazyToolCallGrammar(tools());
    await withForced("I will call a tool.\n<tool_call>\n", async (e) => {
      const result = await e.complete({ prompt: conversation(), lazyGrammar: lazy });
      expect(result.grammarTriggered).toBe(true);
      expect(lazy.check(result.text)).toMatchObject({ accepted: true, complete: true });
      const message = parseModelOutputOrThrow(result.text, { tools: tools() });
      expect(message.tool_calls).toEqual([]);
      expect(message.reasoning_content).toBe(result.text);
    });
  });

  it("continues under the derived grammar when the trigger token overshoots", async () => {
    const lazy = new LazyToolCallGrammar(tools());
    await withForced("\n</think>\n\n<tool_call>\n<function=line", async (e) => {
      const result = await e.complete({ prompt: conversation(), lazyGrammar: lazy });
      expect(result.text.startsWith("\n</think>\n\n<tool_call>\n<function=line_info>\n")).toBe(true);
      expect(parseModelOutputOrThrow(result.text, { tools: tools() }).tool_calls[0]?.function.name).toBe("line_info");
    });
  });

  it("text the grammar cannot accept fails the round like llama.cpp", async () => {
    const lazy = new LazyToolCallGrammar(tools());
    await withForced("\n</think>\n\n<tool_call>\n{", async (e) => {
      const result = await e.complete({ prompt: conversation(), lazyGrammar: lazy });
      expect(result.grammarError).toMatch(/Unexpected empty grammar stack after accepting piece: \{/);
    });
  });

  it("'<tool_call>{' is not a trigger: generation stays unconstrained", async () => {
    const lazy = new LazyToolCallGrammar(tools());
    await withForced("\n</think>\n\n<tool_call>{", async (e) => {
      const result = await e.complete({ prompt: conversation(), lazyGrammar: lazy, maxTokens: 20 });
      expect(result.grammarTriggered).toBe(false);
      expect(result.finishReason).toBe("length");
    });
  });
});

describe("prefix reuse and warm boot", () => {
  it("a second session on the same system turn reuses it (cached tokens, lower time to first token)", async () => {
    const e = new LlamaEngine({ modelPath: tiny.file, gpu: false, threads: 1, contextSize: 8192 });
    await e.load();
    try {
      const system = { role: "system" as const, content: "You are a kiosk agent for MARTA. ".repeat(80) };
      const tools = tiny.pack.toolDefinitions();
      const p1 = renderChat(tiny.pack.chatTemplate(), [system, { role: "user", content: "Origin: Five Points" }], { tools });
      const p2 = renderChat(tiny.pack.chatTemplate(), [system, { role: "user", content: "Origin: Airport" }], { tools });
      const r1 = await e.complete({ prompt: p1, maxTokens: 2 });
      const r2 = await e.complete({ prompt: p2, maxTokens: 2 });
      expect(r1.usage.cachedPromptTokens).toBe(0);
      expect(r2.usage.cachedPromptTokens).toBeGreaterThan(r2.usage.promptTokens * 0.9);
      expect(r2.usage.ttftMs).toBeLessThan(r1.usage.ttftMs);
    } finally {
      await e.unload();
    }
  });

  it("saves the shared prefix state and restores it in a fresh engine", async () => {
    const stateFile = path.join(tiny.dir, "warm.state");
    const tools = tiny.pack.toolDefinitions();
    const prompt = renderChat(tiny.pack.chatTemplate(), [{ role: "system", content: "Warm system." }, { role: "user", content: "hi" }], { tools });
    const prefix = prompt.slice(0, prompt.indexOf("<|im_end|>\n") + "<|im_end|>\n".length);
    const a = new LlamaEngine({ modelPath: tiny.file, gpu: false, threads: 1, contextSize: 8192 });
    await a.load();
    const saved = await a.saveWarmState(stateFile, prefix);
    expect(saved.tokens).toBe(a.tokenize(prefix).length);
    await a.unload();
    const b = new LlamaEngine({ modelPath: tiny.file, gpu: false, threads: 1, contextSize: 8192 });
    await b.load();
    try {
      expect(await b.loadWarmState(stateFile)).toBe(true);
      const r = await b.complete({ prompt, maxTokens: 1 });
      expect(r.usage.cachedPromptTokens).toBe(saved.tokens);
      expect(await b.loadWarmState(path.join(tiny.dir, "missing.state"))).toBe(false);
    } finally {
      await b.unload();
    }
  });
});

describe("lifecycle", () => {
  it("reports loading progress and state changes", async () => {
    const e = new LlamaEngine({ modelPath: tiny.file, gpu: false, threads: 1, contextSize: 2048 });
    const states: EngineState[] = [];
    e.onStateChange((s) => states.push(s));
    expect(() => e.chatTemplate()).toThrow(ModelNotLoadedError);
    await Promise.all([e.load(), e.load()]);
    expect(states.at(-1)).toMatchObject({ loaded: true, loading: false, progress: 1 });
    expect(states.some((s) => s.loading)).toBe(true);
    expect(e.info).toMatchObject({ threads: 1, gpu: false, sequences: 1 });
    await e.unload();
    expect(e.state.loaded).toBe(false);
  });

  it("a missing or corrupt file is a typed error and leaves the state with the error", async () => {
    const missing = new LlamaEngine({ modelPath: path.join(tiny.dir, "nope.gguf"), gpu: false, threads: 1 });
    await expect(missing.load()).rejects.toThrow(ModelNotFoundError);
    expect(missing.state.error).toMatch(/not found/);
    const bad = path.join(tiny.dir, "bad.gguf");
    writeFileSync(bad, "GGUF not really");
    await expect(new LlamaEngine({ modelPath: bad, gpu: false, threads: 1 }).load()).rejects.toThrow(ModelFileCorruptError);
  });
});
