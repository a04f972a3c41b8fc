// Python operations on loosely typed data, failing where Python raises (the server then answers
// 500). Used where tools read caller-supplied records such as disruptions.
import { comparePyStrings } from "../network/expanded.ts";
import { PyFloat } from "../py/number.ts";
import { hasKey } from "../py/text.ts";

/** A Python exception inside a handler: the reference answers 500 Internal Server Error. */
export class PythonCrash extends Error {
  override name = "PythonCrash";
}

export type PyDict = Record<string, unknown>;

export function isDict(v: unknown): v is PyDict {
  return v !== null && typeof v === "object" && !Array.isArray(v) && !(v instanceof PyFloat);
}

/** d.get(key, fallback) */
export function pyGet(d: PyDict, key: string, fallback: unknown = null): unknown {
  return hasKey(d, key) ? d[key] : fallback;
}

/** s.lower() on something that must be a str. */
export function pyLower(v: unknown): string {
  if (typeof v !== "string") throw new PythonCrash(`'${typeName(v)}' object has no attribute 'lower'`);
  return v.toLowerCase();
}

/** `item in container` for a str item. */
export function pyContains(container: unknown, item: string): boolean {
  if (typeof container === "string") return container.includes(item);
  if (Array.isArray(container)) return container.some((x) => x === item);
  if (isDict(container)) return hasKey(container, item);
  throw new PythonCrash(`argument of type '${typeName(container)}' is not iterable`);
}

/** list(x) for the values a JSON document can hold. */
export function pyList(v: unknown): unknown[] {
  if (typeof v === "string") return Array.from(v);
  if (Array.isArray(v)) return [...v];
  if (isDict(v)) return Object.keys(v);
  throw new PythonCrash(`'${typeName(v)}' object is not iterable`);
}

/** `a < b` where both must be str. */
export function pyLessStr(a: unknown, b: unknown): boolean {
  if (typeof a !== "string" || typeof b !== "string") {
    throw new PythonCrash(`'<' not supported between instances of '${typeName(a)}' and '${typeName(b)}'`);
  }
  return comparePyStrings(a, b) < 0;
}

/** Characters Python's str.isspace() accepts (the separators of str.split() without arguments). */
function isPySpace(code: number): boolean {
  return (
    (code >= 0x09 && code <= 0x0d) ||
    (code >= 0x1c && code <= 0x20) ||
    code === 0x85 ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000
  );
}

/** str.split(): runs of whitespace separate words; no empty words. */
export function pySplit(s: string): string[] {
  const words: string[] = [];
  let start = -1;
  for (let i = 0; i < s.length; i++) {
    if (isPySpace(s.charCodeAt(i))) {
      if (start >= 0) words.push(s.slice(start, i));
      start = -1;
    } else if (start < 0) start = i;
  }
  if (start >= 0) words.push(s.slice(start));
  return words;
}

/** len(s) in code points. */
export function pyLen(s: string): number {
  // Code points: a surrogate pair counts once (a lone surrogate once too), as `for…of` counts
  // them, without an iterator result per character in cold code.
  let n = s.length;
  for (let i = 0; i + 1 < s.length; i++) {
    const high = s.charCodeAt(i);
    if (high >= 0xd800 && high <= 0xdbff) {
      const low = s.charCodeAt(i + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

function typeName(v: unknown): string {
  if (v === null || v === undefined) return "NoneType";
  if (typeof v === "boolean") return "bool";
  if (typeof v === "number") return Number.isInteger(v) ? "int" : "float";
  if (v instanceof PyFloat) return "float";
  if (typeof v === "string") return "str";
  if (Array.isArray(v)) return "list";
  return "dict";
}
