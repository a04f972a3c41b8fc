// The main-process side of the bridge: one ipcMain.handle per passenger call on its channel (both
// derived from KIOSK_METHODS), and the pushes forwarded to the window. Every payload is validated with the bridge's zod schemas before the runtime sees
// it, and only the app's own main frame may call; a malformed or foreign call is answered with a
// `rejected` envelope — never a crash, never a thrown error that would lose its kind.
import type { IpcMainInvokeEvent, WebContents } from "electron";
import type { z } from "zod";
import { KioskLimitError, KioskRequestError, KioskUnavailableError } from "../runtime/kiosk/app.ts";
import { KIOSK_PUSH_NAMES, KIOSK_PUSHES, subscriptionName, type KioskPush } from "../runtime/kiosk/bridge.ts";
import { invokeKiosk, parseKioskArgs, type KioskBackend } from "../runtime/kiosk/dispatch.ts";
import { callOperator, OperatorError, parseOperatorRequest, type OperatorBackend } from "../runtime/operator/console.ts";
import type { OperatorFailureCode, OperatorMethod } from "../runtime/kiosk/bridge.ts";
import {
  INVOKE_CHANNELS,
  OPERATOR_CHANNELS,
  PUSH_CHANNELS,
  type InvokeMethod,
  type IpcEnvelope,
  type IpcFailureKind,
  type IpcOperatorEnvelope,
} from "./channels.ts";
import { isAppUrl } from "./security.ts";

export interface IpcMainLike {
  handle(channel: string, listener: (event: IpcMainInvokeEvent, ...args: unknown[]) => unknown): void;
  removeHandler(channel: string): void;
}

export interface KioskIpcOptions {
  /** Accept calls from this sender only (default: the app's main frame, kiosk://app). */
  isTrustedSender?: (event: IpcMainInvokeEvent) => boolean;
  log?: (message: string) => void;
}

export function defaultTrustedSender(event: IpcMainInvokeEvent): boolean {
  const frame = event.senderFrame;
  if (!frame) return false;
  return frame.parent === null && isAppUrl(frame.url);
}

function failure(kind: IpcFailureKind, message: string): IpcEnvelope<never> {
  return { ok: false, error: { kind, message } };
}

function describe(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return "invalid request";
  // Arguments are positional: drop the argument index for the single-argument methods.
  const pathParts = issue.path.map(String);
  const field = pathParts.length > 1 ? pathParts.slice(1).join(".") : pathParts.length === 1 ? `argument ${pathParts[0]}` : "arguments";
  return `invalid request: ${field}: ${issue.message}`;
}

/** Run one bridge call for an (already trusted) sender: validate, call, wrap. Exported for tests. */
export async function dispatch(backend: KioskBackend, method: InvokeMethod, args: unknown[], log: (m: string) => void): Promise<IpcEnvelope> {
  const parsed = parseKioskArgs(method, args);
  if (!parsed.ok) return failure("rejected", describe(parsed.error));
  try {
    return { ok: true, value: await invokeKiosk(backend, method, parsed.args) };
  } catch (err) {
    if (err instanceof KioskRequestError) return failure("rejected", err.message);
    // A full session: the passenger is told to start again (the message says so).
    if (err instanceof KioskLimitError) return failure(err.code === "kiosk_busy" ? "unavailable" : "rejected", err.message);
    if (err instanceof KioskUnavailableError) return failure("unavailable", err.message);
    log(`${method} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    return failure("server", "The kiosk service failed. Please try again.");
  }
}

/** Register the handlers; returns a function that removes them. */
export function registerKioskIpc(ipcMain: IpcMainLike, backend: KioskBackend, options: KioskIpcOptions = {}): () => void {
  const trusted = options.isTrustedSender ?? defaultTrustedSender;
  const log = options.log ?? ((m: string) => console.error(`kiosk ipc: ${m}`));
  for (const [method, channel] of Object.entries(INVOKE_CHANNELS) as [InvokeMethod, string][]) {
    ipcMain.handle(channel, async (event, ...args) => {
      if (!trusted(event)) {
        log(`refused ${method} from an untrusted sender (${event.senderFrame?.url ?? "unknown frame"})`);
        return failure("rejected", "untrusted sender");
      }
      return dispatch(backend, method, args, log);
    });
  }
  return () => {
    for (const channel of Object.values(INVOKE_CHANNELS)) ipcMain.removeHandler(channel);
  };
}

/**
 * Forward every push (progress, …) to the window on its channel. Validated: only contract-shaped
 * events leave the main side. Returns a function that stops forwarding.
 */
export function forwardPushes(backend: Pick<KioskBackend, `on${Capitalize<KioskPush>}`>, contents: Pick<WebContents, "send" | "isDestroyed">): () => void {
  const stops = KIOSK_PUSH_NAMES.map((push) =>
    backend[subscriptionName(push)]((event: unknown) => {
      if (contents.isDestroyed()) return;
      const parsed = (KIOSK_PUSHES[push].event as z.ZodType).safeParse(event);
      if (parsed.success) contents.send(PUSH_CHANNELS[push], parsed.data);
    }),
  );
  return () => {
    for (const stop of stops) stop();
  };
}

const OPERATOR_KIND: Readonly<Record<OperatorFailureCode, IpcFailureKind>> = {
  unauthorized: "rejected",
  conflict: "rejected",
  rejected: "rejected",
  unavailable: "unavailable",
  failed: "server",
};

function operatorFailure(code: OperatorFailureCode, message: string): IpcOperatorEnvelope<never> {
  return { ok: false, error: { kind: OPERATOR_KIND[code], message, code } };
}

/** Run one operator call for an (already trusted) sender: exactly one argument, validated, then called. Exported for tests. */
export async function dispatchOperator(operator: OperatorBackend, method: OperatorMethod, args: unknown[], log: (m: string) => void): Promise<IpcOperatorEnvelope> {
  if (args.length !== 1) return operatorFailure("rejected", `invalid request: expected exactly one argument, got ${args.length}`);
  const parsed = parseOperatorRequest(method, args[0]);
  if (!parsed.ok) {
    const issue = parsed.error.issues[0];
    return operatorFailure("rejected", `invalid request: ${issue?.path.map(String).join(".") || "(request)"}: ${issue?.message ?? "invalid"}`);
  }
  try {
    return { ok: true, value: await callOperator(operator, method, parsed.request) };
  } catch (err) {
    if (err instanceof OperatorError) return operatorFailure(err.code, err.message);
    log(`operator ${method} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    return operatorFailure("failed", "The operator tool failed. Please try again.");
  }
}

/** Register the operator/technician handlers (same trusted-sender rule as the bridge); returns a function that removes them. */
export function registerOperatorIpc(ipcMain: IpcMainLike, operator: OperatorBackend, options: KioskIpcOptions = {}): () => void {
  const trusted = options.isTrustedSender ?? defaultTrustedSender;
  const log = options.log ?? ((m: string) => console.error(`kiosk ipc: ${m}`));
  for (const [method, channel] of Object.entries(OPERATOR_CHANNELS) as [OperatorMethod, string][]) {
    ipcMain.handle(channel, async (event, ...args) => {
      if (!trusted(event)) {
        log(`refused operator ${method} from an untrusted sender (${event.senderFrame?.url ?? "unknown frame"})`);
        return operatorFailure("unauthorized", "untrusted sender");
      }
      return dispatchOperator(operator, method, args, log);
    });
  }
  return () => {
    for (const channel of Object.values(OPERATOR_CHANNELS)) ipcMain.removeHandler(channel);
  };
}
