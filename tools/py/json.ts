// Python json.dumps / json.loads compatibility. The model was trained on (and the scorer searches)
// text produced by Python's json.dumps, so separators, float printing and ASCII escaping must match.
import { isLosslessNumber, parse as losslessParse } from "lossless-json";
import { PyFloat, pyFloatRepr } from "./number.ts";

export interface PyJsonDumpsOptions {
  /** Object keys whose numeric values are Python floats even when integral (e.g. "total": 2.0). */
  floatKeys?: ReadonlySet<string>;
  /** Separators "," and ":" (FastAPI response bodies) instead of ", " and ": " (json.dumps default). */
  compact?: boolean;
  /** Escape every non-ASCII character as \uXXXX (json.dumps default: true). */
  ensureAscii?: boolean;
}

const SHORT_ESCAPES: Record<string, string> = {
  '"': '\\"',
  "\\": "\\\\",
  "\n": "\\n",
  "\r": "\\r",
  "\t": "\\t",
  "\b": "\\b",
  "\f": "\\f",
};

function hex4(code: number): string {
  return `\\u${code.toString(16).padStart(4, "0")}`;
}

// Printable ASCII without quote or backslash needs no escaping at all (the common case).
const PLAIN_ASCII = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

export function pyJsonString(s: string, ensureAscii = true): string {
  if (PLAIN_ASCII.test(s)) return `"${s}"`;
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const ch = s[i] as string;
    const code = s.charCodeAt(i);
    const short = SHORT_ESCAPES[ch];
    if (short !== undefined) out += short;
    else if (code < 0x20) out += hex4(code);
    // JS strings are UTF-16, so a non-BMP character is already two surrogates: escaped one by one,
    // exactly as Python writes them.
    else if (ensureAscii && code > 0x7e) out += hex4(code);
    else out += ch;
  }
  return `${out}"`;
}

function dumpNumber(value: number, asFloat: boolean): string {
  if (asFloat || !Number.isInteger(value)) return pyFloatRepr(value);
  // Integral values beyond 2^53 were floats in Python too.
  if (Math.abs(value) >= 1e16) return pyFloatRepr(value);
  return String(value);
}

export function pyJsonDumps(value: unknown, options: PyJsonDumpsOptions = {}): string {
  const itemSep = options.compact ? "," : ", ";
  const keySep = options.compact ? ":" : ": ";
  const ensureAscii = options.ensureAscii ?? true;
  const floatKeys = options.floatKeys;

  const dump = (v: unknown, asFloat: boolean): string => {
    if (v === null || v === undefined) return "null";
    if (v === true) return "true";
    if (v === false) return "false";
    if (typeof v === "number") return dumpNumber(v, asFloat);
    if (typeof v === "string") return pyJsonString(v, ensureAscii);
    if (v instanceof PyFloat) return pyFloatRepr(v.value);
    if (Array.isArray(v)) return `[${v.map((item) => dump(item, asFloat)).join(itemSep)}]`;
    if (typeof v === "object") {
      const parts: string[] = [];
      for (const [key, item] of Object.entries(v as Record<string, unknown>)) {
        if (item === undefined) continue;
        const childFloat = floatKeys?.has(key) ?? false;
        parts.push(`${pyJsonString(key, ensureAscii)}${keySep}${dump(item, childFloat)}`);
      }
      return `{${parts.join(itemSep)}}`;
    }
    throw new TypeError(`pyJsonDumps: cannot serialise a ${typeof v}`);
  };
  return dump(value, false);
}

/**
 * json.loads that keeps Python's int/float distinction: integral float literals ("2.0", "1e3")
 * come back as PyFloat so that dumping them again prints what Python would print.
 */
export function parseJsonKeepingFloats(text: string): unknown {
  return losslessParse(text, undefined, (literal: string) => {
    const value = Number(literal);
    const isFloatLiteral = /[.eE]/.test(literal);
    return isFloatLiteral && Number.isInteger(value) ? new PyFloat(value) : value;
  }) as unknown;
}

/** Replace PyFloat markers by plain numbers (for validation and arithmetic). */
export function stripPyFloats(value: unknown): unknown {
  if (value instanceof PyFloat) return value.value;
  if (isLosslessNumber(value)) return Number(value.value);
  if (Array.isArray(value)) return value.map(stripPyFloats);
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = stripPyFloats(v);
    return out;
  }
  return value;
}
