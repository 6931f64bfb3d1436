import { describe, expect, it } from "vitest";
import type { Memory } from "../bindings/Memory";
import { createMemoryStore, type MemoryApi } from "./memory";

function fakeApi(initial: Memory[]) {
  let memories = [...initial];
  let enabled = true;
  const api: MemoryApi = {
    listMemories: async () => memories,
    memoryEnabled: async () => enabled,
    setMemoryEnabled: async (on) => {
      enabled = on;
    },
    updateMemory: async (id, fact) => {
      if (fact.includes("sk-")) throw "not saved: the fact looks like it holds a secret (an API key (sk-...))";
      const m = memories.find((x) => x.id === id);
      if (!m) throw `there is no memory with id ${id}`;
      const next = { ...m, fact, updated_at: m.updated_at + 1 };
      memories = memories.map((x) => (x.id === id ? next : x));
      return next;
    },
    deleteMemory: async (id) => {
      if (!memories.some((m) => m.id === id)) throw `there is no memory with id ${id}`;
      memories = memories.filter((m) => m.id !== id);
    },
  };
  return { api, enabled: () => enabled };
}

const mem = (id: string, fact: string, t: number): Memory => ({ id, fact, created_at: t, updated_at: t, uses: 0 });

describe("memory store", () => {
  it("loads, edits to the top, deletes and toggles", async () => {
    const fake = fakeApi([mem("b", "second", 2), mem("a", "first", 1)]);
    const s = createMemoryStore(fake.api);
    await s.load();
    expect(s.getState().loading).toBe(false);
    expect(s.getState().memories.map((m) => m.id)).toEqual(["b", "a"]);

    expect(await s.save("a", "first, edited")).toBe(true);
    expect(s.getState().memories.map((m) => m.fact)).toEqual(["first, edited", "second"]);

    await s.remove("b");
    expect(s.getState().memories.map((m) => m.id)).toEqual(["a"]);

    await s.setEnabled(false);
    expect(s.getState().enabled).toBe(false);
    expect(fake.enabled()).toBe(false);
  });

  it("keeps the old text and shows the reason when an edit is refused", async () => {
    const s = createMemoryStore(fakeApi([mem("a", "first", 1)]).api);
    await s.load();
    expect(await s.save("a", "key sk-abc")).toBe(false);
    expect(s.getState().itemErrors.a).toContain("secret");
    expect(s.getState().memories[0]?.fact).toBe("first");
    expect(await s.save("a", "   ")).toBe(false);
    expect(s.getState().itemErrors.a).toContain("cannot be empty");
    expect(await s.save("a", "fine")).toBe(true);
    expect(s.getState().itemErrors.a).toBeUndefined();
  });

  it("reports a failed load and a failed toggle without losing state", async () => {
    const { api } = fakeApi([]);
    const s = createMemoryStore({ ...api, listMemories: async () => Promise.reject("database is locked") });
    await s.load();
    expect(s.getState().error).toBe("database is locked");
    const t = createMemoryStore({ ...api, setMemoryEnabled: async () => Promise.reject("disk full") });
    await t.load();
    await t.setEnabled(false);
    expect(t.getState().enabled).toBe(true);
    expect(t.getState().error).toBe("disk full");
  });

  it("a delete of a fact already gone shows the reason on that fact", async () => {
    const s = createMemoryStore(fakeApi([mem("a", "x", 1)]).api);
    await s.load();
    await s.remove("zz");
    expect(s.getState().itemErrors.zz).toContain("no memory");
  });
});
