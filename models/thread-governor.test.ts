// The thread governor's decisions with injected decode speeds and clock (no model, no timing): a
// slow median triggers a re-measure that switches to the fastest count; short rounds and a single
// slow round do not; a re-measure that confirms the current count keeps it; a cooldown between
// re-measures; after leaving the quiet-machine best, a come-back check after a doubling back-off.
import { describe, expect, it } from "vitest";
import { formatThreadDecision, ThreadGovernor, type DecodedRound, type ThreadGovernorDeps } from "./thread-governor.ts";
import type { ThreadMeasurement } from "./threads.ts";

/** The quiet-machine table of a 2-core kiosk: 2 threads fastest. */
const QUIET = { best: 2, results: [m(1, 9), m(2, 12)] };

function m(threads: number, decodeTokS: number): ThreadMeasurement {
  return { threads, decodeTokS, prefillTokS: 100 };
}

/** A round of `tokens` tokens decoded at `tokS` (the first token ends the prefill). */
function round(threads: number, tokS: number, tokens = 20): DecodedRound {
  return { threads, completionTokens: tokens, decodeMs: ((tokens - 1) / tokS) * 1000 };
}

function governor(measurements: ThreadMeasurement[][], options: { canSwitch?: boolean; threads?: number } = {}) {
  const clock = { t: 0 };
  const measured: (readonly number[])[] = [];
  const switched: number[] = [];
  const deps: ThreadGovernorDeps = {
    now: () => clock.t,
    measure: async (candidates) => {
      measured.push(candidates);
      const next = measurements.shift();
      if (!next) throw new Error("no measurement scripted");
      return next;
    },
    switchTo: async (threads) => {
      switched.push(threads);
      return options.canSwitch ?? true;
    },
  };
  return { g: new ThreadGovernor(QUIET, options.threads ?? 2, deps), clock, measured, switched };
}

describe("thread governor", () => {
  it("re-measures when the median of the last 3 watched rounds falls under half the measured figure, and switches to the fastest", async () => {
    const { g, measured, switched } = governor([[m(1, 7), m(2, 0.55)]]);
    expect(g.observe(round(2, 0.6))).toBeUndefined();
    expect(g.observe(round(2, 0.5))).toBeUndefined();
    const trigger = g.observe(round(2, 0.7));
    expect(trigger).toEqual({ kind: "slow", threads: 2, observedTokS: expect.closeTo(0.6, 6), expectedTokS: 12 });

    const decision = await g.remeasure(trigger!);
    expect(measured).toEqual([[1, 2]]);
    expect(switched).toEqual([1]);
    expect(decision).toMatchObject({ from: 2, to: 1, outcome: "switched", measured: [m(1, 7), m(2, 0.55)], nextComeBackMs: 120_000 });
    expect(g.threads).toBe(1);
    expect(formatThreadDecision(decision)).toBe(
      "threads: decode at 2 threads fell to 0.6 tok/s (median of the last rounds; 12.0 tok/s measured); re-measured 1: 7.0 tok/s · 2: 0.6 tok/s → switched to 1 thread (next check in 120 s)",
    );
  });

  it("is not triggered by rounds that decoded fewer than 8 tokens, nor by one slow round among fast ones", () => {
    const { g } = governor([]);
    for (let i = 0; i < 5; i++) expect(g.observe(round(2, 0.5, 7))).toBeUndefined();
    expect(g.status().watchedRounds).toBe(0);

    expect(g.observe(round(2, 11, 8))).toBeUndefined();
    expect(g.observe(round(2, 0.5, 8))).toBeUndefined();
    expect(g.observe(round(2, 10, 8))).toBeUndefined();
    expect(g.status()).toMatchObject({ threads: 2, watchedRounds: 3, observedTokS: 10, expectedTokS: 12, slowBelowTokS: 6, wouldRemeasure: false, comeBackInMs: null });
  });

  it("keeps the current count when the re-measure confirms it (fastest, or not faster by the minimum gain)", async () => {
    const { g, switched } = governor([[m(1, 5), m(2, 6)], [m(1, 6.3), m(2, 6)]]);
    for (let i = 0; i < 2; i++) g.observe(round(2, 4));
    const first = await g.remeasure(g.observe(round(2, 4))!);
    expect(first).toMatchObject({ from: 2, to: 2, outcome: "kept" });
    expect(first.nextComeBackMs).toBeUndefined();

    const second = await g.remeasure({ kind: "slow", threads: 2, observedTokS: 2, expectedTokS: 6 });
    expect(second).toMatchObject({ to: 2, outcome: "kept" });
    expect(switched).toEqual([]);
    // The re-measured figure is what later rounds are compared with.
    expect(g.status().expectedTokS).toBe(6);
  });

  it("waits for the cooldown before re-measuring again", async () => {
    const { g, clock } = governor([[m(1, 5), m(2, 6)]]);
    for (let i = 0; i < 2; i++) g.observe(round(2, 1));
    await g.remeasure(g.observe(round(2, 1))!);
    // Still slow against the re-measured 6 tok/s, but within the cooldown.
    clock.t = 59_999;
    for (let i = 0; i < 3; i++) expect(g.observe(round(2, 1))).toBeUndefined();
    expect(g.status().wouldRemeasure).toBe(true);
    clock.t = 60_000;
    expect(g.observe(round(2, 1))).toMatchObject({ kind: "slow", threads: 2 });
  });

  it("after switching away from the quiet best, checks again after a back-off and comes back when the machine is quiet", async () => {
    const { g, clock, switched } = governor([
      [m(1, 7), m(2, 0.55)],
      [m(1, 7), m(2, 0.6)],
      [m(1, 9), m(2, 12)],
    ]);
    for (let i = 0; i < 2; i++) g.observe(round(2, 0.5));
    await g.remeasure(g.observe(round(2, 0.5))!);
    expect(g.threads).toBe(1);
    clock.t = 20_000;
    expect(g.status()).toMatchObject({ threads: 1, wouldRemeasure: false, comeBackInMs: 100_000 });

    // Fast enough at 1 thread: only the back-off brings a re-measure.
    clock.t = 119_999;
    expect(g.observe(round(1, 7))).toBeUndefined();
    clock.t = 120_000;
    const stillBusy = g.observe(round(1, 7));
    expect(stillBusy).toEqual({ kind: "come-back", threads: 1, quietBest: 2, waitedMs: 120_000 });
    const kept = await g.remeasure(stillBusy!);
    expect(kept).toMatchObject({ to: 1, outcome: "kept", nextComeBackMs: 240_000 });

    // Busy still: the next check waits twice as long.
    clock.t = 120_000 + 239_999;
    expect(g.observe(round(1, 7))).toBeUndefined();
    clock.t = 120_000 + 240_000;
    const quiet = g.observe(round(1, 7));
    expect(quiet).toMatchObject({ kind: "come-back" });
    const back = await g.remeasure(quiet!);
    expect(back).toMatchObject({ from: 1, to: 2, outcome: "switched" });
    expect(back.nextComeBackMs).toBeUndefined();
    expect(switched).toEqual([1, 2]);

    // At the quiet best there is nothing to come back to.
    clock.t = 10_000_000;
    expect(g.observe(round(2, 12))).toBeUndefined();
  });

  it("caps the back-off", async () => {
    const { g, clock } = governor(Array.from({ length: 6 }, () => [m(1, 7), m(2, 0.5)]), { threads: 1 });
    const waits: number[] = [];
    for (let i = 0; i < 5; i++) {
      clock.t += 10_000_000;
      const decision = await g.remeasure(g.observe(round(1, 7))!);
      waits.push(decision.nextComeBackMs!);
    }
    expect(waits).toEqual([240_000, 480_000, 960_000, 960_000, 960_000]);
  });

  it("keeps the count, and says so, when the runtime cannot switch threads or the measurement fails", async () => {
    const { g } = governor([[m(1, 7), m(2, 0.5)]], { canSwitch: false });
    const trigger = { kind: "slow", threads: 2, observedTokS: 0.5, expectedTokS: 12 } as const;
    const cannot = await g.remeasure(trigger);
    expect(cannot).toMatchObject({ from: 2, to: 2, outcome: "cannot switch" });
    expect(g.threads).toBe(2);
    expect(formatThreadDecision(cannot)).toContain("cannot switch threads in this runtime; kept 2 threads");

    const failed = await g.remeasure(trigger);
    expect(failed).toMatchObject({ outcome: "failed", error: "no measurement scripted", measured: [], to: 2 });
    expect(formatThreadDecision(failed)).toContain("re-measure failed (no measurement scripted); kept 2 threads");
  });

  it("follows a count switched from outside, watching its rounds anew", () => {
    const { g } = governor([]);
    g.observe(round(2, 1));
    g.observe(round(2, 1));
    // 1 thread's own figure (9 tok/s) is the reference now, and the 2-thread rounds are forgotten.
    expect(g.observe(round(1, 8))).toBeUndefined();
    expect(g.status()).toMatchObject({ threads: 1, watchedRounds: 1, expectedTokS: 9 });
  });
});
