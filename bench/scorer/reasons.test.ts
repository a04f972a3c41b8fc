// The scorer's reasons are ours: over every component of the 955 oracle records, not one of our
// sentences is the reference scorer's, every breakdown entry carries a known reason code, and
// the code alone says which sentence it is.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DataPack } from "../../tools/data/datapack.ts";
import { PACK_SYSTEM_IDS } from "../../tools/data/schemas.ts";
import { ORACLE_DIR, SHARED_DATA_DIR } from "../../test/paths.ts";
import { memoryJudgmentCache, REASON_CODES, scoreCase, scoreCaseNoJudge, type Judge } from "./index.ts";
import { because, NOTES } from "./reasons.ts";

const pack = new DataPack(SHARED_DATA_DIR);

interface OracleScores {
  scores: { case_id: string; breakdown: Record<string, { reason: string }> }[];
}

describe("scorer reasons", () => {
  it("never repeat a sentence of the reference scorer, and always carry a known code", () => {
    const theirs = new Set<string>();
    const ours = new Set<string>();
    const codes = new Set<string>();
    for (const system of PACK_SYSTEM_IDS) {
      const oracle = JSON.parse(readFileSync(path.join(ORACLE_DIR, "scores", `${system}.json`), "utf8")) as OracleScores;
      const records = (JSON.parse(readFileSync(path.join(ORACLE_DIR, "rule-agent", `${system}.json`), "utf8")) as { results: { case_id: string }[] }).results;
      const cases = new Map(pack.cases(system).map((c) => [c.id, c]));
      for (const [i, record] of records.entries()) {
        const score = scoreCaseNoJudge(cases.get(record.case_id)!, record, pack.system(system));
        const reference = oracle.scores[i]!;
        for (const [name, entry] of Object.entries(score.breakdown)) {
          theirs.add(reference.breakdown[name]!.reason);
          ours.add(entry.reason);
          codes.add(entry.code);
          expect(REASON_CODES, `${record.case_id} ${name}`).toContain(entry.code);
          expect(entry.reason, `${record.case_id} ${name}`).not.toBe(reference.breakdown[name]!.reason);
        }
      }
    }
    expect(theirs.size).toBeGreaterThan(100);
    expect([...ours].filter((r) => theirs.has(r))).toEqual([]);
    // The 955 records exercise a good part of the codes (the rest are covered by components.test.ts).
    expect(codes.size).toBeGreaterThan(40);
  });

  it("words a judged component after the judge, with its score out of 2", async () => {
    const kase = pack.caseById("MARTA-H-001")!;
    const judge: Judge = { id: "fixed", judge: () => Promise.resolve({ score: 2, reason: "stays on topic" }) };
    const record = { case_id: kase.id, response: { outcome: "refer_to_staff", ui_updates: { assistant_message: "Please ask our staff." } }, tool_calls_made: [] };
    const s = await scoreCase(kase, record, pack.system("marta"), { judge, cache: memoryJudgmentCache(), rubrics: pack.judgeRubrics() });
    const judged = Object.values(s.breakdown).filter((e) => e.code === "judged");
    expect(judged.length).toBeGreaterThan(0);
    for (const e of judged) expect(e.reason).toMatch(/the judge gave 2 of 2: stays on topic$/);
    expect(JSON.stringify(s.breakdown)).not.toContain("Judge: ");
  });

  it("builds a sentence from its code and parameters", () => {
    expect(because("outcome_wrong", { outcome: "advisory_only", expected: "route_and_fare_ready" })).toEqual({
      code: "outcome_wrong",
      reason: 'outcome "advisory_only" given where "route_and_fare_ready" was expected',
    });
    expect(because("route_checked", { notes: [] }).reason).toBe("transfers, distance and lines all match");
    expect(because("route_checked", { notes: [NOTES.transfersOff(1), NOTES.linesMissing] }).reason).toBe("1 transfer off the expected count; no lines given");
    expect(because("tools_unknown", { calls: ["book_taxi", "book_taxi"] }).reason).toBe('called 2 tools that do not exist: "book_taxi", "book_taxi"');
  });
});
