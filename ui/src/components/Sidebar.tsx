import { useEffect, useRef, useState } from "react";
import type { ThreadSummary } from "../bindings/ThreadSummary";
import { isThreadRunning } from "../core/store";
import { filterThreads } from "../core/threads";
import { GearIcon, PencilIcon, PlusIcon, TrashIcon } from "./icons";
import { useAppState, useStore } from "./storeContext";

export function Sidebar() {
  const state = useAppState();
  const store = useStore();
  const model = state.provider?.settings?.model;
  const [query, setQuery] = useState("");
  const shown = filterThreads(state.threads, query);

  return (
    <aside className="sidebar" aria-label="Threads">
      <div className="sidebar-head">
        <span className="brand">Workbench</span>
        <button
          type="button"
          className="icon-btn"
          data-testid="open-settings"
          aria-label="Settings"
          title="Settings"
          onClick={() => store.openSettings()}
        >
          <GearIcon />
        </button>
      </div>
      <button
        type="button"
        className="btn primary new-thread"
        data-testid="new-thread"
        title="New thread (Ctrl+N)"
        aria-keyshortcuts="Control+N Meta+N"
        onClick={() => void store.newThread()}
      >
        <PlusIcon /> New thread
      </button>
      {state.listError !== null && (
        <p className="alert small" role="alert" data-testid="list-error">
          {state.listError}{" "}
          <button type="button" className="link" onClick={() => store.dismissListError()}>
            Dismiss
          </button>
        </p>
      )}
      {state.threads.length > 0 && (
        <input
          type="search"
          className="thread-search"
          data-testid="thread-search"
          aria-label="Search threads by title"
          placeholder="Search threads"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Escape" && query !== "") {
              // Clear the search, and do not let the same key stop a run.
              e.preventDefault();
              setQuery("");
            }
          }}
        />
      )}
      <nav className="thread-nav" aria-label="Thread list">
        {state.threads.length === 0 ? (
          <p className="muted small empty-list">No threads yet.</p>
        ) : shown.length === 0 ? (
          <p className="muted small empty-list" data-testid="thread-search-empty">
            No thread title matches “{query.trim()}”.
          </p>
        ) : (
          <ul className="thread-list">
            {shown.map((t) => (
              <ThreadItem
                key={t.id}
                thread={t}
                active={t.id === state.activeThreadId}
                running={t.running || isThreadRunning(state, t.id)}
              />
            ))}
          </ul>
        )}
      </nav>
      {model && (
        <div className="sidebar-foot muted small" title={state.provider?.settings?.base_url}>
          Model: {model}
        </div>
      )}
    </aside>
  );
}

function ThreadItem({ thread, active, running }: { thread: ThreadSummary; active: boolean; running: boolean }) {
  const store = useStore();
  const [mode, setMode] = useState<"view" | "rename" | "confirm-delete">("view");
  const [title, setTitle] = useState(thread.title);
  const inputRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (mode === "rename") inputRef.current?.select();
  }, [mode]);

  function startRename() {
    setTitle(thread.title);
    setMode("rename");
  }

  const cls = "thread-item" + (active ? " active" : "") + (running ? " running" : "");

  if (mode === "rename") {
    return (
      <li className={cls} data-testid="thread-item" data-thread-id={thread.id}>
        <input
          ref={inputRef}
          className="rename-input"
          data-testid="thread-rename-input"
          aria-label="Thread title"
          value={title}
          onChange={(e) => setTitle(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter") {
              e.preventDefault();
              setMode("view");
              void store.renameThread(thread.id, title);
            } else if (e.key === "Escape") {
              e.preventDefault();
              e.stopPropagation();
              setMode("view");
            }
          }}
          onBlur={() => setMode("view")}
        />
      </li>
    );
  }

  if (mode === "confirm-delete") {
    return (
      <li className={cls + " confirming"} data-testid="thread-item" data-thread-id={thread.id}>
        <span className="confirm-text">
          Delete “<span data-testid="thread-title">{thread.title}</span>”?
        </span>
        <span className="confirm-actions">
          <button
            type="button"
            className="btn danger small-btn"
            data-testid="thread-delete-confirm"
            autoFocus
            onClick={() => {
              setMode("view");
              void store.deleteThread(thread.id);
            }}
          >
            Delete
          </button>
          <button
            type="button"
            className="btn small-btn"
            data-testid="thread-delete-cancel"
            onClick={() => setMode("view")}
            onKeyDown={(e) => e.key === "Escape" && setMode("view")}
          >
            Cancel
          </button>
        </span>
      </li>
    );
  }

  return (
    <li className={cls} data-testid="thread-item" data-thread-id={thread.id} aria-current={active ? "true" : undefined}>
      <button
        type="button"
        className="thread-open"
        onClick={() => void store.openThread(thread.id)}
        onDoubleClick={startRename}
        title={thread.title}
      >
        {running && (
          <>
            <span className="run-dot" aria-hidden="true" title="Running" />
            <span className="visually-hidden">Running: </span>
          </>
        )}
        <span className="thread-title" data-testid="thread-title">
          {thread.title}
        </span>
      </button>
      <span className="thread-actions">
        <button type="button" className="icon-btn" data-testid="thread-rename" aria-label={`Rename “${thread.title}”`} title="Rename" onClick={startRename}>
          <PencilIcon />
        </button>
        <button
          type="button"
          className="icon-btn"
          data-testid="thread-delete"
          aria-label={`Delete “${thread.title}”`}
          title="Delete"
          onClick={() => setMode("confirm-delete")}
        >
          <TrashIcon />
        </button>
      </span>
    </li>
  );
}
