import { useEffect, useRef, useState } from "react";
import { canRegenerate } from "../core/branches";
import { EXPORT_FORMATS, type ExportFormat } from "../core/exportFile";
import { isThreadRunning } from "../core/store";
import { useAppState, useStore } from "./storeContext";

/** The chat header's Export menu: Markdown or JSON, through the system's save dialog. */
export function ExportMenu() {
  const state = useAppState();
  const store = useStore();
  const [open, setOpen] = useState(false);
  const [note, setNote] = useState<{ ok: boolean; text: string } | null>(null);
  const button = useRef<HTMLButtonElement>(null);
  const threadId = state.activeThreadId;

  // A note belongs to the thread it was about.
  useEffect(() => setNote(null), [threadId]);
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Escape") return;
      e.preventDefault();
      setOpen(false);
      button.current?.focus();
    };
    window.addEventListener("keydown", onKey, true);
    return () => window.removeEventListener("keydown", onKey, true);
  }, [open]);

  async function pick(format: ExportFormat) {
    setOpen(false);
    setNote(await store.exportThread(format));
  }

  return (
    <span className="export-menu">
      <button
        type="button"
        ref={button}
        className="btn small-btn head-btn"
        data-testid="open-export"
        aria-haspopup="menu"
        aria-expanded={open}
        disabled={threadId === null}
        title="Save this conversation as a file"
        onClick={() => setOpen((o) => !o)}
      >
        Export
      </button>
      {open && (
        <span className="export-menu-list" role="menu">
          {(Object.keys(EXPORT_FORMATS) as ExportFormat[]).map((f) => (
            <button key={f} type="button" role="menuitem" className="btn small-btn" data-testid={`export-${f}`} onClick={() => void pick(f)}>
              {EXPORT_FORMATS[f].label}
            </button>
          ))}
        </span>
      )}
      {note !== null && (
        <span className={`export-note ${note.ok ? "muted" : "run-error"}`} role={note.ok ? "status" : "alert"} data-testid="export-note">
          {note.text}
        </span>
      )}
    </span>
  );
}

/** Under the conversation: regenerate the last reply. */
export function RegenerateBar() {
  const state = useAppState();
  const store = useStore();
  const running = isThreadRunning(state, state.activeThreadId);
  if (state.activeThreadId === null || state.threadLoading || !canRegenerate(state.messages, running)) return null;
  return (
    <div className="thread-actions">
      <button
        type="button"
        className="btn small-btn"
        data-testid="regenerate"
        title="Answer your last message again; the new reply replaces this one"
        onClick={() => void store.regenerate()}
      >
        ↻ Regenerate reply
      </button>
    </div>
  );
}

/** On a branch: where it came from, with a way back. */
export function BranchBanner() {
  const state = useAppState();
  const store = useStore();
  const from = state.branchedFrom;
  if (from === null) return null;
  return (
    <div className="branch-banner muted" data-testid="branch-banner">
      <span>
        A branch of “<span data-testid="branch-source-title">{from.title}</span>”, from an edited message.
      </span>
      <button type="button" className="link" data-testid="open-branch-source" onClick={() => void store.openThread(from.thread_id)}>
        Open the original
      </button>
    </div>
  );
}
