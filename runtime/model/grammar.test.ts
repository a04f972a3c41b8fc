// MODEL-PROTOCOL.md §6, fidelity tests 7 (grammar accept/reject table) and 8 (trigger semantics).
import { describe, expect, it } from "vitest";
import { SHARED_DATA_DIR } from "../../test/paths.ts";
import { DataPack } from "../../tools/data/datapack.ts";
import { G, GrammarBuilder, GrammarMatcher, matchGrammar, toGbnfText } from "./gbnf.ts";
import { buildToolCallGrammar, JsonSchemaGrammar, LazyToolCallGrammar, type LazyGrammarVerdict } from "./grammar.ts";
import { parseModelOutputOrThrow } from "./parse.ts";
import type { ProtocolProfile } from "./profile.ts";
import { parserCases, requestForCase, type ParserCase } from "./testing/fixtures.ts";

const tools = new DataPack(SHARED_DATA_DIR).toolDefinitions();

function verdictText(v: LazyGrammarVerdict): string {
  if (!v.triggered) return "GRAMMAR not triggered (output unconstrained)";
  if (v.accepted) return `GRAMMAR(from byte ${v.fromByte}) ${v.complete ? "accepted-complete" : "accepted-incomplete"}`;
  return `GRAMMAR(from byte ${v.fromByte}) rejected at byte ${v.rejectedAtByte} (Unexpected empty grammar stack after accepting piece: ${v.piece})`;
}

function expectVerdict(c: ParserCase, profile: ProtocolProfile): void {
  const request = requestForCase(c);
  const grammar = new LazyToolCallGrammar(request.tools ?? tools, {
    profile,
    parallelToolCalls: profile === "b8642" ? (request.parallel_tool_calls ?? false) : undefined,
  });
  const ours = verdictText(grammar.check(c.candidate));
  // The probe printed a "near: …" excerpt after the piece (cut at a newline piece); compare up to it.
  const expected = (c.grammar as string).replace(/ near: [\s\S]*$/, "");
  if (expected.endsWith("piece:")) expect(ours.startsWith(expected)).toBe(true);
  else expect(ours).toBe(expected);
}

describe("fidelity 7: lazy grammar table, profile b8642 (probe build b8390)", () => {
  const cases = parserCases().filter((c) => c.build === "b8390" && c.grammar !== null);
  it("has the fixture cases", () => expect(cases.length).toBe(45));
  for (const [i, c] of cases.entries()) {
    it(`#${i} ${c.grammar?.slice(0, 60)}: ${JSON.stringify(c.candidate.slice(0, 50))}`, () => expectVerdict(c, "b8642"));
  }
  it("rejects keys out of schema order at the first wrong key character", () => {
    const g = new LazyToolCallGrammar(tools);
    const v = g.check("<tool_call>\n<function=fare_calculator>\n<parameter=route_id>\nR1\n</parameter>\n<parameter=passengers>\n{\"children\": 1, \"adults\": 1}\n</parameter>\n</function>\n</tool_call>");
    expect(v).toMatchObject({ triggered: true, accepted: false, piece: "a" });
  });
  it("accepts enum values that are not in the enum inside string parameters; enforces JSON enums", () => {
    const g = new LazyToolCallGrammar(tools);
    const call = (args: string) => `<tool_call>\n<function=route_planner>\n<parameter=origin>\nA\n</parameter>\n<parameter=destination>\nB\n</parameter>\n${args}</function>\n</tool_call>`;
    expect(g.check(call(""))).toMatchObject({ accepted: true, complete: true });
    expect(g.check(call('<parameter=station_restrictions>\n[{"station": "X", "restriction": "closed"}]\n</parameter>\n'))).toMatchObject({ accepted: true, complete: true });
    expect(g.check(call('<parameter=station_restrictions>\n[{"station": "X", "restriction": "shut"}]\n</parameter>\n'))).toMatchObject({ accepted: false });
    expect(g.check(call('<parameter=station_restrictions>\n[{"station": "X"}]\n</parameter>\n'))).toMatchObject({ accepted: false });
    expect(g.check(call('<parameter=segment_closures>\n[["A", "B", "C"]]\n</parameter>\n'))).toMatchObject({ accepted: false });
    expect(g.check(call('<parameter=segment_closures>\n[["A", "B"]]\n</parameter>\n'))).toMatchObject({ accepted: true, complete: true });
  });
  it("rejects unknown tool names, unknown parameters and unknown object keys", () => {
    const g = new LazyToolCallGrammar(tools);
    expect(g.check("<tool_call>\n<function=book_taxi>\n")).toMatchObject({ accepted: false, rejectedAtByte: 22 });
    expect(g.check("<tool_call>\n<function=line_info>\n<parameter=colour>\n")).toMatchObject({ accepted: false });
    expect(g.check('<tool_call>\n<function=fare_calculator>\n<parameter=route_id>\nR\n</parameter>\n<parameter=passengers>\n{"pets": 1}')).toMatchObject({ accepted: false });
  });
  it("the GBNF text names every rule it uses", () => {
    const text = toGbnfText(buildToolCallGrammar(tools));
    const defined = new Set(text.split("\n").filter(Boolean).map((l) => l.split(" ::= ")[0]));
    const used = new Set(text.replace(/"(?:[^"\\]|\\.)*"|\[(?:[^\]\\]|\\.)*\]/g, "").match(/[a-zA-Z0-9-]+/g));
    for (const name of used) expect(defined.has(name)).toBe(true);
    expect(text.startsWith("root ::= ")).toBe(true);
  });
});

describe("fidelity 8: trigger semantics", () => {
  const g = new LazyToolCallGrammar(tools);
  const inThink = "I will call a tool.\n<tool_call>\n<function=station_info>\n<parameter=query_type>\naccessibility\n</parameter>\n</function>\n</tool_call>";
  it("a trigger inside the think block activates the grammar; after one call only end-of-generation remains", () => {
    expect(g.check(inThink)).toEqual({ triggered: true, fromByte: 20, accepted: true, complete: true });
    const after = g.continueAfter(inThink.slice(inThink.indexOf("<tool_call>\n")));
    expect(after).toMatchObject({ ok: true, complete: true, canContinue: false });
    // …and the b8642 parser returns it as reasoning only.
    const message = parseModelOutputOrThrow(inThink, { tools });
    expect(message).toMatchObject({ content: "", tool_calls: [] });
    expect(message.reasoning_content).toBe(inThink);
  });
  it("'<tool_call>{' without a newline is not a trigger (stays unconstrained content)", () => {
    expect(g.check('\n</think>\n\n<tool_call>{"name": "x"}</tool_call>')).toEqual({ triggered: false });
    expect(g.findTrigger("<tool_call>")).toBe(-1);
    expect(g.findTrigger("ab<tool_call>\n")).toBe(2);
  });
  it("continueAfter derives the remaining grammar, also from inside a trigger token's overshoot", () => {
    const r1 = g.continueAfter("<tool_call>\n");
    expect(r1.ok && r1.canContinue && !r1.complete).toBe(true);
    const r2 = g.continueAfter("<tool_call>\n<func");
    expect(r2.ok).toBe(true);
    if (r2.ok) {
      expect(matchGrammar(r2.grammar, "tion=line_info>\n</function>\n</tool_call>")).toEqual({ accepted: true, complete: true });
      expect(matchGrammar(r2.grammar, "tion=nope>")).toMatchObject({ accepted: false });
      expect(r2.gbnf.split("\n")[0]).toMatch(/^continue ::= /);
    }
    expect(g.continueAfter("<tool_call>\n\n")).toMatchObject({ ok: false, rejectedAtByte: 12 });
  });
  it("b10398 triggers on '<tool_call>' and '<function' and allows several calls in any argument order", () => {
    const g2 = new LazyToolCallGrammar(tools, { profile: "b10398" });
    expect(g2.findTrigger("x<function=line_info>")).toBe(1);
    const two = "<tool_call>\n<function=route_planner>\n<parameter=destination>\nB\n</parameter>\n<parameter=origin>\nA\n</parameter>\n</function>\n</tool_call>\n<tool_call>\n<function=line_info>\n</function>\n</tool_call>";
    expect(g2.check(two)).toMatchObject({ accepted: true, complete: true });
  });
});

describe("profile v0.4.0 (the llama-server built from node-llama-cpp's bundled llama.cpp)", () => {
  const g = new LazyToolCallGrammar(tools, { profile: "v0.4.0", parallelToolCalls: false });
  const call = (args: string, name = "route_planner") => `<tool_call>\n<function=${name}>\n${args}</function>\n</tool_call>`;
  const origin = "<parameter=origin>\nA\n</parameter>\n";
  const destination = "<parameter=destination>\nB\n</parameter>\n";
  it("triggers on '<tool_call>' only", () => {
    expect(g.triggers).toEqual(["<tool_call>"]);
    expect(g.findTrigger("x<function=line_info>")).toBe(-1);
  });
  it("requires every required argument once, in any order, then optional ones", () => {
    expect(g.check(call(origin + destination))).toMatchObject({ accepted: true, complete: true });
    expect(g.check(call(destination + origin))).toMatchObject({ accepted: true, complete: true });
    expect(g.check(call(origin + destination + "<parameter=departure_time>\n08:00\n</parameter>\n"))).toMatchObject({ accepted: true, complete: true });
    expect(g.check(call(origin))).toMatchObject({ accepted: false });
    expect(g.check(call("<parameter=departure_time>\n08:00\n</parameter>\n" + origin + destination))).toMatchObject({ accepted: false });
    expect(g.check(call(origin + origin))).toMatchObject({ accepted: false });
  });
  it("'</function>\\n</tool_call>' exactly, then only whitespace (one call, parallel off)", () => {
    expect(g.check(`<tool_call>\n<function=line_info>\n</function>\n </tool_call>`)).toMatchObject({ accepted: false });
    expect(g.check(`${call("", "line_info")}\n`)).toMatchObject({ accepted: true, complete: true });
    expect(g.check(`${call("", "line_info")}${call("", "line_info")}`)).toMatchObject({ accepted: false });
    expect(new LazyToolCallGrammar(tools, { profile: "v0.4.0" }).check(`${call("", "line_info")}\n${call("", "line_info")}`)).toMatchObject({ accepted: true, complete: true });
  });
});

describe("fidelity 10 (grammar side): b10398 verdicts of the b10361 probe", () => {
  const cases = parserCases().filter((c) => c.build === "b10361" && c.grammar !== null);
  for (const [i, c] of cases.entries()) {
    it(`#${i} ${c.grammar?.slice(0, 60)}`, () => expectVerdict(c, "b10398"));
  }
});

describe("GBNF toolkit", () => {
  it("until(): any text up to and including the first delimiter", () => {
    const b = new GrammarBuilder();
    const g = b.build([[b.until("\n</p>\n"), ...G.lit("X")]]);
    expect(matchGrammar(g, "a\n</p\n</p>\nX")).toEqual({ accepted: true, complete: true });
    expect(matchGrammar(g, "\n</p>\nX")).toEqual({ accepted: true, complete: true });
    expect(matchGrammar(g, "a\n</p>\nY").accepted).toBe(false);
    expect(matchGrammar(g, "\n\n</p>\n\n</p>\nX").accepted).toBe(false);
  });
  it("JSON rules follow llama.cpp's converter (bounded space, numbers, fixed optional order)", () => {
    const b = new GrammarBuilder();
    const json = new JsonSchemaGrammar(b);
    const schema = { type: "object", properties: { a: { type: "integer" }, b: { type: "number" }, c: { type: "boolean" } }, required: ["b"] };
    const g = b.build([[json.visit(schema, "obj")]]);
    for (const ok of ['{"b": 1.5e3}', '{"b": 1, "a": 2}', '{"b":2,"c":true}', '{ "b": -0.25 }', '{"b": 1, "c": false}\n  ']) expect(matchGrammar(g, ok)).toEqual({ accepted: true, complete: true });
    for (const bad of ['{"a": 1}', '{"b": 1, "c": true, "a": 2}', '{"b": 01}', '{"b": 1, "d": 1}', '{"b": 1} ' + " ".repeat(30)]) expect(matchGrammar(g, bad).accepted && matchGrammar(g, bad).complete).toBe(false);
  });
  it("matcher reports byte offsets for non-ASCII text", () => {
    const b = new GrammarBuilder();
    const g = b.build([[...G.lit("é中"), ...G.lit("x")]]);
    const m = new GrammarMatcher(g);
    expect(m.feed("é中y")).toEqual({ ok: false, atByte: 5, piece: "y" });
  });
});
