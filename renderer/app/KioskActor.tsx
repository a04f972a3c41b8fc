// The kiosk flow machine as a React context, with the app's wipe of the view store provided.
import { createActorContext } from "@xstate/react";
import { useMemo, type ReactNode } from "react";
import type { ActorOptions, AnyActorLogic } from "xstate";
import type { KioskBridge } from "../../runtime/kiosk/bridge.ts";
import { kioskMachine, screenOf, type KioskScreen, type KioskTiming } from "../machines/kioskMachine.ts";
import type { ViewStore } from "../state/viewStore.ts";

export const KioskActorContext = createActorContext(kioskMachine);

export function KioskActorProvider(props: {
  bridge: KioskBridge;
  store: ViewStore;
  timing?: Partial<KioskTiming> | undefined;
  clock?: ActorOptions<AnyActorLogic>["clock"] | undefined;
  children: ReactNode;
}) {
  const { bridge, store, timing, clock, children } = props;
  const logic = useMemo(() => kioskMachine.provide({ actions: { wipeView: () => store.getState().wipe() } }), [store]);
  const input = timing ? { bridge, timing } : { bridge };
  return (
    <KioskActorContext.Provider logic={logic} options={clock ? { input, clock } : { input }}>
      {children}
    </KioskActorContext.Provider>
  );
}

export const useKioskSend = () => KioskActorContext.useActorRef().send;
export const useKiosk = KioskActorContext.useSelector;
export const useScreen = (): KioskScreen => KioskActorContext.useSelector(screenOf);
