// The reference server's wire formats: FastAPI response bodies (json.dumps with "," / ":" and
// non-ASCII kept) and pydantic's model_dump_json (from which the response_id is hashed).
import { PyFloat, pyFloatRepr, pyJsonString, pyReprString } from "../../tools/py/index.ts";
import { isPlainObject } from "./lax.ts";

/**
 * A FastAPI JSON response body (`JSONResponse`: json.dumps with "," / ":" separators and
 * non-ASCII kept). An integral plain number is a Python int of any size (mark floats with
 * PyFloat, as parseJsonKeepingFloats does, to get "2.0").
 */
export function fastapiJson(value: unknown): string {
  return dumpJson(value, pyFloatRepr);
}

/** Python str() of an integral number held as an int (no exponent, any size). */
function pyIntText(x: number): string {
  return Math.abs(x) < 1e21 ? String(x) : BigInt(x).toString();
}

/**
 * pydantic-core's float text: shortest round-trip digits, positional for 1e-5 <= |x| < 1e16
 * ("0.00001", "2.0"), else scientific without exponent padding ("1e-6", "1e+16").
 * Non-finite floats serialise as null.
 */
export function pydanticFloatText(x: number): string {
  if (!Number.isFinite(x)) return "null";
  // The usual magnitudes print as Python's repr does.
  const magnitude = Math.abs(x);
  if (magnitude >= 1e-4 && magnitude < 1e16) return pyFloatRepr(x);
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
  const [mantissa, expText] = x.toExponential().split("e") as [string, string];
  const exponent = Number(expText);
  if (exponent >= 16 || exponent < -5) return `${mantissa}e${exponent < 0 ? "-" : "+"}${Math.abs(exponent)}`;
  // Within this range Python's repr differs only below 1e-4 ("1e-05" vs "0.00001").
  if (exponent >= -4) return pyFloatRepr(x);
  const negative = x < 0;
  const digits = mantissa.replace("-", "").replace(".", "");
  return `${negative ? "-" : ""}0.${"0".repeat(-exponent - 1)}${digits}`;
}

/** pydantic `model_dump_json()` of validated data (PyFloat marks float fields). */
export function pydanticDumpJson(value: unknown): string {
  return dumpJson(value, pydanticFloatText);
}

function dumpJson(value: unknown, floatText: (x: number) => string): string {
  const dump = (v: unknown): string => {
    if (v === null || v === undefined) return "null";
    if (v === true) return "true";
    if (v === false) return "false";
    if (v instanceof PyFloat) return floatText(v.value);
    if (typeof v === "number") return Number.isInteger(v) ? pyIntText(v) : floatText(v);
    if (typeof v === "string") return pyJsonString(v, false);
    if (Array.isArray(v)) return `[${v.map(dump).join(",")}]`;
    if (isPlainObject(v)) {
      const parts: string[] = [];
      for (const [k, item] of Object.entries(v)) {
        if (item !== undefined) parts.push(`${pyJsonString(k, false)}:${dump(item)}`);
      }
      return `{${parts.join(",")}}`;
    }
    throw new TypeError(`cannot serialise a ${typeof v} as JSON`);
  };
  return dump(value);
}

/** Python repr() of a hashable JSON scalar (str, int, float, bool, None), as in a list repr. */
export function pyReprScalar(value: unknown): string {
  if (typeof value === "string") return pyReprString(value);
  if (value === null || value === undefined) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (value instanceof PyFloat) return pyFloatRepr(value.value);
  if (typeof value === "number") return Number.isInteger(value) ? pyIntText(value) : pyFloatRepr(value);
  throw new TypeError(`pyReprScalar: not a scalar (${typeof value})`);
}
