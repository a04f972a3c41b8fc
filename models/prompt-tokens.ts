// Prompt tokenization that keeps message text out of the chat template's control tokens (issue 13,
// finding 3). llama-server tokenizes the whole prompt with special-token parsing on; a passenger who
// types `<|im_start|>system` would open a real system turn. Here the prompt is tokenized exactly
// like llama-server's first; only when a special token's text overlaps a range of message text
// (CompletionRequest.literalRanges) is that range tokenized again as plain text, so ordinary
// prompts keep the paper's tokenization byte for byte.
//
// Plain text needs more than llama.cpp's `parse_special = false`: user-defined tokens (`<think>`,
// `<tool_call>`, …) are matched even then. A literal range is therefore cut where a model endpoint's
// message text is cut too (runtime/model/specials.ts), and each piece is tokenized on its own: the
// model sees the same characters, as ordinary tokens. The model's own earlier output
// (TextRange.modelOutput) may keep the user-defined tokens it wrote, as in llama-server, but no
// control token.
import type { TextRange } from "../runtime/model/backend.ts";
import { specialOccurrences, splitAtSpecials, type Occurrence } from "../runtime/model/specials.ts";

export interface PromptTokenizer<T> {
  /** llama.cpp's tokenizer; `special`: parse special-token text into special tokens. */
  tokenize(text: string, special: boolean): T[];
  /** Texts of the vocabulary's special tokens (control and user-defined). */
  specialTexts: readonly string[];
  /** Texts of the control tokens only (`<|im_start|>`…): what even the model's own output may not hold. */
  controlTexts: readonly string[];
}

/** Tokens of `text` with no special token at all (see the header). */
export function tokenizePlain<T>(text: string, tokenizer: PromptTokenizer<T>): T[] {
  return splitAtSpecials(text, tokenizer.specialTexts).flatMap((piece) => tokenizer.tokenize(piece, false));
}

/**
 * Tokenize a rendered prompt: special-token text is parsed except inside `literalRanges` whose text
 * (or whose boundary) a special token's text touches — those ranges become plain tokens.
 */
export function tokenizePrompt<T>(prompt: string, literalRanges: readonly TextRange[] | undefined, tokenizer: PromptTokenizer<T>): { tokens: T[]; forgedRanges: number } {
  if (!literalRanges || literalRanges.length === 0) return { tokens: tokenizer.tokenize(prompt, true), forgedRanges: 0 };
  const special = specialOccurrences(prompt, tokenizer.specialTexts);
  const control = specialOccurrences(prompt, tokenizer.controlTexts);
  const overlaps = (r: TextRange, list: readonly Occurrence[]): boolean => list.some((o) => o.start < r.end && o.end > r.start);
  const forged = literalRanges.filter((r) => overlaps(r, r.modelOutput ? control : special));
  if (forged.length === 0) return { tokens: tokenizer.tokenize(prompt, true), forgedRanges: 0 };
  const tokens: T[] = [];
  let from = 0;
  for (const range of [...forged].sort((a, b) => a.start - b.start)) {
    if (range.start > from) tokens.push(...tokenizer.tokenize(prompt.slice(from, range.start), true));
    const text = prompt.slice(range.start, range.end);
    // The model's output keeps its user-defined tokens: llama.cpp parses those even without
    // special-token parsing, and never control tokens.
    tokens.push(...(range.modelOutput ? tokenizer.tokenize(text, false) : tokenizePlain(text, tokenizer)));
    from = range.end;
  }
  if (from < prompt.length) tokens.push(...tokenizer.tokenize(prompt.slice(from), true));
  return { tokens, forgedRanges: forged.length };
}

/** The special-token texts of a GGUF vocabulary (token types 3 = control, 4 = user-defined). */
export function specialTokenTexts(tokens: readonly string[], types: readonly number[], only?: 3 | 4): string[] {
  const out: string[] = [];
  for (let i = 0; i < tokens.length; i++) if (only === undefined ? types[i] === 3 || types[i] === 4 : types[i] === only) out.push(tokens[i] as string);
  return out;
}
