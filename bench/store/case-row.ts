// One finished case as the bench database stores it: the key columns and the JSON documents —
// the transcript (the reference record), our additions, the score and the ending. The ~15 KB of a
// case's JSON is serialised once (serialiseCaseDocuments, on the case writer thread when there is
// one): the row stores it and `--out` reuses the same text instead of reading it back.
import { toReferenceRecord, type SessionRecord } from "../../runtime/session/record.ts";
import type { CaseScore } from "../scorer/index.ts";
import { terminationCounts } from "../stats/terminations.ts";
import type { CaseDocuments, CaseFacts } from "./case-columns.ts";
import type { StoredCase } from "./store.ts";

/** The row's key columns (as StoredCase reads them back). */
export interface CaseKey
  extends Pick<StoredCase, "caseId" | "termination" | "error" | "fallback" | "rejectedSubmissions" | "apiRounds" | "toolCalls" | "e2eMs" | "ttftMs" | "inputTokens" | "outputTokens" | "scoreNote" | "scoreMs"> {
  /** The score's totals (all null when not scored). */
  score: Pick<CaseScore, "total" | "max_possible" | "pct" | "tier1_total" | "tier1_max" | "tier1_pct"> | null;
}

export interface CaseOutcome {
  record: SessionRecord;
  score: CaseScore | null;
  scoreNote: string | null;
  scoreMs: number;
}

/** A finished case's key columns and its documents, not yet serialised. */
export function caseParts(c: CaseOutcome): { key: CaseKey; documents: CaseDocuments } {
  const r = c.record;
  const s = c.score;
  return {
    key: {
      caseId: r.case_id,
      termination: r.kiosk.termination,
      error: r.error,
      fallback: r.kiosk.fallback,
      rejectedSubmissions: r.kiosk.rejectedSubmissions,
      apiRounds: r.api_rounds,
      toolCalls: r.tool_calls_made.length,
      e2eMs: r.e2e_ms,
      ttftMs: r.ttft_ms,
      inputTokens: r.input_tokens,
      outputTokens: r.output_tokens,
      score: s ? { total: s.total, max_possible: s.max_possible, pct: s.pct, tier1_total: s.tier1_total, tier1_max: s.tier1_max, tier1_pct: s.tier1_pct } : null,
      scoreNote: c.scoreNote,
      scoreMs: c.scoreMs,
    },
    documents: {
      ending: terminationCounts([r]),
      transcript: toReferenceRecord(r),
      kiosk: r.kiosk,
      score: s,
      verdict: r.kiosk.verdict ?? null,
    },
  };
}

/**
 * The case as BenchStore.cases reads its row back, from the parts the row is made of: what a
 * caseWriter hands back for each case it stores, so that a run's summary needs no read-back.
 */
export function storedCaseOf(facts: CaseFacts, key: CaseKey, ending: CaseDocuments["ending"]): StoredCase {
  // Every field named, not `{ ...columns, … }`: V8 (Node 20) gives an object spread followed by
  // further properties a new hidden class at each call, which made this ~70 µs a case cold.
  const score = key.score;
  return {
    caseId: key.caseId,
    termination: key.termination,
    error: key.error,
    fallback: key.fallback,
    rejectedSubmissions: key.rejectedSubmissions,
    apiRounds: key.apiRounds,
    toolCalls: key.toolCalls,
    e2eMs: key.e2eMs,
    ttftMs: key.ttftMs,
    inputTokens: key.inputTokens,
    outputTokens: key.outputTokens,
    scoreNote: key.scoreNote,
    scoreMs: key.scoreMs,
    seq: facts.seq,
    system: facts.system,
    category: facts.category,
    partition: facts.partition,
    finishedAt: facts.finishedAt,
    scored: score !== null,
    total: score?.total ?? null,
    maxPossible: score?.max_possible ?? null,
    pct: score?.pct ?? null,
    tier1Total: score?.tier1_total ?? null,
    tier1Max: score?.tier1_max ?? null,
    tier1Pct: score?.tier1_pct ?? null,
    ending,
  };
}
