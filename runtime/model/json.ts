// JSON as llama-server (nlohmann::ordered_json) and the Python harness (json.loads) read a model's
// tool-call arguments: integral float literals stay floats ("2.0" is not "2"), and a repeated key
// keeps its first position and takes its last value. lossless-json (behind parseJsonKeepingFloats)
// rejects repeated keys, which the b8642 grammar lets the model emit, so this module has a small
// fallback parser with those semantics.
import { parseJsonKeepingFloats, PyFloat } from "../../tools/py/index.ts";

export class JsonSyntaxError extends Error {
  override name = "JsonSyntaxError";
  constructor(
    message: string,
    readonly position: number,
  ) {
    super(message);
  }
}

/** Parse JSON text keeping Python's int/float distinction; repeated keys: first position, last value. */
export function parseModelJson(text: string): unknown {
  try {
    return parseJsonKeepingFloats(text);
  } catch (err) {
    if (err instanceof SyntaxError && /Duplicate key/.test(err.message)) return new FallbackParser(text).parseDocument();
    throw err;
  }
}

/** Whether `text` is one complete JSON value (surrounding whitespace allowed). */
export function isJsonText(text: string): boolean {
  try {
    new FallbackParser(text).parseDocument();
    return true;
  } catch {
    return false;
  }
}

const WS = new Set([" ", "\t", "\n", "\r"]);

class FallbackParser {
  private pos = 0;
  constructor(private readonly text: string) {}

  parseDocument(): unknown {
    this.skipWs();
    const value = this.parseValue();
    this.skipWs();
    if (this.pos !== this.text.length) this.fail("unexpected text after the JSON value");
    return value;
  }

  private fail(message: string): never {
    throw new JsonSyntaxError(`${message} at position ${this.pos}`, this.pos);
  }

  private skipWs(): void {
    while (this.pos < this.text.length && WS.has(this.text[this.pos] as string)) this.pos++;
  }

  private parseValue(): unknown {
    const ch = this.text[this.pos];
    if (ch === "{") return this.parseObject();
    if (ch === "[") return this.parseArray();
    if (ch === '"') return this.parseString();
    if (ch === "-" || (ch !== undefined && ch >= "0" && ch <= "9")) return this.parseNumber();
    for (const [word, value] of [
      ["true", true],
      ["false", false],
      ["null", null],
    ] as const) {
      if (this.text.startsWith(word, this.pos)) {
        this.pos += word.length;
        return value;
      }
    }
    this.fail("unexpected character");
  }

  private parseObject(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    this.pos++;
    this.skipWs();
    if (this.text[this.pos] === "}") {
      this.pos++;
      return out;
    }
    for (;;) {
      this.skipWs();
      if (this.text[this.pos] !== '"') this.fail("expected a key");
      const key = this.parseString();
      this.skipWs();
      if (this.text[this.pos] !== ":") this.fail("expected ':'");
      this.pos++;
      this.skipWs();
      out[key] = this.parseValue();
      this.skipWs();
      const next = this.text[this.pos];
      this.pos++;
      if (next === "}") return out;
      if (next !== ",") this.fail("expected ',' or '}'");
    }
  }

  private parseArray(): unknown[] {
    const out: unknown[] = [];
    this.pos++;
    this.skipWs();
    if (this.text[this.pos] === "]") {
      this.pos++;
      return out;
    }
    for (;;) {
      this.skipWs();
      out.push(this.parseValue());
      this.skipWs();
      const next = this.text[this.pos];
      this.pos++;
      if (next === "]") return out;
      if (next !== ",") this.fail("expected ',' or ']'");
    }
  }

  private parseString(): string {
    const start = this.pos;
    this.pos++;
    for (;;) {
      const ch = this.text[this.pos];
      if (ch === undefined) this.fail("unterminated string");
      if (ch === '"') break;
      if (ch === "\\") this.pos += this.text[this.pos + 1] === "u" ? 6 : 2;
      else if (ch < " ") this.fail("control character in string");
      else this.pos++;
    }
    this.pos++;
    try {
      return JSON.parse(this.text.slice(start, this.pos)) as string;
    } catch {
      this.pos = start;
      this.fail("invalid string escape");
    }
  }

  private parseNumber(): number | PyFloat {
    const match = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(this.text.slice(this.pos));
    if (!match) this.fail("invalid number");
    const literal = match[0];
    this.pos += literal.length;
    const value = Number(literal);
    return /[.eE]/.test(literal) && Number.isInteger(value) ? new PyFloat(value) : value;
  }
}
