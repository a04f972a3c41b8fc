// The operator side of the bridge in the renderer: over `kiosk serve` (POST api/operator/<method>)
// or around the Electron preload's `window.kiosk.operator`. Every answer is validated with the
// contract's result schema (OPERATOR_METHODS); every failure becomes an OperatorBridgeError whose
// `code` the operator screen acts on (unauthorized → log in again, conflict → busy, …).
import {
  OPERATOR_FAILURE_CODES,
  OPERATOR_FAILURE_STATUS,
  OPERATOR_METHOD_NAMES,
  OPERATOR_METHODS,
  type OperatorBridge,
  type OperatorFailureCode,
  type OperatorMethod,
} from "../../runtime/kiosk/bridge.ts";

export class OperatorBridgeError extends Error {
  override readonly name = "OperatorBridgeError";
  /** What the kiosk said, in its own words (the HTTP answer's `error`, the IPC failure's message); null when it said nothing. */
  readonly detail: string | null;
  constructor(
    readonly code: OperatorFailureCode,
    message: string,
    options?: { cause?: unknown; detail?: string },
  ) {
    super(message, options);
    this.detail = options?.detail ?? null;
  }
}

const CODES: ReadonlySet<string> = new Set(OPERATOR_FAILURE_CODES);

/** The failure code an HTTP status maps to. */
export function operatorCodeForStatus(status: number): OperatorFailureCode {
  const exact = (Object.entries(OPERATOR_FAILURE_STATUS) as [OperatorFailureCode, number][]).find(([, s]) => s === status);
  if (exact) return exact[0];
  if (status === 423 || status === 502 || status === 504) return "unavailable";
  if (status >= 400 && status < 500) return "rejected";
  return "failed";
}

function validated<M extends OperatorMethod>(method: M, value: unknown) {
  const parsed = OPERATOR_METHODS[method].result.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new OperatorBridgeError("failed", `${method}: unexpected answer (${issue ? `${issue.path.join(".") || "(root)"}: ${issue.message}` : "invalid"})`);
  }
  return parsed.data;
}

function build(call: (method: OperatorMethod, request: unknown) => Promise<unknown>): OperatorBridge {
  return Object.fromEntries(OPERATOR_METHOD_NAMES.map((method) => [method, (request: unknown) => call(method, request)])) as unknown as OperatorBridge;
}

export interface HttpOperatorBridgeOptions {
  fetch?: typeof fetch;
  /** Per-call limit (ms); the report and exports may be large. Default 30 s. */
  timeoutMs?: number;
  /**
   * This page's client id (x-kiosk-client): on the kiosk's own machine every page shares one
   * address, so wrong PINs typed at one page lock out that page only.
   */
  clientId?: string;
}

/** Operator calls over `kiosk serve`: POST api/operator/<method> with the request as JSON. */
export function createHttpOperatorBridge(baseUrl: string, options: HttpOperatorBridgeOptions = {}): OperatorBridge {
  const root = baseUrl.endsWith("/") ? baseUrl : `${baseUrl}/`;
  const doFetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const limit = options.timeoutMs ?? 30_000;
  return build(async (method, request) => {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), limit);
    let response: Response;
    try {
      response = await doFetch(new URL(`api/operator/${method}`, root).toString(), {
        method: "POST",
        headers: { accept: "application/json", "content-type": "application/json", ...(options.clientId ? { "x-kiosk-client": options.clientId } : {}) },
        body: JSON.stringify(request),
        signal: controller.signal,
      });
    } catch (error) {
      throw new OperatorBridgeError("unavailable", `${method}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    } finally {
      clearTimeout(timer);
    }
    let payload: unknown;
    try {
      payload = await response.json();
    } catch (error) {
      throw new OperatorBridgeError(response.ok ? "failed" : operatorCodeForStatus(response.status), `${method}: HTTP ${response.status}, not JSON`, { cause: error });
    }
    if (!response.ok) {
      const body = (payload ?? {}) as { error?: unknown; code?: unknown };
      const code = typeof body.code === "string" && CODES.has(body.code) ? (body.code as OperatorFailureCode) : operatorCodeForStatus(response.status);
      throw new OperatorBridgeError(code, `${method}: HTTP ${response.status} ${String(body.error ?? response.statusText)}`, typeof body.error === "string" ? { detail: body.error } : {});
    }
    return validated(method, payload);
  });
}

/** Around a bridge the renderer does not own (the preload's, which rejects with `{kind, code, message}`). */
export function validatingOperatorBridge(inner: OperatorBridge): OperatorBridge {
  return build(async (method, request) => {
    const fn = inner[method] as ((r: unknown) => Promise<unknown>) | undefined;
    if (typeof fn !== "function") throw new OperatorBridgeError("unavailable", `${method}: not offered by this kiosk`);
    let value: unknown;
    try {
      value = await fn(request);
    } catch (error) {
      if (error instanceof OperatorBridgeError) throw error;
      const { code, kind, message } = (typeof error === "object" && error !== null ? error : {}) as { code?: unknown; kind?: unknown; message?: unknown };
      const resolved: OperatorFailureCode =
        typeof code === "string" && CODES.has(code) ? (code as OperatorFailureCode) : kind === "network" || kind === "unavailable" ? "unavailable" : kind === "rejected" ? "rejected" : "failed";
      throw new OperatorBridgeError(resolved, `${method}: ${typeof message === "string" ? message : String(error)}`, typeof message === "string" ? { cause: error, detail: message } : { cause: error });
    }
    return validated(method, value);
  });
}

/** Any thrown value as an OperatorBridgeError. */
export function toOperatorError(error: unknown): OperatorBridgeError {
  if (error instanceof OperatorBridgeError) return error;
  return new OperatorBridgeError("failed", error instanceof Error ? error.message : String(error), { cause: error });
}
