// The reference server's request model for submit_assistant_state, with pydantic v2's lax
// ("python mode") coercion rules, expressed in zod. Every leaf reports failures as pydantic does
// (error type + message), so the 422 body can be rebuilt byte for byte by toPydanticErrors().
//
// Lax rules reproduced (checked against pydantic 2.13):
// - str: only strings (numbers are not turned into text).
// - int: ints, bools, integral floats, and strings of digits (sign, single "_" between digits,
//   surrounding Unicode white space, a ".000" tail); "1e2" and "3.5" are rejected.
// - float: numbers, bools, and strings Python-float-like ("2.50", " 1e3 ", "inf", "1_000");
//   "$2.50" is rejected.
// - list / dict / model: the matching JSON container only.
import { z } from "zod";
import { PyFloat, hasKey } from "../../tools/py/index.ts";
import { compiledSchema } from "../../tools/util/compiled-schema.ts";
import { PYDANTIC_MESSAGES, type PydanticErrorType } from "../../tools/wire/messages.ts";

/** One pydantic v2 error as FastAPI reports it (loc without the leading "body"). */
export interface PydanticError {
  type: string;
  loc: Array<string | number>;
  msg: string;
  input: unknown;
}

type PyErrorType = Exclude<PydanticErrorType, "greater_than_equal">;

type Coerced = { ok: true; value: unknown } | { ok: false; type: PyErrorType };

/** A JSON object (not an array, not a PyFloat marker or other class instance). */
export function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== "object" || Array.isArray(v)) return false;
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

// Rust's str::trim (Unicode White_Space), which pydantic-core applies to numeric strings.
const WS = "[\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]";
const TRIM = new RegExp(`^${WS}+|${WS}+$`, "g");
const INT_TEXT = /^[+-]?\d+(?:_\d+)*(?:\.0+)?$/;
const FLOAT_TEXT = /^[+-]?(?:(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|inf|infinity|nan)$/i;
const I64_LIMIT = 2 ** 63;

function parseIntText(s: string): number | undefined {
  const t = s.replace(TRIM, "");
  if (!INT_TEXT.test(t)) return undefined;
  const digits = t.replace(/_/g, "").replace(/\.0+$/, "");
  const value = Number(digits);
  return Object.is(value, -0) ? 0 : value;
}

function parseFloatText(s: string): number | undefined {
  let t = s.replace(TRIM, "");
  if (t.includes("_")) {
    if (t.startsWith("_") || t.endsWith("_") || t.includes("__")) return undefined;
    t = t.replace(/_/g, "");
  }
  if (!FLOAT_TEXT.test(t)) return undefined;
  const lower = t.toLowerCase().replace(/^\+/, "");
  if (lower.endsWith("nan")) return NaN;
  if (lower === "inf" || lower === "infinity") return Infinity;
  if (lower === "-inf" || lower === "-infinity") return -Infinity;
  return Number(t);
}

function coerceStr(v: unknown): Coerced {
  return typeof v === "string" ? { ok: true, value: v } : { ok: false, type: "string_type" };
}

function coerceInt(v: unknown): Coerced {
  if (typeof v === "boolean") return { ok: true, value: v ? 1 : 0 };
  if (v instanceof PyFloat || typeof v === "number") {
    const x = v instanceof PyFloat ? v.value : v;
    if (!Number.isFinite(x)) return { ok: false, type: "finite_number" };
    if (!Number.isInteger(x)) return { ok: false, type: "int_from_float" };
    // A JSON integer literal is a Python int of any size; only a float can be too large.
    if (v instanceof PyFloat && Math.abs(x) >= I64_LIMIT) return { ok: false, type: "int_parsing_size" };
    return { ok: true, value: Object.is(x, -0) ? 0 : x };
  }
  if (typeof v === "string") {
    const parsed = parseIntText(v);
    return parsed === undefined ? { ok: false, type: "int_parsing" } : { ok: true, value: parsed };
  }
  return { ok: false, type: "int_type" };
}

/** Floats come out as PyFloat so that the server's JSON dump prints them as floats (2 → 2.0). */
function coerceFloat(v: unknown): Coerced {
  if (typeof v === "boolean") return { ok: true, value: new PyFloat(v ? 1 : 0) };
  if (v instanceof PyFloat) return { ok: true, value: v };
  if (typeof v === "number") return { ok: true, value: new PyFloat(v) };
  if (typeof v === "string") {
    const parsed = parseFloatText(v);
    return parsed === undefined ? { ok: false, type: "float_parsing" } : { ok: true, value: new PyFloat(parsed) };
  }
  return { ok: false, type: "float_type" };
}

function coerceList(v: unknown): Coerced {
  return Array.isArray(v) ? { ok: true, value: v } : { ok: false, type: "list_type" };
}

function coerceDict(v: unknown): Coerced {
  return isPlainObject(v) ? { ok: true, value: v } : { ok: false, type: "dict_type" };
}

function coerceModelInput(v: unknown): Coerced {
  return isPlainObject(v) ? { ok: true, value: v } : { ok: false, type: "model_attributes_type" };
}

/** A zod leaf that applies a pydantic coercion; an absent key is pydantic's "missing". */
function pyLeaf(coerce: (v: unknown) => Coerced) {
  return z.unknown().transform((v, ctx) => {
    const result: Coerced = v === undefined ? { ok: false, type: "missing" } : coerce(v);
    if (result.ok) return result.value;
    ctx.issues.push({ code: "custom", message: PYDANTIC_MESSAGES[result.type], params: { pyType: result.type }, input: v });
    return z.NEVER;
  });
}

const pyStr = () => pyLeaf(coerceStr);
const pyInt = () => pyLeaf(coerceInt);
const pyFloat = () => pyLeaf(coerceFloat);
const pyAnyList = () => pyLeaf(coerceList);
const pyDict = () => pyLeaf(coerceDict);
const pyList = <T extends z.ZodType>(item: T) => pyLeaf(coerceList).pipe(z.array(item));
const pyModel = <S extends z.core.$ZodLooseShape>(shape: S) => pyLeaf(coerceModelInput).pipe(z.object(shape));

export const LaxRouteSchema = pyModel({
  origin: pyStr(),
  destination: pyStr(),
  stops: pyAnyList(),
  transfers: pyInt(),
  estimated_minutes: pyFloat(),
  distance_miles: pyFloat(),
  line_sequence: pyList(pyStr()),
});

export const LaxBannerSchema = pyModel({ severity: pyStr(), title: pyStr(), body: pyStr() });

export const LaxFareQuoteSchema = pyModel({
  passenger_summary: pyDict().nullable().default(null),
  line_items: pyList(pyDict()).default([]),
  discounts: pyList(pyDict()).default([]),
  total: pyFloat(),
  currency: pyStr(),
});

export const LaxKioskActionSchema = pyModel({ action: pyStr(), reason_code: pyStr() });

/** The server's request model: field order is the order of errors and of its JSON dump. */
export const LaxSubmissionSchema = pyModel({
  outcome: pyStr(),
  route: LaxRouteSchema.nullable().default(null),
  fare_quote: LaxFareQuoteSchema.nullable().default(null),
  kiosk_action: LaxKioskActionSchema,
  advisory_banners: pyList(LaxBannerSchema).default([]),
  assistant_message: pyStr(),
  reasoning: pyStr().default(""),
  case_id: pyStr().nullable().default(null),
});

export interface LaxSubmission {
  outcome: string;
  route: {
    origin: string;
    destination: string;
    stops: unknown[];
    transfers: number;
    estimated_minutes: PyFloat;
    distance_miles: PyFloat;
    line_sequence: string[];
  } | null;
  fare_quote: {
    passenger_summary: Record<string, unknown> | null;
    line_items: Array<Record<string, unknown>>;
    discounts: Array<Record<string, unknown>>;
    total: PyFloat;
    currency: string;
  } | null;
  kiosk_action: { action: string; reason_code: string };
  advisory_banners: Array<{ severity: string; title: string; body: string }>;
  assistant_message: string;
  reasoning: string;
  case_id: string | null;
}

function valueAt(root: unknown, path: ReadonlyArray<PropertyKey>): unknown {
  let node = root;
  for (const key of path) {
    if (Array.isArray(node) && typeof key === "number") node = node[key];
    else if (isPlainObject(node) && typeof key === "string" && hasKey(node, key)) node = node[key];
    else return undefined;
  }
  return node;
}

/** zod issues of LaxSubmissionSchema → pydantic errors (input: the value there; for "missing", its parent). */
export function toPydanticErrors(issues: readonly z.core.$ZodIssue[], root: unknown): PydanticError[] {
  return issues.map((issue) => {
    const loc = issue.path.filter((p): p is string | number => typeof p !== "symbol");
    const pyType = issue.code === "custom" ? (issue.params as { pyType?: string } | undefined)?.pyType : undefined;
    if (pyType === "missing") return { type: "missing", loc, msg: issue.message, input: valueAt(root, loc.slice(0, -1)) };
    if (pyType) return { type: pyType, loc, msg: issue.message, input: valueAt(root, loc) };
    // Not produced by the leaves above; kept visible rather than dropped.
    return { type: "value_error", loc, msg: issue.message, input: valueAt(root, loc) };
  });
}

export type LaxResult = { ok: true; value: LaxSubmission } | { ok: false; errors: PydanticError[] };

/** Validate a request body the way the reference server's pydantic model does. */
export function parseLaxSubmission(body: unknown): LaxResult {
  const result = compiledSchema(LaxSubmissionSchema).safeParse(body);
  if (result.success) return { ok: true, value: result.data as unknown as LaxSubmission };
  return { ok: false, errors: toPydanticErrors(result.error.issues, body) };
}
