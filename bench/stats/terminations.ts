// How the cases of a run ended, counted from its result records (CONTRACT §8 error strings).
import { readRecord } from "../scorer/record.ts";

export interface TerminationCounts {
  records: number;
  /** Records with a non-null `error` (the reference's cases_failed). */
  errors: number;
  /** error = "Exhausted N tool call rounds". */
  exhaustedRounds: number;
  /** `truncated` set, or an error starting "truncated:". */
  truncated: number;
  /** error starting "empty-response retry exhausted". */
  emptyResponseExhausted: number;
  /** error "<HTTP status>: <body>" from the model endpoint. */
  httpErrors: number;
  /** Any other error (a thrown exception, malformed tool arguments, …). */
  otherErrors: number;
  /** Records without an object response (errors included). */
  noResponse: number;
  /** submit_assistant_state calls that came back with an error (rejected submissions). */
  rejectedSubmissions: number;
  /** Records with at least one rejected submission. */
  casesWithRejectedSubmission: number;
  /** Errored calls of the other tools. */
  toolErrors: number;
  /** Σ empty_rounds. */
  emptyRounds: number;
}

const EXHAUSTED = /^Exhausted \d+ tool call rounds$/;
const HTTP_ERROR = /^\d{3}: /;

export function terminationCounts(records: readonly unknown[]): TerminationCounts {
  const c: TerminationCounts = {
    records: 0,
    errors: 0,
    exhaustedRounds: 0,
    truncated: 0,
    emptyResponseExhausted: 0,
    httpErrors: 0,
    otherErrors: 0,
    noResponse: 0,
    rejectedSubmissions: 0,
    casesWithRejectedSubmission: 0,
    toolErrors: 0,
    emptyRounds: 0,
  };
  for (const raw of records) {
    const rec = readRecord(raw);
    c.records++;
    const error = rec.error;
    const truncated = rec.truncated || (error?.startsWith("truncated:") ?? false);
    if (truncated) c.truncated++;
    if (error !== null) {
      c.errors++;
      if (EXHAUSTED.test(error)) c.exhaustedRounds++;
      else if (error.startsWith("empty-response retry exhausted")) c.emptyResponseExhausted++;
      else if (HTTP_ERROR.test(error)) c.httpErrors++;
      else if (!error.startsWith("truncated:")) c.otherErrors++;
    }
    if (rec.response === null) c.noResponse++;
    let rejected = 0;
    for (const call of rec.calls) {
      if (call.error === null || call.error === undefined) continue;
      if (call.name === "submit_assistant_state") rejected++;
      else c.toolErrors++;
    }
    c.rejectedSubmissions += rejected;
    if (rejected > 0) c.casesWithRejectedSubmission++;
    const empty = rec.source["empty_rounds"];
    if (typeof empty === "number") c.emptyRounds += empty;
  }
  return c;
}
