// The passenger assistant's warm boot: the first start evaluates the kiosk's shared prompt prefix
// and saves its KV state; the next start restores it, and a passenger's first prompt then reuses
// it (cached prompt tokens) instead of evaluating the tools block again. On both tiny architectures.
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { makeTinyModel, TINY_ARCHITECTURES } from "../models/testing/tiny-model.ts";
import { kioskWarmPrefix, loadPassengerAssistant } from "./model-policies.ts";

describe.each(TINY_ARCHITECTURES)("%s", (architecture) => {
  const tiny = makeTinyModel({ architecture });
  afterAll(() => tiny.cleanup());

  describe("passenger assistant warm boot (tiny model)", () => {
    it("saves the shared prefix on first start and restores it on the next", async () => {
      const file = path.join(tiny.dir, "warm.state");
      const warmState = { file, prefix: kioskWarmPrefix(tiny.pack, "marta", new Date(2026, 2, 9, 14, 0, 0)) };
      const first: string[] = [];
      const a = await loadPassengerAssistant({ mode: "hybrid", model: tiny.file, threads: 1, warmState }, (m) => first.push(m));
      expect(a).not.toBeNull();
      expect(first.some((m) => /warm boot: evaluated the shared prompt prefix \(\d+ tokens/.test(m)), first.join("\n")).toBe(true);
      await a?.unload();

      const second: string[] = [];
      const b = await loadPassengerAssistant({ mode: "hybrid", model: tiny.file, threads: 1, warmState }, (m) => second.push(m));
      try {
        expect(second.some((m) => m.startsWith("warm boot: the shared prompt prefix was restored"))).toBe(true);
        expect(b?.router).toBeDefined();
      } finally {
        await b?.unload();
      }
    });
  });
});
