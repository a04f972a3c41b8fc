// The engine's side of the thread governor, with fake hooks: the re-measurement starts only after
// the round that asked for it has been handed back, runs inside the engine's exclusive section, one
// at a time, and its decision reaches the listener.
import { describe, expect, it } from "vitest";
import { AdaptiveThreads, DEFAULT_REMEASURE_WORKLOAD, type RemeasureWorkload } from "./adaptive-threads.ts";
import type { ThreadDecision } from "./thread-governor.ts";

const TABLE = { best: 2, results: [{ threads: 1, decodeTokS: 9, prefillTokS: 50 }, { threads: 2, decodeTokS: 12, prefillTokS: 80 }] };
const slowRound = { threads: 2, completionTokens: 20, decodeMs: 19_000 };

function adaptive() {
  const events: string[] = [];
  const decisions: ThreadDecision[] = [];
  const workloads: RemeasureWorkload[] = [];
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  const threads = new AdaptiveThreads({ table: TABLE }, 2, {
    now: () => 0,
    exclusive: async (fn) => {
      events.push("exclusive: waiting for the evaluations");
      await held;
      events.push("exclusive: entered");
      try {
        return await fn();
      } finally {
        events.push("exclusive: left");
      }
    },
    measure: async (candidates, workload) => {
      events.push(`measure ${candidates.join(",")}`);
      workloads.push(workload);
      return [
        { threads: 1, decodeTokS: 7, prefillTokS: 40 },
        { threads: 2, decodeTokS: 0.5, prefillTokS: 5 },
      ];
    },
    switchTo: async (n) => {
      events.push(`switch to ${n}`);
      return true;
    },
    onDecision: (d) => decisions.push(d),
  });
  return { threads, events, decisions, workloads, release };
}

describe("adaptive threads in the engine", () => {
  it("re-measures after the slow round is handed back, inside the exclusive section, and reports the decision", async () => {
    const { threads, events, decisions, workloads, release } = adaptive();
    threads.afterRound(slowRound);
    threads.afterRound(slowRound);
    threads.afterRound(slowRound);
    // The round that asked returned at once; nothing measured while the evaluations are held.
    expect(events).toEqual(["exclusive: waiting for the evaluations"]);
    // A round finishing meanwhile does not start a second re-measurement.
    threads.afterRound(slowRound);
    release();
    await threads.idle();
    expect(events).toEqual(["exclusive: waiting for the evaluations", "exclusive: entered", "measure 1,2", "switch to 1", "exclusive: left"]);
    expect(workloads).toEqual([DEFAULT_REMEASURE_WORKLOAD]);
    expect(decisions).toHaveLength(1);
    expect(decisions[0]).toMatchObject({ from: 2, to: 1, outcome: "switched", trigger: { kind: "slow" } });
    expect(threads.status().threads).toBe(1);
  });
});
