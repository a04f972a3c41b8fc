// The llm engine's KV prefix cache across a framebook swap, with the tiny generated GGUF: the cache
// keys on the prompt's own tokens, and the framebook (here a new fare policy) is part of the
// system turn, so after an operator applies a framebook the next session re-evaluates the system
// turn from the first changed token — no stale prefix is reused — while sessions on an unchanged
// framebook keep reusing the whole system turn. Runs on both tiny architectures (llama; the
// student's qwen35 hybrid, whose reuse goes through the shared-prefix checkpoint).
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SHARED_DATA_DIR } from "../test/paths.ts";
import { FramebookStore } from "../runtime/framebook/store.ts";
import { testApp, testPack } from "../runtime/kiosk/testing.ts";
import { LlmPolicy, type LlmRoundInfo } from "../runtime/policies/llm.ts";
import { LlamaEngine } from "./engine.ts";
import { makeTinyModel, TINY_ARCHITECTURES, type TinyModelFixture } from "./testing/tiny-model.ts";

describe.each(TINY_ARCHITECTURES)("%s", (architecture) => {
  let tiny: TinyModelFixture;
  let engine: LlamaEngine;
  const dir = mkdtempSync(path.join(tmpdir(), "framebook-prefix-"));
  const original = readFileSync(path.join(SHARED_DATA_DIR, "data/systems/marta/framebook.yaml"), "utf8");
  const seniorsFree = original.replace("cultural_notes: []", 'cultural_notes: []\n  fare_policies:\n    - policy_id: "seniors_free"\n      text: "EFFECTIVE TODAY: Senior citizens (65+) ride free."');

  beforeAll(async () => {
    tiny = makeTinyModel({ architecture });
    engine = new LlamaEngine({ modelPath: tiny.file, gpu: false, threads: 1, contextSize: 16384 });
    await engine.load();
  });

  afterAll(async () => {
    await engine?.unload();
    tiny?.cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  describe("framebook swap and the engine's prefix cache", () => {
    it("reuses the system turn between sessions of one framebook, and never a stale one after a swap", async () => {
      const rounds: LlmRoundInfo[] = [];
      const llm = new LlmPolicy({ backend: engine, maxTokens: 2, onRound: (r) => rounds.push(r) });
      const store = new FramebookStore(testPack(), dir);
      const { app } = testApp({ framebooks: store, assistant: { mode: "model", policy: () => llm } });
      const ask = async (): Promise<LlmRoundInfo> => {
        const before = rounds.length;
        await app.ask({ system: "marta", events: [{ type: "freetext_input", text: "Airport to Five Points, one adult and one senior" }] });
        return rounds[before]!;
      };
      const tokens = (text: string): number => engine.tokenize(text, true).length;
      const systemTurn = (r: LlmRoundInfo): string => r.prompt.slice(0, r.prompt.indexOf("<|im_end|>\n") + "<|im_end|>\n".length);

      await ask();
      const same = await ask();
      expect(same.result.usage.cachedPromptTokens).toBeGreaterThanOrEqual(tokens(systemTurn(same)) - 1);

      store.apply("marta", seniorsFree, "seniors.yaml", "alice");
      const swapped = await ask();
      expect(systemTurn(swapped)).toContain("Senior citizens (65+) ride free");
      expect(systemTurn(swapped)).not.toBe(systemTurn(same));
      // Reused: at most the part before the first character that changed.
      let common = 0;
      while (systemTurn(same)[common] === systemTurn(swapped)[common]) common++;
      expect(swapped.result.usage.cachedPromptTokens).toBeLessThanOrEqual(tokens(swapped.prompt.slice(0, common)));
      expect(swapped.result.usage.cachedPromptTokens).toBeLessThan(tokens(systemTurn(swapped)));
    });
  });
});
