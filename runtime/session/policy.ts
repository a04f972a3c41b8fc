// The policy interface: what decides the kiosk's next step. Deterministic policies and language
// models implement the same contract, so the kiosk, the bench and the latency probe run one loop.
import type { KioskEvent, SystemContext, ToolDefinition } from "../../tools/data/schemas.ts";
import type { SystemData } from "../../tools/data/system.ts";

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
export interface RoundUsage {
  promptTokens: number;
  completionTokens: number;
  /** Prompt tokens that were served from a reused KV-cache prefix. */
  cachedPromptTokens?: number;
  /** Milliseconds from request to the first generated token. */
  ttftMs?: number;
  /** Milliseconds spent generating (decode) and evaluating the prompt (prefill). */
  decodeMs?: number;
  prefillMs?: number;
}

/** A tool call requested by a policy. `arguments` is the raw JSON text, or an already-built object. */
export interface RequestedToolCall {
  id?: string;
  name: string;
  arguments: string | Record<string, unknown>;
}

export type PolicyStep =
  /** Call tools (in order), then ask the policy again. */
  | {
      type: "tool_calls";
      calls: RequestedToolCall[];
      content?: string | null;
      reasoning?: string | null;
      usage?: RoundUsage;
    }
  /** A text reply (no tool call). For a model this is its final answer unless turns remain. */
  | {
      type: "message";
      content: string;
      reasoning?: string | null;
      finishReason?: "stop" | "length" | string;
      usage?: RoundUsage;
    }
  /** A deterministic policy has nothing more to do. */
  | { type: "done" };

/** What the kiosk knows at run time: never the answer key of a benchmark case. */
export interface SessionSetup {
  /** Case id in bench mode, a generated session id at the kiosk. */
  sessionId: string;
  system: SystemData;
  context: SystemContext;
  systemPrompt: string;
  tools: readonly ToolDefinition[];
  /**
   * All user turns of a scripted (benchmark) session, in order. Live kiosk sessions reveal turns as
   * they happen and leave this undefined. Only the reference baseline reads ahead (it flattened
   * every turn up front); correct policies use `PolicyInput.turns`.
   */
  scriptedTurns?: readonly (readonly KioskEvent[])[];
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
}

export interface PolicyRun {
  next(input: PolicyInput): Promise<PolicyStep>;
  /** Release per-session resources (e.g. a model context sequence). */
  dispose?(): void | Promise<void>;
}

export interface Policy {
  readonly id: string;
  /**
   * Which submission becomes the session's response. The reference runner keeps the last
   * *accepted* one; the reference rule baseline was scored on its last submission even when the
   * server rejected it (a published quirk reproduced by `rule-ref`).
   */
  readonly responseFrom?: "accepted-submission" | "last-submission";
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
