// ToolSession: one system, one case's disruptions and one route cache, answering tool calls
// exactly as the reference's HTTP tool server would (result, or status + body text).
import type { SystemData } from "../data/system.ts";
import type { LineOrder } from "../network/expanded.ts";
import { routeEngineFor } from "../network/router.ts";
import { pyTruthy } from "../py/text.ts";
import { normaliseDisruptions, disruptionFeed } from "./disruptions.ts";
import { detailBody, HttpError, INTERNAL_ERROR_BODY, NOT_FOUND_BODY } from "./errors.ts";
import { fareCalculator } from "./fare-calculator.ts";
import { knowledgeBase } from "./knowledge-base.ts";
import { lineInfo } from "./line-info.ts";
import { isToolName, type ToolName } from "./names.ts";
import { isDict } from "./pyops.ts";
import { validateBody } from "./pydantic.ts";
import { routePlanner } from "./route-planner.ts";
import { TOOL_INPUT_SCHEMAS } from "./schemas.ts";
import type { SessionState } from "./state.ts";
import { stationInfo } from "./station-info.ts";

export type ToolOutcome = { ok: true; result: unknown } | { ok: false; status: number; body: string };

/** Hidden request fields the harness adds (they override the same keys in the arguments). */
export interface ToolCallContext {
  /** disruption_feed's temporal filter; the reference runner sends the case's time, the rule agent none. */
  current_time?: string | null;
  /**
   * The case id the harness injects into the request. It changes nothing but the echo of the
   * request body in schema-error details (pydantic quotes the whole body for a missing field).
   */
  case_id?: string | null;
}

export interface ToolSessionOptions {
  /** Tie-break between equal-cost parallel lines; see ../network/expanded.ts. */
  lineOrder?: LineOrder;
}

/** Keys whose numbers are Python floats in tool results (pass to pyJsonDumps as floatKeys). */
export const TOOL_RESULT_FLOAT_KEYS: ReadonlySet<string> = new Set([
  "estimated_minutes",
  "distance_miles",
  "amount",
  "subtotal",
  "total",
]);

type Handler = (state: SessionState, request: never) => unknown;

const HANDLERS: Record<ToolName, Handler> = {
  route_planner: routePlanner,
  fare_calculator: fareCalculator,
  station_info: stationInfo,
  line_info: lineInfo,
  disruption_feed: disruptionFeed,
  knowledge_base: knowledgeBase,
};

export class ToolSession {
  private readonly state: SessionState;
  /** The exception behind the last 500 answer (for diagnostics; the caller only sees the body). */
  lastCrash: unknown;

  constructor(system: SystemData, options: ToolSessionOptions = {}) {
    this.state = {
      system,
      engine: routeEngineFor(system, options.lineOrder ?? "python-hash-13"),
      routeCache: new Map(),
      disruptions: [],
    };
  }

  get system(): SystemData {
    return this.state.system;
  }

  /**
   * set_disruptions: replace the case's disruption list (a dict `segment` becomes its `stations`
   * list). Throws a TypeError, leaving the previous list, when an entry is not an object.
   */
  setDisruptions(disruptions: readonly unknown[]): void {
    this.state.disruptions = normaliseDisruptions(disruptions);
  }

  /**
   * Run one tool. `args` is the decoded JSON arguments object (numbers may be PyFloat markers, as
   * parseJsonKeepingFloats gives them); undefined means no arguments. Never throws.
   */
  call(name: string, args: unknown, context: ToolCallContext = {}): ToolOutcome {
    try {
      if (!isToolName(name)) return { ok: false, status: 404, body: NOT_FOUND_BODY };
      const body = requestBody(name, args === undefined ? {} : args, context);
      const validated = validateBody(TOOL_INPUT_SCHEMAS[name], body);
      if (!validated.ok) return { ok: false, status: 422, body: detailBody(validated.errors) };
      const handler = HANDLERS[name] as (state: SessionState, request: unknown) => unknown;
      return { ok: true, result: handler(this.state, validated.value) };
    } catch (err) {
      if (err instanceof HttpError) return { ok: false, status: err.status, body: detailBody(err.detail) };
      this.lastCrash = err;
      return { ok: false, status: 500, body: INTERNAL_ERROR_BODY };
    }
  }
}

/** The JSON body the reference server would receive: the arguments plus the hidden fields. */
function requestBody(name: ToolName, args: unknown, context: ToolCallContext): unknown {
  if (!isDict(args)) return args;
  const body: Record<string, unknown> = { ...args };
  if (pyTruthy(context.case_id)) body.case_id = context.case_id;
  if (name === "disruption_feed" && pyTruthy(context.current_time)) body.current_time = context.current_time;
  return body;
}
