// Malformed records: the scorer never throws, scores what it can and flags the rest.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DataPack } from "../../tools/data/datapack.ts";
import { ORACLE_DIR, SHARED_DATA_DIR } from "../../test/paths.ts";
import { readRecord, ResultRecordSchema, scoreCaseNoJudge, type CaseScore } from "./index.ts";

const pack = new DataPack(SHARED_DATA_DIR);
const kase = pack.caseById("MARTA-C-002");
if (!kase) throw new Error("no MARTA-C-002");
const marta = pack.system("marta");
const score = (record: unknown): CaseScore => scoreCaseNoJudge(kase, record, marta);

const good = {
  outcome: "advisory_only",
  kiosk_action: { action: "display_info", reason_code: "ok" },
  ui_updates: { route: { transfers: 0, distance_miles: 6.79, line_sequence: ["red"] }, advisory_banners: [], assistant_message: "Midtown closed" },
};

describe("record reader", () => {
  it("the oracle's records are well-formed ResultRecords and raise no flags", () => {
    const results = (JSON.parse(readFileSync(path.join(ORACLE_DIR, "rule-agent", "doha.json"), "utf8")) as { results: unknown[] }).results;
    for (const r of results) {
      expect(ResultRecordSchema.safeParse(r).success).toBe(true);
      expect(readRecord(r).flags).toEqual([]);
    }
  });

  it("normalises names and arguments, keeping the calls in order", () => {
    const rec = readRecord({
      case_id: "X",
      response: { ui_updates: null },
      tool_calls_made: [{ arguments: { a: 1 } }, "junk", { name: "route_planner", arguments: '{"origin": "A"}' }, { name: 5 }],
    });
    expect(rec.calls.map((c) => c.name)).toEqual(["", "route_planner", ""]);
    expect(rec.calls[1]?.args).toEqual({});
    expect(rec.ui).toEqual({});
    expect(rec.flags).toHaveLength(5);
  });
});

describe("malformed records never throw", () => {
  const malformed: [string, unknown][] = [
    ["null record", null],
    ["string record", "oops"],
    ["record without fields", {}],
    ["non-object response", { case_id: kase.id, response: "route_and_fare_ready", tool_calls_made: [] }],
    ["list response", { case_id: kase.id, response: [good], tool_calls_made: [] }],
    ["null ui_updates", { case_id: kase.id, response: { ...good, ui_updates: null }, tool_calls_made: [] }],
    ["string ui_updates", { case_id: kase.id, response: { ...good, ui_updates: "route" }, tool_calls_made: [] }],
    ["kiosk_action a string", { case_id: kase.id, response: { ...good, kiosk_action: "display_info" }, tool_calls_made: [] }],
    ["route a string", { case_id: kase.id, response: { ...good, ui_updates: { ...good.ui_updates, route: "A to B" } }, tool_calls_made: [] }],
    ["transfers and distance as strings", { case_id: kase.id, response: { ...good, ui_updates: { ...good.ui_updates, route: { transfers: "1", distance_miles: "6.8 mi", line_sequence: 7 } } } }],
    ["fare_quote a list", { case_id: kase.id, response: { ...good, ui_updates: { ...good.ui_updates, fare_quote: [1, 2] } } }],
    ["banners a string", { case_id: kase.id, response: { ...good, ui_updates: { ...good.ui_updates, advisory_banners: "warning!" } } }],
    ["banner entries not objects", { case_id: kase.id, response: { ...good, ui_updates: { ...good.ui_updates, advisory_banners: ["warning", { severity: 3 }] } } }],
    ["tool_calls_made null", { case_id: kase.id, response: good, tool_calls_made: null }],
    ["call without a name", { case_id: kase.id, response: good, tool_calls_made: [{ arguments: {} }] }],
    ["arguments not objects", { case_id: kase.id, response: good, tool_calls_made: [{ name: "route_planner", arguments: "x" }, { name: "route_planner", arguments: null }] }],
  ];

  for (const [what, record] of malformed) {
    it(what, () => {
      let s: CaseScore | undefined;
      expect(() => (s = score(record))).not.toThrow();
      expect(s?.flags.length).toBeGreaterThan(0);
      expect(Number.isFinite(s?.pct)).toBe(true);
      expect(Object.keys(s?.breakdown ?? {})).toContain("renderable_state_validity");
    });
  }

  it("scores what can be scored: a nameless call still counts as a (hallucinated) call", () => {
    const s = score({ case_id: kase.id, response: good, tool_calls_made: [{ arguments: {} }, { name: "disruption_feed" }] });
    expect(s.breakdown["disruption_detected"]?.score).toBe(15);
    expect(s.breakdown["no_tool_hallucination"]?.score).toBe(5);
    expect(s.flags).toEqual(["tool_calls_made[0] has no name (counted as an unknown tool)"]);
  });

  it("a submit result that is not an object counts as not accepted (flagged where it is read)", () => {
    const g = pack.caseById("MARTA-G-001");
    if (!g) throw new Error("no MARTA-G-001");
    const submit = (result: unknown): unknown => ({ name: "submit_assistant_state", arguments: {}, result, error: null });
    const calls = [submit({ accepted: true }), { name: "route_planner" }, submit("accepted")];
    const s = scoreCaseNoJudge(g, { case_id: g.id, response: good, tool_calls_made: calls }, marta);
    expect(s.breakdown["context_update_detected"]?.score).toBe(0);
    expect(s.flags).toEqual(["a submit_assistant_state result is not an object (not accepted)"]);
    // On a case that does not read it, nothing is flagged.
    expect(score({ case_id: kase.id, response: good, tool_calls_made: calls }).flags).toEqual([]);
  });

  it("flags a record scored against another case, and a case without an answer key", () => {
    expect(score({ case_id: "MARTA-A-001", response: good, tool_calls_made: [] }).flags).toEqual(["record case_id MARTA-A-001 is not the case's id MARTA-C-002"]);
    const { ground_truth: _gt, ...bare } = kase;
    const s = scoreCaseNoJudge(bare as typeof kase, { case_id: kase.id, response: good, tool_calls_made: [] }, marta);
    expect(s.flags).toEqual(["case has no ground_truth (scored against an empty answer key)"]);
    expect(Object.keys(s.breakdown)).toContain("route_correct");
  });

  it("a non-object response is scored as no response, with raw_content kept", () => {
    const s = score({ case_id: kase.id, response: "hello", raw_content: "hello", tool_calls_made: [] });
    expect(s.breakdown["renderable_state_validity"]).toMatchObject({ score: 0, code: "state_not_json" });
    expect(s.flags[0]).toMatch(/response is a string/);
  });

  it("an unparseable line item fare or passenger count is flagged, not fatal", () => {
    const a = pack.caseById("MARTA-A-001");
    if (!a) throw new Error("no MARTA-A-001");
    const response = {
      ...good,
      outcome: "route_and_fare_ready",
      ui_updates: {
        ...good.ui_updates,
        fare_quote: { total: 2.5, line_items: [{ rider_type: "adult", count: 1, unit_fare: null }], passenger_summary: { adults: "one", children: null } },
      },
    };
    const s = scoreCaseNoJudge(a, { case_id: a.id, response, tool_calls_made: [] }, marta);
    expect(s.breakdown["fare_breakdown_correct"]?.score).toBe(0);
    expect(s.breakdown["passenger_summary_correct"]?.score).toBe(0);
    expect(s.flags.some((f) => f.includes("unit_fare"))).toBe(true);
    expect(s.flags.some((f) => f.includes("passenger_summary.children"))).toBe(true);
  });
});
