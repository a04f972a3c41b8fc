// The tool-call grammar llama-server b8642 enforced (MODEL-PROTOCOL.md §3, §5), built from the tool
// definitions' JSON Schemas by our own converter with llama.cpp's json-schema-to-grammar semantics:
// types, enums, required keys first in schema order then optional keys in schema order (fixed key
// order, no unknown keys), minItems/maxItems, bounded whitespace (`space`). String-typed parameters
// are free text up to "\n</parameter>\n" (enums inside them are not enforced, as in the paper).
//
// Lazy trigger: generation is unconstrained until the trigger word ("<tool_call>\n" for b8642)
// appears anywhere in the generated text, think block included; from the trigger's first character
// on, the text must match the grammar: exactly one call (parallel off), then only end-of-generation.
// node-llama-cpp has no lazy grammar, so a backend runs two phases: unconstrained with the trigger
// as a stop word, then continues from the exact tokens under `LazyToolCallGrammar.continueAfter()`.
import type { ToolDefinition } from "../../tools/data/schemas.ts";
import { G, GrammarBuilder, GrammarMatcher, toGbnfText, type GAlt, type GElem, type Gbnf } from "./gbnf.ts";
import { DEFAULT_PROFILE, profileSettings, type ProtocolProfile } from "./profile.ts";
import type { JsonSchema } from "./tools.ts";
import { toolShapes, type ToolParam, type ToolShape } from "./tools.ts";

// ---------------------------------------------------------------------------------------------
// JSON Schema → grammar (llama.cpp common/json-schema-to-grammar.cpp semantics, the subset the
// kiosk tools use plus the usual combinators).

/** llama.cpp's json.dump() of a constant (strings keep non-ASCII raw). */
function jsonLiteral(value: unknown): string {
  return JSON.stringify(value);
}

export class JsonSchemaGrammar {
  constructor(private readonly b: GrammarBuilder) {}

  /** space ::= | " " | "\n"{1,2} [ \t]{0,20} */
  space(): GElem {
    if (this.b.rules.has("space")) return G.ref("space");
    const nl = G.lit("\n");
    const tail = this.b.repeat([G.cls(" \t")], 0, 20);
    const nls = this.b.repeat(nl, 1, 2);
    return this.b.rule("space", [[], G.lit(" "), [...nls, ...tail]]);
  }

  private char(): GElem {
    return this.b.rule("json-char", [
      [G.cls('"\\\x7f\x00-\x1f', true)],
      [G.cls("\\"), this.b.alt([G.cls('"\\bfnrt')], [...G.lit("u"), ...this.b.repeat([G.cls("0-9a-fA-F")], 4, 4)])],
    ]);
  }

  string(): GElem {
    if (this.b.rules.has("json-string")) return G.ref("json-string");
    return this.b.rule("json-string", [[...G.lit('"'), this.b.star([this.char()]), ...G.lit('"'), this.space()]]);
  }

  private integralPart(): GElem {
    return this.b.rule("json-integral-part", [[G.cls("0")], [G.cls("1-9"), ...this.b.repeat([G.cls("0-9")], 0, 15)]]);
  }

  integer(): GElem {
    if (this.b.rules.has("json-integer")) return G.ref("json-integer");
    return this.b.rule("json-integer", [[this.b.opt(G.lit("-")), this.integralPart(), this.space()]]);
  }

  number(): GElem {
    if (this.b.rules.has("json-number")) return G.ref("json-number");
    const decimal = this.b.rule("json-decimal-part", [this.b.repeat([G.cls("0-9")], 1, 16)]);
    return this.b.rule("json-number", [
      [
        this.b.opt(G.lit("-")),
        this.integralPart(),
        this.b.opt([...G.lit("."), decimal]),
        this.b.opt([G.cls("eE"), this.b.opt([G.cls("-+")]), this.integralPart()]),
        this.space(),
      ],
    ]);
  }

  boolean(): GElem {
    return this.b.rule("json-boolean", [[this.b.alt(G.lit("true"), G.lit("false")), this.space()]]);
  }

  null(): GElem {
    return this.b.rule("json-null", [[...G.lit("null"), this.space()]]);
  }

  /** Any JSON value (a schema without constraints). */
  value(): GElem {
    if (this.b.rules.has("json-value")) return G.ref("json-value");
    this.b.rules.set("json-value", []); // reserve (recursive)
    const kv: GAlt = [this.string(), ...G.lit(":"), this.space(), G.ref("json-value")];
    const object = this.b.rule("json-object", [
      [...G.lit("{"), this.space(), this.b.opt([...kv, this.b.star([...G.lit(","), this.space(), ...kv])]), ...G.lit("}"), this.space()],
    ]);
    const array = this.b.rule("json-array", [
      [...G.lit("["), this.space(), this.b.opt([G.ref("json-value"), this.b.star([...G.lit(","), this.space(), G.ref("json-value")])]), ...G.lit("]"), this.space()],
    ]);
    this.b.rules.set("json-value", [[object], [array], [this.string()], [this.number()], [this.boolean()], [this.null()]]);
    return G.ref("json-value");
  }

  /** The rule for a schema; `name` gives readable rule names. */
  visit(schema: JsonSchema, name: string): GElem {
    if (Array.isArray(schema.enum)) {
      return this.b.rule(`${name}-enum`, [[this.b.alt(...schema.enum.map((v) => G.lit(jsonLiteral(v)))), this.space()]]);
    }
    if ("const" in schema) return this.b.rule(`${name}-const`, [[...G.lit(jsonLiteral(schema.const)), this.space()]]);
    const variants = (schema.oneOf ?? schema.anyOf) as JsonSchema[] | undefined;
    if (Array.isArray(variants)) return this.b.rule(name, variants.map((v, i) => [this.visit(v, `${name}-${i}`)]));
    const type = schema.type;
    if (Array.isArray(type)) return this.b.rule(name, type.map((t) => [this.visit({ ...schema, type: t }, `${name}-${String(t)}`)]));
    switch (type) {
      case "string":
        return this.string();
      case "integer":
        return this.integer();
      case "number":
        return this.number();
      case "boolean":
        return this.boolean();
      case "null":
        return this.null();
      case "array":
        return this.array(schema, name);
      case "object":
        return schema.properties ? this.object(schema, name) : this.value();
      default:
        return schema.properties ? this.object(schema, name) : this.value();
    }
  }

  private array(schema: JsonSchema, name: string): GElem {
    const items = (schema.items ?? {}) as JsonSchema;
    const item = this.visit(items, `${name}-item`);
    const min = typeof schema.minItems === "number" ? schema.minItems : 0;
    const max = typeof schema.maxItems === "number" ? schema.maxItems : undefined;
    const sep: GAlt = [...G.lit(","), this.space()];
    let body: GElem[];
    if (max === 0) body = [];
    else if (min === 0) body = [this.b.opt([item, ...this.b.repeat([...sep, item], 0, max === undefined ? undefined : max - 1)])];
    else body = [item, ...this.b.repeat([...sep, item], min - 1, max === undefined ? undefined : max - 1)];
    return this.b.rule(name, [[...G.lit("["), this.space(), ...body, ...G.lit("]"), this.space()]]);
  }

  private object(schema: JsonSchema, name: string): GElem {
    const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
    const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
    const kv = new Map<string, GElem>();
    const req: string[] = [];
    const opt: string[] = [];
    for (const [key, sub] of Object.entries(properties)) {
      const value = this.visit(sub, `${name}-${key}`);
      kv.set(key, this.b.rule(`${name}-${key}-kv`, [[...G.lit(jsonLiteral(key)), this.space(), ...G.lit(":"), this.space(), value]]));
      (required.has(key) ? req : opt).push(key);
    }
    const sep: GAlt = [...G.lit(","), this.space()];
    const seq: GElem[] = [...G.lit("{"), this.space()];
    req.forEach((key, i) => {
      if (i > 0) seq.push(...sep);
      seq.push(kv.get(key) as GElem);
    });
    if (opt.length > 0) {
      // llama.cpp: for each optional key k_i, "k_i (, k_i+1)? (, k_i+2)? …" — fixed order.
      const restRule = (keys: string[]): GElem[] => {
        const [first, ...rest] = keys;
        if (first === undefined) return [];
        const head: GElem = this.b.opt([...sep, kv.get(first) as GElem]);
        return rest.length > 0 ? [head, this.b.rule(`${name}-${first}-rest`, [restRule(rest)])] : [head];
      };
      const choices: GAlt[] = opt.map((key, i) => {
        const rest = opt.slice(i + 1);
        return [kv.get(key) as GElem, ...(rest.length > 0 ? [this.b.rule(`${name}-${key}-rest`, [restRule(rest)])] : [])];
      });
      const choice = this.b.alt(...choices);
      seq.push(req.length > 0 ? this.b.opt([...sep, choice]) : this.b.opt([choice]));
    }
    seq.push(...G.lit("}"), this.space());
    return this.b.rule(name, [seq]);
  }
}

// ---------------------------------------------------------------------------------------------
// The XML tool-call grammar.

export interface ToolCallGrammarOptions {
  profile?: ProtocolProfile;
  /** Defaults to the profile's llama-server default (b8642: false, b10398: true). */
  parallelToolCalls?: boolean;
}

const VALUE_END = "\n</parameter>\n";

function paramRule(b: GrammarBuilder, json: JsonSchemaGrammar, tool: ToolShape, param: ToolParam): GElem {
  const name = `${tool.name}-arg-${param.name}`;
  const open = G.lit(`<parameter=${param.name}>\n`);
  if (param.isString) return b.rule(name, [[...open, b.until(VALUE_END, `${name}-text`)]]);
  return b.rule(name, [[...open, json.visit(param.schema, `${name}-json`), ...G.lit(VALUE_END)]]);
}

/** Every order of `items` (the required arguments of one tool: at most a handful). */
function permutations<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [items.slice()];
  return items.flatMap((item, i) => permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]));
}

/** "NAME>\n" + arguments + "</function>" for one tool (after "<function="). */
function functionBody(b: GrammarBuilder, json: JsonSchemaGrammar, tool: ToolShape, profile: ProtocolProfile): GAlt {
  const seq: GElem[] = [...G.lit(`${tool.name}>\n`)];
  if (profile === "v0.4.0") {
    // llama.cpp v0.4.0: every required argument once, in any order (p.permute), then optional ones.
    if (tool.required.length > 0) seq.push(b.rule(`${tool.name}-required`, permutations(tool.required).map((order) => order.map((p) => paramRule(b, json, tool, p)))));
    if (tool.optional.length > 0) seq.push(b.star([b.alt(...tool.optional.map((p) => [paramRule(b, json, tool, p)]))]));
  } else if (profile === "b10398") {
    if (tool.params.length > 0) seq.push(b.star([b.alt(...tool.params.map((p) => [paramRule(b, json, tool, p)]))]));
  } else {
    for (const p of tool.required) seq.push(paramRule(b, json, tool, p));
    if (tool.optional.length > 0) seq.push(b.star([b.alt(...tool.optional.map((p) => [paramRule(b, json, tool, p)]))]));
  }
  seq.push(...G.lit("</function>"));
  return seq;
}

/** The grammar from the trigger's first character on (the text llama.cpp feeds to it). */
export function buildToolCallGrammar(tools: readonly ToolDefinition[], options: ToolCallGrammarOptions = {}): Gbnf {
  const settings = profileSettings(options.profile ?? DEFAULT_PROFILE, options.parallelToolCalls);
  const b = new GrammarBuilder();
  const json = new JsonSchemaGrammar(b);
  const shapes = toolShapes(tools);
  if (shapes.length === 0) throw new Error("A tool-call grammar needs at least one tool");
  const ws = b.rule("ws", [b.repeat([G.cls(" \t\r\n")], 0, 20)]);
  const fn = b.rule("function", [[...G.lit("<function="), b.alt(...shapes.map((s) => functionBody(b, json, s, settings.profile)))]]);
  let call: GElem;
  if (settings.profile === "v0.4.0") {
    call = b.rule("call", [[...G.lit("<tool_call>\n"), fn, ...G.lit("\n</tool_call>"), json.space()]]);
  } else if (settings.profile === "b10398") {
    call = b.rule("call", [
      [...G.lit("<tool_call>\n"), fn, ws, ...G.lit("</tool_call>")],
      [fn, b.opt([ws, ...G.lit("</tool_call>")])],
    ]);
  } else {
    call = b.rule("call", [[...G.lit("<tool_call>\n"), fn, ...G.lit("\n"), ws, ...G.lit("</tool_call>")]]);
  }
  const between = settings.profile === "v0.4.0" ? [] : [ws];
  const root: GAlt = settings.parallelToolCalls ? [call, b.star([...between, call])] : [call];
  return b.build([root]);
}

/** A verdict in the probe's terms (parser-cases.json "grammar" field). */
export type LazyGrammarVerdict =
  | { triggered: false }
  | { triggered: true; fromByte: number; accepted: true; complete: boolean }
  | { triggered: true; fromByte: number; accepted: false; rejectedAtByte: number; piece: string };

export type ContinueResult =
  /** `gbnf` starts with `rootRule` (not "root": pass it as the root rule name to llama.cpp). */
  | { ok: true; gbnf: string; rootRule: string; grammar: Gbnf; complete: boolean; canContinue: boolean }
  | { ok: false; rejectedAtByte: number; piece: string; message: string };

const utf8 = new TextEncoder();

/** The lazy tool-call grammar of a request (tools + profile). */
export class LazyToolCallGrammar {
  readonly triggers: readonly string[];
  readonly grammar: Gbnf;
  readonly profile: ProtocolProfile;
  /** Length of the longest trigger word. */
  readonly maxTriggerLength: number;
  private readonly continueCache = new Map<string, ContinueResult>();
  private gbnfText: string | undefined;

  /** What the grammar was built from: a model process rebuilds the same grammar from it (models/worker/). */
  readonly spec: { tools: readonly ToolDefinition[]; options: ToolCallGrammarOptions };

  constructor(tools: readonly ToolDefinition[], options: ToolCallGrammarOptions = {}) {
    this.spec = { tools, options: { ...options } };
    const settings = profileSettings(options.profile ?? DEFAULT_PROFILE, options.parallelToolCalls);
    this.profile = settings.profile;
    this.triggers = settings.triggers;
    this.maxTriggerLength = Math.max(...this.triggers.map((t) => t.length));
    this.grammar = buildToolCallGrammar(tools, options);
  }

  /** The full grammar (from the trigger on) as GBNF text. */
  get gbnf(): string {
    return (this.gbnfText ??= toGbnfText(this.grammar));
  }

  /**
   * Index (UTF-16) of the earliest trigger occurrence in `text`, or -1. `from`: the caller knows
   * there is no occurrence starting before it (incremental search while generating).
   */
  findTrigger(text: string, from = 0): number {
    let best = -1;
    for (const t of this.triggers) {
      const i = text.indexOf(t, from);
      if (i >= 0 && (best < 0 || i < best)) best = i;
    }
    return best;
  }

  /**
   * The grammar for the rest of the generation when the model has written `constrained` (the
   * text from the trigger's first character on). Rejection = llama.cpp's "Unexpected empty
   * grammar stack after accepting piece" (the request failed).
   */
  continueAfter(constrained: string): ContinueResult {
    const cached = this.continueCache.get(constrained);
    if (cached) return cached;
    const matcher = new GrammarMatcher(this.grammar);
    const fed = matcher.feed(constrained);
    let result: ContinueResult;
    if (!fed.ok) {
      result = {
        ok: false,
        rejectedAtByte: fed.atByte,
        piece: fed.piece,
        message: `Unexpected empty grammar stack after accepting piece: ${fed.piece} (tool-call grammar rejected the output at byte ${fed.atByte} after the trigger)`,
      };
    } else {
      const grammar = matcher.derive();
      result = { ok: true, grammar, gbnf: toGbnfText(grammar), rootRule: grammar.root, complete: matcher.isComplete(), canContinue: matcher.canContinue() };
    }
    if (this.continueCache.size > 64) this.continueCache.clear();
    this.continueCache.set(constrained, result);
    return result;
  }

  /** Apply the lazy grammar to a whole generated text, as the probe did. */
  check(text: string): LazyGrammarVerdict {
    const at = this.findTrigger(text);
    if (at < 0) return { triggered: false };
    const fromByte = utf8.encode(text.slice(0, at)).length;
    const matcher = new GrammarMatcher(this.grammar);
    const fed = matcher.feed(text.slice(at));
    if (!fed.ok) return { triggered: true, fromByte, accepted: false, rejectedAtByte: fed.atByte, piece: fed.piece };
    return { triggered: true, fromByte, accepted: true, complete: matcher.isComplete() };
  }
}
