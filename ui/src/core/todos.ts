/**
 * The plan panel's view of a thread's `write_todos` list: counts, the item being worked on,
 * and labels. Pure: no React, no IPC.
 */
import type { ThreadState } from "../bindings/ThreadState";
import type { TodoItem } from "../bindings/TodoItem";
import type { TodoStatus } from "../bindings/TodoStatus";

export type TodoView = {
  items: TodoItem[];
  done: number;
  total: number;
  /** The item in progress, if any. */
  current: TodoItem | null;
  allDone: boolean;
};

export const TODO_STATUS_LABEL: Record<TodoStatus, string> = {
  pending: "to do",
  in_progress: "in progress",
  done: "done",
};

/** The plan of a thread, or null when it has none (the panel is then not shown). */
export function todoView(state: ThreadState | null): TodoView | null {
  // Threads saved before plans existed have no `todos` field.
  const items = state?.todos ?? [];
  if (items.length === 0) return null;
  const done = items.filter((t) => t.status === "done").length;
  return {
    items,
    done,
    total: items.length,
    current: items.find((t) => t.status === "in_progress") ?? null,
    allDone: done === items.length,
  };
}

/** The panel's one-line heading: "Plan · 1 of 3 done". */
export function todoHeading(view: TodoView): string {
  if (view.allDone) return `Plan · all ${view.total} done`;
  return `Plan · ${view.done} of ${view.total} done`;
}
