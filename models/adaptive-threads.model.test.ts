// Switching the engine's thread count on the tiny qwen35 model: setThreads changes the threads the
// context really decodes with (and says no where the runtime cannot), greedy output of a session is byte-identical at 1 thread, at 2 and
// switched between rounds, and an adaptive engine re-measures on a scratch context of its loaded
// model between answers and keeps `info.threads` truthful.
import type { LlamaContext } from "node-llama-cpp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LlamaEngine, type LlamaEngineOptions } from "./engine.ts";
import { makeTinyModel, type TinyModelFixture } from "./testing/tiny-model.ts";
import type { ThreadDecision } from "./thread-governor.ts";

let tiny: TinyModelFixture;

beforeAll(() => {
  // No preferred tokens and more mixing: varied output, so identical text means identical logits.
  tiny = makeTinyModel({ architecture: "qwen35", preferredTokens: {}, mixing: 4 });
});
afterAll(() => tiny?.cleanup());

async function withEngine<T>(options: Partial<LlamaEngineOptions>, use: (engine: LlamaEngine) => Promise<T>): Promise<T> {
  const engine = new LlamaEngine({ modelPath: tiny.file, gpu: false, threads: 1, contextSize: 2048, ...options });
  await engine.load();
  try {
    return await use(engine);
  } finally {
    await engine.unload();
  }
}

/** The threads node-llama-cpp's context decoded its last batch with. */
function contextThreads(engine: LlamaEngine): number {
  return (engine as unknown as { context: LlamaContext }).context.currentThreads;
}

/** Three rounds of one session (each prompt carries the earlier answers); `beforeRound` may switch threads. */
async function session(engine: LlamaEngine, beforeRound: (round: number) => Promise<void> = async () => undefined): Promise<string[]> {
  const answers: string[] = [];
  let prompt = "<|im_start|>user\nTwo adult tickets from Five Points to the Airport, step-free please.<|im_end|>\n<|im_start|>assistant\n";
  for (let round = 0; round < 3; round++) {
    await beforeRound(round);
    const result = await engine.complete({ prompt, maxTokens: 24 });
    expect(result.usage.completionTokens).toBe(24);
    answers.push(result.text);
    prompt += `${result.text}<|im_end|>\n<|im_start|>user\nAnd the way back?<|im_end|>\n<|im_start|>assistant\n`;
  }
  return answers;
}

describe("switching threads", () => {
  it("setThreads changes the threads the context decodes with, and info.threads with them", async () => {
    await withEngine({ threads: 1 }, async (engine) => {
      await engine.complete({ prompt: "<|im_start|>user\nHello<|im_end|>\n", maxTokens: 4 });
      expect(contextThreads(engine)).toBe(1);
      expect(await engine.setThreads(2)).toBe(true);
      expect(engine.info.threads).toBe(2);
      await engine.complete({ prompt: "<|im_start|>user\nHello again<|im_end|>\n", maxTokens: 4 });
      expect(contextThreads(engine)).toBe(2);
      expect(await engine.setThreads(1)).toBe(true);
      await engine.complete({ prompt: "<|im_start|>user\nAnd once more<|im_end|>\n", maxTokens: 4 });
      expect(contextThreads(engine)).toBe(1);
      expect(engine.info.threads).toBe(1);
    });
  });

  it("fails soft where the runtime has no internal thread fields: setThreads says no and the count stays", async () => {
    await withEngine({ threads: 1 }, async (engine) => {
      const context = (engine as unknown as { context: { _idealThreads: unknown } }).context;
      const ideal = context._idealThreads;
      context._idealThreads = undefined; // as a node-llama-cpp that renamed it
      try {
        expect(await engine.setThreads(2)).toBe(false);
        expect(engine.info.threads).toBe(1);
      } finally {
        context._idealThreads = ideal;
      }
      await engine.complete({ prompt: "<|im_start|>user\nHello<|im_end|>\n", maxTokens: 4 });
      expect(contextThreads(engine)).toBe(1);
    });
  });

  it("greedy output of a session is byte-identical at 1 thread, at 2, and switched between rounds", async () => {
    const one = await withEngine({ threads: 1 }, (engine) => session(engine));
    const two = await withEngine({ threads: 2 }, (engine) => session(engine));
    const used: number[] = [];
    const switched = await withEngine({ threads: 1 }, (engine) =>
      session(engine, async (round) => {
        if (round > 0) await engine.setThreads(round === 1 ? 2 : 1);
        used.push(engine.threads);
      }),
    );
    expect(used).toEqual([1, 2, 1]);
    expect(new Set(one).size).toBe(3); // three different answers: the check below has something to compare
    expect(two).toEqual(one);
    expect(switched).toEqual(one);
  });

  it("an adaptive engine re-measures between answers on a scratch context and keeps info.threads truthful", async () => {
    const reference = await withEngine({ threads: 1 }, (engine) => session(engine));
    // A table no real decode can reach: every watched round is "slow", so the first one re-measures.
    const table = { best: 1, results: [1, 2].map((threads) => ({ threads, decodeTokS: 1e9, prefillTokS: 1e9 })) };
    const decisions: ThreadDecision[] = [];
    const answers = await withEngine({ threads: 1, adaptiveThreads: { table, settings: { window: 1, minRoundTokens: 2 } } }, async (engine) => {
      engine.onThreadDecision((d) => decisions.push(d));
      const result = await session(engine, async (round) => {
        if (round === 1) {
          await engine.threadsSettled();
          expect(decisions).toHaveLength(1);
        }
      });
      await engine.threadsSettled();
      const first = decisions[0] as ThreadDecision;
      expect(first.trigger).toMatchObject({ kind: "slow", threads: 1, expectedTokS: 1e9 });
      expect(first.measured.map((m) => m.threads)).toEqual([1, 2]);
      for (const m of first.measured) expect(m.decodeTokS).toBeGreaterThan(0);
      expect(["switched", "kept"]).toContain(first.outcome);
      // Whatever the measurement found fastest, the engine says what it decodes with.
      const last = decisions.at(-1) as ThreadDecision;
      expect(engine.info.threads).toBe(last.to);
      expect(engine.adaptiveThreadsStatus()?.threads).toBe(last.to);
      await engine.complete({ prompt: "<|im_start|>user\nOne more<|im_end|>\n", maxTokens: 4 });
      await engine.threadsSettled();
      expect(contextThreads(engine)).toBe(engine.info.threads);
      return result;
    });
    expect(answers).toEqual(reference);
  });
});
