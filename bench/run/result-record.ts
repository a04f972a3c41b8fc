// One case's record as a results file carries it: the stored reference record's JSON text with the
// kiosk's verdict spliced in as its last key. Types only besides that, so the case writer thread
// can assemble results files without loading the data-pack schemas.
import type { KioskVerdict, ReferenceRecord } from "../../runtime/session/record.ts";

/** The kiosk's verdict on a case's answer, as `--out` writes it. */
export interface KioskVerdictOut {
  purchasable: boolean;
  interlock_problems: string[];
  decided_by: "rule" | "model" | "rule-fallback";
  fallback: boolean;
}

export type ResultRecord = ReferenceRecord & { kiosk?: KioskVerdictOut };

/** The kiosk's verdict in `--out`'s spelling. */
function verdictOut(verdict: KioskVerdict): KioskVerdictOut {
  return { purchasable: verdict.purchasable, interlock_problems: verdict.interlockProblems, decided_by: verdict.decidedBy, fallback: verdict.fallback };
}

/**
 * A stored reference record's JSON text as `--out` writes it: unchanged, or with the kiosk's
 * verdict appended as its last key (spliced: the record is not parsed).
 */
export function resultRecordJson(referenceJson: string, verdictJson: string | null): string {
  if (verdictJson === null) return referenceJson;
  const kiosk = JSON.stringify(verdictOut(JSON.parse(verdictJson) as KioskVerdict));
  // A reference record always has its fields (case_id, response, …), so it never ends in "{}".
  return `${referenceJson.slice(0, -1)},"kiosk":${kiosk}}`;
}

/** A results file's text around its records: `head`, the records joined by ",", then RESULTS_TAIL. */
export const RESULTS_TAIL = "]}\n";
