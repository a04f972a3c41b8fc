// The fixed IPC channel list between the preload (window.kiosk) and the main process, and the
// envelope every invoke answers with. Plain data, no Electron import: shared by both sides.

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
