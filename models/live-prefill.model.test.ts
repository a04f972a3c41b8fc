// A live passenger's first prompt, prefilled: a live system prompt states the time, so the next
// minute's prompt differs from the last session's from the stated time on. The engine checkpoints
// where the time starts; the prompt warmer's prefill of the next minute's system turn evaluates
// only what follows it; a passenger who then arrives finds the whole system turn cached; a prefill
// gives way to a passenger's completion; and none of it changes what the model writes. Runs on
// both tiny architectures (llama; the student's qwen35 hybrid, whose reuse needs checkpoints).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testApp } from "../runtime/kiosk/testing.ts";
import { LlmPolicy, type LlmRoundInfo } from "../runtime/policies/llm.ts";
import type { KioskApp } from "../runtime/kiosk/app.ts";
import { LlamaEngine } from "./engine.ts";
import { makeTinyModel, TINY_ARCHITECTURES, type TinyModelFixture } from "./testing/tiny-model.ts";

const REQUEST = [{ type: "freetext_input" as const, text: "Airport to Five Points, one adult" }];

describe.each(TINY_ARCHITECTURES)("%s", (architecture) => {
  let tiny: TinyModelFixture;
  let engine: LlamaEngine;

  beforeAll(async () => {
    tiny = makeTinyModel({ architecture });
    engine = new LlamaEngine({ modelPath: tiny.file, gpu: false, threads: 1, contextSize: 16384 });
    await engine.load();
  });
  afterAll(async () => {
    await engine?.unload();
    tiny?.cleanup();
  });

  /** A kiosk on the model whose clock the test sets; every round the model answers is kept. */
  function kiosk(backend: LlamaEngine): { app: KioskApp; llm: LlmPolicy; rounds: LlmRoundInfo[]; at: (iso: string) => void } {
    const rounds: LlmRoundInfo[] = [];
    const llm = new LlmPolicy({ backend, maxTokens: 3, onRound: (r) => rounds.push(r) });
    let now = new Date("2026-03-09T14:00:07");
    const { app } = testApp({ assistant: { mode: "model", policy: () => llm }, clock: () => now });
    return { app, llm, rounds, at: (iso) => void (now = new Date(iso)) };
  }

  async function session(app: KioskApp, rounds: LlmRoundInfo[]): Promise<LlmRoundInfo> {
    const before = rounds.length;
    const answer = await app.ask({ system: "marta", events: REQUEST });
    app.endSession(answer.sessionId);
    return rounds[before]!;
  }

  const systemTurn = (prompt: string): string => prompt.slice(0, prompt.indexOf("<|im_end|>\n") + "<|im_end|>\n".length);

  it("prefills the next minute's system turn from the stated time on, and the next passenger finds it all cached", async () => {
    const { app, llm, rounds, at } = kiosk(engine);
    const first = await session(app, rounds);
    expect(first.prompt).toContain("Current time: 2026-03-09T14:00:00");

    const next = app.nextSessionSetup(new Date("2026-03-09T14:01:00"));
    const warmed = await llm.prefill(next);
    expect(warmed?.complete).toBe(true);
    // Only what follows the stated time was evaluated: the part before it came from the cache.
    const clockAt = next.systemPromptClockAt ?? 0;
    const beforeClock = engine.tokenize(first.prompt.slice(0, first.prompt.indexOf(next.systemPrompt.slice(0, clockAt)) + clockAt)).length;
    expect(warmed!.cachedTokens).toBeGreaterThanOrEqual(beforeClock - 1);
    expect(warmed!.evaluatedTokens).toBeLessThanOrEqual(warmed!.promptTokens - beforeClock + 1);

    at("2026-03-09T14:01:31");
    const second = await session(app, rounds);
    expect(second.prompt).toContain("Current time: 2026-03-09T14:01:00");
    expect(systemTurn(second.prompt)).not.toBe(systemTurn(first.prompt));
    expect(second.result.usage.cachedPromptTokens).toBeGreaterThanOrEqual(engine.tokenize(systemTurn(second.prompt)).length - 1);
    expect(second.result.usage.checkpointReplayTokens ?? 0).toBe(0);

    // The same passenger on a cold engine gets the same answer, token for token.
    const cold = new LlamaEngine({ modelPath: tiny.file, gpu: false, threads: 1, contextSize: 16384 });
    await cold.load();
    try {
      const fresh = kiosk(cold);
      fresh.at("2026-03-09T14:01:31");
      const again = await session(fresh.app, fresh.rounds);
      expect(again.prompt).toBe(second.prompt);
      expect(again.result.usage.cachedPromptTokens).toBe(0);
      expect(again.result.text).toBe(second.result.text);
    } finally {
      await cold.unload();
    }
  });

  it("gives way to a completion that is waiting for the model", async () => {
    const { app, llm } = kiosk(engine);
    const later = app.nextSessionSetup(new Date("2026-03-09T18:30:00"));
    const warming = llm.prefill(later);
    // Queued behind the prefill at once: the prefill stops before its next chunk.
    const answered = engine.complete({ prompt: "<|im_start|>user\nhello<|im_end|>\n<|im_start|>assistant\n", maxTokens: 2 });
    const warmed = await warming;
    expect(warmed?.complete).toBe(false);
    expect(warmed!.cachedTokens + warmed!.evaluatedTokens).toBeLessThan(warmed!.promptTokens);
    expect((await answered).usage.completionTokens).toBeGreaterThan(0);
  });
});
