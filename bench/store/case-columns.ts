// A stored case's row: run_cases' columns, the statement that fills them and its values, and the
// serialising of its JSON documents, apart from their assembly from a session record
// (case-row.ts) so that the case writer thread, which serialises them, loads no schemas.
import type { TerminationCounts } from "../stats/terminations.ts";
import type { CaseKey } from "./case-row.ts";
import type { CaseInsert } from "./store.ts";

/** A value SQLite stores as is (and a worker thread receives unchanged). */
export type CaseRowValue = string | number | null;

/** What the row says of the case besides its outcome. */
export type CaseFacts = Pick<CaseInsert, "seq" | "sessionId" | "system" | "category" | "partition" | "finishedAt">;

export function caseFacts(c: CaseFacts): CaseFacts {
  return { seq: c.seq, sessionId: c.sessionId, system: c.system, category: c.category, partition: c.partition, finishedAt: c.finishedAt };
}

/**
 * A case's JSON documents before serialising. Plain data only (no class instances, no toJSON), so
 * that a worker thread receiving a structured clone serialises exactly the same text.
 */
export interface CaseDocuments {
  ending: TerminationCounts;
  /** The reference record (the reference runner's result format). */
  transcript: unknown;
  kiosk: unknown;
  score: unknown;
  /** The kiosk's verdict alone (kiosk.verdict), which --out files splice in. */
  verdict: unknown;
}

/** The documents' JSON text; score and verdict are null when the case has none. */
export interface CaseDocumentsJson {
  endingJson: string;
  transcriptJson: string;
  kioskJson: string;
  scoreJson: string | null;
  verdictJson: string | null;
}

export function serialiseCaseDocuments(d: CaseDocuments): CaseDocumentsJson {
  return {
    endingJson: JSON.stringify(d.ending),
    transcriptJson: JSON.stringify(d.transcript),
    kioskJson: JSON.stringify(d.kiosk),
    scoreJson: d.score === null || d.score === undefined ? null : JSON.stringify(d.score),
    verdictJson: d.verdict === null || d.verdict === undefined ? null : JSON.stringify(d.verdict),
  };
}

/** A case ready for its row: its key columns and its documents' text. */
export type PreparedCase = CaseKey & CaseDocumentsJson;

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

/**
 * The statement that stores one case; its values are caseRowValues'. A plain INSERT: a run stores
 * each case once (a resume skips the stored ones), and `OR REPLACE` made SQLite journal every
 * statement (≈ 83 MB of temporary-file writes for a 955-case run's 20 MB of rows).
 */
export const INSERT_CASE_SQL = `INSERT INTO run_cases (${CASE_ROW.map(([column]) => column).join(", ")}) VALUES (${CASE_ROW.map(() => "?").join(", ")})`;

/** INSERT_CASE_SQL's values for one prepared case, in its column order. */
export function caseRowValues(runId: number, c: CaseFacts, p: PreparedCase): CaseRowValue[] {
  return CASE_ROW.map(([, value]) => value(runId, c, p));
}
