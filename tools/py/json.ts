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
// What Python escapes: json's ESCAPE_ASCII (anything outside space..tilde, plus quote and backslash)
// and ESCAPE (control characters, quote and backslash). Without the u flag a class matches UTF-16
// code units, so a non-BMP character is escaped as its two surrogates, exactly as Python writes it.
// eslint-disable-next-line no-control-regex -- control characters are exactly what must be escaped
const ESCAPE_ASCII = /["\\\x00-\x1f\x7f-\uffff]/g;
// eslint-disable-next-line no-control-regex -- as above
const ESCAPE = /["\\\x00-\x1f]/g;
/** Escapes by UTF-16 code unit, built as needed (text in one script reuses a few hundred). */
const escapes: (string | undefined)[] = new Array<string | undefined>(0x10000);

function escapeChar(ch: string): string {
  const code = ch.charCodeAt(0);
  return (escapes[code] ??= SHORT_ESCAPES[ch] ?? hex4(code));
}

export function pyJsonString(s: string, ensureAscii = true): string {
  if (PLAIN_ASCII.test(s)) return `"${s}"`;
  // One native replace instead of a character loop: linear and fast for megabyte strings.
  return `"${s.replace(ensureAscii ? ESCAPE_ASCII : ESCAPE, escapeChar)}"`;
}

function dumpNumber(value: number, asFloat: boolean): string {
  if (asFloat || !Number.isInteger(value)) return pyFloatRepr(value);
  // Integral values beyond 2^53 were floats in Python too.
  if (Math.abs(value) >= 1e16) return pyFloatRepr(value);
  return String(value);
}

interface DumpSettings {
  itemSep: string;
  keySep: string;
  ensureAscii: boolean;
  floatKeys: ReadonlySet<string> | undefined;
}

/** Escaped object keys (they repeat endlessly); bounded, since keys can come from a model. */
const keyTexts = [new Map<string, string>(), new Map<string, string>()] as const;
const KEY_CACHE_LIMIT = 10_000;

function dumpKey(key: string, ensureAscii: boolean): string {
  const cache = keyTexts[ensureAscii ? 1 : 0];
  let text = cache.get(key);
  if (text === undefined) {
    if (cache.size >= KEY_CACHE_LIMIT) cache.clear();
    cache.set(key, (text = pyJsonString(key, ensureAscii)));
  }
  return text;
}

function dumpValue(v: unknown, asFloat: boolean, settings: DumpSettings): string {
  switch (typeof v) {
    case "string":
      return pyJsonString(v, settings.ensureAscii);
    case "number":
      return dumpNumber(v, asFloat);
    case "boolean":
      return v ? "true" : "false";
    case "undefined":
      return "null";
    case "object": {
      if (v === null) return "null";
      if (Array.isArray(v)) {
        let out = "[";
        for (let i = 0; i < v.length; i++) out += (i === 0 ? "" : settings.itemSep) + dumpValue(v[i], asFloat, settings);
        return `${out}]`;
      }
      if (v instanceof PyFloat) return pyFloatRepr(v.value);
      const record = v as Record<string, unknown>;
      let out = "{";
      let first = true;
      for (const key of Object.keys(record)) {
        const item = record[key];
        if (item === undefined) continue;
        out += (first ? "" : settings.itemSep) + dumpKey(key, settings.ensureAscii) + settings.keySep;
        out += dumpValue(item, settings.floatKeys?.has(key) ?? false, settings);
        first = false;
      }
      return `${out}}`;
    }
    default:
      throw new TypeError(`pyJsonDumps: cannot serialise a ${typeof v}`);
  }
}

export function pyJsonDumps(value: unknown, options: PyJsonDumpsOptions = {}): string {
  return dumpValue(value, false, {
    itemSep: options.compact ? "," : ", ",
    keySep: options.compact ? ":" : ": ",
    ensureAscii: options.ensureAscii ?? true,
    floatKeys: options.floatKeys,
  });
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
