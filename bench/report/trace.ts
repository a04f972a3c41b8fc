// What the trace viewer shows of each case of a run: the conversation (the user turns, the
// policy's reasoning and tool calls with their arguments, each tool's result), the submission the
// kiosk would render, and every scoring component with its score and reason. Pure data built from
// the stored transcripts; the system prompt (several kB, the same for every case of a system) is
// only counted.
import type { ChatMessage } from "../../runtime/session/policy.ts";
import type { BenchStore } from "../store/store.ts";
import { casePassed } from "./trials.ts";

/** Longest text kept per message or result (the rest is cut, with a note). */
export const TRACE_TEXT_LIMIT = 4000;

export interface TraceMessage {
  role: "user" | "assistant" | "tool";
  text: string;
  reasoning: string;
  toolCalls: { id: string; name: string; arguments: string }[];
  /** For a tool result: the call it answers, and that call's tool. */
  toolCallId: string | null;
  toolName: string | null;
}

export interface TraceComponent {
  name: string;
  tier: number;
  score: number;
  max: number;
  reason: string;
}

export interface CaseTrace {
  caseId: string;
  system: string;
  category: string;
  partition: string;
  scored: boolean;
  passed: boolean;
  tier1Pct: number | null;
  pct: number | null;
  termination: string;
  error: string | null;
  fallback: boolean;
  e2eMs: number;
  systemPromptChars: number;
  conversation: TraceMessage[];
  /** The scored response (the submission reshaped as the reference scores it), or null. */
  submission: unknown;
  components: TraceComponent[];
  scoreNote: string | null;
}

export function clip(text: string, limit = TRACE_TEXT_LIMIT): string {
  return text.length > limit ? `${text.slice(0, limit)}\n… (${(text.length - limit).toLocaleString("en-US")} more characters)` : text;
}

function messageText(content: unknown): string {
  if (typeof content === "string") return content;
  if (content === null || content === undefined) return "";
  return JSON.stringify(content);
}

function conversation(messages: readonly ChatMessage[]): TraceMessage[] {
  const toolNames = new Map<string, string>();
  const out: TraceMessage[] = [];
  for (const m of messages) {
    const raw = m as unknown as Record<string, unknown>;
    if (m.role === "system") continue;
    const calls = Array.isArray(raw.tool_calls) ? (raw.tool_calls as { id?: unknown; function?: { name?: unknown; arguments?: unknown } }[]) : [];
    const toolCalls = calls.map((c, i) => {
      const id = typeof c.id === "string" ? c.id : `call-${i}`;
      const name = typeof c.function?.name === "string" ? c.function.name : "?";
      toolNames.set(id, name);
      const args = c.function?.arguments;
      return { id, name, arguments: clip(typeof args === "string" ? args : JSON.stringify(args ?? null)) };
    });
    const toolCallId = typeof raw.tool_call_id === "string" ? raw.tool_call_id : null;
    out.push({
      role: m.role === "tool" ? "tool" : m.role === "user" ? "user" : "assistant",
      text: clip(messageText(raw.content)),
      reasoning: clip(messageText(raw.reasoning_content)),
      toolCalls,
      toolCallId,
      toolName: toolCallId ? (toolNames.get(toolCallId) ?? null) : null,
    });
  }
  return out;
}

/** Every stored case of a run, in run order, as the trace viewer shows it. */
export function caseTraces(store: BenchStore, runId: number): CaseTrace[] {
  return store.casesWithRecords(runId).map((c) => {
    const messages = c.record.messages ?? [];
    const system = messages.find((m) => m.role === "system") as unknown as { content?: unknown } | undefined;
    return {
      caseId: c.caseId,
      system: c.system,
      category: c.category,
      partition: c.partition,
      scored: c.scored,
      passed: casePassed(c.score),
      tier1Pct: c.tier1Pct,
      pct: c.pct,
      termination: c.termination,
      error: c.error,
      fallback: c.fallback,
      e2eMs: c.e2eMs,
      systemPromptChars: messageText(system?.content).length,
      conversation: conversation(messages),
      submission: c.record.response ?? null,
      components: Object.entries(c.score?.breakdown ?? {}).map(([name, b]) => ({ name, tier: b.tier, score: b.score, max: b.max, reason: b.reason })),
      scoreNote: c.scoreNote,
    };
  });
}
