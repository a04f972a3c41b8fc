import { getEventListeners } from "node:events";
import { afterEach, describe, expect, it, vi } from "vitest";
import { DataPack } from "../../tools/data/datapack.ts";
import { SHARED_DATA_DIR } from "../../test/paths.ts";
import { caseSetup } from "./case.ts";
import type { Policy, PolicyInput, PolicyStep, SessionSetup } from "./policy.ts";
import { runSession, type SessionEvent, type SessionOptions } from "./session.ts";

const pack = new DataPack(SHARED_DATA_DIR);

/** A fake policy that plays back a list of steps (or functions of the input). */
function scripted(
  steps: Array<PolicyStep | ((input: PolicyInput) => PolicyStep | Promise<PolicyStep>)>,
  extra: Partial<Policy> = {},
): Policy & { inputs: PolicyInput[] } {
  const inputs: PolicyInput[] = [];
  return {
    id: "fake",
    inputs,
    ...extra,
    start: () => {
      let i = 0;
      return {
        next: async (input) => {
          inputs.push({ ...input, messages: [...input.messages], turns: [...input.turns] });
          const step = steps[Math.min(i++, steps.length - 1)];
          if (step === undefined) return { type: "done" };
          return typeof step === "function" ? step(input) : step;
        },
      };
    },
  };
}

const goodState = () => ({
  outcome: "policy_answer_only",
  kiosk_action: { action: "display_info", reason_code: "ok" },
  assistant_message: "Refunds are handled at the customer service center.",
});

function submitStep(args: unknown, id = "c1"): PolicyStep {
  return { type: "tool_calls", calls: [{ id, name: "submit_assistant_state", arguments: JSON.stringify(args) }] };
}

function options(setup: SessionSetup, policy: Policy, extra: Partial<SessionOptions> = {}): SessionOptions {
  return {
    setup,
    policy,
    userMessage: (events) => events.map((e) => e.type).join(","),
    firstTurn: setup.scriptedTurns?.[0] ?? [],
    ...extra,
  };
}

const setupA = caseSetup(pack, pack.caseById("MARTA-A-001")!);
const multiTurn = pack.allCases().find((c) => (c.multi_turn_events?.length ?? 0) >= 2)!;

afterEach(() => vi.useRealTimers());

describe("KioskSession loop", () => {
  it("finishes on an accepted submission and reshapes it like the reference runner", async () => {
    const record = await runSession(options(setupA, scripted([submitStep(goodState())])));
    expect(record.error).toBeNull();
    expect(record.kiosk.termination).toBe("submitted");
    expect(record.kiosk.fallback).toBe(false);
    expect(record.response).toEqual({
      outcome: "policy_answer_only",
      kiosk_action: { action: "display_info", reason_code: "ok" },
      reasoning: "",
      ui_updates: { route: null, fare_quote: null, advisory_banners: [], assistant_message: goodState().assistant_message },
    });
    expect(record.kiosk.state.outcome).toBe("policy_answer_only");
    // system, user, assistant(tool_calls), tool
    expect(record.messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool"]);
  });

  it("dispatches tools in-process and feeds results back as Python json.dumps text", async () => {
    const policy = scripted([
      { type: "tool_calls", calls: [{ id: "r", name: "route_planner", arguments: '{"origin": "Airport", "destination": "Five Points"}' }] },
      submitStep(goodState()),
    ]);
    const record = await runSession(options(setupA, policy));
    const toolMessage = record.messages[3];
    expect(toolMessage).toMatchObject({ role: "tool", tool_call_id: "r" });
    expect((toolMessage as { content: string }).content).toMatch(/^\{"route_id": "route_[0-9a-f]{12}", "stops": \[/);
    expect((toolMessage as { content: string }).content).toContain('"estimated_minutes": 17.6');
    expect(policy.inputs[1]?.toolCalls[0]?.name).toBe("route_planner");
  });

  it("exhausts the round budget with the reference's error and falls back safely", async () => {
    const policy = scripted([{ type: "tool_calls", calls: [{ name: "knowledge_base", arguments: '{"query": "refund"}' }] }]);
    const record = await runSession(options(setupA, policy, { maxRounds: 20 }));
    expect(record.api_rounds).toBe(20);
    expect(record.error).toBe("Exhausted 20 tool call rounds");
    expect(record.kiosk.termination).toBe("round_budget_exhausted");
    expect(record.kiosk.fallback).toBe(true);
    expect(record.kiosk.state.kiosk_action).toEqual({ action: "refer_to_staff", reason_code: "unsupported_request" });
  });

  it("stops at the wall-clock deadline even if the policy hangs", async () => {
    vi.useFakeTimers();
    const policy = scripted([() => new Promise<PolicyStep>(() => undefined)]);
    const pending = runSession(options(setupA, policy, { deadlineMs: 5_000 }));
    await vi.advanceTimersByTimeAsync(5_001);
    const record = await pending;
    expect(record.kiosk.termination).toBe("deadline");
    expect(record.error).toContain("deadline of 5000 ms exceeded");
    expect(record.kiosk.fallback).toBe(true);
  });

  it("stops when aborted from outside and hands the abort to the policy", async () => {
    const controller = new AbortController();
    let seen: AbortSignal | undefined;
    const policy = scripted([
      (input) => {
        seen = input.signal;
        return new Promise<PolicyStep>(() => queueMicrotask(() => controller.abort()));
      },
    ]);
    const record = await runSession(options(setupA, policy, { signal: controller.signal }));
    expect(record.kiosk.termination).toBe("aborted");
    expect(seen?.aborted).toBe(true);
  });

  it("reads an abort of the caller's signal as the session's, whatever its reason, and leaves no listener on it", async () => {
    const controller = new AbortController();
    // Sessions that finish leave the caller's long-lived signal as they found it.
    for (let i = 0; i < 20; i++) {
      const record = await runSession(options(setupA, scripted([submitStep(goodState())]), { signal: controller.signal }));
      expect(record.kiosk.termination).toBe("submitted");
    }
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
    const policy = scripted([() => new Promise<PolicyStep>(() => queueMicrotask(() => controller.abort(new Error("the run was interrupted"))))]);
    const record = await runSession(options(setupA, policy, { signal: controller.signal }));
    expect(record.kiosk.termination).toBe("aborted");
    expect(record.error).toBe("session aborted");
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
    // Already aborted: the session ends before asking the policy.
    const untouched = scripted([submitStep(goodState())]);
    const late = await runSession(options(setupA, untouched, { signal: controller.signal }));
    expect(late.kiosk.termination).toBe("aborted");
    expect(untouched.inputs).toHaveLength(0);
  });

  it("ends the case on malformed tool arguments (reference behaviour) without crashing", async () => {
    const policy = scripted([{ type: "tool_calls", calls: [{ name: "route_planner", arguments: '{"origin": "Air' }] }]);
    const record = await runSession(options(setupA, policy));
    expect(record.kiosk.termination).toBe("malformed_tool_arguments");
    expect(record.error).toMatch(/malformed JSON arguments for route_planner/);
    expect(record.response).toBeNull();
    expect(record.kiosk.fallback).toBe(true);
  });

  it("accepts repeated keys in tool arguments like Python's json.loads (the last value wins)", async () => {
    const policy = scripted([
      { type: "tool_calls", calls: [{ name: "route_planner", arguments: '{"origin": "Decatur", "destination": "Airport", "origin": "Airport"}' }] },
      submitStep(goodState()),
    ]);
    const record = await runSession(options(setupA, policy));
    expect(record.tool_calls_made[0]?.arguments).toEqual({ origin: "Airport", destination: "Airport" });
  });

  it("records unknown tool names as calls with the server's 404, and carries on", async () => {
    const policy = scripted([
      { type: "tool_calls", calls: [{ name: "book_taxi", arguments: "{}" }] },
      submitStep(goodState()),
    ]);
    const record = await runSession(options(setupA, policy));
    expect(record.tool_calls_made[0]).toMatchObject({ name: "book_taxi", result: null, error: '{"detail":"Not Found"}' });
    expect(record.messages[3]).toMatchObject({ role: "tool", content: '{"error": "{\\"detail\\":\\"Not Found\\"}"}' });
    expect(record.kiosk.termination).toBe("submitted");
  });

  it("feeds field-level validation errors back and accepts a corrected resubmission", async () => {
    const events: SessionEvent[] = [];
    const bad = { outcome: "route_and_fare_ready", kiosk_action: { action: "prompt_purchase", reason_code: "ok" }, assistant_message: "x" };
    const policy = scripted([submitStep(bad), submitStep(bad), submitStep(goodState())]);
    const record = await runSession(options(setupA, policy, { onEvent: (e) => events.push(e) }));
    expect(record.kiosk.rejectedSubmissions).toBe(2);
    expect(record.tool_calls_made[0]?.error).toBe('{"detail":"route required when outcome=route_and_fare_ready"}');
    const rejected = events.filter((e): e is Extract<SessionEvent, { type: "state_submitted" }> => e.type === "state_submitted");
    expect(rejected.map((e) => e.accepted)).toEqual([false, false, true]);
    expect(rejected[0]?.errors[0]?.path).toBe("route");
    expect(record.kiosk.termination).toBe("submitted");
  });

  it("injects later turns only after an accepted submission, in order, and scores the last turn", async () => {
    const setup = caseSetup(pack, multiTurn);
    const turnCount = setup.scriptedTurns?.length ?? 0;
    const steps: PolicyStep[] = [];
    for (let t = 0; t < turnCount; t++) {
      steps.push({ type: "tool_calls", calls: [{ name: "knowledge_base", arguments: '{"query": "x"}' }] });
      steps.push(submitStep({ ...goodState(), assistant_message: `turn ${t}` }));
    }
    const policy = scripted(steps);
    const record = await runSession(options(setup, policy));
    const userMessages = record.messages.filter((m) => m.role === "user");
    expect(userMessages).toHaveLength(turnCount);
    expect(policy.inputs[1]?.turns).toHaveLength(1);
    expect(policy.inputs[2]?.turns).toHaveLength(2);
    expect((record.response as { ui_updates: { assistant_message: string } }).ui_updates.assistant_message).toBe(
      `turn ${turnCount - 1}`,
    );
  });

  it("a text reply while turns remain is conversational: the next turn is injected", async () => {
    const setup = caseSetup(pack, multiTurn);
    const policy = scripted([{ type: "message", content: "Let me check." }, submitStep(goodState()), submitStep(goodState())]);
    const record = await runSession(options(setup, policy));
    expect(record.messages.filter((m) => m.role === "user").length).toBe(setup.scriptedTurns?.length);
    expect(record.kiosk.termination).toBe("submitted");
  });

  it("a final text reply is parsed as JSON when it can be (else null), like the runner", async () => {
    const json = await runSession(options(setupA, scripted([{ type: "message", content: '{"outcome": "x"}' }])));
    expect(json.response).toEqual({ outcome: "x" });
    expect(json.raw_content).toBe('{"outcome": "x"}');
    expect(json.kiosk.fallback).toBe(true);
    const text = await runSession(options(setupA, scripted([{ type: "message", content: "Have a nice trip" }])));
    expect(text.response).toBeNull();
    expect(text.kiosk.termination).toBe("text_reply");
  });

  it("retries an empty round once, then gives up; a truncated empty round ends at once", async () => {
    const empty = await runSession(options(setupA, scripted([{ type: "message", content: "" }])));
    expect(empty.empty_rounds).toBe(2);
    expect(empty.error).toMatch(/^empty-response retry exhausted: 2 consecutive empty rounds/);
    const cut = await runSession(options(setupA, scripted([{ type: "message", content: " ", finishReason: "length" }])));
    expect(cut.truncated).toBe(true);
    expect(cut.error).toMatch(/^truncated: finish_reason=length on round 1/);
  });

  it("never crashes on a throwing policy or a garbage step", async () => {
    const throwing = await runSession(
      options(setupA, scripted([() => { throw new Error("model process crashed"); }])),
    );
    expect(throwing.kiosk.termination).toBe("policy_error");
    expect(throwing.error).toBe("model process crashed");
    const garbage = await runSession(
      options(setupA, scripted([(() => ({ type: "tool_calls", calls: "nope" })) as unknown as () => PolicyStep])),
    );
    expect(garbage.kiosk.termination).toBe("policy_error");
    expect(garbage.error).toMatch(/returned an invalid step/);
    expect(garbage.kiosk.state.kiosk_action.action).toBe("refer_to_staff");
  });

  it("streams progress events for the UI", async () => {
    const events: SessionEvent["type"][] = [];
    const policy = scripted([
      { type: "tool_calls", calls: [{ name: "route_planner", arguments: { origin: "Airport", destination: "Five Points" } }] },
      submitStep(goodState()),
    ]);
    await runSession(options(setupA, policy, { onEvent: (e) => events.push(e.type) }));
    expect(events).toEqual([
      "round_started",
      "tool_started",
      "tool_finished",
      "round_started",
      "tool_started",
      "tool_finished",
      "state_submitted",
      "finished",
    ]);
  });

  it("injects the case's current time into disruption_feed, except for the bare baseline", async () => {
    // A case whose own clock is past a disruption's valid_until: the runner's feed drops it.
    const temporal = pack.allCases().find((c) => {
      const now = c.system_context.temporal_context?.current_time;
      return !!now && c.system_context.active_disruptions.some((d) => !!d.valid_until && d.valid_until < now);
    })!;
    const setup = caseSetup(pack, temporal);
    const feed: PolicyStep = { type: "tool_calls", calls: [{ name: "disruption_feed", arguments: "{}" }] };
    const runner = await runSession(options(setup, scripted([feed, submitStep(goodState())])));
    const bare = await runSession(options(setup, scripted([feed, submitStep(goodState())], { toolContext: "bare" })));
    const count = (r: typeof runner): number => (r.tool_calls_made[0]?.result as { disruptions: unknown[] }).disruptions.length;
    expect(count(runner)).toBeLessThan(count(bare));
    expect(count(bare)).toBe(temporal.system_context.active_disruptions.length);
  });

  it("a misbehaving progress listener does not break the session", async () => {
    const record = await runSession(
      options(setupA, scripted([submitStep(goodState())]), { onEvent: () => { throw new Error("ui gone"); } }),
    );
    expect(record.kiosk.termination).toBe("submitted");
  });
});

