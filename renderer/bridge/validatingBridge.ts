// Wraps a bridge the renderer does not own (the Electron preload's `window.kiosk`): every answer is
// validated against the contract and every failure becomes a BridgeError, exactly as with the
// browser bridge, so the screen handles both the same way.
import type { z } from "zod";
import {
  AskResultSchema,
  KioskStatusSchema,
  ProgressEventSchema,
  PurchaseResultSchema,
  SystemSummarySchema,
  SystemViewSchema,
  type KioskBridge,
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

async function checked<T>(operation: string, schema: z.ZodType<T>, call: () => Promise<unknown>): Promise<T> {
  let value: unknown;
  try {
    value = await call();
  } catch (error) {
    throw asBridgeError(operation, error);
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new BridgeError("invalid_response", `${operation}: ${issue ? `${issue.path.join(".")}: ${issue.message}` : "invalid"}`);
  }
  return parsed.data;
}

/** Is this value shaped like a KioskBridge (all seven functions present)? */
export function isKioskBridge(value: unknown): value is KioskBridge {
  if (typeof value !== "object" || value === null) return false;
  const candidate = value as Record<string, unknown>;
  return ["listSystems", "systemView", "ask", "onProgress", "purchase", "endSession", "status"].every(
    (name) => typeof candidate[name] === "function",
  );
}

export function validatingBridge(inner: KioskBridge): KioskBridge {
  return {
    ...(inner.operator ? { operator: validatingOperatorBridge(inner.operator) } : {}),
    listSystems: () => checked("listSystems", SystemSummarySchema.array(), () => inner.listSystems()),
    systemView: (system) => checked("systemView", SystemViewSchema, () => inner.systemView(system)),
    ask: (request) => checked("ask", AskResultSchema, () => inner.ask(request)),
    purchase: (request) => checked("purchase", PurchaseResultSchema, () => inner.purchase(request)),
    status: () => checked("status", KioskStatusSchema, () => inner.status()),
    async endSession(sessionId) {
      try {
        await inner.endSession(sessionId);
      } catch (error) {
        throw asBridgeError("endSession", error);
      }
    },
    onProgress(listener) {
      return inner.onProgress((event) => {
        const parsed = ProgressEventSchema.safeParse(event);
        if (parsed.success) listener(parsed.data);
      });
    },
  };
}
