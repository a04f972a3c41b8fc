// A case's documents cross to the case writer thread as a structured clone and are serialised
// there: that is only the caller's text if the documents are plain data. These sessions cover the
// policies a bench runs: the rule policies, a model's string arguments with float literals (which
// parse to PyFloat before they are stripped) and the answer pipeline with its verdict.
import { describe, expect, it } from "vitest";
import { SHARED_DATA_DIR } from "../../test/paths.ts";
import { DataPack } from "../../tools/data/datapack.ts";
import { PyFloat } from "../../tools/py/number.ts";
import { answerCase } from "../../runtime/answer/case.ts";
import { AnswerPipeline } from "../../runtime/answer/pipeline.ts";
import { rulePolicy } from "../../runtime/policies/rule/index.ts";
import { ruleRefPolicy } from "../../runtime/policies/rule-ref.ts";
import { runCase } from "../../runtime/session/case.ts";
import type { Policy, PolicyStep } from "../../runtime/session/policy.ts";
import type { Case } from "../../tools/data/schemas.ts";
import { withKioskVerdict } from "../run/runner.ts";
import { scoreCaseNoJudge } from "../scorer/index.ts";
import { toReferenceRecord, type SessionRecord } from "../../runtime/session/record.ts";
import { serialiseCaseDocuments } from "./case-columns.ts";
import { terminationCounts } from "../stats/terminations.ts";
import { caseParts, type CaseOutcome } from "./case-row.ts";

const pack = new DataPack(SHARED_DATA_DIR);
/** Two cases of each category of every system: every ground-truth and tool shape. */
const sample: Case[] = [];
for (const system of pack.systemIds) {
  const seen = new Map<string, number>();
  for (const c of pack.cases(system)) {
    const n = seen.get(c.category) ?? 0;
    if (n < 2) sample.push(c);
    seen.set(c.category, n + 1);
  }
}

/** A model-like policy: string arguments with float literals ("2.0", "1e1") for a tool and the submission. */
const floatLiteralModel: Policy = {
  id: "float-literals",
  start: () => {
    const steps: PolicyStep[] = [
      { type: "tool_calls", calls: [{ id: "c0", name: "fare_calculator", arguments: '{"origin": "Airport", "destination": "Five Points", "passenger_type": "adult", "quantity": 2.0}' }] },
      {
        type: "tool_calls",
        calls: [
          {
            id: "c1",
            name: "submit_assistant_state",
            arguments:
              '{"outcome": "route_and_fare", "route": {"stops": [], "estimated_minutes": 1e1, "distance_miles": 3.0}, "fare_quote": {"total": 5.0, "currency": "USD", "breakdown": []}, "kiosk_action": {"action": "offer_purchase", "reason_code": "ok"}, "assistant_message": "Two adult fares."}',
          },
        ],
      },
    ];
    let i = 0;
    return { next: async () => steps[i++] ?? { type: "done" } };
  },
};

function outcome(kase: Case, record: SessionRecord): CaseOutcome {
  return { record, score: scoreCaseNoJudge(kase, toReferenceRecord(record), pack.system(kase.system)), scoreNote: null, scoreMs: 1 };
}

function expectSameTextAfterCloning(o: CaseOutcome): void {
  const { documents } = caseParts(o);
  expect(serialiseCaseDocuments(structuredClone(documents)), o.record.case_id).toEqual(serialiseCaseDocuments(documents));
}

describe("a stored case's documents (caseParts)", () => {
  it("are plain data for the rule policies: a clone serialises to the same text", async () => {
    for (const kase of sample) {
      for (const policy of [rulePolicy, ruleRefPolicy]) {
        const record = withKioskVerdict(pack, kase, await runCase(pack, kase, policy), "rule");
        expect(record.kiosk.verdict).toBeDefined();
        expectSameTextAfterCloning(outcome(kase, record));
      }
    }
  });

  it("are plain data for a model's float literals and for the answer pipeline's records", async () => {
    const kase = pack.caseById("MARTA-A-001")!;
    const modelRecord = withKioskVerdict(pack, kase, await runCase(pack, kase, floatLiteralModel), "model");
    expect(modelRecord.tool_calls_made.map((c) => c.name)).toEqual(["fare_calculator", "submit_assistant_state"]);
    expectSameTextAfterCloning(outcome(kase, modelRecord));
    const pipeline = new AnswerPipeline({ rule: rulePolicy, assistant: { mode: "hybrid", policy: () => floatLiteralModel }, profile: pack.promptProfile(), log: () => undefined });
    for (const c of sample.slice(0, 12)) expectSameTextAfterCloning(outcome(c, await answerCase(pipeline, pack, c)));
  });

  it("would not survive the clone with a class instance in them (what the checks above rule out)", () => {
    const documents = { ending: terminationCounts([]), transcript: { fare: new PyFloat(2) }, kiosk: {}, score: null, verdict: null };
    expect(serialiseCaseDocuments(documents).transcriptJson).toBe('{"fare":2}');
    expect(serialiseCaseDocuments(structuredClone(documents)).transcriptJson).toBe('{"fare":{"value":2}}');
  });
});
