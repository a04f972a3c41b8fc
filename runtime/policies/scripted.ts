// Adapter for deterministic policies written as generators: the script yields steps and receives
// the records of the tool calls it asked for. Reads like the decision procedure it implements.
import type { KioskEvent } from "../../tools/data/schemas.ts";
import type { PolicyInput, PolicyRun, PolicyStep, SessionSetup, ToolCallRecord } from "../session/policy.ts";

export type ToolCallStep = Extract<PolicyStep, { type: "tool_calls" }>;
/** A script yields tool-call steps and gets back the records of exactly those calls. */
export type PolicyScript = Generator<ToolCallStep, void, ToolCallRecord[]>;

export interface ScriptedPolicyOptions {
  /**
   * Start the script again, over all events so far, when the session delivers a new user turn
   * (multi-turn re-planning). When false the script runs once and then reports "done".
   */
  restartOnNewTurn: boolean;
}

/** Helper for scripts: one tool call as a step. */
export function call(name: string, args: Record<string, unknown>): ToolCallStep {
  return { type: "tool_calls", calls: [{ name, arguments: args }] };
}

export function scriptedRun(
  setup: SessionSetup,
  script: (setup: SessionSetup, turns: readonly (readonly KioskEvent[])[]) => PolicyScript,
  options: ScriptedPolicyOptions,
): PolicyRun {
  let generator: PolicyScript | undefined;
  let turnsSeen = 0;
  let callsSeen = 0;
  return {
    typedSteps: true,
    async next(input: PolicyInput): Promise<PolicyStep> {
      let feedback: ToolCallRecord[] = [];
      if (!generator || (options.restartOnNewTurn && input.turns.length > turnsSeen)) {
        generator = script(setup, input.turns);
        turnsSeen = input.turns.length;
      } else {
        feedback = input.toolCalls.slice(callsSeen);
      }
      callsSeen = input.toolCalls.length;
      const next = generator.next(feedback);
      return next.done ? { type: "done" } : next.value;
    },
  };
}
