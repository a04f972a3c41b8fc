// Special-token text inside message text. A tokenizer that parses special tokens turns the text
// `<|im_start|>` into the control token, so a passenger who types it would open a real system turn.
// Message text is therefore cut right after the first character of every special token's text it
// holds ("<" | "|im_start|>…"): no piece holds one, and the pieces keep every character. The
// in-process engine tokenizes each piece on its own (models/prompt-tokens.ts); a model endpoint
// tokenizes the whole prompt itself, so the pieces are sent joined by a zero-width space.
//
// The model's own earlier output (assistant content, reasoning, tool-call arguments) may keep the
// user-defined tokens it wrote (`<tool_call>`, `<think>`…), as llama-server does, but no control
// token, which a passenger could otherwise smuggle in by having the model echo it.
import type { ChatMessage } from "../session/policy.ts";

export interface SpecialTexts {
  /** Texts of the vocabulary's special tokens (control and user-defined). */
  special: readonly string[];
  /** Texts of the control tokens only (`<|im_start|>`…). */
  control: readonly string[];
}

const QWEN_CONTROL = [
  "<|endoftext|>", "<|im_start|>", "<|im_end|>", "<|object_ref_start|>", "<|object_ref_end|>", "<|box_start|>", "<|box_end|>",
  "<|quad_start|>", "<|quad_end|>", "<|vision_start|>", "<|vision_end|>", "<|vision_pad|>", "<|image_pad|>", "<|video_pad|>",
];
const QWEN_USER_DEFINED = [
  "<tool_call>", "</tool_call>", "<|fim_prefix|>", "<|fim_middle|>", "<|fim_suffix|>", "<|fim_pad|>", "<|repo_name|>", "<|file_sep|>",
  "<tool_response>", "</tool_response>", "<think>", "</think>",
];

/**
 * The added tokens of the Qwen3 vocabulary the kiosk's models share. A model endpoint does not tell
 * its vocabulary over the OpenAI API (the in-process engine reads it from the GGUF), so these are assumed.
 */
export const QWEN_SPECIAL_TEXTS: SpecialTexts = { special: [...QWEN_CONTROL, ...QWEN_USER_DEFINED], control: QWEN_CONTROL };

export interface Occurrence {
  start: number;
  end: number;
}

/** Every occurrence of a special token's text in `text` (overlaps included). */
export function specialOccurrences(text: string, specials: readonly string[]): Occurrence[] {
  const found: Occurrence[] = [];
  for (const special of specials) {
    if (special === "") continue;
    for (let at = text.indexOf(special); at >= 0; at = text.indexOf(special, at + 1)) found.push({ start: at, end: at + special.length });
  }
  return found.sort((a, b) => a.start - b.start || b.end - a.end);
}

/** `text` in pieces, none of which holds a special token's text (see the header). */
export function splitAtSpecials(text: string, specials: readonly string[]): string[] {
  const cuts = [...new Set(specialOccurrences(text, specials).map((o) => o.start + 1))].sort((a, b) => a - b);
  const pieces: string[] = [];
  let from = 0;
  for (const cut of cuts) {
    if (cut > from) pieces.push(text.slice(from, cut));
    from = cut;
  }
  if (from < text.length) pieces.push(text.slice(from));
  return pieces;
}

/** Where the pieces meet when the text goes to a tokenizer whole: invisible, and no special token's text. */
export const SPECIAL_BREAK = "\u200B";

/** `text` as a tokenizer that parses special tokens reads as plain text (unchanged when it holds none). */
export function neutraliseSpecials(text: string, specials: readonly string[]): string {
  return splitAtSpecials(text, specials).join(SPECIAL_BREAK);
}

/**
 * Messages for an endpoint that renders and tokenizes the prompt itself: every message text as the
 * in-process engine tokenizes it (models/prompt-tokens.ts), the model's own output keeping its
 * user-defined tokens. Roles, names and ids are the kiosk's own and stay as they are.
 */
export function neutraliseMessages(messages: readonly ChatMessage[], texts: SpecialTexts): ChatMessage[] {
  const plain = (text: string): string => neutraliseSpecials(text, texts.special);
  const model = (text: string): string => neutraliseSpecials(text, texts.control);
  return messages.map((message): ChatMessage => {
    if (message.role !== "assistant") return { ...message, content: plain(message.content) };
    const out: Extract<ChatMessage, { role: "assistant" }> = { ...message, content: message.content === null ? null : model(message.content) };
    if (typeof message.reasoning_content === "string") out.reasoning_content = model(message.reasoning_content);
    // The arguments' JSON text: a special token's text can only stand inside one of its strings.
    if (message.tool_calls) out.tool_calls = message.tool_calls.map((call) => ({ ...call, function: { ...call.function, arguments: model(call.function.arguments) } }));
    return out;
  });
}
