// scripts/ascii-output.ts: a chunk made ASCII-only behaves as before (its regular expressions match
// the same text), its source map still points every generated position at the same source
// position, and a non-ASCII character it cannot escape stops the build, naming where it is.
import { runInNewContext } from "node:vm";
import { decode } from "@jridgewell/sourcemap-codec";
import { transformSync } from "esbuild";
import { describe, expect, it } from "vitest";
import { asciiOnlyChunk, type RawSourceMap } from "./ascii-output.ts";

// eslint-disable-next-line no-control-regex -- the ASCII range
const isAscii = (text: string): boolean => /^[\x00-\x7f]*$/.test(text);

/** Regular expressions with non-ASCII characters in each place a pattern can hold one. */
// eslint-disable-next-line no-restricted-syntax -- the step's input, as esbuild leaves it (never bundled)
const PATTERNS = String.raw`
  const patterns = [
    /[ñé’]+/g,
    /niños?|niñas?/iu,
    /[😀-😂]x/u,
    /😀+/,
    /^\é$/,
    /(?<名>[一二三])\k<名>/u,
    /到|去|往/,
    /[^\p{Script=Han}]/u,
  ];
  // Written with escapes, as esbuild writes strings: "ñé’x", "Niños", "NIÑA", "😁x", "😀😀", "é", "\\é", "一一", "一二", "去", "到达", …
  const samples = ["\u00f1\u00e9\u2019x", "Ni\u00f1os", "NI\u00d1A", "\ud83d\ude01x", "\ud83d\ude00\ud83d\ude00", "\u00e9", "\\\u00e9", "\u4e00\u4e00", "\u4e00\u4e8c", "\u53bb", "\u5230\u8fbe", "abc", "\ud83d"];
  results = patterns.map((p) => samples.map((s) => { p.lastIndex = 0; const m = s.match(p); return m ? [...m] : null; }));
`;

function run(code: string): unknown {
  const context: { results?: unknown } = {};
  runInNewContext(code, context);
  return context.results;
}

/** The source position (line, column) a map gives for the generated text's first `needle`. */
function sourcePosition(code: string, map: RawSourceMap, needle: string): [number, number] | undefined {
  const at = code.indexOf(needle);
  const line = code.slice(0, at).split("\n").length - 1;
  const column = at - (code.lastIndexOf("\n", at - 1) + 1);
  // The segment covering that column, as a debugger looks it up.
  const segment = decode(map.mappings)[line]?.filter((s) => s[0] <= column).at(-1);
  return segment && segment.length >= 4 ? [segment[2] as number, segment[3] as number] : undefined;
}

describe("asciiOnlyChunk", () => {
  it("escapes the regular expressions' non-ASCII characters without changing what they match", () => {
    const { code } = asciiOnlyChunk(PATTERNS, undefined, "patterns.js", "script");
    expect(isAscii(code)).toBe(true);
    expect(code).toContain(String.raw`/^\u00e9$/`); // an identity escape becomes one escape
    expect(run(code)).toEqual(run(PATTERNS));
  });

  it("leaves an ASCII chunk and its map as they are", () => {
    const map = { version: 3, mappings: "AAAA", sources: ["a.ts"] };
    const out = asciiOnlyChunk("const a = /x/;\n", map, "a.js", "module");
    expect(out.code).toBe("const a = /x/;\n");
    expect(out.map).toBe(map);
  });

  it("escapes comments too (an unminified build keeps them)", () => {
    const { code } = asciiOnlyChunk("// a → b, ≈ 5 %\nconst x = 1; /* 到 */\n", undefined, "c.js", "module");
    expect(code).toBe("// a \\u2192 b, \\u2248 5 %\nconst x = 1; /* \\u5230 */\n");
  });

  it("keeps the source map exact: code after an escaped character maps where it did", () => {
    const source = ["export function pick(text: string): string | undefined {", '  const hit = /(?:niños|到|去)+/u.exec(text); const afterPattern = hit?.[0];', "  return afterPattern;", "}", ""].join("\n");
    for (const minify of [false, true]) {
      const built = transformSync(source, { loader: "ts", format: "esm", sourcemap: "external", minify, sourcefile: "pick.ts", charset: "ascii" });
      const before = JSON.parse(built.map) as RawSourceMap;
      expect(isAscii(built.code)).toBe(false); // esbuild leaves the pattern as written
      const { code, map } = asciiOnlyChunk(built.code, before, "pick.js", "module");
      expect(isAscii(code)).toBe(true);
      // The first reference to the match after the pattern (`.exec(`), on the pattern's line.
      const needle = ".exec(";
      expect(sourcePosition(code, map as RawSourceMap, needle)).toEqual(sourcePosition(built.code, before, needle));
      expect(sourcePosition(code, map as RawSourceMap, needle)).toBeDefined();
    }
  });

  it("refuses a non-ASCII character it cannot escape (a String.raw template), naming the chunk, line and column", () => {
    const code = 'const a = 1; // a comment: escapable, unlike what follows\nconst MONEY = String.raw`[$€]\\d+`;\n';
    expect(() => asciiOnlyChunk(code, undefined, "dist/node/money.js", "module")).toThrow(/dist\/node\/money\.js:2:28: non-ASCII character "€" outside a regular expression or comment/);
  });

  it("says which chunk it could not parse", () => {
    expect(() => asciiOnlyChunk("const é = ;", undefined, "broken.js", "module")).toThrow(/^broken\.js: cannot be parsed/);
  });
});
