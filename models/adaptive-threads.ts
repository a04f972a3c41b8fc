// The engine's side of the thread governor (models/thread-governor.ts): every finished round is
// shown to the governor; a re-measurement it asks for runs after the answer has been returned, one
// at a time, inside `exclusive` (the engine's sequence locks), so it never runs beside an
// evaluation and the next answer waits for it. Each decision goes to the listeners (the kiosk's
// log, the latency probe).
import { ThreadGovernor, type DecodedRound, type ThreadDecision, type ThreadGovernorSettings, type ThreadGovernorStatus } from "./thread-governor.ts";
import type { ThreadMeasurement, ThreadWorkload } from "./threads.ts";

export interface AdaptiveThreadsOptions {
  /** The quiet-machine measurement (models/threads.ts): candidates, their figures, the best. */
  table: { best: number; results: readonly ThreadMeasurement[] };
  settings?: Partial<ThreadGovernorSettings>;
  /** The re-measurement's workload per candidate (small: it runs between answers). */
  workload?: RemeasureWorkload;
}

/** Per candidate: prompt tokens prefilled, tokens decoded at most, and a time bound on the decode. */
export type RemeasureWorkload = Required<ThreadWorkload>;

export const DEFAULT_REMEASURE_WORKLOAD: RemeasureWorkload = { promptTokens: 8, decodeTokens: 8, maxDecodeMs: 1500 };

export interface AdaptiveThreadsHooks {
  /** Run with every evaluation of the engine held off. */
  exclusive: <T>(fn: () => Promise<T>) => Promise<T>;
  measure: (candidates: readonly number[], workload: RemeasureWorkload) => Promise<ThreadMeasurement[]>;
  switchTo: (threads: number) => Promise<boolean>;
  onDecision: (decision: ThreadDecision) => void;
  now?: () => number;
}

export class AdaptiveThreads {
  private readonly governor: ThreadGovernor;
  private running: Promise<void> | undefined;

  constructor(options: AdaptiveThreadsOptions, threads: number, private readonly hooks: AdaptiveThreadsHooks) {
    const workload = { ...DEFAULT_REMEASURE_WORKLOAD, ...options.workload };
    this.governor = new ThreadGovernor(
      options.table,
      threads,
      { now: hooks.now ?? (() => performance.now()), measure: (candidates) => hooks.measure(candidates, workload), switchTo: hooks.switchTo },
      options.settings,
    );
  }

  /** After a completion: maybe start a re-measurement (in the background, after the answer). */
  afterRound(round: DecodedRound): void {
    if (this.running) return; // the one in flight will judge anew
    const trigger = this.governor.observe(round);
    if (!trigger) return;
    this.running = this.hooks
      .exclusive(() => this.governor.remeasure(trigger))
      .then(
        (decision) => this.hooks.onDecision(decision),
        () => undefined, // remeasure reports its own failures; only the lock itself can reject here
      )
      .finally(() => {
        this.running = undefined;
      });
  }

  /** Resolves when no re-measurement is in flight (before unloading; tests). */
  async idle(): Promise<void> {
    await this.running;
  }

  status(): ThreadGovernorStatus {
    return this.governor.status();
  }
}
