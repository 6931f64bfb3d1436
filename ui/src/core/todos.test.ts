import { describe, expect, it } from "vitest";
import type { ThreadState } from "../bindings/ThreadState";
import type { TodoItem } from "../bindings/TodoItem";
import { todoHeading, todoView } from "./todos";

const item = (content: string, status: TodoItem["status"]): TodoItem => ({ content, status });
const state = (todos: TodoItem[]): ThreadState => ({ promoted: null, artifacts: [], pending: [], todos });

describe("todoView", () => {
  it("is null without a plan, including state saved before plans existed", () => {
    expect(todoView(null)).toBeNull();
    expect(todoView(state([]))).toBeNull();
    expect(todoView({ promoted: null, artifacts: [] } as unknown as ThreadState)).toBeNull();
  });

  it("counts done items and finds the one in progress", () => {
    const v = todoView(state([item("a", "done"), item("b", "in_progress"), item("c", "pending")]));
    expect(v).not.toBeNull();
    expect(v?.done).toBe(1);
    expect(v?.total).toBe(3);
    expect(v?.current?.content).toBe("b");
    expect(v?.allDone).toBe(false);
    expect(todoHeading(v!)).toBe("Plan · 1 of 3 done");
  });

  it("says when everything is done", () => {
    const v = todoView(state([item("a", "done"), item("b", "done")]))!;
    expect(v.allDone).toBe(true);
    expect(v.current).toBeNull();
    expect(todoHeading(v)).toBe("Plan · all 2 done");
  });
});
