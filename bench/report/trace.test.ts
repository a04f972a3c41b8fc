// The trace viewer's data and page: every case with its conversation (no system prompt), tool
// calls paired with their results, the submission and each component; the per-case comparison.
import { beforeAll, describe, expect, it } from "vitest";
import { SHARED_DATA_DIR } from "../../test/paths.ts";
import { DataPack } from "../../tools/data/datapack.ts";
import { startRun } from "../run/execute.ts";
import { BenchStore } from "../store/store.ts";
import { buildReport } from "./build.ts";
import { renderReportHtml } from "./html.ts";
import { caseTraces, clip, type CaseTrace } from "./trace.ts";

const pack = new DataPack(SHARED_DATA_DIR);
let store: BenchStore;
let run: number;
let base: number;
let traces: CaseTrace[];

beforeAll(async () => {
  store = BenchStore.open(":memory:");
  base = (await startRun({ pack, store, policy: "rule-ref", selection: { systems: ["cta"], categories: ["C", "I"] } })).runId;
  run = (await startRun({ pack, store, policy: "rule", selection: { systems: ["cta"], categories: ["C", "I"] } })).runId;
  traces = caseTraces(store, run);
  return () => store.close();
});

describe("case traces", () => {
  it("hold every case: conversation without the system prompt, tool results named by their call, the submission and components", () => {
    expect(traces.map((t) => t.caseId)).toEqual(store.cases(run).map((c) => c.caseId));
    const t = traces.find((x) => x.conversation.some((m) => m.toolName === "route_planner"))!;
    expect(t.systemPromptChars).toBeGreaterThan(1000);
    expect(t.conversation[0]!.role).toBe("user");
    expect(t.conversation.some((m) => m.text.includes("You are"))).toBe(false);
    const call = t.conversation.flatMap((m) => m.toolCalls).find((c) => c.name === "route_planner")!;
    expect(JSON.parse(call.arguments)).toHaveProperty("origin");
    const result = t.conversation.find((m) => m.role === "tool" && m.toolCallId === call.id)!;
    expect(result.toolName).toBe("route_planner");
    expect(JSON.parse(result.text)).toHaveProperty("stops");
    expect(t.submission).toMatchObject({ outcome: expect.any(String), kiosk_action: expect.anything() });
    const stored = store.casesWithScores(run).find((c) => c.caseId === t.caseId)!;
    expect(t.components.map((c) => c.name)).toEqual(Object.keys(stored.score!.breakdown));
    expect(t.passed).toBe(stored.tier1Pct === 100);
  });

  it("cuts very long texts with a note", () => {
    expect(clip("x".repeat(10), 4)).toBe("xxxx\n… (6 more characters)");
  });

  it("the page lists every case, marks the failed ones, and with --compare shows the per-case table", () => {
    const html = renderReportHtml(buildReport(store, base, { compareWith: run }), { traces: caseTraces(store, base) });
    expect(html.match(/<details class="case (pass|fail)"/g)).toHaveLength(traces.length);
    const failed = caseTraces(store, base).filter((t) => !t.passed).length;
    expect(html).toContain(`Failed only (${failed})`);
    expect(html).toContain(`<h2 id="case-differences">Per case: run ${base} vs run ${run}</h2>`);
    expect(html).not.toMatch(/<script|\son[a-z]+=|\sstyle=/i);
  });
});
