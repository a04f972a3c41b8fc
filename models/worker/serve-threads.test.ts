// The model process logs each decision of the adaptive thread count to the kiosk (a `log` line with
// the reason, the re-measured table and what it did).
import { describe, expect, it } from "vitest";
import type { LoadedLocalModel } from "../local.ts";
import type { ThreadDecision } from "../thread-governor.ts";
import type { WorkerMessage } from "./protocol.ts";
import { serveModelWorker } from "./serve.ts";

describe("model process: adaptive threads", () => {
  it("sends every thread decision of the loaded engine to the kiosk's log", async () => {
    const sent: WorkerMessage[] = [];
    let toWorker: (message: unknown) => void = () => undefined;
    let decide: (decision: ThreadDecision) => void = () => undefined;
    const engine = {
      chatTemplate: () => null,
      onThreadDecision: (listener: (decision: ThreadDecision) => void) => {
        decide = listener;
        return () => undefined;
      },
    };
    serveModelWorker(
      { send: (message) => sent.push(message), onMessage: (listener) => (toWorker = listener) },
      { load: async () => ({ engine, info: { threads: 2 } }) as unknown as LoadedLocalModel },
    );
    toWorker({ id: 1, type: "load", options: {} });
    await expect.poll(() => sent.length).toBe(1);

    decide({
      trigger: { kind: "slow", threads: 2, observedTokS: 0.55, expectedTokS: 9.1 },
      measured: [
        { threads: 1, decodeTokS: 7.4, prefillTokS: 30 },
        { threads: 2, decodeTokS: 0.6, prefillTokS: 4 },
      ],
      from: 2,
      to: 1,
      outcome: "switched",
      nextComeBackMs: 120_000,
    });
    expect(sent[1]).toEqual({
      type: "log",
      message:
        "model process: threads: decode at 2 threads fell to 0.6 tok/s (median of the last rounds; 9.1 tok/s measured); re-measured 1: 7.4 tok/s · 2: 0.6 tok/s → switched to 1 thread (next check in 120 s)",
    });
  });
});
