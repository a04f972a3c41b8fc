// Scoring a whole reference-format results file without a judge, into the reference scorer's
// output shape (`kiosk bench score`, cli/bench-score.ts, reads and writes the files).
import type { Case } from "../../tools/data/schemas.ts";
import type { SystemData } from "../../tools/data/system.ts";
import { pyRound } from "../../tools/py/index.ts";
import { computeMetrics, type Metrics } from "../stats/aggregate.ts";
import { dget, isDict } from "./pyvalues.ts";
import { ResultsFileSchema } from "./record.ts";
import { scoreCaseNoJudge, toReferenceScore, type CaseScore } from "./score.ts";

/** A scored file as the reference scorer writes it (`--output`). */
export interface ScoredFile {
  model: unknown;
  system: string;
  judge_model: string;
  summary: {
    cases_scored: number;
    total_points: number;
    max_points: number;
    average_score: number;
    average_pct: number;
    success_rate_pct: number;
  };
  metrics: Metrics | Record<string, never>;
  /** In input order; `flags` only on entries whose record was malformed. */
  scores: (ReturnType<typeof toReferenceScore> & { flags?: string[] })[];
}

export interface ScoredResults {
  file: ScoredFile;
  scores: CaseScore[];
  /** case_id of each record with no matching case (or none at all), in input order. */
  unknownCaseIds: string[];
}

/** Score the records of a results file (`{…, results: [records]}`) against `cases`, without a judge. */
export function scoreResults(resultsFile: unknown, cases: readonly Case[], system: SystemData): ScoredResults {
  const records = Array.isArray(resultsFile) ? resultsFile : ResultsFileSchema.parse(resultsFile).results;
  const byId = new Map(cases.map((c) => [c.id, c]));
  const scores: CaseScore[] = [];
  const unknownCaseIds: string[] = [];
  for (const record of records) {
    const id = isDict(record) ? record["case_id"] : undefined;
    const kase = typeof id === "string" ? byId.get(id) : undefined;
    if (!kase) {
      unknownCaseIds.push(typeof id === "string" ? id : "(no case_id)");
      continue;
    }
    scores.push(scoreCaseNoJudge(kase, record, system));
  }

  const metrics = computeMetrics(scores, records);
  const totalPoints = scores.reduce((n, s) => n + s.total, 0);
  const maxPoints = scores.reduce((n, s) => n + s.max_possible, 0);
  const meta = isDict(resultsFile) ? resultsFile : {};
  const metadata = isDict(meta["metadata"]) ? meta["metadata"] : {};
  const file: ScoredFile = {
    model: dget(metadata, "model", dget(meta, "model", "unknown")),
    system: system.id,
    judge_model: "skipped",
    summary: {
      cases_scored: scores.length,
      total_points: pyRound(totalPoints, 1),
      max_points: pyRound(maxPoints, 1),
      average_score: scores.length > 0 ? pyRound(totalPoints / scores.length, 1) : 0,
      average_pct: maxPoints > 0 ? pyRound((totalPoints / maxPoints) * 100, 1) : 0,
      success_rate_pct: metrics?.sr_pct ?? 0,
    },
    metrics: metrics ?? {},
    scores: scores.map((s) => (s.flags.length > 0 ? { ...toReferenceScore(s), flags: s.flags } : toReferenceScore(s))),
  };
  return { file, scores, unknownCaseIds };
}
