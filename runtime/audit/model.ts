// The session audit: what a passenger session was, kept for operators — each turn's kiosk events
// (what the passenger asked), the tool calls with their results, the terminal state shown, who
// answered (rule, the model, rule after the model failed), the interlock's verdict and block codes,
// the conditions it ran under (time, disruptions, framebook version: enough to replay it), and the
// purchase attempts. Payment data stays in the ledger: a sale is kept as its ticket id, amount,
// currency and payment method, nothing more. Pure: schemas and the summary derived from a record.
import { z } from "zod";
import { AssistantStateSchema, type AssistantState } from "../contract/index.ts";
import { DisruptionSchema, EventSchema, SystemIdSchema, type Disruption, type KioskEvent, type SystemId } from "../../tools/data/schemas.ts";
import type { SessionRecord } from "../session/record.ts";

export const ANSWERED_BY = ["rule", "model", "rule-fallback"] as const;
export type AnsweredBy = (typeof ANSWERED_BY)[number];

export const AuditToolCallSchema = z.object({
  name: z.string(),
  arguments: z.unknown(),
  result: z.unknown(),
  error: z.string().nullable(),
  ms: z.number().nullable(),
});
export type AuditToolCall = z.infer<typeof AuditToolCallSchema>;

export const AuditTurnSchema = z.object({
  /** When the answer was given (ISO instant). */
  at: z.string(),
  events: z.array(EventSchema),
  /** The session's local time (as the prompt saw it) and the disruptions in force: the conditions to replay. */
  now: z.string(),
  disruptions: z.array(DisruptionSchema),
  framebookVersion: z.string(),
  answeredBy: z.enum(ANSWERED_BY),
  policy: z.string(),
  /** The state is the deterministic safe fallback (the policy gave none). */
  fallback: z.boolean(),
  assistantUnavailable: z.boolean(),
  termination: z.string(),
  elapsedMs: z.number(),
  toolCalls: z.array(AuditToolCallSchema),
  state: AssistantStateSchema,
  interlock: z.object({ offered: z.boolean(), ok: z.boolean(), problems: z.array(z.string()) }),
  purchasable: z.boolean(),
  /** Hybrid kiosks: what the model's check changed, in the passenger's words. */
  note: z.string().nullable().default(null),
});
export type AuditTurn = z.infer<typeof AuditTurnSchema>;

export const PURCHASE_RESULTS = ["sold", "refused", "declined", "failed"] as const;
export const AuditPurchaseSchema = z.object({
  at: z.string(),
  result: z.enum(PURCHASE_RESULTS),
  paymentMethod: z.string(),
  /** Refusal codes (interlock problem codes, "already_sold", …). */
  problems: z.array(z.string()).default([]),
  /** A sale: its ledger entry's ticket id, amount and currency. */
  ticketId: z.string().nullable().default(null),
  total: z.number().nullable().default(null),
  currency: z.string().nullable().default(null),
});
export type AuditPurchase = z.infer<typeof AuditPurchaseSchema>;

export const SessionAuditSchema = z.object({
  sessionId: z.string().min(1),
  system: SystemIdSchema,
  /** The passenger's language (the screen's choice). */
  language: z.string(),
  accessibilityMode: z.boolean().default(false),
  startedAt: z.string(),
  endedAt: z.string().nullable().default(null),
  turns: z.array(AuditTurnSchema).min(1),
  purchases: z.array(AuditPurchaseSchema).default([]),
});
export type SessionAudit = z.infer<typeof SessionAuditSchema>;
export type SessionAuditInput = z.input<typeof SessionAuditSchema>;

export interface SessionSummary {
  sessionId: string;
  system: SystemId;
  language: string;
  startedAt: string;
  turns: number;
  outcome: string;
  action: string;
  reasonCode: string;
  answeredBy: AnsweredBy;
  /** Some answer was a fallback: the safe state, the model unavailable, or rule after the model. */
  fallback: boolean;
  /** A purchase was blocked: by the answer (block_purchase) or by the interlock (codes kept). */
  blocked: boolean;
  /** The request was refused (request_declined), or a purchase attempt was refused. */
  refused: boolean;
  sold: boolean;
  blockCodes: string[];
}

/** "fare_mismatch: quoted 2.4, calculated 2.5" → "fare_mismatch". */
export function problemCode(problem: string): string {
  return problem.split(":")[0]!.trim();
}

export function summarizeSession(audit: SessionAudit): SessionSummary {
  const last = audit.turns[audit.turns.length - 1]!;
  const blockCodes = [...new Set(audit.turns.flatMap((t) => (t.interlock.offered && !t.interlock.ok ? t.interlock.problems.map(problemCode) : [])))];
  return {
    sessionId: audit.sessionId,
    system: audit.system,
    language: audit.language,
    startedAt: audit.startedAt,
    turns: audit.turns.length,
    outcome: last.state.outcome,
    action: last.state.kiosk_action.action,
    reasonCode: last.state.kiosk_action.reason_code,
    answeredBy: last.answeredBy,
    fallback: audit.turns.some((t) => t.fallback || t.assistantUnavailable || t.answeredBy === "rule-fallback"),
    blocked: audit.turns.some((t) => t.state.kiosk_action.action === "block_purchase") || blockCodes.length > 0,
    refused: audit.turns.some((t) => t.state.outcome === "request_declined") || audit.purchases.some((p) => p.result === "refused"),
    sold: audit.purchases.some((p) => p.result === "sold"),
    blockCodes,
  };
}

export interface AuditTurnInput {
  at: Date;
  events: readonly KioskEvent[];
  /** The session's local time (localIso). */
  now: string;
  disruptions: readonly Disruption[];
  framebookVersion: string;
  record: SessionRecord;
  verdict: { offered: boolean; ok: boolean; problems: readonly string[] };
  /** How a hybrid answer came about (absent: the policy answered alone). */
  hybrid?: { decidedBy: AnsweredBy | "rule"; note: string | null } | undefined;
  assistantUnavailable: boolean;
  elapsedMs: number;
}

/** Who answered a turn: the hybrid's decision, else the deterministic fallback or the policy that ran. */
export function answeredByOf(input: Pick<AuditTurnInput, "hybrid" | "assistantUnavailable" | "record">): AnsweredBy {
  if (input.hybrid) return input.hybrid.decidedBy === "model" ? "model" : input.hybrid.decidedBy === "rule-fallback" ? "rule-fallback" : "rule";
  if (input.assistantUnavailable) return "rule-fallback";
  return input.record.kiosk.policy.startsWith("rule") ? "rule" : "model";
}

/** One turn as the answer pipeline has it (the session record, the interlock's verdict) → the audit's turn. */
export function auditTurn(input: AuditTurnInput): AuditTurn {
  const { record } = input;
  const answeredBy = answeredByOf(input);
  return {
    at: input.at.toISOString(),
    events: input.events.map((e) => ({ ...e })) as KioskEvent[],
    now: input.now,
    disruptions: input.disruptions.map((d) => ({ ...d })),
    framebookVersion: input.framebookVersion,
    answeredBy,
    policy: record.kiosk.policy,
    fallback: record.kiosk.fallback,
    assistantUnavailable: input.assistantUnavailable,
    termination: record.kiosk.termination,
    elapsedMs: input.elapsedMs,
    toolCalls: record.tool_calls_made.map((t) => ({ name: t.name, arguments: t.arguments, result: t.result, error: t.error, ms: t.ms ?? null })),
    state: record.kiosk.state as AssistantState,
    interlock: { offered: input.verdict.offered, ok: input.verdict.ok, problems: [...input.verdict.problems] },
    purchasable: input.verdict.ok,
    note: input.hybrid?.note ?? null,
  };
}
