// Acceptance of a submit_assistant_state call, as the reference tool server decides it
// (CONTRACT §6): the lax request model first, then the enum checks, the conditional fields and
// the stop ids, the first failure winning. The HTTP body the reference would have returned is
// rebuilt exactly, and the failure is also given as field-level errors for the policy.
import type { SystemData } from "../../tools/data/system.ts";
import { hasKey, sha256hex12 } from "../../tools/py/index.ts";
import { isPlainObject, parseLaxSubmission, type LaxSubmission, type PydanticError } from "./lax.ts";
import { FARE_OUTCOMES, KIOSK_ACTIONS, OUTCOMES, REASON_CODES, ROUTE_OUTCOMES } from "./schema.ts";
import { fastapiJson, pyReprScalar, pydanticDumpJson } from "./wire.ts";
import { HTTP_BODIES, PYDANTIC_MESSAGES, SUBMISSION_MESSAGES } from "../../tools/wire/messages.ts";

export type FieldError = { path: string; message: string };

export type SubmissionOutcome =
  | { accepted: true; responseId: string }
  | { accepted: false; status: 422 | 500; body: string; errors: FieldError[] };

export interface ValidateOptions {
  /** Response id generator; default: the reference's hash of the validated request. */
  responseId?: () => string;
  /**
   * The case id the reference runner injects into the request body (`payload["case_id"]`). It
   * shows in 422 bodies that echo the whole body and in the default response id. The reference
   * rule agent did not send it; the LLM runner did.
   */
  caseId?: string;
}

/** Starlette's body for an unhandled exception in a route. */
export const INTERNAL_SERVER_ERROR_BODY = HTTP_BODIES.internalServerError;

const VALID_OUTCOMES: ReadonlySet<string> = new Set(OUTCOMES);
const VALID_ACTIONS: ReadonlySet<string> = new Set(KIOSK_ACTIONS);
const VALID_REASON_CODES: ReadonlySet<string> = new Set(REASON_CODES);

function reject422(path: string, detail: string): SubmissionOutcome {
  return { accepted: false, status: 422, body: fastapiJson({ detail }), errors: [{ path, message: detail }] };
}

function schemaRejection(errors: PydanticError[]): SubmissionOutcome {
  const detail = errors.map((e) => ({ type: e.type, loc: ["body", ...e.loc], msg: e.msg, input: e.input }));
  return {
    accepted: false,
    status: 422,
    body: fastapiJson({ detail }),
    errors: errors.map((e) => ({ path: e.loc.join("."), message: e.msg })),
  };
}

/** The reference's default response id: sha256 of pydantic's JSON dump of the request, 12 hex. */
export function referenceResponseId(state: LaxSubmission): string {
  return sha256hex12(pydanticDumpJson(state));
}

/** A stop's id as the reference reads it: `station_id` of an object stop, else the stop itself. */
function stopId(stop: unknown): unknown {
  return isPlainObject(stop) && hasKey(stop, "station_id") ? stop.station_id : stop;
}

/** Python would fail to hash it (`x in dict` raises TypeError → HTTP 500). */
function unhashable(value: unknown): boolean {
  return Array.isArray(value) || isPlainObject(value);
}

function checkStops(stops: readonly unknown[], system: SystemData): SubmissionOutcome | undefined {
  const ids = stops.map(stopId);
  const crash = ids.findIndex(unhashable);
  if (crash >= 0) {
    const stop = stops[crash];
    const why = isPlainObject(stop) && !hasKey(stop, "station_id") ? "stop object has no station_id" : "stop id is not a string";
    return {
      accepted: false,
      status: 500,
      body: INTERNAL_SERVER_ERROR_BODY,
      errors: [{ path: "route.stops", message: `route.stops[${crash}]: ${why}` }],
    };
  }
  const invalid = ids.filter((id) => !(typeof id === "string" && system.hasStationId(id)));
  if (invalid.length === 0) return undefined;
  const shown = `[${invalid.slice(0, 5).map(pyReprScalar).join(", ")}]`;
  return reject422("route.stops", SUBMISSION_MESSAGES.unknownStopIds(shown));
}

/**
 * Validate `submit_assistant_state` arguments against the case's system, exactly as the reference
 * server does. `args` is the parsed JSON the model sent (PyFloat markers are honoured where a
 * caller kept Python's float literals).
 */
export function validateSubmission(args: unknown, system: SystemData, options: ValidateOptions = {}): SubmissionOutcome {
  // FastAPI treats a null body as a missing one before the model sees it.
  if (args === null || args === undefined) {
    return schemaRejection([{ type: "missing", loc: [], msg: PYDANTIC_MESSAGES.missing, input: null }]);
  }
  const body = options.caseId && isPlainObject(args) ? { ...args, case_id: options.caseId } : args;
  const parsed = parseLaxSubmission(body);
  if (!parsed.ok) return schemaRejection(parsed.errors);
  const req = parsed.value;

  if (!VALID_OUTCOMES.has(req.outcome)) return reject422("outcome", SUBMISSION_MESSAGES.invalidOutcome(req.outcome));
  if (!VALID_ACTIONS.has(req.kiosk_action.action)) {
    return reject422("kiosk_action.action", SUBMISSION_MESSAGES.invalidAction(req.kiosk_action.action));
  }
  if (!VALID_REASON_CODES.has(req.kiosk_action.reason_code)) {
    return reject422("kiosk_action.reason_code", SUBMISSION_MESSAGES.invalidReasonCode(req.kiosk_action.reason_code));
  }
  if (ROUTE_OUTCOMES.has(req.outcome) && req.route === null) {
    return reject422("route", SUBMISSION_MESSAGES.routeRequired(req.outcome));
  }
  if (FARE_OUTCOMES.has(req.outcome) && req.fare_quote === null) {
    return reject422("fare_quote", SUBMISSION_MESSAGES.fareQuoteRequired(req.outcome));
  }
  if (req.route !== null && req.route.stops.length > 0) {
    const stopFailure = checkStops(req.route.stops, system);
    if (stopFailure) return stopFailure;
  }
  const responseId = options.responseId ? options.responseId() : referenceResponseId(req);
  return { accepted: true, responseId };
}
