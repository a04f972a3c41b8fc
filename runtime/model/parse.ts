// The assistant message llama-server built from the generated text (MODEL-PROTOCOL.md §3).
//
// b8642 (autoparser, the paper's main build), with thinking on (generation prompt ends "<think>\n"):
//   reasoning = text up to the first "</think>" (raw); no "</think>" → everything is reasoning;
//   whitespace after "</think>" dropped; content = text up to the first "<tool_call>\n" (kept raw);
//   then exactly one XML call (or several with parallel_tool_calls) and the end of the text.
//   Required parameters first in schema order, optional ones after in any order (repeats allowed);
//   string-typed values are raw text up to "\n</parameter>\n", others must be JSON. Anything after
//   "<tool_call>\n" that does not match → "Failed to parse input at pos N: …" (HTTP 500).
// b10398 (Qwen3-Coder handler): the parser sees the generation prompt too; reasoning ends at
//   "</think>" or at a tool call; whitespace-only reasoning is dropped; content loses leading
//   whitespace; calls start at "<tool_call>" or "<function", any argument order, several allowed;
//   an unparseable tool section is dropped silently (an empty round for the harness).
// v0.4.0 (llama.cpp v0.4.0's PEG parser for this template): leading whitespace of the reasoning
//   dropped, reasoning ends at "</think>" or (kept) "<tool_call>"; content up to "<tool_call>";
//   calls "<tool_call>\n<function=NAME>\n" args "</function>\n</tool_call>" + whitespace, every
//   required argument once in any order, then optional ones; string values end at the first
//   "\n</parameter>\n"; anything else after the content → the tool section is dropped (reasoning
//   and content kept).
import type { ToolDefinition } from "../../tools/data/schemas.ts";
import { pyJsonString } from "../../tools/py/index.ts";
import type { AssistantToolCall } from "../session/policy.ts";
import { isJsonText } from "./json.ts";
import { DEFAULT_PROFILE, profileSettings, type ProtocolProfile } from "./profile.ts";
import { toolShapes, type ToolShape } from "./tools.ts";

export interface ParseOptions {
  tools: readonly ToolDefinition[];
  profile?: ProtocolProfile;
  /** Whether the generation prompt forced a think block open (enable_thinking). Default true. */
  thinking?: boolean;
  /** Defaults to the profile's llama-server default (b8642: false, b10398: true). */
  parallelToolCalls?: boolean;
  /** Tool-call id generator (llama-server: 32 random alphanumerics). */
  newToolCallId?: () => string;
}

/** The OpenAI-style assistant message llama-server returned. */
export interface ParsedAssistantMessage {
  role: "assistant";
  content: string;
  /** Present only when non-empty (llama-server omits an empty reasoning_content). */
  reasoning_content?: string;
  tool_calls: AssistantToolCall[];
}

export type ParseOutcome =
  | { ok: true; message: ParsedAssistantMessage }
  | { ok: false; error: string; position: number };

/** The generated text could not be parsed: llama-server answered HTTP 500 with this message. */
export class ModelOutputParseError extends Error {
  override name = "ModelOutputParseError";
  constructor(
    message: string,
    readonly position: number,
    readonly text: string,
  ) {
    super(message);
  }
}

const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** A random 32-character alphanumeric id, like llama-server's gen_tool_call_id(). */
export function randomToolCallId(): string {
  const bytes = new Uint8Array(32);
  globalThis.crypto.getRandomValues(bytes);
  let out = "";
  for (const b of bytes) out += ALNUM[b % ALNUM.length];
  return out;
}

const WS_RE = /^[ \t\r\n]*/;
function skipWs(text: string, pos: number): number {
  return pos + (WS_RE.exec(text.slice(pos)) as RegExpExecArray)[0].length;
}

interface RawCall {
  name: string;
  /** [key, JSON text of the value] in emitted order (repeats kept). */
  args: [string, string][];
  end: number;
}

function argumentsJson(args: readonly [string, string][]): string {
  return `{${args.map(([k, v]) => `${pyJsonString(k, false)}:${v}`).join(",")}}`;
}

const PARAM_OPEN = "<parameter=";
const VALUE_END = "\n</parameter>\n";

/** A parameter value as JSON text: strings quoted, JSON values as the model wrote them. */
function valueJson(raw: string, isString: boolean): string | undefined {
  if (isString) return pyJsonString(raw, false);
  const trimmed = raw.replace(/[ \t\r\n]+$/, "");
  return isJsonText(trimmed) && !/^[ \t\r\n]/.test(trimmed) ? trimmed : undefined;
}

/** b8642: "<tool_call>\n<function=NAME>\n" args "</function>\n" ws "</tool_call>" at `pos`, or null. */
function parseCallB8642(text: string, pos: number, shapes: readonly ToolShape[]): RawCall | null {
  const head = "<tool_call>\n<function=";
  if (!text.startsWith(head, pos)) return null;
  let p = pos + head.length;
  const shape = shapes.find((s) => text.startsWith(`${s.name}>\n`, p));
  if (!shape) return null;
  p += shape.name.length + 2;
  const args: [string, string][] = [];
  let requiredIndex = 0;
  while (text.startsWith(PARAM_OPEN, p)) {
    const keyStart = p + PARAM_OPEN.length;
    const keyEnd = text.indexOf(">\n", keyStart);
    if (keyEnd < 0) return null;
    const key = text.slice(keyStart, keyEnd);
    const param = shape.byName.get(key);
    if (!param) return null;
    if (requiredIndex < shape.required.length) {
      if (shape.required[requiredIndex]?.name !== key) return null;
      requiredIndex++;
    } else if (param.required) {
      return null;
    }
    const valueStart = keyEnd + 2;
    const valueEnd = text.indexOf(VALUE_END, valueStart);
    if (valueEnd < 0) return null;
    const json = valueJson(text.slice(valueStart, valueEnd), param.isString);
    if (json === undefined) return null;
    args.push([key, json]);
    p = valueEnd + VALUE_END.length;
  }
  if (requiredIndex < shape.required.length) return null;
  if (!text.startsWith("</function>\n", p)) return null;
  p = skipWs(text, p + "</function>\n".length);
  if (!text.startsWith("</tool_call>", p)) return null;
  return { name: shape.name, args, end: p + "</tool_call>".length };
}

/** b10398 (Qwen3-Coder): ["<tool_call>" ws] "<function=NAME>" params "</function>" [ws "</tool_call>"]. */
function parseCallB10398(text: string, pos: number, shapes: readonly ToolShape[]): RawCall | null {
  let p = pos;
  if (text.startsWith("<tool_call>", p)) p = skipWs(text, p + "<tool_call>".length);
  if (!text.startsWith("<function=", p)) return null;
  p += "<function=".length;
  const nameEnd = text.indexOf(">", p);
  if (nameEnd < 0) return null;
  const shape = shapes.find((s) => s.name === text.slice(p, nameEnd).trim());
  if (!shape) return null;
  p = skipWs(text, nameEnd + 1);
  const args: [string, string][] = [];
  while (text.startsWith(PARAM_OPEN, p)) {
    const keyEnd = text.indexOf(">", p + PARAM_OPEN.length);
    if (keyEnd < 0) return null;
    const key = text.slice(p + PARAM_OPEN.length, keyEnd).trim();
    const valueEnd = text.indexOf("</parameter>", keyEnd + 1);
    if (valueEnd < 0) return null;
    let raw = text.slice(keyEnd + 1, valueEnd);
    if (raw.startsWith("\n")) raw = raw.slice(1);
    if (raw.endsWith("\n")) raw = raw.slice(0, -1);
    const param = shape.byName.get(key);
    if (!param) return null;
    args.push([key, (param.isString ? undefined : valueJson(raw, false)) ?? pyJsonString(raw, false)]);
    p = skipWs(text, valueEnd + "</parameter>".length);
  }
  if (!text.startsWith("</function>", p)) return null;
  p += "</function>".length;
  const close = skipWs(text, p);
  if (text.startsWith("</tool_call>", close)) p = close + "</tool_call>".length;
  return { name: shape.name, args, end: p };
}

/** v0.4.0: "<tool_call>\n<function=NAME>\n" args "</function>\n</tool_call>" ws at `pos`, or null. */
function parseCallV040(text: string, pos: number, shapes: readonly ToolShape[]): RawCall | null {
  const head = "<tool_call>\n<function=";
  if (!text.startsWith(head, pos)) return null;
  let p = pos + head.length;
  const shape = shapes.find((s) => text.startsWith(`${s.name}>\n`, p));
  if (!shape) return null;
  p += shape.name.length + 2;
  const args: [string, string][] = [];
  const requiredLeft = new Set(shape.required.map((r) => r.name));
  while (text.startsWith(PARAM_OPEN, p)) {
    const keyStart = p + PARAM_OPEN.length;
    const param = [...shape.byName.values()].find((q) => text.startsWith(`${q.name}>\n`, keyStart));
    if (!param) return null;
    // Required arguments first (each once, any order), optional ones only after all of them.
    if (param.required) {
      if (!requiredLeft.delete(param.name)) return null;
    } else if (requiredLeft.size > 0) return null;
    const valueStart = keyStart + param.name.length + 2;
    const valueEnd = text.indexOf(VALUE_END, valueStart);
    if (valueEnd < 0) return null;
    const json = valueJson(text.slice(valueStart, valueEnd), param.isString);
    if (json === undefined) return null;
    args.push([param.name, json]);
    p = valueEnd + VALUE_END.length;
  }
  if (requiredLeft.size > 0 || !text.startsWith("</function>\n</tool_call>", p)) return null;
  return { name: shape.name, args, end: skipWs(text, p + "</function>\n</tool_call>".length) };
}

function toToolCalls(calls: readonly RawCall[], newId: () => string): AssistantToolCall[] {
  return calls.map((c) => ({ id: newId(), type: "function", function: { name: c.name, arguments: argumentsJson(c.args) } }));
}

function failure(text: string, position: number): ParseOutcome {
  return { ok: false, position, error: `Failed to parse input at pos ${position}: ${text.slice(position)}` };
}

function parseB8642(text: string, shapes: readonly ToolShape[], thinking: boolean, parallel: boolean, newId: () => string): ParseOutcome {
  let reasoning: string | undefined;
  let pos = 0;
  if (thinking) {
    const end = text.indexOf("</think>");
    if (end < 0) {
      const message: ParsedAssistantMessage = { role: "assistant", content: "", tool_calls: [] };
      if (text !== "") message.reasoning_content = text;
      return { ok: true, message };
    }
    reasoning = text.slice(0, end);
    pos = skipWs(text, end + "</think>".length);
  }
  const message: ParsedAssistantMessage = { role: "assistant", content: "", tool_calls: [] };
  if (reasoning) message.reasoning_content = reasoning;
  const trigger = text.indexOf("<tool_call>\n", pos);
  if (trigger < 0) {
    message.content = text.slice(pos);
    return { ok: true, message };
  }
  message.content = text.slice(pos, trigger);
  const calls: RawCall[] = [];
  let at = trigger;
  for (;;) {
    const call = parseCallB8642(text, calls.length === 0 ? at : skipWs(text, at), shapes);
    if (!call) break;
    calls.push(call);
    at = call.end;
    if (!parallel) break;
  }
  if (at !== text.length) return failure(text, at);
  message.tool_calls = toToolCalls(calls, newId);
  return { ok: true, message };
}

function parseB10398(text: string, shapes: readonly ToolShape[], thinking: boolean, parallel: boolean, newId: () => string): ParseOutcome {
  const message: ParsedAssistantMessage = { role: "assistant", content: "", tool_calls: [] };
  let pos = 0;
  if (thinking) {
    const markers = ["</think>", "<tool_call>", "<function="]
      .map((m) => ({ m, i: text.indexOf(m) }))
      .filter((x) => x.i >= 0)
      .sort((a, b) => a.i - b.i);
    const first = markers[0];
    const reasoning = first ? text.slice(0, first.i) : text;
    if (reasoning.trim() !== "") message.reasoning_content = reasoning;
    if (!first) return { ok: true, message };
    pos = first.m === "</think>" ? first.i + first.m.length : first.i;
  }
  pos = skipWs(text, pos);
  const triggers = ["<tool_call>", "<function"].map((t) => text.indexOf(t, pos)).filter((i) => i >= 0);
  const trigger = triggers.length > 0 ? Math.min(...triggers) : -1;
  if (trigger < 0) {
    message.content = text.slice(pos);
    return { ok: true, message };
  }
  message.content = text.slice(pos, trigger);
  const calls: RawCall[] = [];
  let at = trigger;
  for (;;) {
    const call = parseCallB10398(text, skipWs(text, at), shapes);
    if (!call) break;
    calls.push(call);
    at = call.end;
    if (!parallel) break;
  }
  message.tool_calls = toToolCalls(calls, newId);
  return { ok: true, message };
}

function parseV040(text: string, shapes: readonly ToolShape[], thinking: boolean, parallel: boolean, newId: () => string): ParseOutcome {
  const message: ParsedAssistantMessage = { role: "assistant", content: "", tool_calls: [] };
  let pos = 0;
  if (thinking) {
    const start = skipWs(text, 0);
    const ends = ["</think>", "<tool_call>"].map((m) => ({ m, i: text.indexOf(m, start) })).filter((x) => x.i >= 0).sort((a, b) => a.i - b.i);
    const first = ends[0];
    if (!first) {
      // No end of reasoning (a truncated think block): the server's optional reasoning rule fails.
      message.content = text;
      return { ok: true, message };
    }
    if (first.i > start) message.reasoning_content = text.slice(start, first.i);
    pos = first.m === "</think>" ? skipWs(text, first.i + first.m.length) : first.i;
  }
  const trigger = text.indexOf("<tool_call>", pos);
  message.content = text.slice(pos, trigger < 0 ? text.length : trigger);
  if (trigger < 0) return { ok: true, message };
  const calls: RawCall[] = [];
  let at = trigger;
  for (;;) {
    const call = parseCallV040(text, at, shapes);
    if (!call) break;
    calls.push(call);
    at = call.end;
    if (!parallel) break;
  }
  if (calls.length > 0 && at === text.length) message.tool_calls = toToolCalls(calls, newId);
  return { ok: true, message };
}

/** Parse generated text (everything after the generation prompt) as llama-server did. */
export function parseModelOutput(text: string, options: ParseOptions): ParseOutcome {
  const settings = profileSettings(options.profile ?? DEFAULT_PROFILE, options.parallelToolCalls);
  const shapes = toolShapes(options.tools);
  const thinking = options.thinking ?? true;
  const newId = options.newToolCallId ?? randomToolCallId;
  if (settings.profile === "v0.4.0") return parseV040(text, shapes, thinking, settings.parallelToolCalls, newId);
  return settings.profile === "b10398"
    ? parseB10398(text, shapes, thinking, settings.parallelToolCalls, newId)
    : parseB8642(text, shapes, thinking, settings.parallelToolCalls, newId);
}

/** Like parseModelOutput, but a parse failure throws ModelOutputParseError. */
export function parseModelOutputOrThrow(text: string, options: ParseOptions): ParsedAssistantMessage {
  const outcome = parseModelOutput(text, options);
  if (!outcome.ok) throw new ModelOutputParseError(outcome.error, outcome.position, text);
  return outcome.message;
}
