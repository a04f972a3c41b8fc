// Python str() of the scalar values the reference interpolates into prompt text (f-strings).
import { PyFloat, pyFloatRepr, pyStrNumber } from "../../tools/py/index.ts";

/** str(v) for a JSON scalar as Python holds it: None, True/False, ints, floats (PyFloat → "2.0"). */
export function pyStr(v: unknown): string {
  if (typeof v === "string") return v;
  if (v === null || v === undefined) return "None";
  if (v === true) return "True";
  if (v === false) return "False";
  if (v instanceof PyFloat) return pyFloatRepr(v.value);
  if (typeof v === "number") return pyStrNumber(v);
  throw new TypeError(`cannot render a ${Array.isArray(v) ? "list" : typeof v} as prompt text`);
}

/** Python `v != 0` for a JSON value (False and 0.0 equal 0; None and strings do not). */
export function pyNotZero(v: unknown): boolean {
  if (typeof v === "number") return v !== 0;
  if (typeof v === "boolean") return v;
  if (v instanceof PyFloat) return v.value !== 0;
  return true;
}
