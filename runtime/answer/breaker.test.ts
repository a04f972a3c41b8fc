import { describe, expect, it } from "vitest";
import { ModelBreaker, type BreakerState } from "./breaker.ts";

function clockAndTimers() {
  let now = 1_000_000;
  const pending: { at: number; fn: () => void }[] = [];
  return {
    now: () => now,
    advance(ms: number) {
      now += ms;
      for (const t of pending.splice(0).sort((a, b) => a.at - b.at)) {
        if (t.at <= now) t.fn();
        else pending.push(t);
      }
    },
    timers: {
      setTimeout: ((fn: () => void, ms: number) => {
        const t = { at: now + ms, fn };
        pending.push(t);
        return t;
      }) as unknown as typeof setTimeout,
      clearTimeout: ((t: unknown) => {
        const i = pending.indexOf(t as (typeof pending)[number]);
        if (i >= 0) pending.splice(i, 1);
      }) as unknown as typeof clearTimeout,
    },
  };
}

describe("ModelBreaker", () => {
  it("opens on a crash for the retry time, and tells its listeners when it opens and when it closes by itself", () => {
    const c = clockAndTimers();
    const breaker = new ModelBreaker({ retryMs: 30_000, now: c.now, timers: c.timers });
    const seen: BreakerState[] = [];
    breaker.onChange((s) => seen.push(s));
    breaker.crashed("model process exited (code 134)");
    expect(breaker.isOpen).toBe(true);
    expect(breaker.current).toEqual({ open: true, reason: "model process exited (code 134)", until: 1_030_000 });
    c.advance(29_999);
    expect(breaker.isOpen).toBe(true);
    c.advance(1);
    expect(seen.map((s) => s.open)).toEqual([true, false]);
    expect(breaker.isOpen).toBe(false);
  });

  it("opens after three missed deadlines in a row; an answer in between starts the count again", () => {
    const c = clockAndTimers();
    const breaker = new ModelBreaker({ now: c.now, timers: c.timers });
    expect([breaker.timedOut(), breaker.timedOut()]).toEqual([false, false]);
    breaker.succeeded();
    expect([breaker.timedOut(), breaker.timedOut(), breaker.timedOut()]).toEqual([false, false, true]);
    expect(breaker.current.reason).toBe("the model missed its deadline 3 times in a row");
  });

  it("holds open while the model process is down, until reset", () => {
    const c = clockAndTimers();
    const breaker = new ModelBreaker({ retryMs: 10, now: c.now, timers: c.timers });
    breaker.hold("model process restarting");
    // The crash the passenger's answer reports does not turn the hold into a timed one.
    breaker.crashed("the model process exited (killed by SIGKILL)");
    c.advance(60_000);
    expect(breaker.current).toEqual({ open: true, reason: "model process restarting", until: null });
    breaker.reset();
    expect(breaker.isOpen).toBe(false);
  });
});
