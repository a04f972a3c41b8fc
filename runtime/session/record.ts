// The per-session result record. Its reference fields are exactly the reference runner's
// result format (so either scorer can read a transcript); `kiosk` carries what we add.
import type { AssistantState } from "../contract/index.ts";
import type { ChatMessage, RoundUsage, ToolCallRecord } from "./policy.ts";

/** The reference runner's reshaping of a submission into the scored response. */
export interface ScoredResponse {
  outcome: unknown;
  kiosk_action: unknown;
  reasoning: unknown;
  ui_updates: {
    route: unknown;
    fare_quote: unknown;
    advisory_banners: unknown;
    assistant_message: unknown;
  };
}

export interface ReferenceRecord {
  case_id: string;
  response: unknown;
  tool_calls_made: ToolCallRecord[];
  raw_content: string;
  reasoning_content: string;
  messages: ChatMessage[];
  ttft_ms: number;
  e2e_ms: number;
  input_tokens: number;
  output_tokens: number;
  api_rounds: number;
  error: string | null;
  empty_rounds: number;
  truncated: boolean;
}

export interface RoundRecord {
  index: number;
  startedMs: number;
  ms: number;
  step: "tool_calls" | "message" | "done" | "error";
  toolNames: string[];
  usage?: RoundUsage;
}

export type TerminationReason =
  | "submitted"
  | "text_reply"
  | "policy_done"
  | "round_budget_exhausted"
  | "deadline"
  | "aborted"
  | "policy_error"
  | "malformed_tool_arguments"
  | "truncated"
  | "empty_responses";

export interface SessionRecord extends ReferenceRecord {
  kiosk: {
    policy: string;
    termination: TerminationReason;
    /** The terminal state the kiosk renders: the accepted submission, or the safe fallback. */
    state: AssistantState;
    /** True when `state` is the deterministic safe fallback, not the policy's own answer. */
    fallback: boolean;
    /** Rejected submissions and their field errors, in order. */
    rejectedSubmissions: number;
    /** The policy's own account of the session (PolicyRun.describe), when it gives one. */
    policyInfo?: Record<string, unknown>;
    /** What the kiosk would have done with this answer (runtime/answer/verdict.ts): bench runs record it per case. */
    verdict?: KioskVerdict;
    rounds: RoundRecord[];
    startedAt: string;
  };
}

/** The kiosk's verdict on an answer: could the passenger buy it, what the interlock objected to, who answered. */
export interface KioskVerdict {
  /** The purchase button would be enabled (the state offers a purchase and the interlock confirmed it). */
  purchasable: boolean;
  /** The interlock's problems ("code: detail"), when the state offers a purchase it refuses. */
  interlockProblems: string[];
  /** rule, model, or rule-fallback (the deterministic policy answered because the model could not). */
  decidedBy: "rule" | "model" | "rule-fallback";
  /** The state shown is the safe fallback, not a policy's answer. */
  fallback: boolean;
}

/** Strip our additions: the exact reference runner record (for `--out` files). */
export function toReferenceRecord(record: SessionRecord): ReferenceRecord {
  const { kiosk: _kiosk, ...reference } = record;
  return reference;
}
