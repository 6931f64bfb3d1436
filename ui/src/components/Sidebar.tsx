import { useEffect, useRef, useState } from "react";
import type { ThreadSearchHit } from "../bindings/ThreadSearchHit";
import type { ThreadSummary } from "../bindings/ThreadSummary";
import { errorText } from "../core/api";
import { isThreadRunning } from "../core/store";
import { searchRows, type SearchRow } from "../core/threads";
import { GearIcon, PencilIcon, PlugIcon, PlusIcon, TrashIcon } from "./icons";
import { useAppState, useStore } from "./storeContext";

export function Sidebar() {
  const state = useAppState();
  const store = useStore();
  const model = state.provider?.settings?.model;
  const [query, setQuery] = useState("");
  const content = useContentSearch(query);
  const searching = query.trim() !== "";
  const shown: SearchRow[] = searching
    ? searchRows(state.threads, query, content.hits)
    : state.threads.map((t) => ({ thread: t, snippet: "" }));

  return (
    <aside className="sidebar" aria-label="Threads">
      <div className="sidebar-head">
        <span className="brand">Workbench</span>
        <span className="sidebar-head-actions">
          <button
            type="button"
            className="icon-btn"
            data-testid="open-mcp"
            aria-label="MCP servers"
            title="MCP servers"
            onClick={() => store.openMcp()}
          >
            <PlugIcon />
          </button>
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
        </span>
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
            {content.pending ? "Searching…" : `No thread mentions “${query.trim()}”.`}
          </p>
        ) : (
          <ul className="thread-list">
            {shown.map(({ thread: t, snippet }) => (
              <ThreadItem
                key={t.id}
                thread={t}
                snippet={snippet}
                active={t.id === state.activeThreadId}
                running={t.running || isThreadRunning(state, t.id)}
              />
            ))}
          </ul>
        )}
        {searching && content.error !== null && (
          <p className="muted small" role="status" data-testid="thread-search-error">
            Only titles were searched: {content.error}
          </p>
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

/** Wait after the last keystroke before asking the backend, so typing stays smooth. */
const SEARCH_DEBOUNCE_MS = 200;

/**
 * Content search for `query`: the backend's hits once they arrive (null before), whether a
 * search is on its way, and the sentence when it failed. Answers to older queries are dropped.
 */
function useContentSearch(query: string): { hits: ThreadSearchHit[] | null; pending: boolean; error: string | null } {
  const store = useStore();
  const [result, setResult] = useState<{ query: string; hits: ThreadSearchHit[] | null; error: string | null }>({
    query: "",
    hits: null,
    error: null,
  });
  const q = query.trim();
  useEffect(() => {
    if (q === "") return;
    let current = true;
    const timer = setTimeout(() => {
      store.searchThreads(q).then(
        (hits) => current && setResult({ query: q, hits, error: null }),
        (err: unknown) => current && setResult({ query: q, hits: null, error: errorText(err) }),
      );
    }, SEARCH_DEBOUNCE_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [q, store]);
  const fresh = result.query === q;
  return { hits: fresh ? result.hits : null, pending: q !== "" && !fresh, error: fresh ? result.error : null };
}

function ThreadItem({ thread, snippet, active, running }: { thread: ThreadSummary; snippet: string; active: boolean; running: boolean }) {
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
        <span className="thread-text">
          <span className="thread-title" data-testid="thread-title">
            {thread.title}
          </span>
          {snippet !== "" && (
            <span className="thread-snippet" data-testid="thread-snippet">
              {snippet}
            </span>
          )}
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
