// The bridge the whole screen talks through, provided once at the root.
import { createContext, useContext, type ReactNode } from "react";
import type { KioskBridge } from "../../runtime/kiosk/bridge.ts";

const BridgeContext = createContext<KioskBridge | null>(null);

export function BridgeProvider({ bridge, children }: { bridge: KioskBridge; children: ReactNode }) {
  return <BridgeContext.Provider value={bridge}>{children}</BridgeContext.Provider>;
}

export function useBridge(): KioskBridge {
  const bridge = useContext(BridgeContext);
  if (!bridge) throw new Error("useBridge() outside <BridgeProvider>");
  return bridge;
}

/** The bridge where one is provided (component tests render parts of the screen without one). */
export function useOptionalBridge(): KioskBridge | null {
  return useContext(BridgeContext);
}
