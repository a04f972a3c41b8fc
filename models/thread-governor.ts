// Threads that adapt: the thread count measured on a quiet machine (models/threads.ts) can be the
// worst choice once another process busies a core — on a 2-core kiosk, 2 threads then decode 12–16×
// slower than 1, because every step waits for the thread that lost its core. The governor watches
// the decode speed of real answers at the current count; when it falls well below what was measured
// for that count it re-measures every candidate count and switches to the fastest. After a switch
// away from the quiet-machine best it re-measures again after a back-off (doubling while the
// machine stays busy), so a machine that got quiet returns to the better count.
//
// Plain logic: the measurement, the switch and the clock are injected (the engine runs `remeasure`
// with its evaluations held; tests pass speeds and a clock of their own).
import type { ThreadMeasurement } from "./threads.ts";

export interface ThreadGovernorSettings {
  /** Rounds that decoded fewer tokens are not watched (their speed is mostly noise). */
  minRoundTokens: number;
  /** Watched rounds whose median is compared (the last N at the current count). */
  window: number;
  /** Re-measure when the median falls under this share of the figure measured for the count. */
  slowRatio: number;
  /** No slow-triggered re-measure sooner than this after the last one. */
  cooldownMs: number;
  /** Away from the quiet-machine best: re-measure after this long… */
  comeBackMs: number;
  /** …doubling each time the machine is still busy, up to this. */
  maxComeBackMs: number;
  /** Switch only to a count measured at least this much faster (0.1: 10 %) than the current one. */
  minGain: number;
}

export const DEFAULT_THREAD_GOVERNOR_SETTINGS: ThreadGovernorSettings = {
  minRoundTokens: 8,
  window: 3,
  slowRatio: 0.5,
  cooldownMs: 60_000,
  comeBackMs: 120_000,
  maxComeBackMs: 960_000,
  minGain: 0.1,
};

/** What the engine knows after a completion. */
export interface DecodedRound {
  /** Thread count the round decoded with. */
  threads: number;
  completionTokens: number;
  /** Time from the first generated token to the last. */
  decodeMs: number;
}

export type RemeasureTrigger =
  | { kind: "slow"; threads: number; observedTokS: number; expectedTokS: number }
  | { kind: "come-back"; threads: number; quietBest: number; waitedMs: number };

export interface ThreadDecision {
  trigger: RemeasureTrigger;
  /** The re-measurement (empty when it failed). */
  measured: ThreadMeasurement[];
  from: number;
  to: number;
  outcome: "switched" | "kept" | "cannot switch" | "failed";
  error?: string;
  /** When still away from the quiet-machine best: the wait before the next come-back check. */
  nextComeBackMs?: number;
}

export interface ThreadGovernorDeps {
  now: () => number;
  /** Decode speed per candidate count, measured now. */
  measure: (candidates: readonly number[]) => Promise<ThreadMeasurement[]>;
  /** Use this many threads from the next evaluation on; false when the runtime cannot. */
  switchTo: (threads: number) => Promise<boolean>;
}

/** What the governor sees right now (for the latency probe). */
export interface ThreadGovernorStatus {
  threads: number;
  quietBest: number;
  /** Median decode speed of the watched rounds at the current count (null: none yet). */
  observedTokS: number | null;
  watchedRounds: number;
  /** The figure measured for the current count, and the speed under which it re-measures. */
  expectedTokS: number | null;
  slowBelowTokS: number | null;
  /** The watched rounds are slow enough to re-measure (once the cooldown allows). */
  wouldRemeasure: boolean;
  /** Away from the quiet-machine best: time left until it checks whether to come back. */
  comeBackInMs: number | null;
}

export function roundDecodeTokS(round: Pick<DecodedRound, "completionTokens" | "decodeMs">): number | null {
  // The first token ends the prefill; decode speed is the tokens after it, as in the thread table.
  if (round.completionTokens < 2 || round.decodeMs <= 0) return null;
  return (round.completionTokens - 1) / (round.decodeMs / 1000);
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

export class ThreadGovernor {
  private readonly settings: ThreadGovernorSettings;
  private readonly candidates: number[];
  private readonly quietBest: number;
  /** The latest figure per count: the quiet table's, then each re-measurement's. */
  private readonly expected = new Map<number, number>();
  private current: number;
  private recent: number[] = [];
  private lastMeasureAt: number | undefined;
  private comeBackDelay: number;

  constructor(
    table: { best: number; results: readonly ThreadMeasurement[] },
    threads: number,
    private readonly deps: ThreadGovernorDeps,
    settings: Partial<ThreadGovernorSettings> = {},
  ) {
    this.settings = { ...DEFAULT_THREAD_GOVERNOR_SETTINGS, ...settings };
    this.candidates = table.results.map((r) => r.threads);
    for (const r of table.results) this.expected.set(r.threads, r.decodeTokS);
    this.quietBest = table.best;
    this.current = threads;
    this.comeBackDelay = this.settings.comeBackMs;
    // Started away from the quiet best (pinned elsewhere, or the table changed): the back-off runs from now.
    if (threads !== table.best) this.lastMeasureAt = deps.now();
  }

  get threads(): number {
    return this.current;
  }

  /** Record a finished round; says whether (and why) to re-measure now. */
  observe(round: DecodedRound): RemeasureTrigger | undefined {
    if (round.threads !== this.current) {
      // Switched from outside (setThreads): the watched rounds were another count's.
      this.current = round.threads;
      this.recent = [];
    }
    const speed = roundDecodeTokS(round);
    if (speed !== null && round.completionTokens >= this.settings.minRoundTokens) {
      this.recent.push(speed);
      if (this.recent.length > this.settings.window) this.recent.shift();
    }
    const now = this.deps.now();
    const expected = this.expected.get(this.current);
    const coolingDown = this.lastMeasureAt !== undefined && now - this.lastMeasureAt < this.settings.cooldownMs;
    if (expected !== undefined && this.recent.length >= this.settings.window && !coolingDown) {
      const observed = median(this.recent);
      if (observed < this.settings.slowRatio * expected) return { kind: "slow", threads: this.current, observedTokS: observed, expectedTokS: expected };
    }
    if (this.current !== this.quietBest && this.lastMeasureAt !== undefined && now - this.lastMeasureAt >= this.comeBackDelay) {
      return { kind: "come-back", threads: this.current, quietBest: this.quietBest, waitedMs: now - this.lastMeasureAt };
    }
    return undefined;
  }

  /** Measure every candidate count and switch to the fastest (the caller holds the evaluations). */
  async remeasure(trigger: RemeasureTrigger): Promise<ThreadDecision> {
    const from = this.current;
    let measured: ThreadMeasurement[];
    try {
      measured = await this.deps.measure(this.candidates);
    } catch (err) {
      this.settle();
      return { trigger, measured: [], from, to: from, outcome: "failed", error: err instanceof Error ? err.message : String(err), ...this.comeBackNote() };
    }
    for (const m of measured) this.expected.set(m.threads, m.decodeTokS);
    const fastest = measured.reduce<ThreadMeasurement | undefined>((a, b) => (a === undefined || b.decodeTokS > a.decodeTokS ? b : a), undefined);
    const currentTokS = this.expected.get(from) ?? 0;
    const worthIt = fastest !== undefined && fastest.threads !== from && fastest.decodeTokS > currentTokS * (1 + this.settings.minGain);
    let outcome: ThreadDecision["outcome"] = "kept";
    if (worthIt) outcome = (await this.deps.switchTo(fastest.threads)) ? "switched" : "cannot switch";
    if (outcome === "switched" && fastest) this.current = fastest.threads;

    // Back-off: reset on reaching the quiet best or on leaving it for a new reason; doubled while
    // the come-back checks keep finding the machine busy.
    if (this.current === this.quietBest || (trigger.kind === "slow" && outcome === "switched")) this.comeBackDelay = this.settings.comeBackMs;
    else if (trigger.kind === "come-back") this.comeBackDelay = Math.min(2 * this.comeBackDelay, this.settings.maxComeBackMs);
    this.settle();
    return { trigger, measured, from, to: this.current, outcome, ...this.comeBackNote() };
  }

  status(): ThreadGovernorStatus {
    const expected = this.expected.get(this.current) ?? null;
    const observed = this.recent.length > 0 ? median(this.recent) : null;
    const slowBelow = expected === null ? null : this.settings.slowRatio * expected;
    const away = this.current !== this.quietBest && this.lastMeasureAt !== undefined;
    return {
      threads: this.current,
      quietBest: this.quietBest,
      observedTokS: observed,
      watchedRounds: this.recent.length,
      expectedTokS: expected,
      slowBelowTokS: slowBelow,
      wouldRemeasure: observed !== null && slowBelow !== null && this.recent.length >= this.settings.window && observed < slowBelow,
      comeBackInMs: away ? Math.max(0, (this.lastMeasureAt as number) + this.comeBackDelay - this.deps.now()) : null,
    };
  }

  private settle(): void {
    this.lastMeasureAt = this.deps.now();
    this.recent = [];
  }

  private comeBackNote(): { nextComeBackMs?: number } {
    return this.current !== this.quietBest ? { nextComeBackMs: this.comeBackDelay } : {};
  }
}

const tokS = (x: number): string => `${x >= 100 ? x.toFixed(0) : x.toFixed(1)} tok/s`;
const threadsText = (n: number): string => `${n} thread${n === 1 ? "" : "s"}`;

/** One log line: why it re-measured, the measured table, what it did. */
export function formatThreadDecision(d: ThreadDecision): string {
  const t = d.trigger;
  const why =
    t.kind === "slow"
      ? `decode at ${threadsText(t.threads)} fell to ${tokS(t.observedTokS)} (median of the last rounds; ${tokS(t.expectedTokS)} measured)`
      : `${Math.round(t.waitedMs / 1000)} s at ${threadsText(t.threads)}: checking whether ${threadsText(t.quietBest)} (the quiet-machine best) is faster again`;
  const table = d.measured.map((m) => `${m.threads}: ${tokS(m.decodeTokS)}`).join(" · ");
  const what =
    d.outcome === "switched"
      ? `switched to ${threadsText(d.to)}`
      : d.outcome === "kept"
        ? `kept ${threadsText(d.from)}`
        : d.outcome === "cannot switch"
          ? `cannot switch threads in this runtime; kept ${threadsText(d.from)}`
          : `re-measure failed (${d.error ?? "unknown error"}); kept ${threadsText(d.from)}`;
  const next = d.nextComeBackMs !== undefined ? ` (next check in ${Math.round(d.nextComeBackMs / 1000)} s)` : "";
  return `threads: ${why}; re-measured ${table || "nothing"} → ${what}${next}`;
}
