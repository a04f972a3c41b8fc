// The fixed IPC channel list between the preload (window.kiosk) and the main process, and the
// envelope every invoke answers with. Plain data, no Electron import: shared by both sides.
import type { OperatorFailureCode, OperatorMethod } from "../runtime/kiosk/bridge.ts";

/** One invoke channel per KioskBridge method (onProgress is a push channel, below). */
export const INVOKE_CHANNELS = {
  listSystems: "kiosk:list-systems",
  systemView: "kiosk:system-view",
  ask: "kiosk:ask",
  purchase: "kiosk:purchase",
  endSession: "kiosk:end-session",
  status: "kiosk:status",
} as const;
export type InvokeMethod = keyof typeof INVOKE_CHANNELS;

/** Main → renderer progress events (ProgressEvent JSON objects). */
export const PROGRESS_CHANNEL = "kiosk:progress";

/** Failure kinds the renderer understands (renderer/bridge/errors.ts). */
export type IpcFailureKind = "rejected" | "unavailable" | "server";

/**
 * What every invoke resolves to. Errors travel as data: Electron would reduce a thrown error to
 * its message ("Error invoking remote method …"), losing the kind the screen needs.
 */
export type IpcEnvelope<T = unknown> = { ok: true; value: T } | { ok: false; error: { kind: IpcFailureKind; message: string } };

/**
 * One invoke channel per operator/technician call (runtime/kiosk/bridge.ts OPERATOR_METHODS); each
 * takes exactly one argument, the request (with the operator token).
 */
export const OPERATOR_CHANNELS = {
  login: "kiosk:operator:login",
  logout: "kiosk:operator:logout",
  framebookStatus: "kiosk:operator:framebook-status",
  checkFramebook: "kiosk:operator:check-framebook",
  applyFramebook: "kiosk:operator:apply-framebook",
  rollbackFramebook: "kiosk:operator:rollback-framebook",
  technicianInfo: "kiosk:operator:technician-info",
  startBench: "kiosk:operator:start-bench",
  benchStatus: "kiosk:operator:bench-status",
  stopBench: "kiosk:operator:stop-bench",
  benchReport: "kiosk:operator:bench-report",
  exportBench: "kiosk:operator:export-bench",
  latencyProbe: "kiosk:operator:latency-probe",
} as const satisfies Record<OperatorMethod, string>;

/** An operator failure's code travels beside the kind (unauthorized → log in again; conflict → busy). */
export type IpcOperatorEnvelope<T = unknown> = { ok: true; value: T } | { ok: false; error: { kind: IpcFailureKind; message: string; code: OperatorFailureCode } };
