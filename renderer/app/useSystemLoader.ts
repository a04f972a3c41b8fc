// Loads the systems on offer and the chosen system's view into the view store.
import { useCallback, useEffect } from "react";
import type { SystemSummary } from "../../runtime/kiosk/bridge.ts";
import { useBridge } from "../bridge/BridgeProvider.tsx";
import { toBridgeFailure } from "../bridge/errors.ts";
import { useViewStoreApi } from "../state/ViewStoreProvider.tsx";

export function useSystemLoader(preferred?: string | null): (id: SystemSummary["id"]) => Promise<void> {
  const bridge = useBridge();
  const store = useViewStoreApi();

  const choose = useCallback(
    async (id: SystemSummary["id"]) => {
      try {
        store.getState().setSystem(await bridge.systemView(id));
      } catch (error) {
        store.getState().setSystemFailure(toBridgeFailure(error));
      }
    },
    [bridge, store],
  );

  useEffect(() => {
    let cancelled = false;
    void (async () => {
      try {
        const systems = await bridge.listSystems();
        if (cancelled) return;
        store.getState().setSystems(systems);
        const first = systems.find((s) => s.id === preferred) ?? systems[0];
        if (first && !store.getState().system) await choose(first.id);
      } catch (error) {
        if (!cancelled) store.getState().setSystemFailure(toBridgeFailure(error));
      }
    })();
    return () => {
      cancelled = true;
    };
  }, [bridge, store, choose, preferred]);

  return choose;
}
