// Wraps a bridge the renderer does not own (the Electron preload's `window.kiosk`): every answer and
// every pushed event is validated against the contract (KIOSK_METHODS, KIOSK_PUSHES) and every
// failure becomes a BridgeError, exactly as with the browser bridge, so the screen handles both the
// same way.
import type { z } from "zod";
import {
  KIOSK_METHOD_NAMES,
  KIOSK_METHODS,
  KIOSK_PUSH_NAMES,
  KIOSK_PUSHES,
  subscriptionName,
  type KioskBridge,
  type KioskMethod,
  type KioskPush,
} from "../../runtime/kiosk/bridge.ts";
import { BRIDGE_FAILURE_KINDS, BridgeError, type BridgeFailureKind } from "./errors.ts";
import { validatingOperatorBridge } from "./operatorBridge.ts";

const KINDS: ReadonlySet<string> = new Set(BRIDGE_FAILURE_KINDS);

function asBridgeError(operation: string, error: unknown): BridgeError {
  if (error instanceof BridgeError) return error;
  // The preload rejects with plain `{kind, message}` objects (IPC drops an Error's own properties).
  const { kind, message: detail } = (typeof error === "object" && error !== null ? error : {}) as { kind?: unknown; message?: unknown };
  const message = typeof detail === "string" ? detail : String(error);
  return new BridgeError(
    typeof kind === "string" && KINDS.has(kind) ? (kind as BridgeFailureKind) : "server",
    `${operation}: ${message}`,
    undefined,
    { cause: error },
  );
}

async function checked(method: KioskMethod, call: () => Promise<unknown>): Promise<unknown> {
  let value: unknown;
  try {
    value = await call();
  } catch (error) {
    throw asBridgeError(method, error);
  }
  const parsed = (KIOSK_METHODS[method].result as z.ZodType).safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new BridgeError("invalid_response", `${method}: ${issue ? `${issue.path.join(".")}: ${issue.message}` : "invalid"}`);
  }
  return parsed.data;
}

/** Is this value shaped like a KioskBridge (every call and subscription a function)? */
export function isKioskBridge(value: unknown): value is KioskBridge {
  if (typeof value !== "object" || value === null) return false;
  const candidate = value as Record<string, unknown>;
  return [...KIOSK_METHOD_NAMES, ...KIOSK_PUSH_NAMES.map(subscriptionName)].every((name) => typeof candidate[name] === "function");
}

export function validatingBridge(inner: KioskBridge): KioskBridge {
  const raw = inner as unknown as Record<string, (...args: unknown[]) => unknown>;
  const calls = Object.fromEntries(
    KIOSK_METHOD_NAMES.map((method) => [method, (...args: unknown[]) => checked(method, async () => raw[method]!(...args))]),
  );
  const subscribe = (push: KioskPush) => (listener: (event: unknown) => void) =>
    raw[subscriptionName(push)]!((event: unknown) => {
      // An event that does not match the contract is dropped, never shown.
      const parsed = (KIOSK_PUSHES[push].event as z.ZodType).safeParse(event);
      if (parsed.success) listener(parsed.data);
    });
  const pushes = Object.fromEntries(KIOSK_PUSH_NAMES.map((push) => [subscriptionName(push), subscribe(push)]));
  return {
    ...(calls as unknown as KioskBridge),
    ...(pushes as unknown as KioskBridge),
    ...(inner.operator ? { operator: validatingOperatorBridge(inner.operator) } : {}),
  };
}
