// The seeded generator and the bootstrap: golden outputs for fixed seeds, and sanity properties.
import { describe, expect, it } from "vitest";
import {
  bootstrapDifference,
  bootstrapMean,
  bootstrapMeanOfStrata,
  bootstrapRun,
  nearestRankPercentile,
  SeededRandom,
  type ScoreLike,
} from "./index.ts";

describe("SeededRandom (xoshiro128** seeded by splitmix32)", () => {
  it("reproduces the reference C implementation's outputs for seed 42", () => {
    // Checked against Blackman & Vigna's xoshiro128starstar.c with the same splitmix32 seeding.
    const r = new SeededRandom(42);
    expect([1, 2, 3, 4, 5].map(() => r.nextUint32())).toEqual([2837322924, 544945897, 479756282, 3500138142, 339756180]);
  });

  it("is deterministic per seed and different across seeds", () => {
    const a = new SeededRandom(7);
    const b = new SeededRandom(7);
    const c = new SeededRandom(8);
    const xs = Array.from({ length: 8 }, () => a.nextUint32());
    expect(Array.from({ length: 8 }, () => b.nextUint32())).toEqual(xs);
    expect(Array.from({ length: 8 }, () => c.nextUint32())).not.toEqual(xs);
  });

  it("draws integers below k uniformly", () => {
    const r = new SeededRandom(123);
    const counts = [0, 0, 0];
    for (let i = 0; i < 30_000; i++) counts[r.below(3)]!++;
    for (const n of counts) expect(Math.abs(n - 10_000)).toBeLessThan(400);
    expect(() => r.below(0)).toThrow(RangeError);
  });
});

describe("nearestRankPercentile (the reference's index rule)", () => {
  it("takes index round(p/100 · (n−1)), ties to even", () => {
    const xs = [0, 1, 2, 3, 4];
    expect(nearestRankPercentile(xs, 50)).toBe(2);
    expect(nearestRankPercentile(xs, 12.5)).toBe(0); // 0.5 → 0
    expect(nearestRankPercentile(xs, 37.5)).toBe(2); // 1.5 → 2
    expect(nearestRankPercentile([], 50)).toBe(0);
  });
});

const VALUES = [80, 100, 62.5, 90, 75, 100, 50, 87.5, 95, 70];

describe("bootstrapMean", () => {
  it("golden: fixed input and seed give a fixed interval", () => {
    expect(bootstrapMean(VALUES, { resamples: 1000, seed: 7 })).toEqual({ estimate: 81, lo: 72, hi: 91, n: 10, resamples: 1000, seed: 7, level: 95 });
    expect(bootstrapMean(VALUES)).toEqual({ estimate: 81, lo: 71, hi: 90.5, n: 10, resamples: 5000, seed: 42, level: 95 });
  });

  it("contains the point estimate and narrows with more cases", () => {
    const small = bootstrapMean(VALUES, { seed: 3 });
    const many = Array.from({ length: 40 }, () => VALUES).flat();
    const large = bootstrapMean(many, { seed: 3 });
    for (const ci of [small, large]) {
      expect(ci.lo).toBeLessThanOrEqual(ci.estimate);
      expect(ci.hi).toBeGreaterThanOrEqual(ci.estimate);
    }
    expect(large.estimate).toBeCloseTo(small.estimate, 10);
    expect(large.hi - large.lo).toBeLessThan((small.hi - small.lo) / 4);
  });

  it("empty input gives a zero interval; constant input a degenerate one", () => {
    expect(bootstrapMean([])).toMatchObject({ estimate: 0, lo: 0, hi: 0, n: 0 });
    expect(bootstrapMean([5, 5, 5], { resamples: 100 })).toMatchObject({ estimate: 5, lo: 5, hi: 5 });
  });
});

/** Scores for cases X-<cat>-<i>, with tier1_pct = pct = the given value over 100 points. */
function run(prefix: string, values: readonly number[]): ScoreLike[] {
  return values.map((v, i) => ({ case_id: `${prefix}-A-${String(i).padStart(3, "0")}`, total: v, max_possible: 100, pct: v, tier1_pct: v, breakdown: {} }));
}

describe("run-level bootstraps", () => {
  it("golden: paired difference over matched cases", () => {
    const a = run("X", VALUES);
    const b = run(
      "X",
      VALUES.map((v, i) => v - (i % 3)),
    );
    expect(bootstrapDifference(a, b, { resamples: 2000, seed: 1 })).toEqual({ estimate: 0.9, lo: 0.4, hi: 1.4, n: 10, resamples: 2000, seed: 1, level: 95 });
  });

  it("pairs by case id (order-insensitive) and only over cases both runs scored", () => {
    const a = run("X", VALUES);
    const b = run("X", VALUES).slice(2).reverse();
    const d = bootstrapDifference(a, b, { resamples: 500 });
    expect(d).toMatchObject({ estimate: 0, lo: 0, hi: 0, n: 8 });
  });

  it("composite uses total / max_possible × 100; ids restrict the cases", () => {
    const scores: ScoreLike[] = [
      { case_id: "X-A-1", total: 1, max_possible: 3, pct: 33.3, tier1_pct: 50, breakdown: {} },
      { case_id: "X-A-2", total: 2, max_possible: 3, pct: 66.7, tier1_pct: 70, breakdown: {} },
    ];
    expect(bootstrapRun(scores, { metric: "composite", resamples: 10 }).estimate).toBeCloseTo(50, 12);
    expect(bootstrapRun(scores, { ids: new Set(["X-A-2"]), resamples: 10 })).toMatchObject({ estimate: 70, lo: 70, hi: 70, n: 1 });
  });

  it("stratified by system: the estimate is the mean of system means", () => {
    const scores = [...run("AAA", [100, 100, 100, 100]), ...run("BBB", [0, 50])];
    const pooled = bootstrapRun(scores, { resamples: 1000 });
    const strat = bootstrapRun(scores, { resamples: 1000, stratify: "system" });
    expect(pooled.estimate).toBeCloseTo(75, 12);
    expect(strat.estimate).toBeCloseTo(62.5, 12);
    expect(strat.lo).toBeGreaterThanOrEqual(50);
    expect(strat.hi).toBeLessThanOrEqual(75);
    expect(bootstrapMeanOfStrata([[1, 1], [3]], { resamples: 10 })).toMatchObject({ estimate: 2, lo: 2, hi: 2, n: 3 });
  });
});
