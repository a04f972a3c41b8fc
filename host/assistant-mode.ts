// The kiosk's assistant modes with a local model (`kiosk serve --assistant`, Electron's
// --assistant / KIOSK_ASSISTANT), in the same word as who answered (decidedBy, answeredBy: "model");
// `llm` stays the name of the policy that runs the model. No imports: the Electron shell's config
// and the CLI read it without loading the model side.

export const ASSISTANT_MODES = ["hybrid", "model"] as const;
export type AssistantMode = (typeof ASSISTANT_MODES)[number];

/** `hybrid` or `model`; `llm`, the mode's name before the vocabulary was one, still means `model`. Else null. */
export function parseAssistantMode(text: string): AssistantMode | null {
  if (text === "llm") return "model";
  return (ASSISTANT_MODES as readonly string[]).includes(text) ? (text as AssistantMode) : null;
}

/** The model name asked of an OpenAI-compatible endpoint when none is given: llama-server serves its one model under any name. */
export const DEFAULT_ENDPOINT_MODEL = "default";
