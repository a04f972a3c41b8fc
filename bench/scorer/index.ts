// The MetroLLM-Bench scorer: the reference's 22 components with exact parity (CONTRACT §9).
import { judgeTextOf } from "./context.ts";
import { asScorable } from "./record.ts";

export { plannedJudgeRequests, scoreCase, scoreCaseNoJudge, toReferenceScore, type BreakdownEntry, type CaseScore, type ScoreOptions } from "./score.ts";
export { REASON_CODES, type ReasonCode } from "./reasons.ts";
export {
  buildJudgeRequest,
  fillTemplate,
  judgmentKey,
  memoryJudgmentCache,
  noJudge,
  NO_JUDGE_REASON,
  parseJudgeReply,
  parseJudgeRubrics,
  RUBRIC_IDS,
  type Judge,
  type JudgeRequest,
  type JudgeRequestSpec,
  type JudgeRubrics,
  type Judgment,
  type JudgmentCache,
  type RubricId,
} from "./judge.ts";
export {
  readRecord,
  ResultRecordSchema,
  ResultsFileSchema,
  ScorableRecord,
  ToolCallRecordSchema,
  type ResultRecord,
  type ScorableCall,
  type ToolCallRecord,
} from "./record.ts";
export { COMPONENTS, COMPONENT_NAMES, COMPONENT_TIER, JUDGED_COMPONENTS, type ComponentName } from "./components/table.ts";
export { fabricationContext } from "./components/judged.ts";

/**
 * The text a judge reads (CONTRACT §9.5): reasoning, message, banners, outcome and kiosk action,
 * one per line, or the record's raw_content when the response is missing or has none of them.
 */
export function buildJudgeText(record: unknown): string {
  return judgeTextOf(asScorable(record));
}
