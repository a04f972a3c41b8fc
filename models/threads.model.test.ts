// Threads chosen by measurement, on the tiny qwen35 model: a decode measurement per thread count,
// the fastest chosen, the table cached per machine and model file (a second call measures nothing;
// a changed model file is measured again).
import { mkdtempSync, rmSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTinyModel, type TinyModelFixture } from "./testing/tiny-model.ts";
import { deadlineThinkingBudget } from "./thinking-budget.ts";
import { cachedThreadTable, chooseThreads } from "./threads.ts";

let tiny: TinyModelFixture;
let dir: string;

beforeAll(() => {
  tiny = makeTinyModel({ architecture: "qwen35" });
  dir = mkdtempSync(path.join(tmpdir(), "threads-"));
});
afterAll(() => {
  tiny?.cleanup();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("threads by measurement", () => {
  it("measures each thread count once, uses the fastest, and caches the table per model file", async () => {
    const cacheFile = path.join(dir, "threads.json");
    const first = await chooseThreads(tiny.file, { gpu: false, candidates: [1, 2], decodeTokens: 8, cacheFile });
    expect(first.fromCache).toBe(false);
    expect(first.table.results.map((r) => r.threads)).toEqual([1, 2]);
    for (const r of first.table.results) {
      expect(r.decodeTokS).toBeGreaterThan(0);
      expect(r.prefillTokS).toBeGreaterThan(0);
    }
    const fastest = first.table.results.reduce((a, b) => (b.decodeTokS > a.decodeTokS ? b : a));
    expect(first.threads).toBe(fastest.threads);
    expect(first.table.model.path).toBe(path.resolve(tiny.file));

    const again = await chooseThreads(tiny.file, { gpu: false, candidates: [1, 2], cacheFile });
    expect(again).toMatchObject({ fromCache: true, threads: first.threads });
    expect(cachedThreadTable(tiny.file, false, cacheFile)?.measuredAt).toBe(first.table.measuredAt);

    // Another file at the same path (a new download) is another model: measured again.
    utimesSync(tiny.file, new Date(), new Date(Date.now() + 60_000));
    expect(cachedThreadTable(tiny.file, false, cacheFile)).toBeUndefined();
    const remeasured = await chooseThreads(tiny.file, { gpu: false, candidates: [1], decodeTokens: 4, cacheFile });
    expect(remeasured.fromCache).toBe(false);
    expect(remeasured.table.results).toHaveLength(1);
  });

  it("the kiosk's thinking budget comes from the measured decode speed at its thread count (paper setting when unmeasured)", async () => {
    const cacheFile = path.join(dir, "budget.json");
    expect(deadlineThinkingBudget(tiny.file, false, 1, cacheFile)).toBe("paper");
    const { table } = await chooseThreads(tiny.file, { gpu: false, candidates: [1], decodeTokens: 4, cacheFile });
    expect(deadlineThinkingBudget(tiny.file, false, 1, cacheFile)).toEqual({ deadline: { decodeTokS: table.results[0]!.decodeTokS } });
    expect(deadlineThinkingBudget(tiny.file, false, 2, cacheFile)).toBe("paper");
  });
});
