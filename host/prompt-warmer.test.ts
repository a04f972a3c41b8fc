// The prompt warmer's decisions, with a fake prefill and a set clock: it warms the prompt the next
// passenger would get, only while the kiosk is idle, again when the prompt changes (a framebook,
// an alert, the next stated time) and not otherwise; sessions state the next time only once its
// prompt is warm; a warm-up that gave way to a passenger does not count; and the stated time's
// step follows what a warm-up costs on the machine.
import { describe, expect, it } from "vitest";
import type { PrefillResult } from "../runtime/model/backend.ts";
import type { SessionSetup } from "../runtime/session/policy.ts";
import { PromptWarmer } from "./prompt-warmer.ts";

/** Local wall-clock times, as the kiosk's prompt states them. */
const at = (hhmmss: string): Date => new Date(`2026-03-09T${hhmmss}`);
const hhmm = (d: Date): string => d.toTimeString().slice(0, 5);

function harness(options: { warmMs?: number; complete?: boolean } = {}) {
  const state = { now: at("14:00:07"), idle: true, framebook: "v1", warmMs: options.warmMs ?? 1_000, complete: options.complete ?? true };
  const warmed: string[] = [];
  const logs: string[] = [];
  const warmer = new PromptWarmer({
    nextSetup: (stated) => ({ systemPrompt: `framebook ${state.framebook}; current time ${hhmm(stated)}` }) as SessionSetup,
    prefill: async (setup): Promise<PrefillResult> => {
      warmed.push(setup.systemPrompt);
      return { promptTokens: 100, cachedTokens: warmed.length > 1 ? 60 : 0, evaluatedTokens: 40, ms: state.warmMs, complete: state.complete };
    },
    idle: () => state.idle,
    now: () => state.now,
    log: (m) => logs.push(m),
  });
  return { warmer, state, warmed, logs };
}

describe("prompt warmer", () => {
  it("warms the prompt a new session would get, once, and again only when it changes", async () => {
    const { warmer, state, warmed } = harness();
    await warmer.tick();
    await warmer.tick();
    expect(warmed).toEqual(["framebook v1; current time 14:00"]);

    state.framebook = "v2"; // an operator applied a framebook (or an alert came into force)
    await warmer.tick();
    expect(warmed.at(-1)).toBe("framebook v2; current time 14:00");
    expect(warmed).toHaveLength(2);
  });

  it("leaves the model alone while a passenger is at the kiosk", async () => {
    const { warmer, state, warmed } = harness();
    state.idle = false;
    await warmer.tick();
    expect(warmed).toEqual([]);
    state.idle = true;
    await warmer.tick();
    expect(warmed).toHaveLength(1);
  });

  it("prefills the next minute ahead and sessions state it only once it is warm", async () => {
    const { warmer, state, warmed } = harness({ warmMs: 2_000 });
    await warmer.tick();
    state.now = at("14:00:30");
    state.framebook = "v2";
    await warmer.tick(); // a changed prompt's warm-up teaches the warmer its cost: lead 1.5 × 2 s + 5 s
    expect(warmer.status.leadMs).toBe(8_000);
    expect(hhmm(warmer.promptTime(state.now))).toBe("14:00");

    state.now = at("14:00:51"); // 9 s before 14:01: not yet within the lead
    await warmer.tick();
    expect(warmed).toHaveLength(2);
    expect(hhmm(warmer.promptTime(state.now))).toBe("14:00");

    state.now = at("14:00:53"); // within the lead: the 14:01 prompt is warmed; sessions state 14:01 from then on
    expect(hhmm(warmer.promptTime(state.now))).toBe("14:00");
    await warmer.tick();
    expect(warmed.at(-1)).toBe("framebook v2; current time 14:01");
    expect(hhmm(warmer.promptTime(state.now))).toBe("14:01");
    expect(hhmm(warmer.promptTime(at("14:01:40")))).toBe("14:01");
  });

  it("a warm-up that gave way to a passenger is tried again and changes no stated time", async () => {
    const { warmer, state, warmed } = harness({ complete: false });
    state.now = at("14:00:58");
    await warmer.tick();
    expect(warmer.status.yielded).toBe(1);
    expect(hhmm(warmer.promptTime(state.now))).toBe("14:00");
    state.complete = true;
    await warmer.tick();
    expect(warmed).toEqual(["framebook v1; current time 14:01", "framebook v1; current time 14:01"]);
    expect(hhmm(warmer.promptTime(state.now))).toBe("14:01");
  });

  it("states the time to coarser steps where a warm-up is slow, so warming stays a fifth of the time", async () => {
    const { warmer, state, logs } = harness({ warmMs: 30_000 });
    await warmer.tick();
    state.framebook = "v2";
    await warmer.tick();
    expect(warmer.status).toMatchObject({ stepMinutes: 5, warmMs: 30_000, leadMs: 50_000 });
    expect(logs.at(-1)).toMatch(/takes 30000 ms here: live prompts state the time to 5 minutes/);
    expect(hhmm(warmer.promptTime(at("14:04:59")))).toBe("14:00");

    state.warmMs = 3_000;
    state.framebook = "v3";
    await warmer.tick();
    expect(warmer.status).toMatchObject({ stepMinutes: 1, leadMs: 9_500 });
  });

  it("a failed warm-up is logged and counted, and the kiosk goes on", async () => {
    const logs: string[] = [];
    const warmer = new PromptWarmer({
      nextSetup: () => ({ systemPrompt: "p" }) as SessionSetup,
      prefill: () => Promise.reject(new Error("the model process is restarting")),
      idle: () => true,
      now: () => at("14:00:00"),
      log: (m) => logs.push(m),
    });
    await warmer.tick();
    expect(warmer.status.failures).toBe(1);
    expect(logs).toEqual(["prompt warm-up failed (the model process is restarting)"]);
  });
});
