// The prompt warmer: a passenger who walks up to a kiosk with a local model finds the system turn
// of their first prompt already evaluated. A live system prompt states the time, so each new
// stated time is a new prompt; the warmer prefills the next one in the background, while no
// passenger is at the kiosk, before sessions start stating it — and again whenever the framebook
// or the alerts in force change it.
//
// How precisely the prompt states the time follows what a warm-up costs on this machine: to the
// minute where prefilling the part after the time takes at most a fifth of a minute (a GPU, Apple
// Silicon), to 2 or 5 minutes on a slow CPU, so the warmer never keeps the cores busy for more than
// about a fifth of the time. Sessions start stating the next time `lead` before it is due, once its
// prompt is warm. The session itself (tools, the rule policy, the purchase interlock) always uses
// the exact time; only the model's system prompt states the rounded one.
import type { PrefillResult } from "../runtime/model/backend.ts";
import type { SessionSetup } from "../runtime/session/policy.ts";

/** Stated-time steps the warmer may choose, in minutes. */
const STEPS_MINUTES = [1, 2, 5] as const;
/** At most this share of each step goes to warming the next prompt. */
const WARM_DUTY = 0.2;
const MINUTE_MS = 60_000;

/** The stated-time step and lead for a machine where warming a changed prompt takes `warmMs`. */
export function warmPlan(warmMs: number, tickMs: number): { stepMinutes: number; leadMs: number } {
  const stepMinutes = STEPS_MINUTES.find((m) => warmMs <= WARM_DUTY * m * MINUTE_MS) ?? STEPS_MINUTES[STEPS_MINUTES.length - 1]!;
  return { stepMinutes, leadMs: Math.min(Math.ceil(1.5 * warmMs) + tickMs, (stepMinutes * MINUTE_MS) / 2) };
}

export interface PromptWarmerOptions {
  /** The setup a new passenger session would get with its prompt stating `stated` (what is warmed). */
  nextSetup: (stated: Date) => SessionSetup;
  /** Prefill a setup's system turn (the llm policy over the model process). */
  prefill: (setup: SessionSetup) => Promise<PrefillResult | null>;
  /** No passenger session is open and no technician bench runs: the model is free. */
  idle: () => boolean;
  now?: () => Date;
  /** How often the warmer looks for a changed prompt (default 5 s). */
  tickMs?: number;
  log?: (message: string) => void;
}

export interface PromptWarmerStatus {
  /** Minutes between two stated times. */
  stepMinutes: number;
  /** How long before a stated time is due the warmer prefills its prompt (ms). */
  leadMs: number;
  /** The last complete warm-up that followed a change of prompt (ms), null before one. */
  warmMs: number | null;
  warmed: number;
  /** Warm-ups that stopped early for a passenger. */
  yielded: number;
  failures: number;
}

export class PromptWarmer {
  private timer: ReturnType<typeof setInterval> | undefined;
  private running: Promise<void> | null = null;
  private warmedPrompt: string | null = null;
  /** The stated time of the last complete warm-up (epoch ms). */
  private warmedTime: number | null = null;
  private readonly current: PromptWarmerStatus;
  private readonly tickMs: number;
  private readonly now: () => Date;

  constructor(private readonly options: PromptWarmerOptions) {
    this.tickMs = options.tickMs ?? 5_000;
    this.now = options.now ?? (() => new Date());
    this.current = { stepMinutes: 1, leadMs: this.tickMs, warmMs: null, warmed: 0, yielded: 0, failures: 0 };
  }

  get status(): PromptWarmerStatus {
    return { ...this.current };
  }

  /** The start of the step `now` falls in and of the next one, counted in local wall-clock time. */
  private steps(now: Date): { current: Date; next: Date } {
    const stepMs = this.current.stepMinutes * MINUTE_MS;
    const offsetMs = now.getTimezoneOffset() * MINUTE_MS;
    const start = Math.floor((now.getTime() - offsetMs) / stepMs) * stepMs + offsetMs;
    return { current: new Date(start), next: new Date(start + stepMs) };
  }

  /** The time a session starting at `now` states: its step's start, or the next one once that is warm. */
  promptTime(now: Date): Date {
    const { current, next } = this.steps(now);
    return this.warmedTime === next.getTime() ? next : current;
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.tick(), this.tickMs);
    this.timer.unref();
    void this.tick();
  }

  /** Stop looking; resolves when a warm-up in progress has ended. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** Warm the prompt the next session will get, unless it is warm already or the kiosk is busy. */
  tick(): Promise<void> {
    if (this.running) return this.running;
    if (!this.options.idle()) return Promise.resolve();
    const now = this.now();
    const { current, next } = this.steps(now);
    const stated = now.getTime() >= next.getTime() - this.current.leadMs ? next : current;
    const setup = this.options.nextSetup(stated);
    if (setup.systemPrompt === this.warmedPrompt) return Promise.resolve();
    this.running = this.warm(setup, stated).finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async warm(setup: SessionSetup, stated: Date): Promise<void> {
    const changed = this.warmedPrompt !== null;
    let result: PrefillResult | null;
    try {
      result = await this.options.prefill(setup);
    } catch (err) {
      this.current.failures++;
      this.options.log?.(`prompt warm-up failed (${(err as Error).message})`);
      return;
    }
    if (result === null) return;
    if (!result.complete) {
      this.current.yielded++;
      return;
    }
    this.warmedPrompt = setup.systemPrompt;
    this.warmedTime = stated.getTime();
    this.current.warmed++;
    // The first warm-up evaluates the whole system turn; later ones only what a change touched.
    if (changed && result.evaluatedTokens > 0) this.adapt(result.ms);
  }

  /** Choose the step and lead from what warming a changed prompt costs here. */
  private adapt(warmMs: number): void {
    const plan = warmPlan(warmMs, this.tickMs);
    const step = plan.stepMinutes;
    if (step !== this.current.stepMinutes) this.options.log?.(`a prompt warm-up takes ${Math.round(warmMs)} ms here: live prompts state the time to ${step} minute${step === 1 ? "" : "s"}`);
    Object.assign(this.current, { warmMs, ...plan });
  }
}
