// Prompt rendering exactly as llama-server b8642 did it for the paper (MODEL-PROTOCOL.md §2, §4.1):
// the conversation and tool definitions are converted the way llama.cpp's common/chat.cpp converts
// an OpenAI request (tools re-serialised in llama.cpp's field order, tool-call arguments JSON-parsed
// into objects, null content → "", reasoning_content carried), then the model's own Jinja chat
// template renders them with `enable_thinking` always explicit and `add_generation_prompt`.
//
// Rendering uses @huggingface/jinja with one change: its `tojson` prints numbers the JavaScript way
// (2.0 → "2"), llama.cpp and Python print an integral float as "2.0". Values are therefore handed to
// the template as runtime values built here (PyFloat → a float value) and `tojson` is replaced by a
// Python-json.dumps-style serialiser (", " / ": ", insertion order, non-ASCII raw).
import { Environment, Interpreter, Template } from "@huggingface/jinja";
import type { ToolDefinition } from "../../tools/data/schemas.ts";
import { PyFloat, pyFloatRepr, pyJsonString } from "../../tools/py/index.ts";
import type { ChatMessage } from "../session/policy.ts";
import type { TextRange } from "./backend.ts";
import { parseModelJson } from "./json.ts";

export interface RenderOptions {
  /** Tool definitions (OpenAI format). Empty or absent: the template renders no tools block. */
  tools?: readonly ToolDefinition[];
  /** llama-server passes this explicitly (true unless thinking is turned off). Default true. */
  enableThinking?: boolean;
  /** Default true: end with `<|im_start|>assistant\n<think>\n`. */
  addGenerationPrompt?: boolean;
  bosToken?: string;
  eosToken?: string;
}

/** A tool-call argument string that is not a JSON object (llama-server answered HTTP 500). */
export class RenderError extends Error {
  override name = "RenderError";
}

// ---------------------------------------------------------------------------------------------
// Request → template variables, as llama.cpp's common_chat_msgs_parse_oaicompat / _to_json do.

/** Tools re-serialised as llama.cpp does: {type, function: {name, description, parameters}}. */
export function toTemplateTools(tools: readonly ToolDefinition[]): unknown[] {
  return tools.map((tool) => ({
    type: "function",
    function: {
      name: tool.function.name,
      description: tool.function.description ?? "",
      parameters: tool.function.parameters ?? {},
    },
  }));
}

/** Parse a tool call's `arguments` string into the object the template iterates over. */
export function parseToolArguments(name: string, text: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = parseModelJson(text);
  } catch (err) {
    throw new RenderError(`Tool call '${name}' has arguments that are not valid JSON (${(err as Error).message}): ${text.slice(0, 200)}`);
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed) || parsed instanceof PyFloat) {
    throw new RenderError(`Tool call '${name}' has arguments that are not a JSON object: ${text.slice(0, 200)}`);
  }
  return parsed as Record<string, unknown>;
}

/** Messages as llama.cpp hands them to the template. */
export function toTemplateMessages(messages: readonly ChatMessage[]): Record<string, unknown>[] {
  return messages.map((message) => {
    switch (message.role) {
      case "system":
      case "user":
        return { role: message.role, content: message.content ?? "" };
      case "tool": {
        const out: Record<string, unknown> = { role: "tool", content: message.content ?? "" };
        if (message.tool_call_id) out.tool_call_id = message.tool_call_id;
        return out;
      }
      case "assistant": {
        const out: Record<string, unknown> = { role: "assistant", content: message.content ?? "" };
        // llama.cpp only forwards a non-empty reasoning_content.
        if (typeof message.reasoning_content === "string" && message.reasoning_content !== "") {
          out.reasoning_content = message.reasoning_content;
        }
        if (message.tool_calls && message.tool_calls.length > 0) {
          out.tool_calls = message.tool_calls.map((call) => ({
            type: "function",
            function: { name: call.function.name, arguments: parseToolArguments(call.function.name, call.function.arguments) },
            id: call.id,
          }));
        }
        return out;
      }
    }
  });
}

// ---------------------------------------------------------------------------------------------
// Jinja runtime values. @huggingface/jinja exports no value classes; take their constructors from a
// probe environment (the values it builds for plain JS inputs).

interface RuntimeValue {
  type: string;
  value: unknown;
}
type ValueCtor = new (value: unknown) => RuntimeValue;

const ctors = (() => {
  const env = new Environment();
  const samples: Record<string, unknown> = { i: 1, f: 1.5, s: "", b: true, n: null, u: undefined, a: [], o: {} };
  const out: Record<string, ValueCtor> = {};
  for (const [k, v] of Object.entries(samples)) {
    env.set(k, v);
    out[k] = (env.lookupVariable(k) as unknown as RuntimeValue).constructor as ValueCtor;
  }
  return out as Record<"i" | "f" | "s" | "b" | "n" | "u" | "a" | "o", ValueCtor>;
})();

function toRuntime(value: unknown): RuntimeValue {
  if (value instanceof PyFloat) return new ctors.f(value.value);
  switch (typeof value) {
    case "number":
      return Number.isInteger(value) ? new ctors.i(value) : new ctors.f(value);
    case "string":
      return new ctors.s(value);
    case "boolean":
      return new ctors.b(value);
    case "undefined":
      return new ctors.u(undefined);
    case "object":
      if (value === null) return new ctors.n(null);
      if (Array.isArray(value)) return new ctors.a(value.map(toRuntime));
      return new ctors.o(new Map(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, toRuntime(v)])));
    default:
      throw new RenderError(`Cannot pass a ${typeof value} to the chat template`);
  }
}

/** json.dumps(value, ensure_ascii=False) of a template value, with Python float printing. */
function pyToJson(value: RuntimeValue): string | undefined {
  switch (value.type) {
    case "NullValue":
    case "UndefinedValue":
      return "null";
    case "BooleanValue":
      return value.value ? "true" : "false";
    case "IntegerValue":
      return String(value.value);
    case "FloatValue":
      return pyFloatRepr(value.value as number);
    case "StringValue":
      return pyJsonString(value.value as string, false);
    case "ArrayValue": {
      const parts: string[] = [];
      for (const item of value.value as RuntimeValue[]) {
        const text = pyToJson(item);
        if (text === undefined) return undefined;
        parts.push(text);
      }
      return `[${parts.join(", ")}]`;
    }
    case "ObjectValue": {
      const parts: string[] = [];
      for (const [k, item] of value.value as Map<string, RuntimeValue>) {
        const text = pyToJson(item);
        if (text === undefined) return undefined;
        parts.push(`${pyJsonString(k, false)}: ${text}`);
      }
      return `{${parts.join(", ")}}`;
    }
    default:
      return undefined; // let the library handle (or reject) anything else
  }
}

interface FilterNode {
  type: string;
  value?: unknown;
}
type ApplyFilter = (operand: RuntimeValue, filterNode: FilterNode, environment: unknown) => RuntimeValue;

interface JinjaInterpreter {
  run(program: unknown): RuntimeValue;
  applyFilter: ApplyFilter;
}
const InterpreterCtor = Interpreter as unknown as new (env: unknown) => JinjaInterpreter;
const baseApplyFilter = (InterpreterCtor.prototype as JinjaInterpreter).applyFilter;

/** An interpreter whose `tojson` filter prints like Python's json.dumps (see top of file). */
function pyJsonInterpreter(env: unknown): JinjaInterpreter {
  const interpreter = new InterpreterCtor(env);
  interpreter.applyFilter = function (this: unknown, operand, filterNode, environment) {
    if (filterNode.type === "Identifier" && filterNode.value === "tojson") {
      const text = pyToJson(operand);
      if (text !== undefined) return new ctors.s(text);
    }
    return baseApplyFilter.call(this, operand, filterNode, environment);
  };
  return interpreter;
}

// ---------------------------------------------------------------------------------------------
// Where message text lands in the prompt (issue 13, finding 3). llama-server tokenizes the whole
// prompt with special-token parsing on, so `<|im_start|>system` typed by a passenger would open a
// real system turn. The renderer therefore reports the character ranges that hold message text;
// the engine tokenizes them as plain text. To find them, every string of the conversation
// (contents, reasoning, tool-call argument values) is wrapped in two private-use characters before
// rendering (inside its surrounding whitespace, so the template's `trim` behaves as before) and the
// markers are removed afterwards (a second pair marks the model's own earlier output, which may
// keep the user-defined tokens it wrote but no control token). Wrapped, a text is opaque to the template's own content tests too
// (e.g. a passenger message that merely looks like `<tool_response>…</tool_response>` stays a user
// query), so passenger text is data, never structure. For ordinary text the prompt is byte-identical
// to the plain render (tested against the llama.cpp goldens).

const OPEN = "\uE000";
const CLOSE = "\uE001";
/** The model's own earlier output (see TextRange.modelOutput). */
const OPEN_MODEL = "\uE002";
const CLOSE_MODEL = "\uE003";
const MARKERS = /[\uE000-\uE003]/g;

export interface RenderedPrompt {
  prompt: string;
  /** Ranges of `prompt` holding message text (never chat-template structure). */
  literalRanges: TextRange[];
}

function wrapText(text: string, model = false): string {
  const clean = text.replace(MARKERS, "\uFFFD");
  const m = /^(\s*)([\s\S]*?)(\s*)$/.exec(clean) as RegExpExecArray;
  const [, lead, core, trail] = m as unknown as [string, string, string, string];
  return core === "" ? clean : `${lead}${model ? OPEN_MODEL : OPEN}${core}${model ? CLOSE_MODEL : CLOSE}${trail}`;
}

function wrapValues(value: unknown): unknown {
  if (typeof value === "string") return wrapText(value, true);
  if (Array.isArray(value)) return value.map(wrapValues);
  if (value !== null && typeof value === "object" && !(value instanceof PyFloat)) {
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, wrapValues(v)]));
  }
  return value;
}

/** Template messages with every message text wrapped (names, ids and roles stay as they are). */
function wrapMessages(messages: Record<string, unknown>[]): Record<string, unknown>[] {
  return messages.map((message) => {
    const out: Record<string, unknown> = { ...message };
    const model = out.role === "assistant";
    if (typeof out.content === "string") out.content = wrapText(out.content, model);
    if (model) {
      // Explicit (possibly empty) reasoning: the template must not split the content on "</think>".
      out.reasoning_content = typeof out.reasoning_content === "string" ? wrapText(out.reasoning_content, true) : "";
      if (Array.isArray(out.tool_calls)) {
        out.tool_calls = (out.tool_calls as { function: { name: string; arguments: unknown } }[]).map((call) => ({
          ...call,
          function: { ...call.function, arguments: wrapValues(call.function.arguments) },
        }));
      }
    }
    return out;
  });
}

/** Remove the markers of a marked render, collecting the ranges they enclosed. */
function unmark(marked: string): RenderedPrompt {
  let prompt = "";
  const literalRanges: TextRange[] = [];
  let start = -1;
  let from = 0;
  MARKERS.lastIndex = 0;
  for (let m = MARKERS.exec(marked); m; m = MARKERS.exec(marked)) {
    prompt += marked.slice(from, m.index);
    from = m.index + 1;
    if (m[0] === OPEN || m[0] === OPEN_MODEL) start = prompt.length;
    else if (start >= 0) {
      if (prompt.length > start) literalRanges.push(m[0] === CLOSE_MODEL ? { start, end: prompt.length, modelOutput: true } : { start, end: prompt.length });
      start = -1;
    }
  }
  prompt += marked.slice(from);
  return { prompt, literalRanges };
}

// ---------------------------------------------------------------------------------------------

/** A parsed chat template; render() gives the exact prompt text llama-server would tokenize. */
export class ChatTemplateRenderer {
  private readonly template: Template;

  constructor(readonly source: string) {
    this.template = new Template(source);
  }

  /** Render with already-converted template variables (messages/tools as llama.cpp builds them). */
  renderVariables(variables: Record<string, unknown>): string {
    const env = new Environment();
    for (const [name, value] of [
      ["false", false],
      ["true", true],
      ["none", null],
      ["True", true],
      ["False", false],
      ["None", null],
    ] as const) {
      env.set(name, value);
    }
    env.set("range", (...args: number[]) => {
      const [start, stop, step] = args.length === 1 ? [0, args[0] ?? 0, 1] : [args[0] ?? 0, args[1] ?? 0, args[2] ?? 1];
      const out: number[] = [];
      for (let i = start; step > 0 ? i < stop : i > stop; i += step) out.push(i);
      return out;
    });
    env.set("raise_exception", (message: unknown) => {
      throw new RenderError(`Chat template raised: ${String(message)}`);
    });
    for (const [name, value] of Object.entries(variables)) env.setVariable(name, toRuntime(value) as never);
    const result = pyJsonInterpreter(env).run(this.template.parsed);
    return result.value as string;
  }

  /** The template variables llama-server builds for a request (`marked`: message texts wrapped, see below). */
  variables(messages: readonly ChatMessage[], options: RenderOptions, marked = false): Record<string, unknown> {
    const converted = toTemplateMessages(messages);
    const variables: Record<string, unknown> = {
      messages: marked ? wrapMessages(converted) : converted,
      add_generation_prompt: options.addGenerationPrompt ?? true,
      enable_thinking: options.enableThinking ?? true,
      bos_token: options.bosToken ?? "",
      eos_token: options.eosToken ?? "",
    };
    if (options.tools && options.tools.length > 0) variables.tools = toTemplateTools(options.tools);
    return variables;
  }

  render(messages: readonly ChatMessage[], options: RenderOptions = {}): string {
    return this.renderVariables(this.variables(messages, options));
  }

  /** The prompt together with the ranges that hold message text (tokenized as plain text by the engine). */
  renderWithLiterals(messages: readonly ChatMessage[], options: RenderOptions = {}): RenderedPrompt {
    return unmark(this.renderVariables(this.variables(messages, options, true)));
  }
}

const rendererCache = new Map<string, ChatTemplateRenderer>();

/** Render a conversation with a chat template (parsed templates are cached). */
export function renderChat(chatTemplate: string, messages: readonly ChatMessage[], options: RenderOptions = {}): string {
  let renderer = rendererCache.get(chatTemplate);
  if (!renderer) {
    renderer = new ChatTemplateRenderer(chatTemplate);
    if (rendererCache.size > 8) rendererCache.clear();
    rendererCache.set(chatTemplate, renderer);
  }
  return renderer.render(messages, options);
}
