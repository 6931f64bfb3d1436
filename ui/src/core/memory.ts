/**
 * Settings -> Memory as a tiny external store: the saved facts, whether memory is on, and the
 * actions that change them. Pure TS over the memory part of the `Api`; the page renders it.
 */
import type { Memory } from "../bindings/Memory";
import { errorText, type Api } from "./api";

export type MemoryApi = Pick<Api, "listMemories" | "updateMemory" | "deleteMemory" | "memoryEnabled" | "setMemoryEnabled">;

export type MemoryState = {
  loading: boolean;
  enabled: boolean;
  memories: Memory[];
  /** A page-level error (loading or toggling failed). */
  error: string | null;
  /** Per-fact errors (an edit refused as a secret, a delete that failed). */
  itemErrors: Readonly<Record<string, string>>;
};

export const initialMemoryState: MemoryState = {
  loading: true,
  enabled: true,
  memories: [],
  error: null,
  itemErrors: {},
};

export function createMemoryStore(api: MemoryApi) {
  let state = initialMemoryState;
  const listeners = new Set<() => void>();
  const set = (patch: Partial<MemoryState>) => {
    state = { ...state, ...patch };
    for (const l of listeners) l();
  };
  const itemError = (id: string, message: string | null) => {
    const next = { ...state.itemErrors };
    if (message === null) delete next[id];
    else next[id] = message;
    set({ itemErrors: next });
  };

  return {
    getState: (): MemoryState => state,
    subscribe(listener: () => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async load(): Promise<void> {
      set({ loading: true, error: null });
      try {
        const [enabled, memories] = await Promise.all([api.memoryEnabled(), api.listMemories()]);
        set({ loading: false, enabled, memories });
      } catch (err) {
        set({ loading: false, error: errorText(err) });
      }
    },
    async setEnabled(enabled: boolean): Promise<void> {
      const before = state.enabled;
      set({ enabled, error: null });
      try {
        await api.setMemoryEnabled(enabled);
      } catch (err) {
        set({ enabled: before, error: errorText(err) });
      }
    },
    /** Saves an edit; resolves true when saved, false when refused (the reason is shown). */
    async save(id: string, fact: string): Promise<boolean> {
      if (fact.trim() === "") {
        itemError(id, "A fact cannot be empty; delete it instead.");
        return false;
      }
      try {
        const saved = await api.updateMemory(id, fact);
        set({ memories: [saved, ...state.memories.filter((m) => m.id !== id)] });
        itemError(id, null);
        return true;
      } catch (err) {
        itemError(id, errorText(err));
        return false;
      }
    },
    async remove(id: string): Promise<void> {
      try {
        await api.deleteMemory(id);
        set({ memories: state.memories.filter((m) => m.id !== id) });
        itemError(id, null);
      } catch (err) {
        itemError(id, errorText(err));
      }
    },
  };
}

export type MemoryStoreApi = ReturnType<typeof createMemoryStore>;
