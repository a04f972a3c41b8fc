// Result records in the reference runner's format (CONTRACT §8), read leniently.
//
// `ResultRecordSchema` describes a well-formed record (the type others code against). The scorer
// does not require one: `readRecord` accepts anything and turns it into a `ScorableRecord`, noting
// in `flags` every place where the record is malformed (where the Python reference would raise).
import { z } from "zod";
import { dget, isDict, pyStr, type Dict } from "./pyvalues.ts";

export const ToolCallRecordSchema = z.looseObject({
  name: z.string(),
  arguments: z.record(z.string(), z.unknown()),
  /** The tool's success body, or null when it failed. */
  result: z.unknown(),
  /** The raw error body text when the tool failed (e.g. a rejected submission), else null. */
  error: z.string().nullable(),
});
export type ToolCallRecord = z.infer<typeof ToolCallRecordSchema>;

export const ResultRecordSchema = z.looseObject({
  case_id: z.string(),
  /** The terminal state: the reshaped accepted submission, parsed final JSON (any type), or null. */
  response: z.unknown(),
  tool_calls_made: z.array(ToolCallRecordSchema),
  raw_content: z.string().nullable().optional(),
  reasoning_content: z.string().nullable().optional(),
  messages: z.array(z.unknown()).optional(),
  ttft_ms: z.number().nullable().optional(),
  e2e_ms: z.number().nullable().optional(),
  input_tokens: z.number().nullable().optional(),
  output_tokens: z.number().nullable().optional(),
  api_rounds: z.number().nullable().optional(),
  error: z.string().nullable().optional(),
  empty_rounds: z.number().nullable().optional(),
  truncated: z.boolean().nullable().optional(),
});
export type ResultRecord = z.infer<typeof ResultRecordSchema>;

/** A results file as the reference runner writes it (`results[]` plus metadata). */
export const ResultsFileSchema = z.looseObject({ results: z.array(z.unknown()) });

/** One tool call as the scorer reads it. */
export interface ScorableCall {
  /** The tool name; "" when missing or not a string (flagged). */
  readonly name: string;
  /** The call's arguments; {} when missing or not an object (flagged unless missing). */
  readonly args: Dict;
  /** `result` as recorded (any JSON), undefined when absent. */
  readonly result: unknown;
  readonly error: unknown;
}

/** A record normalised for scoring. Build it with `readRecord`. */
export class ScorableRecord {
  constructor(
    readonly caseId: string | undefined,
    /** The response when it is an object (possibly empty); null otherwise. */
    readonly response: Dict | null,
    /** `response.ui_updates` when it is an object; {} otherwise (flagged unless missing). */
    readonly ui: Dict,
    /** `raw_content` as text ("" when missing or null). */
    readonly rawContent: string,
    readonly calls: readonly ScorableCall[],
    readonly error: string | null,
    readonly truncated: boolean,
    readonly source: Dict,
    readonly flags: readonly string[],
  ) {}

  private names?: ReadonlySet<string>;

  /** The set of called tool names (errored calls included). */
  get calledNames(): ReadonlySet<string> {
    return (this.names ??= new Set(this.calls.map((c) => c.name)));
  }

  /** Python truthiness of the response (an empty object counts as no response). */
  get hasResponse(): boolean {
    return this.response !== null && Object.keys(this.response).length > 0;
  }
}

function readCall(raw: unknown, index: number, flags: string[]): ScorableCall | undefined {
  if (!isDict(raw)) {
    flags.push(`tool_calls_made[${index}] is not an object (ignored)`);
    return undefined;
  }
  let name = raw["name"];
  if (typeof name !== "string") {
    flags.push(`tool_calls_made[${index}] has ${name === undefined ? "no name" : `a non-string name ${pyStr(name)}`} (counted as an unknown tool)`);
    name = "";
  }
  const hasArgs = Object.prototype.hasOwnProperty.call(raw, "arguments");
  let args = raw["arguments"];
  if (!isDict(args)) {
    if (hasArgs) flags.push(`tool_calls_made[${index}] (${name as string}) has arguments that are not an object (read as {})`);
    args = {};
  }
  return { name: name as string, args: args as Dict, result: raw["result"], error: raw["error"] };
}

/** Read any value as a result record. Never throws; problems are listed in `flags`. */
export function readRecord(raw: unknown): ScorableRecord {
  const flags: string[] = [];
  const rec: Dict = isDict(raw) ? raw : {};
  if (!isDict(raw)) flags.push("record is not an object");

  const caseId = typeof rec["case_id"] === "string" ? rec["case_id"] : undefined;
  if (caseId === undefined) flags.push("record has no string case_id");

  const rawResponse = dget(rec, "response", null);
  let response: Dict | null = null;
  if (isDict(rawResponse)) response = rawResponse;
  else if (rawResponse !== null) flags.push(`response is a ${Array.isArray(rawResponse) ? "list" : typeof rawResponse}, not an object (scored as no response)`);

  let ui: Dict = {};
  if (response && Object.prototype.hasOwnProperty.call(response, "ui_updates")) {
    const u = response["ui_updates"];
    if (isDict(u)) ui = u;
    else flags.push(`response.ui_updates is ${u === null ? "null" : `a ${Array.isArray(u) ? "list" : typeof u}`} (read as {})`);
  }

  const rawContent = typeof rec["raw_content"] === "string" ? rec["raw_content"] : "";
  if (rec["raw_content"] != null && typeof rec["raw_content"] !== "string") flags.push("raw_content is not a string (read as \"\")");

  const rawCalls = dget(rec, "tool_calls_made", []);
  const calls: ScorableCall[] = [];
  if (Array.isArray(rawCalls)) {
    rawCalls.forEach((c, i) => {
      const call = readCall(c, i, flags);
      if (call) calls.push(call);
    });
  } else {
    flags.push("tool_calls_made is not a list (read as [])");
  }

  const error = typeof rec["error"] === "string" ? rec["error"] : rec["error"] == null ? null : pyStr(rec["error"]);
  return new ScorableRecord(caseId, response, ui, rawContent, calls, error, rec["truncated"] === true, rec, flags);
}

/** A record that has already been read is returned as is. */
export function asScorable(record: unknown): ScorableRecord {
  return record instanceof ScorableRecord ? record : readRecord(record);
}
