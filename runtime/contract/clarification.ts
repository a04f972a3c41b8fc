// The kiosk's extension of the terminal state: one short question with tappable choices, asked when
// a request is ambiguous or only partly understood. It travels as an extra `clarification` key of
// the submit_assistant_state arguments, which the validator accepts (extra keys are ignored, as the
// reference server does) and the scorer never reads; the LLM-facing schema (schema.ts) is unchanged.
import { z } from "zod";
import { EventSchema } from "../../tools/data/schemas.ts";
import type { ToolCallRecord } from "../session/policy.ts";

export const ClarificationChoiceSchema = z.object({
  label: z.string().min(1).max(200),
  /** The events a tap sends as the session's next turn (e.g. a station_selected with its id). */
  events: z.array(EventSchema).min(1).max(10),
});

export const ClarificationSchema = z.object({
  question: z.string().min(1).max(500),
  choices: z.array(ClarificationChoiceSchema).max(8),
  /** What is asked: a station (which of several), a missing start or end, riders, a need (step-free access), an offer that depends on the passenger, or a confirmation. */
  kind: z.enum(["station", "origin", "destination", "riders", "need", "offer", "confirm"]),
  /**
   * The screen opens its station picker for this field (a missing start or end has no short list),
   * or, for "riders", shows the passenger counter.
   */
  select: z.enum(["origin", "destination", "riders"]).optional(),
});
export type Clarification = z.infer<typeof ClarificationSchema>;
export type ClarificationChoice = z.infer<typeof ClarificationChoiceSchema>;

/** The clarification of the session's last accepted submission, if it carries a valid one. */
export function clarificationOf(toolCalls: readonly ToolCallRecord[]): Clarification | undefined {
  for (let i = toolCalls.length - 1; i >= 0; i--) {
    const call = toolCalls[i]!;
    if (call.name !== "submit_assistant_state") continue;
    if (!(call.result as { accepted?: unknown } | null)?.accepted) continue;
    const raw = (call.arguments as { clarification?: unknown } | null)?.clarification;
    const parsed = ClarificationSchema.safeParse(raw);
    return parsed.success ? parsed.data : undefined;
  }
  return undefined;
}
