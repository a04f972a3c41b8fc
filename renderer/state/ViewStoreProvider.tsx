import { createContext, useContext, type ReactNode } from "react";
import { useStore } from "zustand";
import type { ViewState, ViewStore } from "./viewStore.ts";

const ViewStoreContext = createContext<ViewStore | null>(null);

export function ViewStoreProvider({ store, children }: { store: ViewStore; children: ReactNode }) {
  return <ViewStoreContext.Provider value={store}>{children}</ViewStoreContext.Provider>;
}

export function useViewStoreApi(): ViewStore {
  const store = useContext(ViewStoreContext);
  if (!store) throw new Error("useView() outside <ViewStoreProvider>");
  return store;
}

/** Selects from the view store (re-renders when the selected value changes). */
export function useView<T>(selector: (state: ViewState) => T): T {
  return useStore(useViewStoreApi(), selector);
}
