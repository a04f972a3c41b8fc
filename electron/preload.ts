// The preload: exposes `window.kiosk` — exactly the KioskBridge methods, nothing else (no raw
// ipcRenderer, no Node) — each forwarding to ipcRenderer.invoke on its fixed channel, plus
// `kiosk.operator`, the PIN-protected operator/technician calls (one channel each). Runs
// sandboxed; bundled by electron/build.ts. Failures reject with a plain `{kind, message}` object
// (the renderer's validatingBridge reads `kind`; Electron would drop properties of an Error).
import { contextBridge, ipcRenderer, type IpcRendererEvent } from "electron";
import type { AskRequest, KioskBridge, OperatorBridge, OperatorMethod, ProgressEvent, PurchaseRequest, SystemSummary } from "../runtime/kiosk/bridge.ts";
import { INVOKE_CHANNELS, OPERATOR_CHANNELS, PROGRESS_CHANNEL, type InvokeMethod, type IpcEnvelope, type IpcOperatorEnvelope } from "./channels.ts";

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
  async function call<T>(method: InvokeMethod, ...args: unknown[]): Promise<T> {
    let envelope: IpcEnvelope<T>;
    try {
      envelope = (await ipc.invoke(INVOKE_CHANNELS[method], ...args)) as IpcEnvelope<T>;
    } catch (err) {
      return Promise.reject({ kind: "network", message: err instanceof Error ? err.message : String(err) });
    }
    if (envelope && envelope.ok === true) return envelope.value;
    const error = envelope && envelope.ok === false ? envelope.error : { kind: "server", message: "malformed answer from the kiosk service" };
    return Promise.reject({ kind: error.kind, message: error.message });
  }
  return {
    listSystems: () => call("listSystems"),
    systemView: (system: SystemSummary["id"]) => call("systemView", system),
    ask: (request: AskRequest) => call("ask", request),
    purchase: (request: PurchaseRequest) => call("purchase", request),
    endSession: (sessionId: string) => call("endSession", sessionId),
    status: () => call("status"),
    operator: createPreloadOperatorBridge(ipc),
    onProgress(listener: (event: ProgressEvent) => void): () => void {
      if (typeof listener !== "function") throw new TypeError("onProgress needs a function");
      const handler = (_event: IpcRendererEvent, payload: ProgressEvent): void => listener(payload);
      ipc.on(PROGRESS_CHANNEL, handler);
      return () => {
        ipc.removeListener(PROGRESS_CHANNEL, handler);
      };
    },
  };
}

contextBridge.exposeInMainWorld("kiosk", createPreloadBridge(ipcRenderer));
