// MODEL-PROTOCOL.md §6, fidelity tests 6 (b8642 parser table) and 10 (b10398 profile).
import { describe, expect, it } from "vitest";
import { SHARED_DATA_DIR } from "../../test/paths.ts";
import { DataPack } from "../../tools/data/datapack.ts";
import { ModelOutputParseError, parseModelOutput, parseModelOutputOrThrow, randomToolCallId } from "./parse.ts";
import type { ProtocolProfile } from "./profile.ts";
import { parserCases, requestForCase, type ParserCase } from "./testing/fixtures.ts";

const tools = new DataPack(SHARED_DATA_DIR).toolDefinitions();

function parseCase(c: ParserCase, profile: ProtocolProfile) {
  const request = requestForCase(c);
  return parseModelOutput(c.candidate, {
    tools: request.tools ?? tools,
    profile,
    thinking: request.enable_thinking ?? true,
    parallelToolCalls: profile === "b8642" ? (request.parallel_tool_calls ?? false) : undefined,
    newToolCallId: () => "id",
  });
}

function expectLikeFixture(c: ParserCase, profile: ProtocolProfile): void {
  const outcome = parseCase(c, profile);
  if (c.parse_error !== null) {
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.error).toBe(c.parse_error);
    return;
  }
  expect(outcome.ok).toBe(true);
  if (!outcome.ok || !c.parsed) return;
  const { message } = outcome;
  expect(message.content).toBe(c.parsed.content);
  expect(message.reasoning_content).toBe(c.parsed.reasoning_content);
  expect(message.tool_calls.map((t) => t.function)).toEqual((c.parsed.tool_calls ?? []).map((t) => t.function));
  for (const call of message.tool_calls) expect(call).toMatchObject({ id: "id", type: "function" });
}

describe("fidelity 6: parser table, profile b8642 (probe build b8390)", () => {
  const cases = parserCases().filter((c) => c.build === "b8390");
  it("has the fixture cases", () => expect(cases.length).toBe(50));
  for (const [i, c] of cases.entries()) {
    it(`#${i} ${c.request}: ${JSON.stringify(c.candidate.slice(0, 60))}`, () => expectLikeFixture(c, "b8642"));
  }
});

describe("fidelity 10: profile b10398 (probe build b10361)", () => {
  const cases = parserCases().filter((c) => c.build === "b10361");
  it("has the fixture cases", () => expect(cases.length).toBe(35));
  for (const [i, c] of cases.entries()) {
    it(`#${i} ${c.request}: ${JSON.stringify(c.candidate.slice(0, 60))}`, () => expectLikeFixture(c, "b10398"));
  }
  it("a call opened by <function without <tool_call> is parsed", () => {
    const message = parseModelOutputOrThrow("<function=line_info>\n<parameter=line>\nRED\n</parameter>\n</function>", {
      tools,
      profile: "b10398",
      thinking: false,
    });
    expect(message.tool_calls.map((t) => t.function)).toEqual([{ name: "line_info", arguments: '{"line":"RED"}' }]);
  });
});

describe("profile v0.4.0", () => {
  const opts = { tools, profile: "v0.4.0" as const, parallelToolCalls: false, newToolCallId: () => "v" };
  it("reasoning ends at </think> or at <tool_call> (leading whitespace dropped); the call parses with required arguments in any order", () => {
    const text = "\nCheck.\n<tool_call>\n<function=route_planner>\n<parameter=destination>\nB\n</parameter>\n<parameter=origin>\nA\n</parameter>\n</function>\n</tool_call>";
    expect(parseModelOutputOrThrow(text, opts)).toEqual({
      role: "assistant",
      content: "",
      reasoning_content: "Check.\n",
      tool_calls: [{ id: "v", type: "function", function: { name: "route_planner", arguments: '{"destination":"B","origin":"A"}' } }],
    });
    const closed = parseModelOutputOrThrow("Plan.\n</think>\n\nText first <tool_call>\n<function=line_info>\n</function>\n</tool_call>\n", opts);
    expect(closed).toMatchObject({ reasoning_content: "Plan.\n", content: "Text first ", tool_calls: [{ function: { name: "line_info", arguments: "{}" } }] });
  });
  it("a malformed tool section is dropped, reasoning and content kept; a missing required argument is malformed", () => {
    const missing = "x<tool_call>\n<function=route_planner>\n<parameter=origin>\nA\n</parameter>\n</function>\n</tool_call>";
    expect(parseModelOutputOrThrow(missing, opts)).toEqual({ role: "assistant", content: "", reasoning_content: "x", tool_calls: [] });
    const trailing = "<tool_call>\n<function=line_info>\n</function>\n</tool_call>junk";
    expect(parseModelOutputOrThrow(trailing, opts).tool_calls).toEqual([]);
  });
});

describe("b8642 details", () => {
  it("throws ModelOutputParseError with llama-server's message", () => {
    const text = "\n</think>\n\n<tool_call>\n<function=nope>\n</function>\n</tool_call>";
    expect(() => parseModelOutputOrThrow(text, { tools })).toThrow(ModelOutputParseError);
    expect(() => parseModelOutputOrThrow(text, { tools })).toThrow("Failed to parse input at pos 11: <tool_call>\n<function=nope>");
  });
  it("JSON-typed parameters must be JSON; string ones are escaped", () => {
    const bad = "\n</think>\n\n<tool_call>\n<function=fare_calculator>\n<parameter=route_id>\nR\n</parameter>\n<parameter=passengers>\nadults\n</parameter>\n</function>\n</tool_call>";
    expect(parseModelOutput(bad, { tools }).ok).toBe(false);
    const ok = "x</think><tool_call>\n<function=knowledge_base>\n<parameter=query>\nsay \"hi\"\nline2\n</parameter>\n</function>\n</tool_call>";
    const message = parseModelOutputOrThrow(ok, { tools, newToolCallId: () => "k" });
    expect(message).toEqual({
      role: "assistant",
      content: "",
      reasoning_content: "x",
      tool_calls: [{ id: "k", type: "function", function: { name: "knowledge_base", arguments: '{"query":"say \\"hi\\"\\nline2"}' } }],
    });
  });
  it("a missing required parameter fails; zero-argument calls parse", () => {
    const missing = "</think>\n<tool_call>\n<function=route_planner>\n<parameter=origin>\nA\n</parameter>\n</function>\n</tool_call>";
    expect(parseModelOutput(missing, { tools }).ok).toBe(false);
    const none = "</think>\n<tool_call>\n<function=line_info>\n</function>\n</tool_call>";
    expect(parseModelOutputOrThrow(none, { tools }).tool_calls[0]?.function).toEqual({ name: "line_info", arguments: "{}" });
  });
  it("tool-call ids look like llama-server's", () => {
    expect(randomToolCallId()).toMatch(/^[A-Za-z0-9]{32}$/);
  });
});
