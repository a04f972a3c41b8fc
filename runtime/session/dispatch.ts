// Executes one tool call of a session: the six transit tools in-process, plus the terminal-state
// submission through the contract validator. Produces the record entry and the tool message the
// policy sees next (Python json.dumps text, as the reference harness sent it).
import { pyJsonDumps } from "../../tools/py/json.ts";
import type { SystemData } from "../../tools/data/system.ts";
import { ToolSession, TOOL_RESULT_FLOAT_KEYS } from "../../tools/tools/index.ts";
import { validateSubmission, type FieldError } from "../contract/index.ts";
import type { ToolCallRecord } from "./policy.ts";

export const SUBMIT_TOOL = "submit_assistant_state";

export interface DispatchOutcome {
  record: ToolCallRecord;
  /** Content of the `role: "tool"` message fed back to the policy. */
  content: string;
  /** For submissions: accepted or not, and the field errors when rejected. */
  submission?: { accepted: boolean; errors: FieldError[] };
}

export interface DispatcherOptions {
  lineOrder?: "python-hash-13" | "sorted";
  /** Hidden current time the harness injects into disruption_feed (null: none). */
  currentTime?: string | null;
  responseId?: () => string;
  now?: () => number;
  /**
   * Keep only this many characters of an error body in the record. The reference baseline's HTTP
   * client recorded `resp.text[:200]`; the runner kept the whole body.
   */
  recordedErrorLimit?: number;
}

/** Python str[:n] (code points, not UTF-16 units). */
function pyPrefix(text: string, n: number): string {
  const chars = Array.from(text);
  return chars.length <= n ? text : chars.slice(0, n).join("");
}

export class ToolDispatcher {
  private readonly tools: ToolSession;
  private readonly now: () => number;

  constructor(
    private readonly system: SystemData,
    private readonly options: DispatcherOptions = {},
  ) {
    this.tools = new ToolSession(system, options.lineOrder ? { lineOrder: options.lineOrder } : {});
    this.now = options.now ?? (() => performance.now());
  }

  setDisruptions(disruptions: readonly unknown[]): void {
    this.tools.setDisruptions(disruptions);
  }

  private recordedError(body: string): string {
    const limit = this.options.recordedErrorLimit;
    return limit === undefined ? body : pyPrefix(body, limit);
  }

  dispatch(name: string, args: unknown): DispatchOutcome {
    const started = this.now();
    if (name === SUBMIT_TOOL) {
      const verdict = validateSubmission(args, this.system, this.options.responseId ? { responseId: this.options.responseId } : {});
      const ms = this.now() - started;
      if (verdict.accepted) {
        const result = { accepted: true, response_id: verdict.responseId };
        return {
          record: { name, arguments: args, result, error: null, ms },
          content: pyJsonDumps(result),
          submission: { accepted: true, errors: [] },
        };
      }
      return {
        record: { name, arguments: args, result: null, error: this.recordedError(verdict.body), ms },
        content: pyJsonDumps({ error: verdict.body }),
        submission: { accepted: false, errors: verdict.errors },
      };
    }
    const outcome = this.tools.call(name, args, { current_time: this.options.currentTime ?? null });
    const ms = this.now() - started;
    if (outcome.ok) {
      return {
        record: { name, arguments: args, result: outcome.result, error: null, ms },
        content: pyJsonDumps(outcome.result, { floatKeys: TOOL_RESULT_FLOAT_KEYS }),
      };
    }
    return {
      record: { name, arguments: args, result: null, error: this.recordedError(outcome.body), ms },
      content: pyJsonDumps({ error: outcome.body }),
    };
  }
}
