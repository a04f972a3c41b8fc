// Python string behaviours the reference relies on (str.title, repr, truthiness).
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";

function isCased(ch: string): boolean {
  return ch.toLowerCase() !== ch.toUpperCase();
}

/** Python str.title(): upper-case a cased letter after a non-cased character, lower-case otherwise. */
export function pyTitle(s: string): string {
  let out = "";
  let previousCased = false;
  for (const ch of s) {
    if (isCased(ch)) {
      out += previousCased ? ch.toLowerCase() : ch.toUpperCase();
      previousCased = true;
    } else {
      out += ch;
      previousCased = false;
    }
  }
  return out;
}

/** Python repr() of a str: single quotes unless the text holds ' and no ". */
export function pyReprString(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    const code = ch.codePointAt(0) ?? 0;
    if (ch === "\\") out += "\\\\";
    else if (ch === quote) out += `\\${quote}`;
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, "0")}`;
    else out += ch;
  }
  return out + quote;
}

/** Python repr() of a list of str, e.g. ['Airport', "O'Hare"]. */
export function pyReprStringList(items: readonly string[]): string {
  return `[${items.map(pyReprString).join(", ")}]`;
}

/** Python truthiness: null/undefined, false, 0, NaN, "", [] and {} are false. */
export function pyTruthy(v: unknown): boolean {
  if (v === null || v === undefined || v === false || v === "") return false;
  if (typeof v === "number") return v !== 0 && !Number.isNaN(v);
  if (Array.isArray(v)) return v.length > 0;
  if (typeof v === "object") return Object.keys(v).length > 0;
  return true;
}

/**
 * Node's native SHA-256 where there is one (about ten times faster than the JavaScript one: a
 * bench run hashes every route and terminal state), found without a static `node:` import
 * because this module also runs in the touchscreen's renderer, which uses @noble/hashes.
 */
const nodeCrypto = typeof process === "undefined" ? undefined : process.getBuiltinModule?.("node:crypto");

/** First 12 hex characters of SHA-256 over the UTF-8 text (the reference's opaque ids). */
export function sha256hex12(s: string): string {
  // crypto.hash (one call, no Hash object) encodes a string as UTF-8; about twice createHash's speed here.
  if (nodeCrypto) return nodeCrypto.hash("sha256", s, "hex").slice(0, 12);
  return bytesToHex(sha256(utf8ToBytes(s))).slice(0, 12);
}

/** Whether a plain object has its own key (the reference distinguishes missing from null). */
export function hasKey(obj: unknown, key: string): boolean {
  return obj !== null && typeof obj === "object" && Object.prototype.hasOwnProperty.call(obj, key);
}
