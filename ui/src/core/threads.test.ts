import { describe, expect, it } from "vitest";
import type { ThreadSummary } from "../bindings/ThreadSummary";
import { filterThreads, markRunning, patchThread, searchRows, sortThreads, upsertThread } from "./threads";

const t = (id: string, updated_at: number, running = false): ThreadSummary => ({ id, title: id, updated_at, running });

describe("threads", () => {
  it.each([
    { name: "newest first", input: [t("a", 1), t("b", 3), t("c", 2)], want: ["b", "c", "a"] },
    { name: "ties by id", input: [t("b", 1), t("a", 1)], want: ["a", "b"] },
    { name: "empty", input: [], want: [] },
  ])("sortThreads: $name", ({ input, want }) => {
    expect(sortThreads(input).map((x) => x.id)).toEqual(want);
  });

  it("markRunning marks live threads and keeps the backend's flag", () => {
    const out = markRunning([t("a", 1), t("b", 2, true), t("c", 3)], new Set(["a"]));
    expect(out.map((x) => [x.id, x.running])).toEqual([
      ["c", false],
      ["b", true],
      ["a", true],
    ]);
  });

  it("upsertThread inserts or replaces and re-sorts", () => {
    const list = [t("a", 1), t("b", 2)];
    expect(upsertThread(list, t("c", 5)).map((x) => x.id)).toEqual(["c", "b", "a"]);
    expect(upsertThread(list, { ...t("a", 9), title: "new" })[0]).toMatchObject({ id: "a", title: "new" });
  });

  it("patchThread changes one thread and ignores unknown ids", () => {
    const list = [t("a", 1), t("b", 2)];
    expect(patchThread(list, "a", { updated_at: 3 }).map((x) => x.id)).toEqual(["a", "b"]);
    expect(patchThread(list, "zzz", { title: "x" })).toEqual(list);
  });
});

describe("filterThreads", () => {
  const named = (id: string, title: string): ThreadSummary => ({ id, title, updated_at: 0, running: false });
  const list = [named("a", "Résumé for Dana"), named("b", "Fix the flaky SYNC test"), named("c", "Sync notes")];
  it.each([
    ["", ["a", "b", "c"]],
    ["   ", ["a", "b", "c"]],
    ["sync", ["b", "c"]],
    ["resume", ["a"]],
    ["test sync", ["b"]],
    ["sync  FLAKY", ["b"]],
    ["nothing", []],
  ])("%j", (q, want) => {
    expect(filterThreads(list, q).map((x) => x.id)).toEqual(want);
  });
});

describe("searchRows", () => {
  const named = (id: string, title: string, running = false): ThreadSummary => ({ id, title, updated_at: 0, running });
  const list = [named("a", "Budget 2026", true), named("b", "Chat"), named("c", "Other")];
  const hit = (t: ThreadSummary, snippet: string) => ({ thread: t, snippet });

  it.each([
    { name: "before the backend answers: titles only", hits: null, want: [["a", ""]] },
    { name: "content hits follow the title matches", hits: [hit(named("b", "Chat"), "the budget numbers"), hit(named("a", "Budget 2026"), "")], want: [["a", ""], ["b", "the budget numbers"]] },
    { name: "a title match gets its snippet too", hits: [hit(named("a", "Budget 2026"), "budget talk")], want: [["a", "budget talk"]] },
    { name: "a hit for a deleted thread is dropped", hits: [hit(named("zz", "Gone"), "budget")], want: [["a", ""]] },
  ])("$name", ({ hits, want }) => {
    expect(searchRows(list, "budget", hits).map((r) => [r.thread.id, r.snippet])).toEqual(want);
  });

  it("keeps the loaded list's copy of a thread (latest title and running mark)", () => {
    const rows = searchRows(list, "zzz", [hit(named("b", "Old title"), "x")]);
    expect(rows[0]?.thread).toBe(list[1]);
  });
});
