// A stored case's row: run_cases' columns, the statement that fills them and its values, apart
// from the serialising (case-row.ts) so that the case writer thread loads no schemas.
import type { PreparedCase } from "./case-row.ts";
import type { CaseInsert } from "./store.ts";

/** A value SQLite stores as is (and a worker thread receives unchanged). */
export type CaseRowValue = string | number | null;

type CaseFacts = Pick<CaseInsert, "seq" | "sessionId" | "system" | "category" | "partition" | "finishedAt">;

/** run_cases' columns as a stored case fills them, each beside where its value comes from: one list, so the two cannot drift apart. */
const CASE_ROW: readonly (readonly [column: string, value: (runId: number, c: CaseFacts, p: PreparedCase) => CaseRowValue])[] = [
  ["run_id", (runId) => runId],
  ["case_id", (_r, _c, p) => p.caseId],
  ["seq", (_r, c) => c.seq],
  ["session_id", (_r, c) => c.sessionId],
  ["system", (_r, c) => c.system],
  ["category", (_r, c) => c.category],
  ["partition", (_r, c) => c.partition],
  ["termination", (_r, _c, p) => p.termination],
  ["error", (_r, _c, p) => p.error],
  ["fallback", (_r, _c, p) => (p.fallback ? 1 : 0)],
  ["rejected_submissions", (_r, _c, p) => p.rejectedSubmissions],
  ["api_rounds", (_r, _c, p) => p.apiRounds],
  ["tool_calls", (_r, _c, p) => p.toolCalls],
  ["e2e_ms", (_r, _c, p) => p.e2eMs],
  ["ttft_ms", (_r, _c, p) => p.ttftMs],
  ["input_tokens", (_r, _c, p) => p.inputTokens],
  ["output_tokens", (_r, _c, p) => p.outputTokens],
  ["scored", (_r, _c, p) => (p.score ? 1 : 0)],
  ["total", (_r, _c, p) => p.score?.total ?? null],
  ["max_possible", (_r, _c, p) => p.score?.max_possible ?? null],
  ["pct", (_r, _c, p) => p.score?.pct ?? null],
  ["tier1_total", (_r, _c, p) => p.score?.tier1_total ?? null],
  ["tier1_max", (_r, _c, p) => p.score?.tier1_max ?? null],
  ["tier1_pct", (_r, _c, p) => p.score?.tier1_pct ?? null],
  ["score_note", (_r, _c, p) => p.scoreNote],
  ["score_ms", (_r, _c, p) => p.scoreMs],
  ["ending_json", (_r, _c, p) => p.endingJson],
  ["transcript_json", (_r, _c, p) => p.transcriptJson],
  ["kiosk_json", (_r, _c, p) => p.kioskJson],
  ["score_json", (_r, _c, p) => p.scoreJson],
  ["finished_at", (_r, c) => c.finishedAt],
];

/** The statement that stores one case (replacing an earlier row for the same case); its values are caseRowValues'. */
export const INSERT_CASE_SQL = `INSERT OR REPLACE INTO run_cases (${CASE_ROW.map(([column]) => column).join(", ")}) VALUES (${CASE_ROW.map(() => "?").join(", ")})`;

/** Where caseRowValues puts the reference record's JSON text. */
export const TRANSCRIPT_JSON_VALUE = CASE_ROW.findIndex(([column]) => column === "transcript_json");

/** INSERT_CASE_SQL's values for one prepared case, in its column order. */
export function caseRowValues(runId: number, c: CaseFacts, p: PreparedCase): CaseRowValue[] {
  return CASE_ROW.map(([, value]) => value(runId, c, p));
}
