// Bootstrap confidence intervals for a run's score and for the difference between two runs, by the
// method of the reference's scripts/compute_bootstrap_heldout.py:
//  - the unit is the case: per case, Tier 1 = tier1_pct and composite = total / max_possible × 100
//    (unrounded), restricted to a partition (held-out by default in the reference);
//  - each resample draws n cases uniformly with replacement from the pooled cases (the reference
//    does not stratify by system or category) and takes their mean;
//  - the interval is the 2.5th and 97.5th percentile of the sorted resample means, taken at index
//    round((p/100)·(R−1)) (Python round: half to even) — nearest rank, no interpolation;
//  - paired: the per-case differences A − B over the cases both runs scored (sorted by id), then the
//    same resampling of those differences;
//  - the point estimate is the plain mean of the values (of the differences).
// Differences from the reference, on purpose: 5,000 resamples by default (it used 2,000) and our own
// seeded generator (below) instead of Python's Mersenne Twister, so intervals agree in method, not
// to the last digit. `stratify: "system"` is an extra: it resamples within each system and takes
// the mean of the per-system means, matching how the headline composite weights systems equally.
import { pyRound } from "../../tools/py/index.ts";
import { systemPrefixOf, type ScoreLike } from "./aggregate.ts";

/**
 * xoshiro128** (Blackman & Vigna, 2018): 128-bit state, 32-bit outputs, period 2^128 − 1, passes
 * BigCrush. The state is seeded from a 32-bit seed by four steps of splitmix32, so every seed
 * (0 included) gives a well-mixed non-zero state. Integers in [0, k) use rejection sampling, so
 * they are exactly uniform (no modulo bias).
 */
export class SeededRandom {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number) {
    let s = seed >>> 0;
    const splitmix32 = (): number => {
      s = (s + 0x9e3779b9) >>> 0;
      let z = s;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
      return (z ^ (z >>> 16)) >>> 0;
    };
    this.a = splitmix32();
    this.b = splitmix32();
    this.c = splitmix32();
    this.d = splitmix32();
  }

  /** The next 32-bit unsigned integer. */
  nextUint32(): number {
    const result = Math.imul(rotl(Math.imul(this.b, 5), 7), 9) >>> 0;
    const t = this.b << 9;
    this.c ^= this.a;
    this.d ^= this.b;
    this.b ^= this.c;
    this.a ^= this.d;
    this.c ^= t;
    this.d = rotl(this.d, 11);
    return result;
  }

  /** A uniform integer in [0, k), 1 ≤ k ≤ 2^32. */
  below(k: number): number {
    if (!(k >= 1 && k <= 0x1_0000_0000) || !Number.isInteger(k)) throw new RangeError(`below(${k}): k must be an integer in [1, 2^32]`);
    const threshold = (0x1_0000_0000 - k) % k; // 2^32 mod k: reject the first `threshold` values
    for (;;) {
      const r = this.nextUint32();
      if (r >= threshold) return r % k;
    }
  }
}

function rotl(x: number, k: number): number {
  return (x << k) | (x >>> (32 - k));
}

export interface BootstrapOptions {
  /** Number of resamples (default 5,000). */
  resamples?: number;
  /** Generator seed (default 42, the reference's). */
  seed?: number;
  /** Confidence level in percent (default 95). */
  level?: number;
}

export interface Interval {
  /** The point estimate (mean of the values, or of the paired differences). */
  estimate: number;
  lo: number;
  hi: number;
  /** Number of cases (pairs). */
  n: number;
  resamples: number;
  seed: number;
  level: number;
}

/** The reference's percentile: the element at index round(p/100 · (n−1)) of sorted values. */
export function nearestRankPercentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  const i = Math.max(0, Math.min(sorted.length - 1, pyRound((p / 100) * (sorted.length - 1))));
  return sorted[i] as number;
}

/** Neumaier-compensated mean (the reference's statistics.mean is exact). */
function accurateMean(values: readonly number[]): number {
  let sum = 0;
  let compensation = 0;
  for (const v of values) {
    const t = sum + v;
    compensation += Math.abs(sum) >= Math.abs(v) ? sum - t + v : v - t + sum;
    sum = t;
  }
  return (sum + compensation) / values.length;
}

function settings(options: BootstrapOptions): Required<BootstrapOptions> {
  return { resamples: options.resamples ?? 5000, seed: options.seed ?? 42, level: options.level ?? 95 };
}

function interval(estimate: number, means: number[], n: number, s: Required<BootstrapOptions>): Interval {
  means.sort((x, y) => x - y);
  const tail = (100 - s.level) / 2;
  return { estimate, lo: nearestRankPercentile(means, tail), hi: nearestRankPercentile(means, 100 - tail), n, ...s };
}

/**
 * Percentile bootstrap of the mean of `values` (pooled, unstratified: the reference's method).
 * Empty input gives a zero interval, as the reference does.
 */
export function bootstrapMean(values: readonly number[], options: BootstrapOptions = {}): Interval {
  const s = settings(options);
  const n = values.length;
  if (n === 0) return { estimate: 0, lo: 0, hi: 0, n: 0, ...s };
  const rng = new SeededRandom(s.seed);
  const means = new Array<number>(s.resamples);
  for (let r = 0; r < s.resamples; r++) {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += values[rng.below(n)] as number;
    means[r] = sum / n;
  }
  return interval(accurateMean(values), means, n, s);
}

/**
 * Stratified percentile bootstrap: each stratum is resampled within itself (same size) and the
 * statistic is the plain mean of the stratum means.
 */
export function bootstrapMeanOfStrata(strata: readonly (readonly number[])[], options: BootstrapOptions = {}): Interval {
  const s = settings(options);
  const groups = strata.filter((g) => g.length > 0);
  const n = groups.reduce((k, g) => k + g.length, 0);
  if (groups.length === 0) return { estimate: 0, lo: 0, hi: 0, n: 0, ...s };
  const rng = new SeededRandom(s.seed);
  const means = new Array<number>(s.resamples);
  for (let r = 0; r < s.resamples; r++) {
    let total = 0;
    for (const g of groups) {
      let sum = 0;
      for (let i = 0; i < g.length; i++) sum += g[rng.below(g.length)] as number;
      total += sum / g.length;
    }
    means[r] = total / groups.length;
  }
  return interval(accurateMean(groups.map(accurateMean)), means, n, s);
}

export type BootstrapMetric = "tier1" | "composite";

/** The reference's per-case value: tier1_pct, or total / max_possible × 100 (unrounded). */
export function caseValue(score: ScoreLike, metric: BootstrapMetric): number | undefined {
  if (metric === "tier1") return score.tier1_pct;
  return score.max_possible ? (score.total / score.max_possible) * 100 : undefined;
}

export interface RunBootstrapOptions extends BootstrapOptions {
  metric?: BootstrapMetric;
  /** Restrict to these case ids (e.g. the held-out partition). */
  ids?: ReadonlySet<string>;
  /** "none" (default; the reference's pooled resampling) or "system" (see bootstrapMeanOfStrata). */
  stratify?: "none" | "system";
}

/** case id → value, the last score of an id winning (as the reference's dict does). */
function valuesById(scores: readonly ScoreLike[], metric: BootstrapMetric, ids?: ReadonlySet<string>): Map<string, number> {
  const out = new Map<string, number>();
  for (const s of scores) {
    if (ids !== undefined && !ids.has(s.case_id)) continue;
    const v = caseValue(s, metric);
    if (v !== undefined) out.set(s.case_id, v);
  }
  return out;
}

function strataOf(entries: readonly [string, number][]): number[][] {
  const groups = new Map<string, number[]>();
  for (const [id, v] of entries) {
    const key = systemPrefixOf(id);
    const g = groups.get(key);
    if (g) g.push(v);
    else groups.set(key, [v]);
  }
  return [...groups.values()];
}

/** CI for one run's mean case score (Tier 1 by default) over its scored cases. */
export function bootstrapRun(scores: readonly ScoreLike[], options: RunBootstrapOptions = {}): Interval {
  const entries = [...valuesById(scores, options.metric ?? "tier1", options.ids).entries()];
  if (options.stratify === "system") return bootstrapMeanOfStrata(strataOf(entries), options);
  return bootstrapMean(
    entries.map(([, v]) => v),
    options,
  );
}

/** Paired CI for run A − run B over the cases both scored (matched by case id, sorted by id). */
export function bootstrapDifference(a: readonly ScoreLike[], b: readonly ScoreLike[], options: RunBootstrapOptions = {}): Interval {
  const metric = options.metric ?? "tier1";
  const va = valuesById(a, metric, options.ids);
  const vb = valuesById(b, metric, options.ids);
  const common = [...va.keys()].filter((id) => vb.has(id)).sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
  const diffs: [string, number][] = common.map((id) => [id, (va.get(id) as number) - (vb.get(id) as number)]);
  if (options.stratify === "system") return bootstrapMeanOfStrata(strataOf(diffs), options);
  return bootstrapMean(
    diffs.map(([, d]) => d),
    options,
  );
}
