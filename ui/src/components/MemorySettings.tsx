import { useEffect, useMemo, useState, useSyncExternalStore } from "react";
import type { Memory } from "../bindings/Memory";
import { createMemoryStore, type MemoryStoreApi } from "../core/memory";
import { useStore } from "./storeContext";

/**
 * Settings -> Memory: the facts `remember` saved, each editable and deletable, and the switch
 * that turns memory off (no `remember`, nothing injected; saved facts are kept).
 */
export function MemorySettings() {
  const app = useStore();
  const memory = useMemo(() => createMemoryStore(app.api), [app]);
  const state = useSyncExternalStore(memory.subscribe, memory.getState);

  useEffect(() => {
    void memory.load();
  }, [memory]);

  return (
    <div className="memory-settings" data-testid="memory-settings">
      <p className="muted small">
        Short facts the agent saved with <code>remember</code>. New threads are given the most recent and most used
        ones (about 2,000 tokens). Keys, tokens and passwords are never saved.
      </p>
      <label className="memory-toggle">
        <input
          type="checkbox"
          checked={state.enabled}
          disabled={state.loading}
          onChange={(e) => void memory.setEnabled(e.target.checked)}
          data-testid="memory-enabled"
        />{" "}
        Use memory in new threads
      </label>
      {state.error !== null && (
        <p className="alert" role="alert" data-testid="memory-error">
          {state.error}
        </p>
      )}
      {state.loading ? (
        <p className="muted" role="status">
          Loading saved facts…
        </p>
      ) : state.memories.length === 0 ? (
        <p className="muted" data-testid="memory-empty">
          Nothing saved yet.
        </p>
      ) : (
        <ul className="memory-list" aria-label="Saved facts">
          {state.memories.map((m) => (
            <MemoryRow key={m.id} m={m} memory={memory} error={state.itemErrors[m.id] ?? null} />
          ))}
        </ul>
      )}
    </div>
  );
}

function MemoryRow({ m, memory, error }: { m: Memory; memory: MemoryStoreApi; error: string | null }) {
  const [editing, setEditing] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function save() {
    if (editing === null) return;
    setBusy(true);
    const ok = await memory.save(m.id, editing);
    setBusy(false);
    if (ok) setEditing(null);
  }

  return (
    <li className="memory-item" data-testid="memory-item" data-id={m.id}>
      {editing === null ? (
        <div className="memory-line">
          <span className="memory-fact" data-testid="memory-fact">
            {m.fact}
          </span>
          <span className="muted small" title="Runs that were given this fact">
            used {m.uses}×
          </span>
          <button type="button" className="btn small-btn" onClick={() => setEditing(m.fact)} aria-label={`Edit: ${m.fact}`}>
            Edit
          </button>
          <button
            type="button"
            className="btn small-btn danger"
            onClick={() => void memory.remove(m.id)}
            aria-label={`Delete: ${m.fact}`}
            data-testid="memory-delete"
          >
            Delete
          </button>
        </div>
      ) : (
        <form
          className="memory-edit"
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
        >
          <label className="visually-hidden" htmlFor={`memory-${m.id}`}>
            Fact
          </label>
          <input
            id={`memory-${m.id}`}
            value={editing}
            onChange={(e) => setEditing(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === "Escape") setEditing(null);
            }}
            autoFocus
            data-testid="memory-input"
          />
          <button type="submit" className="btn small-btn primary" disabled={busy} data-testid="memory-save">
            Save
          </button>
          <button type="button" className="btn small-btn" onClick={() => setEditing(null)}>
            Cancel
          </button>
        </form>
      )}
      {error !== null && (
        <p className="alert small" role="alert" data-testid="memory-item-error">
          {error}
        </p>
      )}
    </li>
  );
}
