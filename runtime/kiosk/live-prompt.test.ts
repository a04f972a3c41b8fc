// A live session's system prompt states the time to the minute (or the prompt warmer's step), so
// every passenger of a minute shares one system turn the model can have prefilled; the session
// itself keeps the exact time for its tools, the rule policy and the interlock. The setup says
// where the prompt starts to depend on the clock, and the llm policy hands that position, in the
// rendered prompt, to the engine (a completion's checkpoint, a prefill's).
import { describe, expect, it } from "vitest";
import { DataPack } from "../../tools/data/datapack.ts";
import { SHARED_DATA_DIR } from "../../test/paths.ts";
import type { CompletionRequest, CompletionResult, PrefillRequest, PrefillResult } from "../model/backend.ts";
import { AnswerPipeline } from "../answer/pipeline.ts";
import { LlmPolicy } from "../policies/llm.ts";
import { rulePolicy } from "../policies/rule/index.ts";
import { KioskService } from "./service.ts";

const pack = new DataPack(SHARED_DATA_DIR);

function service(clock: () => Date, promptTime?: (now: Date) => Date): KioskService {
  const pipeline = new AnswerPipeline({ rule: rulePolicy, profile: pack.promptProfile() });
  return new KioskService({ pack, pipeline, clock, ...(promptTime ? { promptTime } : {}) });
}

describe("the live system prompt's stated time", () => {
  it("is the minute: two passengers of one minute share the system prompt, the session keeps the seconds", () => {
    let now = new Date(2026, 2, 9, 14, 0, 7);
    const kiosk = service(() => now);
    const first = kiosk.setupFor({ system: "marta" });
    now = new Date(2026, 2, 9, 14, 0, 52);
    const second = kiosk.setupFor({ system: "marta" });
    expect(second.systemPrompt).toBe(first.systemPrompt);
    expect(first.systemPrompt).toContain("- Current time: 2026-03-09T14:00:00\n");
    expect(first.context.current_time).toBe("2026-03-09T14:00:07");
    expect(second.context.temporal_context?.current_time).toBe("2026-03-09T14:00:52");
  });

  it("is the prompt warmer's when it has one, and a setup may state a given time", () => {
    const kiosk = service(
      () => new Date(2026, 2, 9, 14, 0, 58),
      () => new Date(2026, 2, 9, 14, 1, 0),
    );
    expect(kiosk.setupFor({ system: "bart" }).systemPrompt).toContain("- Current time: 2026-03-09T14:01:00\n");
    const evening = kiosk.setupFor({ system: "bart", stated: new Date(2026, 2, 10, 18, 30, 0) });
    expect(evening.systemPrompt).toContain("- Current time: 2026-03-10T18:30:00\n- Day: Tuesday\n");
    expect(evening.context.current_time).toBe("2026-03-09T14:00:58");
  });

  it("says where the prompt starts to depend on the clock, for every network", () => {
    for (const system of pack.systemIds) {
      const kiosk = service(() => new Date(2026, 2, 9, 14, 0, 7));
      const a = kiosk.setupFor({ system });
      const b = kiosk.setupFor({ system, stated: new Date(2026, 10, 21, 9, 45, 0) });
      const at = a.systemPromptClockAt ?? -1;
      expect(at).toBe(b.systemPromptClockAt);
      expect(a.systemPrompt.slice(0, at)).toBe(b.systemPrompt.slice(0, at));
      expect(a.systemPrompt.slice(at)).toMatch(/^2026-03-09T14:00:00\n/);
      expect(b.systemPrompt.slice(at)).toMatch(/^2026-11-21T09:45:00\n/);
    }
  });
});

describe("the llm policy and the clock's position", () => {
  class Recorder {
    completions: CompletionRequest[] = [];
    prefills: PrefillRequest[] = [];
    chatTemplate = (): string => pack.chatTemplate();
    complete = async (request: CompletionRequest): Promise<CompletionResult> => {
      this.completions.push(request);
      return { text: "Hello.", finishReason: "stop", grammarTriggered: false, usage: { promptTokens: 1, completionTokens: 1, cachedPromptTokens: 0, ttftMs: 0, prefillMs: 0, decodeMs: 0, totalMs: 0 } };
    };
    prefill = async (request: PrefillRequest): Promise<PrefillResult> => {
      this.prefills.push(request);
      return { promptTokens: 1, cachedTokens: 0, evaluatedTokens: 1, ms: 0, complete: true };
    };
  }

  it("prefills exactly the system turn a session's first prompt starts with, and marks the clock in both", async () => {
    const backend = new Recorder();
    const llm = new LlmPolicy({ backend });
    const setup = service(() => new Date(2026, 2, 9, 14, 0, 7)).setupFor({ system: "cta" });
    await llm.prefill(setup);
    const run = await llm.start(setup);
    await run.next({ messages: [{ role: "system", content: setup.systemPrompt }, { role: "user", content: "Howard to 95th, one adult" }], turns: [] } as never);

    const warm = backend.prefills[0]!;
    const round = backend.completions[0]!;
    expect(round.prompt.startsWith(warm.prompt)).toBe(true);
    expect(warm.prompt.endsWith("<|im_end|>\n")).toBe(true);
    expect(warm.prompt).not.toContain("Howard to 95th");
    for (const request of [warm, round]) {
      const live = request.livePrefixChars ?? -1;
      expect(request.prompt.slice(live)).toMatch(/^2026-03-09T14:00:00\n/);
      expect(request.stablePrefixChars).toBeLessThan(live);
    }
  });

  it("marks no clock where the setup gives none (bench cases)", async () => {
    const backend = new Recorder();
    const setup = service(() => new Date(2026, 2, 9, 14, 0, 7)).setupFor({ system: "cta" });
    delete setup.systemPromptClockAt;
    await new LlmPolicy({ backend }).prefill(setup);
    expect(backend.prefills[0]?.livePrefixChars).toBeUndefined();
  });
});
