// The policy interface: what decides the kiosk's next step. Deterministic policies and language
// models implement the same contract, so the kiosk, the bench and the latency probe run one loop.
import { z } from "zod";
import type { KioskEvent, SystemContext, ToolDefinition } from "../../tools/data/schemas.ts";
import type { SystemData } from "../../tools/data/system.ts";
import type { PassengerLanguage } from "../language/types.ts";

/** An OpenAI chat-completions message, as the reference harness keeps the conversation. */
export type ChatMessage =
  | { role: "system"; content: string }
  | { role: "user"; content: string }
  | {
      role: "assistant";
      content: string | null;
      reasoning_content?: string | null;
      tool_calls?: AssistantToolCall[];
    }
  | { role: "tool"; tool_call_id: string; content: string };

export interface AssistantToolCall {
  id: string;
  type: "function";
  /** `arguments` is the JSON text exactly as the model (or server) produced it. */
  function: { name: string; arguments: string };
}

/** Token accounting of one policy round (models only). */
export const RoundUsageSchema = z.object({
  promptTokens: z.number().int().nonnegative(),
  completionTokens: z.number().int().nonnegative(),
  /** Prompt tokens that were served from a reused KV-cache prefix. */
  cachedPromptTokens: z.number().int().nonnegative().optional(),
  /** Milliseconds from request to the first generated token. */
  ttftMs: z.number().nonnegative().optional(),
  /** Milliseconds spent evaluating the prompt (prefill) and generating (decode). */
  prefillMs: z.number().nonnegative().optional(),
  decodeMs: z.number().nonnegative().optional(),
});
export type RoundUsage = z.infer<typeof RoundUsageSchema>;

/** A tool call requested by a policy. `arguments` is the raw JSON text, or an already-built object. */
export const RequestedToolCallSchema = z.object({
  id: z.string().optional(),
  name: z.string(),
  arguments: z.union([z.string(), z.record(z.string(), z.unknown())]),
});
export type RequestedToolCall = z.infer<typeof RequestedToolCallSchema>;

export const PolicyStepSchema = z.discriminatedUnion("type", [
  /** Call tools (in order), then ask the policy again. */
  z.object({
    type: z.literal("tool_calls"),
    calls: z.array(RequestedToolCallSchema).min(1),
    content: z.string().nullable().optional(),
    reasoning: z.string().nullable().optional(),
    usage: RoundUsageSchema.optional(),
  }),
  /** A text reply (no tool call). For a model this is its final answer unless turns remain. */
  z.object({
    type: z.literal("message"),
    content: z.string(),
    reasoning: z.string().nullable().optional(),
    finishReason: z.string().optional(),
    usage: RoundUsageSchema.optional(),
  }),
  /** A deterministic policy has nothing more to do. */
  z.object({ type: z.literal("done") }),
]);
export type PolicyStep = z.infer<typeof PolicyStepSchema>;

/** What the kiosk knows at run time: never the answer key of a benchmark case. */
export interface SessionSetup {
  /** Case id in bench mode, a generated session id at the kiosk. */
  sessionId: string;
  system: SystemData;
  context: SystemContext;
  systemPrompt: string;
  /**
   * Live sessions: where the system prompt starts to depend on the clock (its stated time). The
   * model engine checkpoints there, so the next minute's prompt reuses everything before it.
   */
  systemPromptClockAt?: number;
  tools: readonly ToolDefinition[];
  /**
   * All user turns of a scripted (benchmark) session, in order. Live kiosk sessions reveal turns as
   * they happen and leave this undefined. Only the reference baseline reads ahead (it flattened
   * every turn up front); correct policies use `PolicyInput.turns`.
   */
  scriptedTurns?: readonly (readonly KioskEvent[])[];
  /**
   * Live kiosk sessions only: the passenger's language and the names to use in it. Bench mode never
   * sets it, so deterministic policies answer in the benchmark's English, byte for byte.
   */
  passenger?: PassengerLocale;
}

/** Names by passenger language ("zh-Hans": "西直门"), by station or line id. */
export type LocalizedNames = ReadonlyMap<string, Readonly<Partial<Record<PassengerLanguage, string>>>>;

export interface PassengerLocale {
  /** The language chosen on screen (the passenger's typed language wins over it). */
  language?: PassengerLanguage;
  stationNames: LocalizedNames;
  lineNames: LocalizedNames;
  /** Payment names by their English label (the framebook's terminology). */
  paymentNames?: LocalizedNames;
}

export interface PolicyInput {
  /** The user turns delivered so far (events), oldest first. */
  turns: readonly (readonly KioskEvent[])[];
  /** The whole conversation so far, exactly as a model endpoint would receive it. */
  messages: readonly ChatMessage[];
  /** Tool calls made so far in this session, with their results. */
  toolCalls: readonly ToolCallRecord[];
  /** Aborted on deadline, passenger cancel or shutdown. */
  signal: AbortSignal;
  /** When the answer is due (epoch ms), if the caller has a deadline (e.g. the hybrid model deadline). */
  deadlineAt?: number;
}

export interface PolicyRun {
  next(input: PolicyInput): Promise<PolicyStep>;
  /**
   * Its steps are typed PolicyStep values made by in-process code (a script), not decoded from a
   * model or an endpoint, so the session does not validate them again.
   */
  readonly typedSteps?: true;
  /** Release per-session resources (e.g. a model context sequence). */
  dispose?(): void | Promise<void>;
  /** What the policy decided about this session (e.g. the hybrid router's path and reason). */
  describe?(): Record<string, unknown>;
}

export interface Policy {
  readonly id: string;
  /**
   * Which submission becomes the session's response. The reference runner keeps the last
   * *accepted* one; the reference rule baseline was scored on its last submission even when the
   * server rejected it (a published quirk reproduced by `rule-ref`).
   */
  readonly responseFrom?: "accepted-submission" | "last-submission";
  /**
   * Hidden fields the harness adds to tool calls. The reference runner injects the case's current
   * time into disruption_feed; the reference rule baseline called the tool server directly and
   * sent none ("bare"), which changes what the feed returns for time-limited disruptions.
   */
  readonly toolContext?: "runner" | "bare";
  start(setup: SessionSetup): PolicyRun | Promise<PolicyRun>;
}

/** One executed tool call, in the reference runner's record shape plus timing. */
export interface ToolCallRecord {
  name: string;
  arguments: unknown;
  result: unknown;
  error: string | null;
  /** Milliseconds spent in the tool (our addition; ignored by the reference scorer). */
  ms?: number;
}
