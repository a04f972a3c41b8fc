// Token prediction (node-llama-cpp's input-lookup predictor) guesses from the prompt and never
// changes greedy output: on both tiny architectures, steered to open a tool call and copy station
// names from the prompt into it (the serving-parity steering), free generation and a
// grammar-constrained tool call come out token for token the same with and without it, and some of
// its guesses are validated — so it does predict (the engine hands it the prompt; without that it
// never guessed at all). The speedup is measured by `npm run perf:levers`, not here.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LazyToolCallGrammar } from "../runtime/model/grammar.ts";
import { renderChat } from "../runtime/model/render.ts";
import { LlamaEngine } from "./engine.ts";
import {
  makeTinyModel,
  SERVING_PARITY_MIXING,
  SERVING_PARITY_PREFERENCES,
  SERVING_PARITY_TRANSITIONS,
  TINY_ARCHITECTURES,
  type TinyModelFixture,
} from "./testing/tiny-model.ts";

describe.each(TINY_ARCHITECTURES)("%s", (architecture) => {
  let tiny: TinyModelFixture;
  let plain: LlamaEngine;
  let predicted: LlamaEngine;

  beforeAll(async () => {
    tiny = makeTinyModel({ architecture, mixing: SERVING_PARITY_MIXING, preferredTokens: SERVING_PARITY_PREFERENCES, transitions: SERVING_PARITY_TRANSITIONS });
    plain = new LlamaEngine({ modelPath: tiny.file, gpu: false, threads: 1, contextSize: 8192 });
    predicted = new LlamaEngine({ modelPath: tiny.file, gpu: false, threads: 1, contextSize: 8192, tokenPrediction: "input-lookup" });
    await plain.load();
    await predicted.load();
  });
  afterAll(async () => {
    await plain?.unload();
    await predicted?.unload();
    tiny?.cleanup();
  });

  it("input-lookup predicts from the prompt and leaves greedy output unchanged", async () => {
    expect(predicted.info.tokenPrediction).toBe("input-lookup");
    const tools = tiny.pack.toolDefinitions();
    const station = tiny.pack.system("marta").stations.slice(0, 40).map((s) => s.name).join(", ");
    for (const user of [`Stations: ${station}. Which one?`, "Five Points to Airport, two adults."]) {
      const prompt = renderChat(tiny.pack.chatTemplate(), [{ role: "system", content: "You are a kiosk agent." }, { role: "user", content: user }], { tools });
      // Unconstrained (no grammar) and with the tool-call grammar (the model opens a call itself).
      for (const lazyGrammar of [undefined, new LazyToolCallGrammar(tools, { profile: "b10398", parallelToolCalls: false })]) {
        const a = await plain.complete({ prompt, maxTokens: 48, lazyGrammar });
        const b = await predicted.complete({ prompt, maxTokens: 48, lazyGrammar });
        expect(b.text).toBe(a.text);
        expect(b.usage.completionTokens).toBe(a.usage.completionTokens);
        expect(b.finishReason).toBe(a.finishReason);
      }
    }
    // It guessed, and some guesses were right (the copied station names); the plain engine never guesses.
    const stats = predicted.tokenPredictionStats();
    expect(stats.validated).toBeGreaterThan(0);
    expect(plain.tokenPredictionStats()).toEqual({ used: 0, unused: 0, validated: 0, refuted: 0 });
  });
});
