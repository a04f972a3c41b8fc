// Parse JSON / YAML text and validate it with a zod schema, turning every failure into a
// DataFileError that names the file, the line/column and the JSON path.
import { LineCounter, parseDocument, isNode, type Document } from "yaml";
import type { z } from "zod";
import { compiledValidator } from "../util/compiled-schema.ts";
import { DataFileError, type DataIssue } from "./errors.ts";
import { parseJsonKeepingFloats } from "../py/json.ts";
import { PyFloat } from "../py/number.ts";

function lineColumnAt(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

/** Locate a path inside YAML/JSON text (JSON is YAML) and return its line/column, if found. */
function locatePath(
  doc: Document.Parsed,
  counter: LineCounter,
  path: ReadonlyArray<string | number>,
): { line: number; column: number } | undefined {
  // Walk up the path until a node exists (a missing key is reported at its parent object).
  for (let depth = path.length; depth >= 0; depth--) {
    const node: unknown = depth === 0 ? doc.contents : doc.getIn(path.slice(0, depth), true);
    if (isNode(node) && node.range) {
      const pos = counter.linePos(node.range[0]);
      return { line: pos.line, column: pos.col };
    }
  }
  return undefined;
}

function describeZodIssue(issue: z.core.$ZodIssue): string {
  if (issue.code === "invalid_type") {
    const received = (issue as { input?: unknown }).input;
    const got = received === undefined ? "nothing (missing)" : received === null ? "null" : typeof received;
    return `expected ${issue.expected}, got ${got}`;
  }
  return issue.message;
}

function zodIssues(
  error: z.ZodError,
  parseForLocation: () => { doc: Document.Parsed; counter: LineCounter } | undefined,
): DataIssue[] {
  const located = parseForLocation();
  return error.issues.map((issue) => {
    const path = issue.path.filter((p): p is string | number => typeof p !== "symbol");
    const pos = located ? locatePath(located.doc, located.counter, path) : undefined;
    return { message: describeZodIssue(issue), path, ...pos };
  });
}

function yamlDocument(text: string): { doc: Document.Parsed; counter: LineCounter } {
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter, intAsBigInt: true, uniqueKeys: true });
  return { doc, counter };
}

export interface ParsedFile<T> {
  value: T;
  /** The same data with Python's int/float distinction kept (PyFloat for integral floats). */
  pyValue: unknown;
}

/** How a file's text is parsed. */
export interface ParseOptions {
  /**
   * The very same text already passed this schema under this build (ValidatedFiles in
   * datapack.ts): it is parsed, not validated again.
   */
  alreadyValid?: boolean;
}

function validate<T>(
  schema: z.ZodType<T>,
  data: unknown,
  file: string,
  locate: () => { doc: Document.Parsed; counter: LineCounter } | undefined,
  options: ParseOptions,
): T {
  if (options.alreadyValid === true) return data as T;
  // The common case (a valid file) asks only yes or no; the issues are collected when it is not.
  if (compiledValidator(schema)(data)) return data as T;
  const result = schema.safeParse(data, { reportInput: true });
  if (!result.success) throw new DataFileError(file, zodIssues(result.error, locate));
  // Return the input itself (validated), not zod's copy: key order and extra keys are kept.
  return data as T;
}

export function parseJsonText<T>(text: string, file: string, schema: z.ZodType<T>, options: ParseOptions = {}): T {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const match = /position (\d+)/.exec(message);
    const pos = match ? lineColumnAt(text, Number(match[1])) : undefined;
    throw new DataFileError(file, [{ message: `invalid JSON: ${message.replace(/ in JSON at position \d+.*$/, "")}`, ...pos }]);
  }
  return validate(schema, data, file, () => yamlDocument(text), options);
}

/** Like parseJsonText, but also returns the data with Python float markers (for prompt text). */
export function parseJsonTextKeepingFloats<T>(text: string, file: string, schema: z.ZodType<T>, options: ParseOptions = {}): ParsedFile<T> {
  const value = parseJsonText(text, file, schema, options);
  return { value, pyValue: parseJsonKeepingFloats(text) };
}

/** Convert a YAML value parsed with intAsBigInt: bigint → int, integral number → PyFloat. */
function pyFromYaml(value: unknown): unknown {
  if (typeof value === "bigint") return Number(value);
  if (typeof value === "number") return Number.isInteger(value) ? new PyFloat(value) : value;
  if (Array.isArray(value)) return value.map(pyFromYaml);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, pyFromYaml(v)]));
  }
  return value;
}

function plainFromYaml(value: unknown): unknown {
  if (typeof value === "bigint") return Number(value);
  if (Array.isArray(value)) return value.map(plainFromYaml);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plainFromYaml(v)]));
  }
  return value;
}

export function parseYamlText<T>(text: string, file: string, schema: z.ZodType<T>, options: ParseOptions = {}): ParsedFile<T> {
  const located = yamlDocument(text);
  const problems = [...located.doc.errors, ...located.doc.warnings];
  if (located.doc.errors.length > 0) {
    throw new DataFileError(
      file,
      problems.map((e) => ({
        message: `invalid YAML: ${e.message.split("\n")[0] ?? e.code}`,
        line: e.linePos?.[0].line,
        column: e.linePos?.[0].col,
      })),
    );
  }
  let js: unknown;
  try {
    js = located.doc.toJS({ maxAliasCount: 100 });
  } catch (err) {
    // An alias bomb ("Excessive alias count…") or a structure too deep to build: bad input, not a crash.
    throw new DataFileError(file, [{ message: `invalid YAML: ${err instanceof Error ? err.message.split("\n")[0] : String(err)}` }]);
  }
  const value = validate(schema, plainFromYaml(js), file, () => located, options);
  return { value, pyValue: pyFromYaml(js) };
}

/** Line/column of a key path inside YAML (or JSON) text, for messages about valid-but-wrong values. */
export function locateInYaml(text: string, path: ReadonlyArray<string | number>): { line: number; column: number } | undefined {
  const { doc, counter } = yamlDocument(text);
  return locatePath(doc, counter, path);
}
