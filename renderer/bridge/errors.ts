// Typed, user-presentable bridge failures. Every bridge implementation rejects with a BridgeError;
// the screen shows the translated text for its `kind`, never the raw message (that is for logs).

export const BRIDGE_FAILURE_KINDS = [
  /** The kiosk service could not be reached (network down, server not running, IPC gone). */
  "network",
  /** The kiosk service did not answer in time. */
  "timeout",
  /** The kiosk service answered with something that does not match the contract. */
  "invalid_response",
  /** The kiosk is temporarily out of passenger service (e.g. a technician bench run; HTTP 503/423). */
  "unavailable",
  /** The request was refused (HTTP 4xx: unknown session, invalid request). */
  "rejected",
  /** The kiosk service failed (HTTP 5xx or an unexpected error). */
  "server",
] as const;
export type BridgeFailureKind = (typeof BRIDGE_FAILURE_KINDS)[number];

/** The plain-data form kept in machine context and shown by the screen. */
export interface BridgeFailure {
  kind: BridgeFailureKind;
  /** Developer-facing detail (logged, not shown to passengers). */
  message: string;
  status?: number;
}

export class BridgeError extends Error {
  override readonly name = "BridgeError";
  constructor(
    readonly kind: BridgeFailureKind,
    message: string,
    readonly status?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }

  toFailure(): BridgeFailure {
    return this.status === undefined
      ? { kind: this.kind, message: this.message }
      : { kind: this.kind, message: this.message, status: this.status };
  }
}

/** The failure kind an HTTP status maps to. */
export function kindForStatus(status: number): BridgeFailureKind {
  if (status === 503 || status === 423) return "unavailable";
  if (status === 408 || status === 504) return "timeout";
  if (status >= 400 && status < 500) return "rejected";
  return "server";
}

/** Any thrown value as a BridgeFailure (unknown errors become `server`). */
export function toBridgeFailure(error: unknown): BridgeFailure {
  if (error instanceof BridgeError) return error.toFailure();
  if (error instanceof Error) return { kind: "server", message: error.message };
  return { kind: "server", message: String(error) };
}
