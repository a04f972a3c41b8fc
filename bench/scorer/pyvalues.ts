// Python semantics over parsed-JSON values, as the reference scorer sees them: dict.get with
// "missing vs present-but-null", str(), ==, float() and iteration. Values are plain JSON
// (JSON.parse output); where the reference would raise, these helpers return `undefined` and the
// caller decides what to score and what to flag.
import { pyFloatRepr, pyReprString } from "../../tools/py/index.ts";

export type Dict = Record<string, unknown>;

/** A JSON object (Python dict); arrays and null are not. */
export function isDict(v: unknown): v is Dict {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** dict.get(key, default): the default only when the key is absent; a present null stays null. */
export function dget(d: Dict, key: string, dflt: unknown = null): unknown {
  return Object.prototype.hasOwnProperty.call(d, key) ? d[key] : dflt;
}

/** A nested dict read the way the reference does `x.get(k, {})`; non-dicts come back as undefined. */
export function dictAt(d: Dict, key: string): Dict | undefined {
  const v = dget(d, key, {});
  return isDict(v) ? v : undefined;
}

/** Python int/float/bool as a number (bool is an int subclass); anything else is undefined. */
export function pyNum(v: unknown): number | undefined {
  if (typeof v === "number") return v;
  if (typeof v === "boolean") return v ? 1 : 0;
  return undefined;
}

/** Python `a == b` over JSON values (1 == 1.0 == True; "1" != 1; deep for lists and dicts). */
export function pyEq(a: unknown, b: unknown): boolean {
  const na = pyNum(a);
  const nb = pyNum(b);
  if (na !== undefined || nb !== undefined) return na !== undefined && nb !== undefined && na === nb;
  if (a === null || b === null || a === undefined || b === undefined) return a == null && b == null;
  if (typeof a === "string" || typeof b === "string") return a === b;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, i) => pyEq(item, b[i]));
  }
  if (isDict(a) && isDict(b)) {
    const ka = Object.keys(a);
    if (ka.length !== Object.keys(b).length) return false;
    return ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && pyEq(a[k], b[k]));
  }
  return false;
}

/** `x in list` with Python equality. */
export function pyIn(x: unknown, list: readonly unknown[]): boolean {
  return list.some((item) => pyEq(x, item));
}

function pyNumberText(n: number): string {
  // A JSON number without its literal: integral values print as Python ints.
  return Number.isInteger(n) && Math.abs(n) < 1e16 ? String(n) : pyFloatRepr(n);
}

/** Python repr() of a JSON value ({'a': 1, 'b': [None, True]}). */
export function pyRepr(v: unknown): string {
  if (v === null || v === undefined) return "None";
  if (v === true) return "True";
  if (v === false) return "False";
  if (typeof v === "number") return pyNumberText(v);
  if (typeof v === "string") return pyReprString(v);
  if (Array.isArray(v)) return `[${v.map(pyRepr).join(", ")}]`;
  if (isDict(v)) return `{${Object.entries(v).map(([k, x]) => `${pyReprString(k)}: ${pyRepr(x)}`).join(", ")}}`;
  return String(v);
}

/** Python str() of a JSON value (f-string interpolation). */
export function pyStr(v: unknown): string {
  return typeof v === "string" ? v : pyRepr(v);
}

const FLOAT_LITERAL = /^[+-]?(?:(?:\d(?:_?\d)*)?\.?\d(?:_?\d)*|\d(?:_?\d)*\.)(?:[eE][+-]?\d(?:_?\d)*)?$/;
const FLOAT_SPECIAL = /^([+-]?)(inf|infinity|nan)$/i;

/**
 * Python float(v): numbers and bools convert, strings parse (surrounding whitespace, underscores
 * between digits, inf/nan); anything else, or an unparseable string, is undefined (the reference
 * raises ValueError/TypeError there). Non-ASCII digits are not recognised.
 */
export function pyFloat(v: unknown): number | undefined {
  const n = pyNum(v);
  if (n !== undefined) return n;
  if (typeof v !== "string") return undefined;
  const s = v.trim();
  const special = FLOAT_SPECIAL.exec(s);
  if (special) {
    const sign = special[1] === "-" ? -1 : 1;
    return (special[2] as string).toLowerCase() === "nan" ? NaN : sign * Infinity;
  }
  if (!FLOAT_LITERAL.test(s)) return undefined;
  return Number(s.replaceAll("_", ""));
}

/** Python `int(s)` for the judge's "Score: N" (optional sign, digits, single underscores). */
export function pyInt(s: string): number | undefined {
  const t = s.trim();
  if (!/^[+-]?\d(?:_?\d)*$/.test(t)) return undefined;
  return Number(t.replaceAll("_", ""));
}

/** What `for x in v` yields: list items, string characters, dict keys; undefined if not iterable. */
export function pyIter(v: unknown): unknown[] | undefined {
  if (Array.isArray(v)) return v;
  if (typeof v === "string") return Array.from(v);
  if (isDict(v)) return Object.keys(v);
  return undefined;
}

/** `key in d` for a dict. */
export function hasOwn(d: Dict, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(d, key);
}
