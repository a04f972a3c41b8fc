// Shared pieces of the reliability harness: a seeded PRNG (every run with the same seed replays the
// same sessions, mutations and kill points), figures with their targets, and small statistics.

import { mulberry32 } from "../../tools/util/random.ts";

/** FNV-1a: a string seed as the 32-bit seed of the repository's generator. */
function seedOf(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** The repository's seeded generator (tools/util/random.ts) behind a string seed, with helpers. */
export class Rng {
  /** A float in [0, 1). */
  readonly next: () => number;

  constructor(seed: string) {
    this.next = mulberry32(seedOf(seed));
  }

  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** An integer in [lo, hi]. */
  range(lo: number, hi: number): number {
    return lo + this.int(hi - lo + 1);
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error("pick from an empty list");
    return items[this.int(items.length)] as T;
  }

  /** Pick by weight: [[weight, value], …]. */
  weighted<T>(table: readonly (readonly [number, T])[]): T {
    const total = table.reduce((s, [w]) => s + w, 0);
    let x = this.next() * total;
    for (const [w, v] of table) {
      x -= w;
      if (x < 0) return v;
    }
    return (table[table.length - 1] as readonly [number, T])[1];
  }

  shuffle<T>(items: readonly T[]): T[] {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      [out[i], out[j]] = [out[j] as T, out[i] as T];
    }
    return out;
  }

  /** A child generator for an independent stream (so adding draws in one place does not shift another). */
  fork(label: string): Rng {
    return new Rng(`${label}:${this.int(2 ** 32)}`);
  }
}

export type TargetOp = "eq" | "le" | "lt" | "ge";

export interface Figure {
  /** Stable key, e.g. "fuzz.crashes". */
  id: string;
  label: string;
  value: number;
  /** The target the value must meet; null for a figure reported for information only. */
  target: { op: TargetOp; value: number } | null;
  ok: boolean;
  unit?: string;
  /** Denominator or context, e.g. "of 10000 sessions". */
  of?: string;
}

export function figure(id: string, label: string, value: number, target: Figure["target"], extra: Pick<Figure, "unit" | "of"> = {}): Figure {
  let ok = true;
  if (target) {
    const t = target.value;
    ok = target.op === "eq" ? value === t : target.op === "le" ? value <= t : target.op === "lt" ? value < t : value >= t;
  }
  return { id, label, value, target, ok, ...extra };
}

export function info(id: string, label: string, value: number, extra: Pick<Figure, "unit" | "of"> = {}): Figure {
  return figure(id, label, value, null, extra);
}

export interface SectionResult {
  id: string;
  title: string;
  figures: Figure[];
  /** Section-specific detail (counts by kind, examples of failures, notes). */
  details: Record<string, unknown>;
  ms: number;
}

export interface RunOptions {
  quick: boolean;
  seed: string;
  /** Progress lines (stderr in the script; silent in tests). */
  log: (message: string) => void;
}

/** Nearest-rank percentile of a list of numbers (p in 0..100). */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(sorted.length, rank) - 1] as number;
}

/** Keep the first `limit` examples of something that went wrong, for the report. */
export class Examples<T> {
  readonly items: T[] = [];
  count = 0;
  constructor(private readonly limit = 10) {}
  add(item: T): void {
    this.count++;
    if (this.items.length < this.limit) this.items.push(item);
  }
}

export function errorText(err: unknown): string {
  return err instanceof Error ? `${err.name}: ${err.message}`.slice(0, 500) : String(err).slice(0, 500);
}

/** Round a duration for the report. */
export function ms(n: number): number {
  return Math.round(n * 10) / 10;
}
