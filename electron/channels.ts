// The fixed IPC channel list between the preload (window.kiosk) and the main process, and the
// envelope every invoke answers with. Plain data, no Electron import: shared by both sides.
import {
  KIOSK_METHOD_NAMES,
  KIOSK_PUSH_NAMES,
  OPERATOR_METHOD_NAMES,
  type KioskMethod,
  type KioskPush,
  type OperatorFailureCode,
  type OperatorMethod,
} from "../runtime/kiosk/bridge.ts";

/** `listSystems` → `list-systems`. */
function kebab(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

function channels<N extends string>(names: readonly N[], prefix: string): Readonly<Record<N, string>> {
  return Object.fromEntries(names.map((name) => [name, `${prefix}${kebab(name)}`])) as Record<N, string>;
}

/** One invoke channel per passenger call (KIOSK_METHODS): kiosk:list-systems, kiosk:ask, … */
export const INVOKE_CHANNELS: Readonly<Record<KioskMethod, string>> = channels(KIOSK_METHOD_NAMES, "kiosk:");
export type InvokeMethod = KioskMethod;

/** One main → renderer channel per push (KIOSK_PUSHES): kiosk:progress, … */
export const PUSH_CHANNELS: Readonly<Record<KioskPush, string>> = channels(KIOSK_PUSH_NAMES, "kiosk:");
/** Main → renderer progress events (ProgressEvent JSON objects). */
export const PROGRESS_CHANNEL = PUSH_CHANNELS.progress;

/** Failure kinds the renderer understands (renderer/bridge/errors.ts). */
export type IpcFailureKind = "rejected" | "unavailable" | "server";

/**
 * What every invoke resolves to. Errors travel as data: Electron would reduce a thrown error to
 * its message ("Error invoking remote method …"), losing the kind the screen needs.
 */
export type IpcEnvelope<T = unknown> = { ok: true; value: T } | { ok: false; error: { kind: IpcFailureKind; message: string } };

/**
 * One invoke channel per operator/technician call (OPERATOR_METHODS): kiosk:operator:login, …; each
 * takes exactly one argument, the request (with the operator token).
 */
export const OPERATOR_CHANNELS: Readonly<Record<OperatorMethod, string>> = channels(OPERATOR_METHOD_NAMES, "kiosk:operator:");

/** An operator failure's code travels beside the kind (unauthorized → log in again; conflict → busy). */
export type IpcOperatorEnvelope<T = unknown> = { ok: true; value: T } | { ok: false; error: { kind: IpcFailureKind; message: string; code: OperatorFailureCode } };
