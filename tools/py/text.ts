// Python string behaviours the reference relies on (str.title, repr, truthiness).
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";

function isCased(ch: string): boolean {
  return ch.toLowerCase() !== ch.toUpperCase();
}

// The fast paths below avoid `for (const ch of s)`, which in code V8 has not optimised yet (most
// of a bench run's) allocates an iterator result for every character.
// eslint-disable-next-line no-control-regex -- every ASCII character, control characters included
const ASCII = /^[\x00-\x7f]*$/;

/** Python str.title(): upper-case a cased letter after a non-cased character, lower-case otherwise. */
export function pyTitle(s: string): string {
  // In ASCII the cased characters are the letters: each run of them is one word.
  if (ASCII.test(s)) return s.replace(/[A-Za-z]+/g, (word) => word.charAt(0).toUpperCase() + word.slice(1).toLowerCase());
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

// What repr() escapes here: backslash, both quotes (only the one that delimits is escaped),
// \n \r \t and the other control characters.
// eslint-disable-next-line no-control-regex -- control characters are exactly what must be escaped
const REPR_SPECIAL = /[\\'"\x00-\x1f\x7f]/;
// eslint-disable-next-line no-control-regex -- as above
const REPR_ESCAPED = { "'": /[\\'\x00-\x1f\x7f]/g, '"': /[\\"\x00-\x1f\x7f]/g } as const;
const REPR_SHORT: Readonly<Record<string, string>> = { "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t" };

/** Python repr() of a str: single quotes unless the text holds ' and no ". */
export function pyReprString(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  if (!REPR_SPECIAL.test(s)) return `${quote}${s}${quote}`;
  const escaped = s.replace(REPR_ESCAPED[quote], (ch) => REPR_SHORT[ch] ?? (ch === quote ? `\\${quote}` : `\\x${ch.charCodeAt(0).toString(16).padStart(2, "0")}`));
  return `${quote}${escaped}${quote}`;
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
