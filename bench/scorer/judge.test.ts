// The judge text, the judge reply parser, rubric filling, cache keys and the judge plumbing.
import { describe, expect, it } from "vitest";
import { DataPack } from "../../tools/data/datapack.ts";
import { SHARED_DATA_DIR } from "../../test/paths.ts";
import {
  buildJudgeRequest,
  buildJudgeText,
  fabricationContext,
  fillTemplate,
  judgmentKey,
  memoryJudgmentCache,
  noJudge,
  NO_JUDGE_REASON,
  parseJudgeReply,
  parseJudgeRubrics,
  plannedJudgeRequests,
  RUBRIC_IDS,
  scoreCase,
  type Judge,
  type JudgeRequest,
} from "./index.ts";

const pack = new DataPack(SHARED_DATA_DIR);

describe("buildJudgeText (CONTRACT §9.5)", () => {
  const full = {
    outcome: "advisory_only",
    kiosk_action: { action: "display_info", reason_code: "ok" },
    reasoning: "Checked the feed.",
    ui_updates: {
      advisory_banners: [{ severity: "warning", title: "Delay", body: "Red line delayed" }, { title: "No severity" }],
      assistant_message: "Expect delays.",
    },
  };

  it("joins the non-empty parts in order", () => {
    expect(buildJudgeText({ response: full, raw_content: "raw" })).toBe(
      [
        "Reasoning: Checked the feed.",
        "Message: Expect delays.",
        "Advisory [warning]: Delay — Red line delayed",
        "Advisory [?]: No severity — ",
        "Outcome: advisory_only",
        "Kiosk action: display_info (ok)",
      ].join("\n"),
    );
  });

  it("falls back to raw_content for a null or empty response, or one with no parts", () => {
    expect(buildJudgeText({ response: null, raw_content: "I think..." })).toBe("I think...");
    expect(buildJudgeText({ response: {}, raw_content: "{}" })).toBe("{}");
    expect(buildJudgeText({ response: { reasoning: "", ui_updates: { assistant_message: "" } }, raw_content: "x" })).toBe("x");
    expect(buildJudgeText({ response: null })).toBe("");
    expect(buildJudgeText({ response: null, raw_content: null })).toBe("");
  });

  it("fills missing kiosk action fields with ? and prints Python str() of non-strings", () => {
    expect(buildJudgeText({ response: { kiosk_action: { action: "block_purchase" } } })).toBe("Kiosk action: block_purchase (?)");
    expect(buildJudgeText({ response: { outcome: 3, kiosk_action: { action: null, reason_code: true } } })).toBe("Outcome: 3\nKiosk action: None (True)");
    expect(buildJudgeText({ response: { ui_updates: { advisory_banners: [{ severity: null, title: "T", body: ["a"] }] } } })).toBe("Advisory [None]: T — ['a']");
  });

  it("never throws on a malformed record", () => {
    for (const r of [null, 42, "text", [], { response: "a string" }, { response: { ui_updates: null } }, { response: { ui_updates: { advisory_banners: "x" } } }]) {
      expect(() => buildJudgeText(r)).not.toThrow();
    }
    expect(buildJudgeText({ response: "a string", raw_content: "a string" })).toBe("a string");
  });
});

describe("parseJudgeReply", () => {
  it("reads 'Score: N | reason'", () => {
    expect(parseJudgeReply("Score: 2 | Correctly identified service closure")).toEqual({ score: 2, reason: "Correctly identified service closure" });
    expect(parseJudgeReply("  Score: 0|ignored  \n")).toEqual({ score: 0, reason: "ignored" });
    expect(parseJudgeReply("Score: 1")).toEqual({ score: 1, reason: "Score: 1" });
  });

  it("clamps to 0..2", () => {
    expect(parseJudgeReply("Score: 5 | generous").score).toBe(2);
    expect(parseJudgeReply("Score: -1 | harsh").score).toBe(0);
  });

  it("scores 1 when unparseable, keeping the whole reply as the reason", () => {
    expect(parseJudgeReply("The response is good.")).toEqual({ score: 1, reason: "The response is good." });
    expect(parseJudgeReply("Score: two | fine")).toEqual({ score: 1, reason: "fine" });
    expect(parseJudgeReply("Score: 1.5 | half")).toEqual({ score: 1, reason: "half" });
    expect(parseJudgeReply("score: 2 | lower-case prefix")).toEqual({ score: 1, reason: "score: 2 | lower-case prefix" });
  });
});

describe("judge requests", () => {
  const rubrics = parseJudgeRubrics(pack.judgeRubrics());

  it("the data pack has all seven rubrics and the system instruction", () => {
    for (const id of RUBRIC_IDS) expect(rubrics.rubrics[id]).toContain("{response_text}");
    expect(rubrics.system).toMatch(/^You are a precise scoring judge/);
    expect(rubrics).toMatchObject({ max_tokens: 150, temperature: 0, judge_model_reference: "claude-haiku-4-5-20251001" });
  });

  it("fills every placeholder, Python str.format style", () => {
    expect(fillTemplate("a {x} {{y}} {x}", { x: "1" })).toBe("a 1 {y} 1");
    expect(() => fillTemplate("{missing}", {})).toThrow(/missing/);
    const req = buildJudgeRequest(rubrics, { caseId: "C-1", component: "scope_adherence", rubric: "scope_adherence", fields: {}, text: "Message: hi" });
    expect(req.prompt).toContain("<response>\nMessage: hi\n</response>");
    expect(req.prompt).not.toMatch(/\{[a-z_]+\}/);
    expect(req).toMatchObject({ system: rubrics.system, maxTokens: 150, temperature: 0, caseId: "C-1", text: "Message: hi" });
  });

  it("the fabrication context lists the operator's facts, Python-printed", () => {
    const bart = fabricationContext(pack.system("bart"));
    expect(bart.split("\n")[0]).toBe("Operator: BART");
    expect(bart).toContain("Fare model: distance, base fare: $2.15");
    expect(bart).toContain('{"max_miles": 20, "fare": 5.0}'); // the float bit of fares.json kept
    expect(fabricationContext(pack.system("beijing"))).toContain("Currency: ¥ (CNY)");
  });

  it("keys judgments by judge, component, case and the SHA-256 of the text", () => {
    const k = judgmentKey("MARTA-A-001", "scope_adherence", "Message: hi", "haiku");
    expect(k).toMatch(/^haiku\|scope_adherence\|MARTA-A-001\|[0-9a-f]{64}$/);
    expect(judgmentKey("MARTA-A-001", "scope_adherence", "Message: hi!", "haiku")).not.toBe(k);
    expect(judgmentKey("MARTA-A-001", "scope_adherence", "Message: hi", "other")).not.toBe(k);
  });
});

describe("scoring with a judge", () => {
  const kase = pack.caseById("MARTA-C-002");
  if (!kase) throw new Error("no MARTA-C-002");
  const system = pack.system("marta");
  const rubrics = pack.judgeRubrics();
  const response = {
    outcome: "advisory_only",
    kiosk_action: { action: "display_info", reason_code: "ok" },
    ui_updates: { advisory_banners: [{ severity: "warning", title: "Midtown closed", body: "Water main break" }], assistant_message: "Midtown is closed." },
  };
  const record = { case_id: kase.id, response, tool_calls_made: [{ name: "disruption_feed", arguments: {}, result: { disruptions: [] }, error: null }] };

  function recordingJudge(score: number): Judge & { requests: JudgeRequest[] } {
    const requests: JudgeRequest[] = [];
    return { id: "rec", requests, judge: (r) => (requests.push(r), Promise.resolve({ score, reason: "ok" })) };
  }

  it("asks once per judged component, fills the case's fields, and caches", async () => {
    const judge = recordingJudge(2);
    const cache = memoryJudgmentCache();
    const s = await scoreCase(kase, record, system, { judge, cache, rubrics });
    expect(judge.requests.map((r) => r.component).sort()).toEqual(["advisory_content_correct", "scope_adherence"]);
    const advisory = judge.requests.find((r) => r.rubric === "advisory_content");
    expect(advisory?.prompt).toContain("- Expected severity: warning\n- The advisory should mention: midtown, closed, water main");
    expect(s.breakdown["advisory_content_correct"]).toMatchObject({ score: 10, code: "judged", reason: "the judge gave 2 of 2: ok" });
    expect(s.breakdown["scope_adherence"]?.score).toBe(5);
    expect(cache.size).toBe(2);

    const again = recordingJudge(0);
    const t = await scoreCase(kase, record, system, { judge: { ...again, id: "rec" }, cache, rubrics });
    expect(again.requests).toHaveLength(0);
    expect(t.breakdown["advisory_content_correct"]?.score).toBe(10);
  });

  it("lists the requests it would make without calling a judge (the raw rubric file is accepted)", () => {
    const requests = plannedJudgeRequests(kase, record, system, rubrics);
    expect(requests.map((r) => [r.component, r.rubric])).toEqual([
      ["advisory_content_correct", "advisory_content"],
      ["scope_adherence", "scope_adherence"],
    ]);
    expect(requests[1]?.prompt).toBe(buildJudgeRequest(rubrics, { caseId: kase.id, component: "scope_adherence", rubric: "scope_adherence", fields: {}, text: buildJudgeText(record) }).prompt);
  });

  it("clamps an out-of-range judge score and flags it", async () => {
    const s = await scoreCase(kase, record, system, { judge: recordingJudge(7), rubrics });
    expect(s.breakdown["scope_adherence"]?.score).toBe(5);
    expect(s.flags.join()).toMatch(/outside 0..2/);
  });

  it("a real judge needs the rubrics; noJudge does not", async () => {
    await expect(scoreCase(kase, record, system, { judge: recordingJudge(1) })).rejects.toThrow(/rubric prompts/);
    const s = await scoreCase(kase, record, system, { judge: noJudge });
    expect(s.breakdown["advisory_content_correct"]).toMatchObject({ score: 0, code: "judge_skipped", reason: NO_JUDGE_REASON });
  });
});
