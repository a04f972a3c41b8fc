// A stored case's row: run_cases' columns, the statement that fills them and its values, apart
// from the serialising (case-row.ts) so that the case writer thread loads no schemas.
import type { PreparedCase } from "./case-row.ts";
import type { CaseInsert } from "./store.ts";

/** run_cases' columns as a stored case fills them, in caseRowValues' order. */
const CASE_ROW_COLUMNS = [
  "run_id", "case_id", "seq", "session_id", "system", "category", "partition", "termination", "error",
  "fallback", "rejected_submissions", "api_rounds", "tool_calls", "e2e_ms", "ttft_ms", "input_tokens", "output_tokens", "scored",
  "total", "max_possible", "pct", "tier1_total", "tier1_max", "tier1_pct", "score_note", "score_ms", "ending_json", "transcript_json", "kiosk_json", "score_json", "finished_at",
] as const;

/** The statement that stores one case (replacing an earlier row for the same case); its values are caseRowValues'. */
export const INSERT_CASE_SQL = `INSERT OR REPLACE INTO run_cases (${CASE_ROW_COLUMNS.join(", ")}) VALUES (${CASE_ROW_COLUMNS.map(() => "?").join(", ")})`;

/** Where caseRowValues puts the reference record's JSON text. */
export const TRANSCRIPT_JSON_VALUE = CASE_ROW_COLUMNS.indexOf("transcript_json");

/** A value SQLite stores as is (and a worker thread receives unchanged). */
export type CaseRowValue = string | number | null;

/** INSERT_CASE_SQL's values for one prepared case, in its column order. */
export function caseRowValues(runId: number, c: Pick<CaseInsert, "seq" | "sessionId" | "system" | "category" | "partition" | "finishedAt">, p: PreparedCase): CaseRowValue[] {
  const s = p.score;
  return [
    runId,
    p.caseId,
    c.seq,
    c.sessionId,
    c.system,
    c.category,
    c.partition,
    p.termination,
    p.error,
    p.fallback ? 1 : 0,
    p.rejectedSubmissions,
    p.apiRounds,
    p.toolCalls,
    p.e2eMs,
    p.ttftMs,
    p.inputTokens,
    p.outputTokens,
    s ? 1 : 0,
    s?.total ?? null,
    s?.max_possible ?? null,
    s?.pct ?? null,
    s?.tier1_total ?? null,
    s?.tier1_max ?? null,
    s?.tier1_pct ?? null,
    p.scoreNote,
    p.scoreMs,
    p.endingJson,
    p.transcriptJson,
    p.kioskJson,
    p.scoreJson,
    c.finishedAt,
  ];
}
