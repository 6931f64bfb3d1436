import { createContext, useContext, useSyncExternalStore, type ReactNode } from "react";
import type { AppState, Store } from "../core/store";

const StoreContext = createContext<Store | null>(null);

export function StoreProvider({ store, children }: { store: Store; children: ReactNode }) {
  return <StoreContext.Provider value={store}>{children}</StoreContext.Provider>;
}

export function useStore(): Store {
  const store = useContext(StoreContext);
  if (store === null) throw new Error("useStore outside <StoreProvider>");
  return store;
}

/** Subscribes to the whole app state; the store replaces it immutably on each change. */
export function useAppState(): AppState {
  const store = useStore();
  return useSyncExternalStore(store.subscribe, store.getState);
}
