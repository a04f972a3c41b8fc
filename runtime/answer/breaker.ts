// The model's circuit breaker: when the model crashes, keeps missing its deadline, or its process is
// down, passengers stop waiting for it — every request is answered by the deterministic policy
// until the retry time (or until the model process is back). One breaker per kiosk (and per bench
// run: the bench measures the kiosk as shipped), owned by the answer pipeline.

export const DEFAULT_MODEL_RETRY_MS = 60_000;
/** Missed model deadlines in a row after which the model is treated as unavailable for a while. */
export const MAX_CONSECUTIVE_MODEL_TIMEOUTS = 3;

export interface BreakerState {
  /** True: the model is skipped, the deterministic policy answers. */
  open: boolean;
  reason: string | null;
  /** When it closes by itself (epoch ms); null while open until reset (the model process is down). */
  until: number | null;
}

export interface ModelBreakerOptions {
  /** How long a crash or a run of missed deadlines keeps the model out (default 60 s). */
  retryMs?: number;
  maxConsecutiveTimeouts?: number;
  /** Wall clock, epoch ms. */
  now?: () => number;
  timers?: { setTimeout: typeof setTimeout; clearTimeout: typeof clearTimeout };
}

export class ModelBreaker {
  private state: BreakerState = { open: false, reason: null, until: null };
  private consecutiveTimeouts = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly listeners = new Set<(state: BreakerState) => void>();
  private readonly now: () => number;
  private readonly timers: { setTimeout: typeof setTimeout; clearTimeout: typeof clearTimeout };

  constructor(private readonly options: ModelBreakerOptions = {}) {
    this.now = options.now ?? (() => Date.now());
    this.timers = options.timers ?? { setTimeout, clearTimeout };
  }

  /** The breaker's state (an expired open state closes here). */
  get current(): BreakerState {
    if (this.state.open && this.state.until !== null && this.now() >= this.state.until) this.set({ open: false, reason: null, until: null });
    return { ...this.state };
  }

  get isOpen(): boolean {
    return this.current.open;
  }

  /** The model failed with an error (a crash): out for the retry time (a hold stays a hold). */
  crashed(reason: string): void {
    this.consecutiveTimeouts = 0;
    if (this.held) return;
    this.openFor(reason, this.options.retryMs ?? DEFAULT_MODEL_RETRY_MS);
  }

  /** Held open by hold() (the model process is down): only reset() closes it. */
  private get held(): boolean {
    return this.state.open && this.state.until === null;
  }

  /** The model missed its deadline; after a few in a row it is out for the retry time. Returns true when that happened now. */
  timedOut(): boolean {
    this.consecutiveTimeouts++;
    const limit = this.options.maxConsecutiveTimeouts ?? MAX_CONSECUTIVE_MODEL_TIMEOUTS;
    if (this.consecutiveTimeouts < limit) return false;
    const missed = this.consecutiveTimeouts;
    this.consecutiveTimeouts = 0;
    if (this.held) return true;
    this.openFor(`the model missed its deadline ${missed} times in a row`, this.options.retryMs ?? DEFAULT_MODEL_RETRY_MS);
    return true;
  }

  /** The model answered. */
  succeeded(): void {
    this.consecutiveTimeouts = 0;
  }

  /** Out until reset() — the model process is down (its supervisor resets the breaker when it is back). */
  hold(reason: string): void {
    this.clearTimer();
    this.set({ open: true, reason, until: null });
  }

  /** The model is back: try it again from the next request. */
  reset(): void {
    this.clearTimer();
    this.consecutiveTimeouts = 0;
    if (this.state.open) this.set({ open: false, reason: null, until: null });
  }

  /** Every change (opened, closed, reason changed); returns an unsubscribe function. */
  onChange(listener: (state: BreakerState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private openFor(reason: string, ms: number): void {
    this.clearTimer();
    this.set({ open: true, reason, until: this.now() + ms });
    // Close (and tell the listeners: the screen learns the assistant is back) when the time is up.
    this.timer = this.timers.setTimeout(() => void this.current, ms);
    (this.timer as { unref?: () => void }).unref?.();
  }

  private clearTimer(): void {
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    this.timer = undefined;
  }

  private set(state: BreakerState): void {
    this.state = state;
    for (const listener of this.listeners) {
      try {
        listener({ ...state });
      } catch {
        // A broken listener must not break the passenger's answer.
      }
    }
  }
}
