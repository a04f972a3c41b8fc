// The preload: exposes `window.kiosk` — exactly the KioskBridge calls and subscriptions (derived
// from KIOSK_METHODS and KIOSK_PUSHES), nothing else (no raw ipcRenderer, no Node) — each call
// forwarding to ipcRenderer.invoke on its channel, each subscription listening on its push channel, plus
// `kiosk.operator`, the PIN-protected operator/technician calls (one channel each). Runs
// sandboxed; bundled by electron/build.ts. Failures reject with a plain `{kind, message}` object
// (the renderer's validatingBridge reads `kind`; Electron would drop properties of an Error).
import { contextBridge, ipcRenderer, type IpcRendererEvent } from "electron";
import {
  KIOSK_METHOD_NAMES,
  KIOSK_PUSH_NAMES,
  pushCurrent,
  subscriptionName,
  type KioskBridge,
  type KioskMethod,
  type KioskPush,
  type OperatorBridge,
  type OperatorMethod,
} from "../runtime/kiosk/bridge.ts";
import { INVOKE_CHANNELS, OPERATOR_CHANNELS, PUSH_CHANNELS, type IpcEnvelope, type IpcOperatorEnvelope } from "./channels.ts";

type IpcRendererLike = Pick<typeof ipcRenderer, "invoke" | "on" | "removeListener">;

/** The operator calls: one argument (the request) each; failures reject with `{kind, message, code}`. */
export function createPreloadOperatorBridge(ipc: Pick<IpcRendererLike, "invoke">): OperatorBridge {
  async function call(method: OperatorMethod, request: unknown): Promise<unknown> {
    let envelope: IpcOperatorEnvelope;
    try {
      envelope = (await ipc.invoke(OPERATOR_CHANNELS[method], request)) as IpcOperatorEnvelope;
    } catch (err) {
      return Promise.reject({ kind: "network", code: "failed", message: err instanceof Error ? err.message : String(err) });
    }
    if (envelope && envelope.ok === true) return envelope.value;
    const error = envelope && envelope.ok === false ? envelope.error : { kind: "server", code: "failed", message: "malformed answer from the kiosk service" };
    return Promise.reject({ kind: error.kind, code: error.code, message: error.message });
  }
  const methods = Object.keys(OPERATOR_CHANNELS) as OperatorMethod[];
  return Object.fromEntries(methods.map((method) => [method, (request: unknown) => call(method, request)])) as unknown as OperatorBridge;
}

export function createPreloadBridge(ipc: IpcRendererLike): KioskBridge {
  async function call(method: KioskMethod, args: unknown[]): Promise<unknown> {
    let envelope: IpcEnvelope;
    try {
      envelope = (await ipc.invoke(INVOKE_CHANNELS[method], ...args)) as IpcEnvelope;
    } catch (err) {
      return Promise.reject({ kind: "network", message: err instanceof Error ? err.message : String(err) });
    }
    if (envelope && envelope.ok === true) return envelope.value;
    const error = envelope && envelope.ok === false ? envelope.error : { kind: "server", message: "malformed answer from the kiosk service" };
    return Promise.reject({ kind: error.kind, message: error.message });
  }
  function subscribe(push: KioskPush, listener: unknown): () => void {
    if (typeof listener !== "function") throw new TypeError(`${subscriptionName(push)} needs a function`);
    const handler = (_event: IpcRendererEvent, payload: unknown): void => (listener as (event: unknown) => void)(payload);
    ipc.on(PUSH_CHANNELS[push], handler);
    // A push with a current value (the kiosk state) starts with it, as the WebSocket does.
    const current = pushCurrent(push);
    if (current) call(current, []).then((value) => (listener as (event: unknown) => void)(value), () => undefined);
    return () => {
      ipc.removeListener(PUSH_CHANNELS[push], handler);
    };
  }
  const calls = Object.fromEntries(KIOSK_METHOD_NAMES.map((method) => [method, (...args: unknown[]) => call(method, args)]));
  const pushes = Object.fromEntries(KIOSK_PUSH_NAMES.map((push) => [subscriptionName(push), (listener: unknown) => subscribe(push, listener)]));
  return { ...calls, ...pushes, operator: createPreloadOperatorBridge(ipc) } as unknown as KioskBridge;
}

contextBridge.exposeInMainWorld("kiosk", createPreloadBridge(ipcRenderer));
