// The messages between the kiosk and its model process (models/worker/main.ts): the model is
// loaded, warm-booted and asked for completions over one message channel — a Node child process's
// IPC under `kiosk serve` and the bench, an Electron utilityProcess's port in the shell. Requests
// carry an id; replies answer it (`ok` with a value, or an error). Plain JSON: the tool-call
// grammar travels as what it is built from (tools, profile) and is rebuilt in the model process.
import { z } from "zod";
import type { CompletionResult } from "../../runtime/model/backend.ts";
import { PROTOCOL_PROFILES } from "../../runtime/model/profile.ts";
import type { LocalModelInfo, LocalModelOptions } from "../local.ts";

/** The tool-call grammar as the model process rebuilds it (LazyToolCallGrammar.spec). */
const GrammarSpecSchema = z.object({
  tools: z.array(z.unknown()),
  options: z.object({ profile: z.enum(PROTOCOL_PROFILES).optional(), parallelToolCalls: z.boolean().optional() }),
});

// Message text is tokenized as plain text in the model process too (never control tokens).
const LiteralRangesSchema = z.array(z.object({ start: z.number().int().nonnegative(), end: z.number().int().nonnegative(), modelOutput: z.boolean().optional() })).readonly();

export const WorkerRequestSchema = z.discriminatedUnion("type", [
  z.object({ id: z.number().int(), type: z.literal("load"), options: z.record(z.string(), z.unknown()) }),
  z.object({
    id: z.number().int(),
    type: z.literal("complete"),
    request: z.object({
      prompt: z.string(),
      maxTokens: z.number().int().positive().optional(),
      grammar: GrammarSpecSchema.optional(),
      sharedPrefixChars: z.number().int().nonnegative().optional(),
      stablePrefixChars: z.number().int().nonnegative().optional(),
      livePrefixChars: z.number().int().nonnegative().optional(),
      literalRanges: LiteralRangesSchema.optional(),
      reasoningBudget: z.object({ tokens: z.number().int().nonnegative(), endText: z.string(), endMarker: z.string() }).optional(),
    }),
  }),
  /** Evaluate the next passenger's prompt prefix in the background (gives way to completions). */
  z.object({
    id: z.number().int(),
    type: z.literal("prefill"),
    request: z.object({
      prompt: z.string(),
      literalRanges: LiteralRangesSchema.optional(),
      stablePrefixChars: z.number().int().nonnegative().optional(),
      livePrefixChars: z.number().int().nonnegative().optional(),
    }),
  }),
  /** Warm boot: restore `file`, else evaluate `prefix` and save it there. */
  z.object({ id: z.number().int(), type: z.literal("warmBoot"), file: z.string(), prefix: z.string() }),
  z.object({ id: z.number().int(), type: z.literal("ping") }),
  z.object({ id: z.number().int(), type: z.literal("unload") }),
  /** Stop the completion `target` (a passenger left, a deadline passed); its reply follows. */
  z.object({ type: z.literal("abort"), target: z.number().int(), reason: z.string() }),
]);
export type WorkerRequest = z.infer<typeof WorkerRequestSchema>;
export type WorkerCompleteRequest = Extract<WorkerRequest, { type: "complete" }>["request"];

export const WorkerMessageSchema = z.union([
  z.object({ id: z.number().int(), ok: z.literal(true), value: z.unknown() }),
  z.object({ id: z.number().int(), ok: z.literal(false), error: z.object({ name: z.string(), message: z.string() }) }),
  /** Unasked: a line for the kiosk's log. */
  z.object({ type: z.literal("log"), message: z.string() }),
]);
export type WorkerMessage = z.infer<typeof WorkerMessageSchema>;

/** What `load` answers. */
export interface WorkerLoaded {
  info: LocalModelInfo;
  chatTemplate: string | null;
}

/** What `warmBoot` answers. */
export interface WorkerWarmBoot {
  restored: boolean;
  tokens: number | null;
  ms: number;
}

export type WorkerLoadOptions = Omit<LocalModelOptions, "engine"> & { engine?: Record<string, unknown> };
export type { CompletionResult };
