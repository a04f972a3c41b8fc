// The whole screen, given a bridge: providers (bridge, view store, i18n, flow machine, speech) and
// the shell. Tests and the dev entry build it with a fake bridge.
import { useMemo } from "react";
import { I18nextProvider } from "react-i18next";
import type { ActorOptions, AnyActorLogic } from "xstate";
import type { KioskBridge } from "../../runtime/kiosk/bridge.ts";
import { BridgeProvider } from "../bridge/BridgeProvider.tsx";
import { SpeakerContext } from "../components/SpeechControls.tsx";
import { createKioskI18n } from "../i18n/index.ts";
import type { Speaker } from "../lib/speech.ts";
import type { KioskTiming } from "../machines/kioskMachine.ts";
import { ViewStoreProvider } from "../state/ViewStoreProvider.tsx";
import { createViewStore, type ViewStore } from "../state/viewStore.ts";
import { KioskActorProvider } from "./KioskActor.tsx";
import { KioskShell } from "./KioskShell.tsx";

export interface KioskAppProps {
  bridge: KioskBridge;
  store?: ViewStore;
  timing?: Partial<KioskTiming>;
  clock?: ActorOptions<AnyActorLogic>["clock"];
  speaker?: Speaker;
  /** The system to show first (else the first the bridge lists). */
  preferredSystem?: string | null;
}

export function KioskApp(props: KioskAppProps) {
  const store = useMemo(() => props.store ?? createViewStore(), [props.store]);
  const i18n = useMemo(() => createKioskI18n(store.getState().language), [store]);
  return (
    <BridgeProvider bridge={props.bridge}>
      <ViewStoreProvider store={store}>
        <I18nextProvider i18n={i18n}>
          <SpeakerContext.Provider value={props.speaker ?? null}>
            <KioskActorProvider bridge={props.bridge} store={store} timing={props.timing} clock={props.clock}>
              <KioskShell preferredSystem={props.preferredSystem} />
            </KioskActorProvider>
          </SpeakerContext.Provider>
        </I18nextProvider>
      </ViewStoreProvider>
    </BridgeProvider>
  );
}
