// Request validation as the reference's FastAPI + pydantic v2 server performs it, driven by the
// tools' zod schemas (zod stays the single description of each request).
//
// The reference validates a decoded JSON body in pydantic's lax Python mode (with
// from_attributes=True, as FastAPI calls it). Supported zod shapes and their pydantic meaning:
//   z.string()                 str: only strings                         → string_type
//   z.int() (.min(n))          int: ints, bools, integral floats, integer strings
//                                   (trimmed, "+", leading zeros, "_" separators, ".000")
//                                   → int_type / int_parsing / int_from_float / finite_number,
//                                   then greater_than_equal (ctx {ge: n})
//   z.array(x)                 list[x]: only arrays                      → list_type
//   z.object({...})            a model: only objects; unknown keys ignored; missing required
//                                   fields → missing (input = the enclosing object);
//                                   anything else → model_attributes_type
//   .nullish()                 Optional[x] = None  (missing or null → null)
//   .default(v)                x = v  (missing → v; null is validated as x and fails)
// All errors are collected in field order, each {type, loc, msg, input, ctx?}.
import type { z } from "zod";
import { PyFloat } from "../py/number.ts";
import { hasKey } from "../py/text.ts";
import { PYDANTIC_MESSAGES } from "../wire/messages.ts";

export type Loc = (string | number)[];

/** A location built only when an error needs it (validation of valid input allocates none). */
interface LocNode {
  parent: LocNode | null;
  key: string | number;
}

function materialise(node: LocNode | null): Loc {
  const loc: Loc = [];
  for (let n = node; n; n = n.parent) loc.push(n.key);
  return loc.reverse();
}

export interface PydanticError {
  type: string;
  loc: Loc;
  msg: string;
  input: unknown;
  ctx?: Record<string, unknown>;
}

export type LaxResult<T> = { ok: true; value: T } | { ok: false; errors: PydanticError[] };

type Plan =
  | { kind: "str" }
  | { kind: "int"; ge: number | undefined }
  | { kind: "list"; item: Plan }
  | { kind: "model"; fields: FieldPlan[] }
  | { kind: "nullable"; inner: Plan }
  | { kind: "any" };

interface FieldPlan {
  name: string;
  plan: Plan;
  /** What a missing key becomes: an error, null (Optional), or a default value. */
  missing: { kind: "required" } | { kind: "null" } | { kind: "default"; value: () => unknown };
}

interface ZodDefLike {
  type: string;
  innerType?: ZodLike;
  element?: ZodLike;
  shape?: Record<string, ZodLike>;
  defaultValue?: unknown;
  format?: string;
  checks?: { _zod: { def: { check: string; value?: unknown; inclusive?: boolean } } }[];
}
interface ZodLike {
  _zod: { def: ZodDefLike };
}

function unwrapField(schema: ZodLike): { plan: Plan; missing: FieldPlan["missing"] } {
  const def = schema._zod.def;
  if (def.type === "default") {
    const fallback = def.defaultValue;
    return {
      plan: compile(def.innerType as ZodLike),
      missing: { kind: "default", value: () => (typeof fallback === "object" && fallback !== null ? structuredClone(fallback) : fallback) },
    };
  }
  if (def.type === "optional") {
    return { plan: compile(def.innerType as ZodLike), missing: { kind: "null" } };
  }
  return { plan: compile(schema), missing: { kind: "required" } };
}

function compile(schema: ZodLike): Plan {
  const def = schema._zod.def;
  switch (def.type) {
    case "string":
      return { kind: "str" };
    case "number": {
      if (!def.format || !def.format.includes("int")) throw new Error("pydantic emulation: only integer numbers are supported");
      let ge: number | undefined;
      for (const check of def.checks ?? []) {
        const c = check._zod.def;
        if (c.check === "greater_than" && c.inclusive && typeof c.value === "number") ge = c.value;
        else if (c.check !== "number_format") throw new Error(`pydantic emulation: unsupported check '${c.check}'`);
      }
      return { kind: "int", ge };
    }
    case "array":
      return { kind: "list", item: compile(def.element as ZodLike) };
    case "object":
      return {
        kind: "model",
        fields: Object.entries(def.shape ?? {}).map(([name, field]) => ({ name, ...unwrapField(field) })),
      };
    case "nullable":
      return { kind: "nullable", inner: compile(def.innerType as ZodLike) };
    case "optional":
    case "default":
      return compile(def.innerType as ZodLike);
    case "unknown":
    case "any":
      return { kind: "any" };
    default:
      throw new Error(`pydantic emulation: unsupported zod type '${def.type}'`);
  }
}

const compiled = new WeakMap<object, Plan>();

function planFor(schema: z.ZodType): Plan {
  let plan = compiled.get(schema);
  if (!plan) compiled.set(schema, (plan = compile(schema as unknown as ZodLike)));
  return plan;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v) && !(v instanceof PyFloat);
}

function error(type: string, at: LocNode | null, input: unknown, ctx?: Record<string, unknown>): PydanticError {
  const loc = materialise(at);
  let msg: string = (PYDANTIC_MESSAGES as Record<string, string>)[type] ?? type;
  for (const [k, v] of Object.entries(ctx ?? {})) msg = msg.replace(`{${k}}`, String(v));
  const e: PydanticError = { type, loc, msg, input };
  if (ctx) e.ctx = ctx;
  return e;
}

/** Unicode White_Space as Rust's str::trim knows it. */
const RUST_WHITESPACE = /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+|[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+$/g;
const I64_LIMIT = 2 ** 63;
const JSON_INT = /^-?(?:0|[1-9][0-9]*)$/;

/** pydantic-core's leading-zero stripping (None → undefined). */
function stripLeadingZeros(s: string): string | undefined {
  const first = s[0];
  if (first === undefined) return undefined;
  if (first !== "0") return (first >= "1" && first <= "9") || first === "-" ? s : undefined;
  for (let i = 1; i < s.length; i++) {
    const c = s[i] as string;
    if (c === "0" || c === "_") continue;
    if ((c >= "1" && c <= "9") || c === "-") return s.slice(i);
    if (c === ".") return s.slice(i - 1);
    return undefined;
  }
  return s.slice(s.length - 1);
}

function utf8Length(s: string): number {
  let n = 0;
  for (const ch of s) {
    const c = ch.codePointAt(0) as number;
    n += c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
  }
  return n;
}

/** pydantic-core's `clean_int_str`: the second chance a non-canonical integer string gets. */
function cleanIntString(original: string): string | undefined {
  const bytesBefore = utf8Length(original);
  let s = original.replace(RUST_WHITESPACE, "");
  if (s.startsWith("+")) {
    if (s[1] === "-") return undefined;
    s = s.slice(1);
  }
  let negative = false;
  if (s.startsWith("-")) {
    if (s[1] === "-" || s[1] === "+") return undefined;
    negative = true;
    s = s.slice(1);
  }
  const stripped = stripLeadingZeros(s);
  if (stripped === undefined) return undefined;
  s = stripped;
  const dot = s.indexOf(".");
  if (dot >= 0) {
    const decimals = s.slice(dot + 1);
    if (decimals.length > 0 && /^0+$/.test(decimals)) s = s.slice(0, dot);
  }
  if (!s.startsWith("_") && !s.endsWith("_") && s.includes("_") && !s.includes("__")) {
    return (negative ? "-" : "") + s.replaceAll("_", "");
  }
  if (bytesBefore === utf8Length(s)) return undefined;
  return (negative ? "-" : "") + s;
}

function intFromString(s: string): number | undefined {
  if (JSON_INT.test(s)) return Number(s);
  const cleaned = cleanIntString(s);
  return cleaned !== undefined && JSON_INT.test(cleaned) ? Number(cleaned) : undefined;
}

function validate(plan: Plan, input: unknown, loc: LocNode | null, errors: PydanticError[]): unknown {
  switch (plan.kind) {
    case "any":
      return input;
    case "str":
      if (typeof input === "string") return input;
      errors.push(error("string_type", loc, input));
      return undefined;
    case "int": {
      let value: number | undefined;
      if (typeof input === "boolean") value = input ? 1 : 0;
      else if (typeof input === "number" || input instanceof PyFloat) {
        const x = typeof input === "number" ? input : input.value;
        if (!Number.isFinite(x)) errors.push(error("finite_number", loc, input));
        else if (!Number.isInteger(x)) errors.push(error("int_from_float", loc, input));
        // A float beyond the i64 range does not convert (a big Python int would; JS cannot tell
        // them apart unless the float came in as a PyFloat marker).
        else if (input instanceof PyFloat && !(x > -I64_LIMIT && x < I64_LIMIT)) errors.push(error("int_parsing_size", loc, input));
        else value = x;
      } else if (typeof input === "string") {
        value = intFromString(input);
        if (value === undefined) errors.push(error("int_parsing", loc, input));
      } else errors.push(error("int_type", loc, input));
      if (value === undefined) return undefined;
      if (value === 0) value = 0; // Python ints have no negative zero
      if (plan.ge !== undefined && !(value >= plan.ge)) {
        errors.push(error("greater_than_equal", loc, input, { ge: plan.ge }));
        return undefined;
      }
      return value;
    }
    case "list":
      if (!Array.isArray(input)) {
        errors.push(error("list_type", loc, input));
        return undefined;
      }
      // JSON has no undefined: an undefined element travels as null.
      return input.map((item, i) => validate(plan.item, item === undefined ? null : item, { parent: loc, key: i }, errors));
    case "nullable":
      return input === null ? null : validate(plan.inner, input, loc, errors);
    case "model": {
      if (!isPlainObject(input)) {
        errors.push(error("model_attributes_type", loc, input));
        return undefined;
      }
      const out: Record<string, unknown> = {};
      for (const field of plan.fields) {
        // A key holding undefined is absent once serialised, as the reference would receive it.
        if (!hasKey(input, field.name) || input[field.name] === undefined) {
          if (field.missing.kind === "required") errors.push(error("missing", { parent: loc, key: field.name }, input));
          else out[field.name] = field.missing.kind === "null" ? null : field.missing.value();
          continue;
        }
        out[field.name] = validate(field.plan, input[field.name], { parent: loc, key: field.name }, errors);
      }
      return out;
    }
  }
}

/**
 * Validate a request body as FastAPI would for a single pydantic-model body parameter: a missing
 * (null) body is one `missing` error at ["body"]; errors carry loc ["body", …].
 * On success the value has the schema's output shape (defaults applied, missing Optionals null).
 */
export function validateBody<S extends z.ZodType>(schema: S, body: unknown): LaxResult<z.output<S>> {
  const errors: PydanticError[] = [];
  const root: LocNode = { parent: null, key: "body" };
  if (body === null || body === undefined) {
    return { ok: false, errors: [error("missing", root, null)] };
  }
  const value = validate(planFor(schema), body, root, errors);
  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, value: value as z.output<S> };
}

/** Error label of a failed validation, for messages (e.g. the CLI). */
export function formatPydanticErrors(errors: readonly PydanticError[]): string {
  return errors.map((e) => `${e.loc.join(".")}: ${e.msg}`).join("; ");
}
