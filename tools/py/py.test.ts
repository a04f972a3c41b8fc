import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";
import { describe, expect, it } from "vitest";
import { PyFloat, pyFloatRepr, pyFloatReprFromDigits, pyRound, pyRoundExact } from "./number.ts";
import { mulberry32 } from "../util/random.ts";
import { parseJsonKeepingFloats, pyJsonDumps, stripPyFloats } from "./json.ts";
import { hasKey, pyReprString, pyReprStringList, pyTitle, pyTruthy, sha256hex12 } from "./text.ts";
import { pySetOrder, pyStringHash } from "./pyhash.ts";

describe("pyRound (Python round: exact binary value, ties to even)", () => {
  it.each([
    [2.5, 0, 2],
    [7.5, 0, 8],
    [12.5, 0, 12],
    [0.125, 2, 0.12],
    [2.675, 2, 2.67],
    [1.25, 1, 1.2],
    [1.35, 1, 1.4],
    [0.5, 0, 0],
    [-2.5, 0, -2],
    [8.790000000000001, 2, 8.79],
    [17.599999999999998, 1, 17.6],
    [1234.5678, -2, 1200],
  ])("round(%d, %d) == %d", (x, n, expected) => {
    expect(pyRound(x, n)).toBe(expected);
  });
});

describe("the float shortcuts agree with the exact methods", () => {
  const random = mulberry32(20261201);
  /** Values like the pack's: fares, miles, minutes, percentages, ties of every kind, both signs. */
  const samples = (): number[] => {
    const out: number[] = [];
    for (let i = 0; i < 20_000; i++) {
      const magnitude = 10 ** Math.floor(random() * 14 - 5);
      const v = random() * magnitude * (random() < 0.3 ? -1 : 1);
      out.push(v, Math.round(v * 100) / 100, Math.round(v * 8) / 8 + 0.005, Math.round(v) + 0.5);
    }
    return out;
  };
  it("pyRound equals the big-integer rounding for 0..6 digits", () => {
    const wrong: string[] = [];
    for (const x of samples()) for (let n = 0; n <= 6; n++) if (!Object.is(pyRound(x, n), pyRoundExact(x, n))) wrong.push(`round(${x}, ${n})`);
    expect(wrong.slice(0, 5)).toEqual([]);
  });
  it("pyFloatRepr equals the digits-and-exponent formatting", () => {
    const wrong = samples().filter((x) => pyFloatRepr(x) !== pyFloatReprFromDigits(x));
    expect(wrong.slice(0, 5)).toEqual([]);
  });
});

describe("pyFloatRepr (Python repr of float)", () => {
  it.each([
    [2, "2.0"],
    [2.5, "2.5"],
    [0, "0.0"],
    [0.0001, "0.0001"],
    [0.00001, "1e-05"],
    [1e16, "1e+16"],
    [123456789012345.6, "123456789012345.6"],
    [-3.75, "-3.75"],
    [0.1 + 0.2, "0.30000000000000004"],
  ])("repr(%d) == %s", (x, expected) => {
    expect(pyFloatRepr(x)).toBe(expected);
  });
});

describe("pyJsonDumps (Python json.dumps)", () => {
  it("uses Python separators and escapes non-ASCII as lower-case \\uXXXX", () => {
    expect(pyJsonDumps({ a: [1, 2.5], b: "café ¥ 北", c: null, d: true })).toBe(
      '{"a": [1, 2.5], "b": "caf\\u00e9 \\u00a5 \\u5317", "c": null, "d": true}',
    );
  });
  it("writes surrogate pairs as two escapes and control characters as \\u00XX", () => {
    expect(pyJsonDumps("😀\u0001\n\"")).toBe('"\\ud83d\\ude00\\u0001\\n\\""');
  });
  it("prints integral floats as floats where the key says so, or when marked", () => {
    expect(pyJsonDumps({ total: 2, count: 2 }, { floatKeys: new Set(["total"]) })).toBe('{"total": 2.0, "count": 2}');
    expect(pyJsonDumps([new PyFloat(0)])).toBe("[0.0]");
  });
  it("has a compact, non-ASCII-preserving mode (FastAPI bodies)", () => {
    expect(pyJsonDumps({ detail: "Ünknown" }, { compact: true, ensureAscii: false })).toBe('{"detail":"Ünknown"}');
  });
  it("escapes exactly Python's characters, DEL and lone surrogates included, and megabyte strings fast", () => {
    expect(pyJsonDumps("\u007f\ud800\t\\/~ ")).toBe('"\\u007f\\ud800\\t\\\\/~ "');
    expect(pyJsonDumps("\u007f\u0000é\"", { ensureAscii: false })).toBe('"\u007f\\u0000é\\""');
    const big = `${'"quoted" '.repeat(200_000)}北`;
    const t0 = performance.now();
    const out = pyJsonDumps(big);
    expect(performance.now() - t0).toBeLessThan(2_000);
    expect(out).toBe(`"${'\\"quoted\\" '.repeat(200_000)}\\u5317"`);
  });
  it("round-trips the int/float distinction of a JSON text", () => {
    const parsed = parseJsonKeepingFloats('{"fare": 0.00, "n": 2, "x": 1.5, "e": 1e2}');
    expect(pyJsonDumps(parsed)).toBe('{"fare": 0.0, "n": 2, "x": 1.5, "e": 100.0}');
    expect(stripPyFloats(parsed)).toEqual({ fare: 0, n: 2, x: 1.5, e: 100 });
  });
});

describe("Python string helpers", () => {
  it("title-cases like str.title()", () => {
    expect(pyTitle("gold travel card")).toBe("Gold Travel Card");
    expect(pyTitle("easycard")).toBe("Easycard");
    expect(pyTitle("o'hare 1st")).toBe("O'Hare 1St");
    expect(pyTitle("STATION_CLOSURE".replace("_", " "))).toBe("Station Closure");
  });
  it("title-cases ASCII and other text as Python 3.11 does (outputs taken from Python)", () => {
    const python: [string, string][] = [
      ["hello world", "Hello World"], ["2nd street", "2Nd Street"], ["ABC def", "Abc Def"], ["mIxEd CaSe", "Mixed Case"],
      ["a-b_c d", "A-B_C D"], ["", ""], [" ", " "], ["x1y2z", "X1Y2Z"], ["don't stop", "Don'T Stop"], ["\tTab\nNew", "\tTab\nNew"],
      ["café olé", "Café Olé"], ["ñandú Straße", "Ñandú Straße"], ["北京 station", "北京 Station"], ["élan vital", "Élan Vital"], ["st. paul's", "St. Paul'S"],
    ];
    for (const [text, title] of python) expect(pyTitle(text), JSON.stringify(text)).toBe(title);
  });
  it("reprs strings and lists like Python", () => {
    expect(pyReprString("Airport")).toBe("'Airport'");
    expect(pyReprString("O'Hare")).toBe('"O\'Hare"');
    expect(pyReprString("it's \"x\"")).toBe("'it\\'s \"x\"'");
    expect(pyReprStringList(["A", "O'Hare"])).toBe("['A', \"O'Hare\"]");
    // Outputs taken from Python 3.11's repr().
    const python: [string, string][] = [
      ['say "hi"', `'say "hi"'`], ["back\\slash", "'back\\\\slash'"], ["tab\there", "'tab\\there'"], ["new\nline", "'new\\nline'"],
      ["\x01ctl\x7f", "'\\x01ctl\\x7f'"], ["both ' and \"", `'both \\' and "'`], ["café", "'café'"], ["北京", "'北京'"],
      ["emoji 😀", "'emoji 😀'"], ["cr\rlf", "'cr\\rlf'"], ["", "''"],
    ];
    for (const [text, repr] of python) expect(pyReprString(text), JSON.stringify(text)).toBe(repr);
  });
  it("has Python truthiness, including empty containers", () => {
    for (const v of [null, undefined, false, 0, NaN, "", [], {}]) expect(pyTruthy(v)).toBe(false);
    for (const v of [1, "x", [0], { a: null }, true]) expect(pyTruthy(v)).toBe(true);
  });
  it("tells a missing key from a null one", () => {
    expect(hasKey({ a: null }, "a")).toBe(true);
    expect(hasKey({}, "a")).toBe(false);
  });
  it("hashes like the reference's opaque ids", () => {
    // sha256("route:airport:five points")[:12], as the reference's route ids.
    expect(sha256hex12("route:airport:five points")).toBe("0270621855ef");
  });
  it("hashes the UTF-8 bytes natively as the renderer's JavaScript SHA-256 does", () => {
    for (const text of ["", "route:airport:five points", "西直门 → 天安门东", "años, niños", "محطة", "🚇 line 2\n"]) {
      expect(sha256hex12(text)).toBe(bytesToHex(sha256(utf8ToBytes(text))).slice(0, 12));
    }
    // Known digests, so that the comparison above cannot pass with both sides wrong.
    expect(sha256hex12("")).toBe("e3b0c44298fc");
    expect(sha256hex12("西直门")).toBe(bytesToHex(sha256(new TextEncoder().encode("西直门"))).slice(0, 12));
  });
});

describe("CPython hash and set order under PYTHONHASHSEED=13", () => {
  // Expected values printed by CPython 3.11:
  // PYTHONHASHSEED=13 python3 -c 'print(hash("red"), hash("gold"), hash("blue"), list({"red","gold","blue","green"}))'
  it("matches CPython's SipHash-1-3 string hashes", () => {
    expect(BigInt.asIntN(64, pyStringHash("red", 13))).toBe(-4860027283001841996n);
    expect(BigInt.asIntN(64, pyStringHash("gold", 13))).toBe(7707519934540827887n);
    expect(BigInt.asIntN(64, pyStringHash("blue", 13))).toBe(-5492378862313626670n);
  });
  it("iterates a set in CPython's slot order", () => {
    expect(pySetOrder(["red", "gold", "blue", "green"], 13)).toEqual(["green", "blue", "red", "gold"]);
  });
  it("keeps set order independent of insertion for distinct-slot keys and ignores duplicates", () => {
    expect(pySetOrder(["a", "a", "b"], 13).sort()).toEqual(["a", "b"]);
  });
});
