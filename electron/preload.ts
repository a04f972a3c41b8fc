// The preload: exposes `window.kiosk` — exactly the KioskBridge methods, nothing else (no raw
// ipcRenderer, no Node) — each forwarding to ipcRenderer.invoke on its fixed channel. Runs
// sandboxed; bundled by electron/build.ts. Failures reject with a plain `{kind, message}` object
// (the renderer's validatingBridge reads `kind`; Electron would drop properties of an Error).
import { contextBridge, ipcRenderer, type IpcRendererEvent } from "electron";
import type { AskRequest, KioskBridge, ProgressEvent, PurchaseRequest, SystemSummary } from "../runtime/kiosk/bridge.ts";
import { INVOKE_CHANNELS, PROGRESS_CHANNEL, type InvokeMethod, type IpcEnvelope } from "./channels.ts";

type IpcRendererLike = Pick<typeof ipcRenderer, "invoke" | "on" | "removeListener">;

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
