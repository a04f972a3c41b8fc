// The main-process side of the bridge: one ipcMain.handle per KioskBridge method on the fixed
// channel list. Every payload is validated with the bridge's zod schemas before the runtime sees
// it, and only the app's own main frame may call; a malformed or foreign call is answered with a
// `rejected` envelope — never a crash, never a thrown error that would lose its kind.
import type { IpcMainInvokeEvent, WebContents } from "electron";
import { z } from "zod";
import { SystemIdSchema } from "../tools/data/schemas.ts";
import { KioskLimitError, KioskRequestError, KioskUnavailableError } from "../runtime/kiosk/app.ts";
import { AskRequestSchema, ProgressEventSchema, PurchaseRequestSchema, type ProgressEvent } from "../runtime/kiosk/bridge.ts";
import type { KioskBackend } from "../runtime/kiosk/server.ts";
import { callOperator, OperatorError, parseOperatorRequest, type OperatorBackend } from "../runtime/operator/console.ts";
import type { OperatorFailureCode, OperatorMethod } from "../runtime/kiosk/bridge.ts";
import {
  INVOKE_CHANNELS,
  OPERATOR_CHANNELS,
  PROGRESS_CHANNEL,
  type InvokeMethod,
  type IpcEnvelope,
  type IpcFailureKind,
  type IpcOperatorEnvelope,
} from "./channels.ts";
import { isAppUrl } from "./security.ts";

/** The argument list each method accepts (exactly these, nothing more). */
export const IPC_ARGUMENT_SCHEMAS = {
  listSystems: z.tuple([]),
  systemView: z.tuple([SystemIdSchema]),
  ask: z.tuple([AskRequestSchema]),
  purchase: z.tuple([PurchaseRequestSchema]),
  endSession: z.tuple([z.string().min(1).max(100)]),
  status: z.tuple([]),
} satisfies Record<InvokeMethod, z.ZodType>;

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
  const parsed = IPC_ARGUMENT_SCHEMAS[method].safeParse(args);
  if (!parsed.success) return failure("rejected", describe(parsed.error));
  const a = parsed.data as unknown[];
  try {
    switch (method) {
      case "listSystems":
        return { ok: true, value: await backend.listSystems() };
      case "systemView":
        return { ok: true, value: await backend.systemView(a[0] as z.infer<typeof SystemIdSchema>) };
      case "ask":
        return { ok: true, value: await backend.ask(a[0] as z.infer<typeof AskRequestSchema>) };
      case "purchase":
        return { ok: true, value: await backend.purchase(a[0] as z.infer<typeof PurchaseRequestSchema>) };
      case "endSession":
        await backend.endSession(a[0] as string);
        return { ok: true, value: null };
      case "status":
        return { ok: true, value: await backend.status() };
    }
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

/** Push progress events to the window (validated: only contract-shaped events leave the main side). */
export function forwardProgress(backend: Pick<KioskBackend, "onProgress">, contents: Pick<WebContents, "send" | "isDestroyed">): () => void {
  return backend.onProgress((event: ProgressEvent) => {
    if (contents.isDestroyed()) return;
    const parsed = ProgressEventSchema.safeParse(event);
    if (parsed.success) contents.send(PROGRESS_CHANNEL, parsed.data);
  });
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
