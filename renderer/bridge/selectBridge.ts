// Which bridge this screen uses: the Electron preload's `window.kiosk` when present, the fake one
// when asked for (`?bridge=fake`, or the Vite dev server without `?bridge=http`), else the
// browser bridge against the page's own server (`kiosk serve`) or `?server=<url>`.
import type { KioskBridge } from "../../runtime/kiosk/bridge.ts";
import { createBrowserBridge } from "./browserBridge.ts";
import { createFakeBridge } from "./fakeBridge.ts";
import { createFakeOperatorBridge } from "./fakeOperator.ts";
import { isKioskBridge, validatingBridge } from "./validatingBridge.ts";

export type BridgeChoice =
  | { kind: "preload" }
  | { kind: "fake" }
  | { kind: "browser"; baseUrl: string };

export interface BridgeEnvironment {
  /** `window.kiosk` (whatever the preload exposed, if anything). */
  preload: unknown;
  /** `location.search`. */
  search: string;
  /** The page's base URL (`document.baseURI`), where `kiosk serve` serves the renderer. */
  baseUrl: string;
  /** Running under the Vite dev server. */
  dev: boolean;
}

export function chooseBridge(env: BridgeEnvironment): BridgeChoice {
  if (isKioskBridge(env.preload)) return { kind: "preload" };
  const params = new URLSearchParams(env.search);
  const wanted = params.get("bridge");
  const server = params.get("server");
  if (wanted === "fake") return { kind: "fake" };
  if (server) return { kind: "browser", baseUrl: server };
  if (wanted === "http" || !env.dev) {
    // The renderer is served at the server root (or a sub-path); the API sits beside it.
    return { kind: "browser", baseUrl: new URL(".", env.baseUrl).toString() };
  }
  return { kind: "fake" };
}

export function createBridge(env: BridgeEnvironment): { choice: BridgeChoice; bridge: KioskBridge } {
  const choice = chooseBridge(env);
  switch (choice.kind) {
    case "preload":
      return { choice, bridge: validatingBridge(env.preload as KioskBridge) };
    case "fake":
      // Dev only: the fake operator tools open with the demo PIN 2468 (no real kiosk PIN exists here).
      return { choice, bridge: Object.assign(createFakeBridge({ stepDelayMs: 450 }), { operator: createFakeOperatorBridge({ pin: "2468", stepDelayMs: 300 }) }) };
    case "browser":
      return { choice, bridge: createBrowserBridge(choice.baseUrl) };
  }
}
