// The passenger assistant's warm boot: the first start evaluates the kiosk's shared prompt prefix
// and saves its KV state; the next start restores it, and a passenger's first prompt then reuses
// it (cached prompt tokens) instead of evaluating the tools block again. On both tiny architectures,
// with the model in its own process as the kiosk runs it.
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { makeTinyModel, TINY_ARCHITECTURES } from "../models/testing/tiny-model.ts";
import { ModelBreaker } from "../runtime/answer/breaker.ts";
import { startPassengerAssistant } from "./assistant.ts";

describe.each(TINY_ARCHITECTURES)("%s", (architecture) => {
  const tiny = makeTinyModel({ architecture });
  afterAll(() => tiny.cleanup());

  describe("passenger assistant warm boot (tiny model)", () => {
    it("saves the shared prefix on first start and restores it on the next", async () => {
      const file = path.join(tiny.dir, "warm.state");
      const first: string[] = [];
      const a = await startPassengerAssistant(tiny.pack, { mode: "hybrid", model: tiny.file, threads: 1, warmStateFile: file }, { breaker: new ModelBreaker(), log: (m) => first.push(m) });
      expect(a).not.toBeNull();
      expect(first.some((m) => /warm boot: evaluated the shared prompt prefix \(\d+ tokens/.test(m)), first.join("\n")).toBe(true);
      await a?.close();

      const second: string[] = [];
      const b = await startPassengerAssistant(tiny.pack, { mode: "hybrid", model: tiny.file, threads: 1, warmStateFile: file }, { breaker: new ModelBreaker(), log: (m) => second.push(m) });
      try {
        expect(second.some((m) => m.startsWith("warm boot: the shared prompt prefix was restored"))).toBe(true);
        expect(b?.assistant.mode).toBe("hybrid");
      } finally {
        await b?.close();
      }
    });
  });
});
