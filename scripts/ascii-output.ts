// Makes a compiled chunk ASCII-only, with its source map kept exact. V8 keeps a source that holds
// one character above U+00FF as a two-byte string: the CLI's 1.5 MB bundle became 3 MB of fresh
// memory, decoded from UTF-8 at every start (≈ 1 % of a whole bench run and ≈ 600 page faults
// here, docs/PERFORMANCE.md). esbuild already escapes strings, identifiers and untagged templates;
// it leaves regular-expression literals as written (and comments, when not minifying).
//
// Here each non-ASCII UTF-16 code unit in a regular-expression literal or a comment becomes a
// \uXXXX escape, which a pattern reads as the same character with or without the u flag (a
// surrogate pair's two escapes are one code point under u). Anywhere else — a tagged template such
// as String.raw, whose raw text its tag can see — is an error naming the place: write the escape
// in the source there (eslint.config.js forbids the case in our sources).
import { encode, decode, type SourceMapMappings } from "@jridgewell/sourcemap-codec";
import { parse, type Token } from "acorn";

/** The parts of a version 3 source map this step reads and rewrites. */
export interface RawSourceMap {
  mappings: string;
  [key: string]: unknown;
}

// eslint-disable-next-line no-control-regex -- the whole ASCII range, control characters included
const ASCII_ONLY = /^[\x00-\x7f]*$/;

/** Ranges [start, end) of the chunk's regular-expression literals and comments. */
function escapableRanges(code: string, name: string, sourceType: "module" | "script"): [number, number][] {
  const ranges: [number, number][] = [];
  try {
    parse(code, {
      ecmaVersion: "latest",
      sourceType,
      allowHashBang: true,
      onToken: (token: Token) => {
        if (token.type.label === "regexp") ranges.push([token.start, token.end]);
      },
      onComment: (_block: boolean, _text: string, start: number, end: number) => ranges.push([start, end]),
    });
  } catch (err) {
    throw new Error(`${name}: cannot be parsed to make it ASCII-only: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
  return ranges.sort((a, b) => a[0] - b[0]);
}

const hex4 = (code: number): string => `\\u${code.toString(16).padStart(4, "0")}`;

/**
 * `code` with every non-ASCII code unit of its regular expressions and comments written as a
 * \uXXXX escape, and `map` (if any) shifted to match. Throws, naming the chunk and the line:column,
 * for a non-ASCII character anywhere else.
 */
export function asciiOnlyChunk(code: string, map: RawSourceMap | undefined, name: string, sourceType: "module" | "script"): { code: string; map: RawSourceMap | undefined } {
  if (ASCII_ONLY.test(code)) return { code, map };
  const ranges = escapableRanges(code, name, sourceType);
  let out = "";
  let copied = 0;
  let range = 0;
  let line = 0; // 0-based generated line and where it starts: for the map, and +1 in errors
  let lineStart = 0;
  /** Per generated line: [column in the old text, characters added there]. */
  const shifts = new Map<number, [number, number][]>();
  for (let i = 0; i < code.length; i++) {
    const unit = code.charCodeAt(i);
    if (unit === 10) {
      line++;
      lineStart = i + 1;
      continue;
    }
    if (unit < 0x80) continue;
    while (range < ranges.length && (ranges[range] as [number, number])[1] <= i) range++;
    const current = ranges[range];
    if (!current || current[0] > i) {
      throw new Error(
        `${name}:${line + 1}:${i - lineStart + 1}: non-ASCII character ${JSON.stringify(code[i])} outside a regular expression or comment ` +
          `(a tagged template such as String.raw? write it as a \\u escape in the source): "${code.slice(Math.max(0, i - 40), i + 20)}"`,
      );
    }
    if (unit === 0x2028 || unit === 0x2029) throw new Error(`${name}:${line + 1}:${i - lineStart + 1}: a line separator character in a comment or pattern; write it as \\u${unit.toString(16)}`);
    // An identity escape (\é, a pattern without the u flag) is one escape, not a backslash and an escape.
    let backslashes = 0;
    while (i - 1 - backslashes >= current[0] && code.charCodeAt(i - 1 - backslashes) === 92) backslashes++;
    const start = backslashes % 2 === 1 ? i - 1 : i;
    out += code.slice(copied, start) + hex4(unit);
    copied = i + 1;
    const column = start - lineStart;
    const added = 6 - (i + 1 - start);
    const list = shifts.get(line) ?? [];
    list.push([column, added]);
    shifts.set(line, list);
  }
  out += code.slice(copied);
  return { code: out, map: map ? shiftedMap(map, shifts) : undefined };
}

/** Move the generated columns of `map` past each insertion on its line. */
function shiftedMap(map: RawSourceMap, shifts: ReadonlyMap<number, readonly [number, number][]>): RawSourceMap {
  const lines: SourceMapMappings = decode(map.mappings);
  for (const [line, list] of shifts) {
    const segments = lines[line];
    if (!segments) continue;
    for (const segment of segments) {
      let added = 0;
      // A segment starting at a replaced character keeps its start: the escape begins there.
      for (const [column, extra] of list) if (column < segment[0]) added += extra;
      segment[0] += added;
    }
  }
  return { ...map, mappings: encode(lines) };
}
