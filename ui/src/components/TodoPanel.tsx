import { useId, useState } from "react";
import { TODO_STATUS_LABEL, todoHeading, todoView } from "../core/todos";
import { useAppState } from "./storeContext";

/**
 * The agent's plan above the composer: the `write_todos` list of the active thread, updated
 * live from `state_updated` events and restored with the thread. Collapsible to its heading.
 */
export function TodoPanel() {
  const state = useAppState();
  const [collapsed, setCollapsed] = useState(false);
  const listId = useId();
  const view = todoView(state.threadState);
  if (view === null) return null;
  return (
    <section className={`todo-panel${view.allDone ? " all-done" : ""}`} aria-label="Plan" data-testid="todo-panel">
      <button
        type="button"
        className="todo-head"
        aria-expanded={!collapsed}
        aria-controls={listId}
        onClick={() => setCollapsed(!collapsed)}
      >
        <span className={`chevron${collapsed ? "" : " open"}`} aria-hidden="true" />
        <span data-testid="todo-heading">{todoHeading(view)}</span>
        {collapsed && view.current !== null && <span className="muted todo-current"> — {view.current.content}</span>}
      </button>
      {!collapsed && (
        <ol className="todo-list" id={listId}>
          {view.items.map((t, i) => (
            <li key={`${i}\n${t.content}`} className={`todo ${t.status}`} data-testid="todo-item" data-status={t.status}>
              <span className="todo-mark" aria-hidden="true">
                {t.status === "done" ? "✓" : t.status === "in_progress" ? "◐" : "○"}
              </span>
              <span className="todo-text">{t.content}</span>
              <span className="visually-hidden"> ({TODO_STATUS_LABEL[t.status]})</span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
