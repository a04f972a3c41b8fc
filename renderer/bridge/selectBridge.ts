// Which bridge this screen uses: the Electron preload's `window.kiosk` when present, the fake one
// in development builds (the Vite dev server, unless `?bridge=http` or `?server=`), else the
// browser bridge against the page's own server (`kiosk serve`) or `?server=<url>`. Production
// builds have no fake bridge: `?bridge=fake` there falls back to the browser bridge, with a warning.
import type { KioskBridge } from "../../runtime/kiosk/bridge.ts";
import { createBrowserBridge } from "./browserBridge.ts";
import { isKioskBridge, validatingBridge } from "./validatingBridge.ts";

export type BridgeChoice =
  | { kind: "preload" }
  | { kind: "fake" }
  | { kind: "browser"; baseUrl: string; /** A `?bridge=` asked for that this build does not have. */ ignored?: "fake" };

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
  if (wanted === "fake" && env.dev) return { kind: "fake" };
  const ignored = wanted === "fake" ? { ignored: "fake" as const } : {};
  if (server) return { kind: "browser", baseUrl: server, ...ignored };
  if (wanted === "http" || !env.dev) {
    // The renderer is served at the server root (or a sub-path); the API sits beside it.
    return { kind: "browser", baseUrl: new URL(".", env.baseUrl).toString(), ...ignored };
  }
  return { kind: "fake" };
}

export async function createBridge(env: BridgeEnvironment): Promise<{ choice: BridgeChoice; bridge: KioskBridge }> {
  const choice = chooseBridge(env);
  switch (choice.kind) {
    case "preload":
      return { choice, bridge: validatingBridge(env.preload as KioskBridge) };
    case "fake":
      return { choice, bridge: await loadDevBridge() };
    case "browser":
      return { choice, bridge: createBrowserBridge(choice.baseUrl) };
  }
}

async function loadDevBridge(): Promise<KioskBridge> {
  // `import.meta.env.DEV` is the literal `false` in a production build: Vite drops this branch, and
  // with it the fakes and the demo PIN, from the bundle.
  if (import.meta.env.DEV) {
    const { createDevBridge } = await import("./devBridge.ts");
    return createDevBridge();
  }
  throw new Error("renderer: the fake bridge exists only in development builds (npx vite --config renderer/vite.config.ts)");
}
