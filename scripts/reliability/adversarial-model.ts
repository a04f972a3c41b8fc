// A scripted adversarial "model" for the session fuzzer, in two flavours:
//   - step level: a Policy whose steps are malformed tool calls, unknown tools (including names
//     like "__proto__"), invalid or pathological JSON, wrong argument types, invalid and valid
//     terminal states, text replies, steps that break the step schema, thrown errors, hundreds of
//     calls in one step, multi-megabyte outputs, and endless tool-call loops;
//   - text level: a CompletionBackend behind the real LlmPolicy (chat template, lazy grammar,
//     llama-server parser) that writes broken <tool_call> markup, unknown functions, Hermes JSON,
//     grammar failures, truncated and huge outputs, and sometimes crashes.
// Each session draws a personality (always loop, pure chaos, junk then a valid answer, …) and then
// one behaviour per round, all from a seeded Rng.
import type { SystemData } from "../../tools/data/system.ts";
import type { CompletionBackend, CompletionRequest, CompletionResult } from "../../runtime/model/backend.ts";
import { LlmPolicy } from "../../runtime/policies/llm.ts";
import type { Policy, PolicyInput, PolicyRun, PolicyStep, SessionSetup } from "../../runtime/session/policy.ts";
import { Rng } from "./common.ts";
import { hugeText, NON_LATIN } from "./fuzz-inputs.ts";

type Json = Record<string, unknown>;

const TOOLS = ["route_planner", "fare_calculator", "station_info", "line_info", "disruption_feed", "knowledge_base"];
const BAD_TOOLS = ["delete_ledger", "submit_ticket", "", " ", "ROUTE_PLANNER", "route_planner ", "../../etc/passwd", "__proto__", "constructor", "toString", "hasOwnProperty", "submit_assistant_state\u0000", "🚇"];

function station(rng: Rng, system: SystemData): string {
  return rng.chance(0.8) ? rng.pick(system.stations)[rng.chance(0.5) ? "id" : "name"] : rng.pick(["Atlantis", "", "null", "X".repeat(300), rng.pick(NON_LATIN)]);
}

function validToolCall(rng: Rng, system: SystemData, routeIds: string[]): { name: string; arguments: Json } {
  const name = rng.pick(TOOLS);
  switch (name) {
    case "route_planner": {
      const args: Json = { origin: station(rng, system), destination: station(rng, system) };
      if (rng.chance(0.2)) args.line_closures = [{ line: rng.pick(system.lines).id }];
      if (rng.chance(0.1)) args.station_restrictions = [{ station: rng.pick(system.stations).id, restriction: rng.pick(["closed", "skip", "no_entry", "bogus"]) }];
      return { name, arguments: args };
    }
    case "fare_calculator":
      return {
        name,
        arguments: {
          route_id: routeIds.length > 0 && rng.chance(0.7) ? rng.pick(routeIds) : "route_000000000000",
          passengers: { adults: rng.range(-1, 5), children: rng.range(0, 3), seniors: rng.range(0, 2), disabled: rng.range(0, 1) },
          ...(rng.chance(0.5) ? { payment_method: rng.pick([...Object.keys(system.fares.payment_methods ?? {}), "bitcoin"]) } : {}),
        },
      };
    case "station_info":
      return { name, arguments: rng.chance(0.7) ? { station_id: station(rng, system) } : { station_ids: [station(rng, system), station(rng, system)] } };
    case "line_info":
      return { name, arguments: rng.chance(0.7) ? { line: rng.pick(system.lines).name } : { lines: ["nope", rng.pick(system.lines).id] } };
    case "disruption_feed":
      return { name, arguments: { severity_filter: rng.pick(["all", "major", "minor", "catastrophic"]) } };
    default:
      return { name, arguments: rng.chance(0.5) ? { query: rng.pick(["bikes", "refund", "free", rng.pick(NON_LATIN)]) } : { policy_id: "NOPE-1" } };
  }
}

function badJson(rng: Rng): string {
  return rng.pick<() => string>([
    () => "{",
    () => "",
    () => "null",
    () => "[]",
    () => '"just a string"',
    () => '{"origin": }',
    () => "{'origin': 'Airport'}",
    () => "NaN",
    () => '{"a": 1}}',
    () => "[".repeat(rng.range(1_000, 200_000)),
    () => `${"[".repeat(5_000)}${"]".repeat(5_000)}`,
    () => '{"__proto__": {"polluted": true}, "constructor": {"prototype": {"x": 1}}}',
    () => JSON.stringify({ origin: hugeText(rng, rng.range(100_000, 1_000_000)) }),
    () => '{"origin": "\\ud800"}',
    () => '{"origin": "Airport", "origin": "Five Points", "origin": 7}',
    () => "1e999999",
    () => '{"outcome": "route_and_fare_ready", "fare_quote": {"total": 1e400}}',
  ])();
}

function wrongTypes(rng: Rng): { name: string; arguments: Json } {
  return rng.pick([
    { name: "route_planner", arguments: { origin: 123, destination: ["a"] } },
    { name: "route_planner", arguments: { origin: null } },
    { name: "fare_calculator", arguments: { route_id: null, passengers: "two adults" } },
    { name: "fare_calculator", arguments: { route_id: "r", passengers: { adults: 1e12, children: -5 } } },
    { name: "station_info", arguments: { station_ids: "not-a-list", query_type: "everything" } },
    { name: "line_info", arguments: { lines: [null, 1, {}] } },
    { name: "knowledge_base", arguments: {} },
    { name: "route_planner", arguments: JSON.parse('{"__proto__": {"admin": true}, "origin": "A", "destination": "B"}') as Json },
  ]);
}

function validState(rng: Rng, system: SystemData): Json {
  const stops = Array.from({ length: rng.range(2, 5) }, () => ({ station_id: rng.pick(system.stations).id }));
  const purchase = rng.chance(0.5);
  return {
    outcome: purchase ? "route_and_fare_ready" : rng.pick(["advisory_only", "service_unavailable", "request_declined", "policy_answer_only"]),
    kiosk_action: { action: purchase ? "prompt_purchase" : rng.pick(["display_info", "block_purchase", "refer_to_staff"]), reason_code: "ok" },
    route: { origin: "a", destination: "b", stops, transfers: 0, estimated_minutes: 10, distance_miles: 3, line_sequence: [] },
    fare_quote: { passenger_summary: { adults: rng.range(0, 3) }, total: rng.pick([0, 0.01, 2.5, 1e9, -1]), currency: rng.pick(["USD", "XXX", ""]) },
    assistant_message: rng.chance(0.05) ? hugeText(rng, 500_000) : rng.pick(["Here you go", rng.pick(NON_LATIN), ""]),
    ...(rng.chance(0.3) ? { advisory_banners: Array.from({ length: rng.range(0, 300) }, () => ({ severity: "info", title: "t", body: "b" })) } : {}),
  };
}

function invalidState(rng: Rng, system: SystemData): unknown {
  const state = validState(rng, system);
  const mutate = rng.pick<(s: Json) => unknown>([
    (s) => ({ ...s, outcome: "free_ticket" }),
    (s) => ({ ...s, kiosk_action: { action: "dispense_cash", reason_code: "ok" } }),
    (s) => ({ ...s, kiosk_action: "prompt_purchase" }),
    (s) => {
      const { route: _r, ...rest } = s;
      return { ...rest, outcome: "route_and_fare_ready" };
    },
    (s) => ({ ...s, route: { ...(s.route as Json), stops: ["Airport", "Five Points"] } }),
    (s) => ({ ...s, route: { ...(s.route as Json), stops: [{ station_id: "XX-NOPE" }, { name: "x" }] } }),
    (s) => ({ ...s, route: { ...(s.route as Json), stops: [[1], { station_id: {} }] } }),
    (s) => ({ ...s, fare_quote: { total: "0", currency: 1 } }),
    (s) => ({ ...s, fare_quote: null }),
    (s) => ({ ...s, advisory_banners: [{ severity: "apocalyptic" }] }),
    (s) => ({ ...s, assistant_message: null }),
    () => null,
    () => [],
    () => "route_and_fare_ready",
    () => ({}),
  ]);
  return mutate(state);
}

function textContent(rng: Rng, system: SystemData): string {
  return rng.pick<() => string>([
    () => "",
    () => "   \n\t ",
    () => "I think the answer is 42.",
    () => JSON.stringify(validState(rng, system)),
    () => hugeText(rng, rng.range(100_000, 2_000_000)),
    () => rng.pick(NON_LATIN),
  ])();
}

type Personality = "chaos" | "looper" | "junk-then-valid" | "text" | "crasher";

function personality(rng: Rng): Personality {
  return rng.weighted<Personality>([
    [5, "chaos"],
    [2, "looper"],
    [3, "junk-then-valid"],
    [1, "text"],
    [1, "crasher"],
  ]);
}

function routeIdsOf(input: PolicyInput): string[] {
  const ids: string[] = [];
  for (const c of input.toolCalls) {
    const id = (c.result as { route_id?: unknown } | null)?.route_id;
    if (typeof id === "string") ids.push(id);
  }
  return ids;
}

/** One step-level round. */
function adversarialStep(rng: Rng, system: SystemData, who: Personality, round: number, input: PolicyInput): unknown {
  const tool = (): unknown => ({ type: "tool_calls", calls: [validToolCall(rng, system, routeIdsOf(input))] });
  if (who === "looper") {
    return rng.chance(0.9) ? tool() : { type: "tool_calls", calls: [{ name: rng.pick(BAD_TOOLS), arguments: badJson(rng) }] };
  }
  if (who === "junk-then-valid" && round >= 3 && rng.chance(0.5)) {
    return { type: "tool_calls", calls: [{ name: "submit_assistant_state", arguments: JSON.stringify(validState(rng, system)) }] };
  }
  if (who === "text") return { type: "message", content: textContent(rng, system), ...(rng.chance(0.2) ? { finishReason: "length" } : {}) };
  if (who === "crasher" && rng.chance(0.5)) {
    throw rng.pick<unknown>([new Error("model process exited (code 134)"), "a string", undefined, { weird: true }, new RangeError("Maximum call stack size exceeded")]);
  }
  return rng.weighted<() => unknown>([
    [4, tool],
    [2, () => ({ type: "tool_calls", calls: [{ name: rng.pick(BAD_TOOLS), arguments: rng.chance(0.5) ? {} : badJson(rng) }] })],
    [2, () => ({ type: "tool_calls", calls: [{ name: rng.pick([...TOOLS, "submit_assistant_state"]), arguments: badJson(rng) }] })],
    [1.5, () => ({ type: "tool_calls", calls: [wrongTypes(rng)] })],
    [2, () => ({ type: "tool_calls", calls: [{ name: "submit_assistant_state", arguments: rng.chance(0.5) ? JSON.stringify(invalidState(rng, system)) : (invalidState(rng, system) as Json) }] })],
    [1, () => ({ type: "tool_calls", calls: [{ name: "submit_assistant_state", arguments: JSON.stringify(validState(rng, system)) }] })],
    [1, () => ({ type: "message", content: textContent(rng, system), ...(rng.chance(0.3) ? { finishReason: "length" } : {}) })],
    [0.5, () => ({ type: "tool_calls", calls: Array.from({ length: rng.range(100, 400) }, () => validToolCall(rng, system, [])) })],
    [
      1,
      () =>
        rng.pick<unknown>([
          { type: "tool_calls", calls: [] },
          { type: "nope" },
          null,
          undefined,
          "tool_calls",
          { type: "message" },
          { type: "tool_calls", calls: [{ name: 7, arguments: 1 }] },
          { type: "message", content: "x", usage: { promptTokens: -1, completionTokens: 1.5 } },
          { type: "done" },
        ]),
    ],
    [0.3, () => ({ type: "tool_calls", calls: [{ name: "route_planner", arguments: { origin: hugeText(rng, 2_000_000), destination: "x" } }] })],
  ])();
}

/** A generator per run of a session: reproducible from the seed and the session id alone. */
function sessionRng(seed: string): (setup: SessionSetup) => Rng {
  const starts = new Map<string, number>();
  return (setup) => {
    const n = (starts.get(setup.sessionId) ?? 0) + 1;
    starts.set(setup.sessionId, n);
    return new Rng(`${seed}:${setup.sessionId}:${n}`);
  };
}

/** The step-level adversarial model. */
export function adversarialStepPolicy(seed: string): Policy {
  const rngFor = sessionRng(seed);
  return {
    id: "adversarial-model",
    start(setup: SessionSetup): PolicyRun {
      const r = rngFor(setup);
      const who = personality(r);
      let round = 0;
      return {
        async next(input: PolicyInput): Promise<PolicyStep> {
          if (r.chance(0.05)) await new Promise((resolve) => setTimeout(resolve, r.int(5)));
          return adversarialStep(r, setup.system, who, round++, input) as PolicyStep;
        },
        dispose: () => {
          if (r.chance(0.05)) throw new Error("dispose failed");
        },
      };
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Text level: raw model output through the real LlmPolicy.

function xmlCall(name: string, params: Record<string, string>): string {
  const body = Object.entries(params)
    .map(([k, v]) => `<parameter=${k}>\n${v}\n</parameter>\n`)
    .join("");
  return `<tool_call>\n<function=${name}>\n${body}</function>\n</tool_call>`;
}

function rawOutput(rng: Rng, system: SystemData, who: Personality, round: number): Partial<CompletionResult> {
  // Without the closing </think> everything is reasoning (a text reply): realistic, but rare.
  const think = rng.chance(0.95) ? `${rng.pick(["Let me plan.", "", rng.pick(NON_LATIN)])}\n</think>\n\n` : "";
  const valid = (): Partial<CompletionResult> => {
    const call = validToolCall(rng, system, []);
    const params = Object.fromEntries(Object.entries(call.arguments).map(([k, v]) => [k, typeof v === "string" ? v : JSON.stringify(v)]));
    return { text: `${think}${xmlCall(call.name, params)}`, grammarTriggered: true };
  };
  if (who === "looper") return valid();
  // A broken output ends the session (llama-server's HTTP 500), so this one stays parseable.
  if (who === "junk-then-valid" && (round < 3 || rng.chance(0.5))) return valid();
  if (who === "junk-then-valid") {
    const s = validState(rng, system);
    const params = Object.fromEntries(Object.entries(s).map(([k, v]) => [k, typeof v === "string" ? v : JSON.stringify(v)]));
    return { text: `${think}${xmlCall("submit_assistant_state", params)}`, grammarTriggered: true };
  }
  return rng.weighted<() => Partial<CompletionResult>>([
    [4, valid],
    [1.5, () => ({ text: `${think}${xmlCall(rng.pick(BAD_TOOLS), { a: "b" })}`, grammarTriggered: true })],
    [1.5, () => ({ text: `${think}<tool_call>\n<function=route_planner>\n<parameter=origin>\nAirport\n</tool_call>`, grammarTriggered: true })],
    [1, () => ({ text: `${think}<tool_call>\n{"name": "route_planner", "arguments": {"origin": "Airport"}}\n</tool_call>` })],
    [1, () => ({ text: `${think}<tool_call>\n<tool_call>\n<function=<function=>\n<parameter=>\n` })],
    [1, () => ({ text: `${think}${xmlCall("submit_assistant_state", { outcome: "route_and_fare_ready", fare_quote: badJson(rng), route: "{" })}`, grammarTriggered: true })],
    [1, () => ({ text: "<tool_call>\n\n", grammarError: "Unexpected empty grammar stack after accepting piece: \n" })],
    [1, () => ({ text: `${think}${textContent(rng, system)}` })],
    [0.7, () => ({ text: hugeText(rng, rng.range(200_000, 1_500_000)), finishReason: "length" })],
    [0.5, () => ({ text: "", finishReason: rng.chance(0.5) ? "length" : "stop" })],
    [0.5, () => ({ text: `${think}${Array.from({ length: rng.range(5, 60) }, () => xmlCall("line_info", { line: "x" })).join("\n")}`, grammarTriggered: true })],
  ])();
}

class AdversarialBackend implements CompletionBackend {
  private round = 0;
  constructor(
    private readonly rng: Rng,
    private readonly system: SystemData,
    private readonly who: Personality,
    private readonly template: string,
  ) {}

  chatTemplate(): string {
    return this.template;
  }

  async complete(request: CompletionRequest): Promise<CompletionResult> {
    if (request.signal?.aborted) throw new Error("aborted");
    if (this.who === "crasher" && this.rng.chance(0.5)) throw new Error("model process exited (signal SIGSEGV)");
    const out = rawOutput(this.rng, this.system, this.who, this.round++);
    return {
      text: "",
      finishReason: "stop",
      grammarTriggered: false,
      ...out,
      usage: { promptTokens: Math.ceil(request.prompt.length / 4), completionTokens: Math.ceil((out.text ?? "").length / 4), cachedPromptTokens: 0, ttftMs: 1, prefillMs: 1, decodeMs: 1, totalMs: 2 },
    };
  }
}

/** The text-level adversarial model: raw outputs parsed by the real LlmPolicy. */
export function adversarialTextPolicy(seed: string, chatTemplate: string): Policy {
  const rngFor = sessionRng(seed);
  return {
    id: "adversarial-llm",
    start(setup: SessionSetup): PolicyRun {
      const r = rngFor(setup);
      const backend = new AdversarialBackend(r, setup.system, personality(r), chatTemplate);
      return new LlmPolicy({ backend, id: "adversarial-llm", chatTemplate }).start(setup);
    },
  };
}
