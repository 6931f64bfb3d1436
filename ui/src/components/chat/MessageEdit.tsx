import { useEffect, useRef, useState } from "react";
import type { Message } from "../../bindings/Message";
import { useChatActions } from "./chatActions";

/** The Edit button of a user message, and the branches made by editing it before. */
export function UserMessageTools({ msg, onEdit }: { msg: Message; onEdit: () => void }) {
  const { canEdit, branchesAt, onOpenThread, onEditMessage } = useChatActions();
  const branches = branchesAt?.get(msg.id) ?? [];
  return (
    <>
      {onEditMessage !== undefined && (
        <button
          type="button"
          className="copy-btn"
          data-testid="edit-message"
          disabled={canEdit !== true}
          title={canEdit === true ? "Edit this message and send it again (the thread branches here)" : "Wait for the reply to finish to edit"}
          onClick={onEdit}
        >
          <span className="copy-label">Edit</span>
        </button>
      )}
      {branches.length > 0 && (
        <span className="branch-links small muted" data-testid="branch-links">
          Edited in:{" "}
          {branches.map((b, i) => (
            <button key={b.thread_id} type="button" className="link" data-testid="open-branch" onClick={() => onOpenThread?.(b.thread_id)}>
              {b.title || `branch ${i + 1}`}
              {i < branches.length - 1 ? "," : ""}
            </button>
          ))}
        </span>
      )}
    </>
  );
}

/** A user message being edited: its text in a box, sent as a branch or cancelled. */
export function MessageEditor({ msg, onDone }: { msg: Message; onDone: () => void }) {
  const { onEditMessage, canEdit } = useChatActions();
  const [text, setText] = useState(msg.content);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const ref = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    ref.current?.focus();
  }, []);
  const canSend = text.trim() !== "" && canEdit === true && !busy;

  async function send() {
    if (!canSend || onEditMessage === undefined) return;
    setBusy(true);
    const refused = await onEditMessage(msg.id, text);
    setBusy(false);
    if (refused === null) onDone();
    else setError(refused);
  }

  return (
    <form
      className="message-edit"
      data-testid="message-edit"
      onSubmit={(e) => {
        e.preventDefault();
        void send();
      }}
    >
      <label htmlFor={`edit-${msg.id}`} className="visually-hidden">
        Edit your message
      </label>
      <textarea
        id={`edit-${msg.id}`}
        ref={ref}
        data-testid="message-edit-input"
        value={text}
        rows={Math.min(10, Math.max(2, text.split("\n").length))}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
            e.preventDefault();
            void send();
          } else if (e.key === "Escape") {
            // Close the editor, not stop a run.
            e.preventDefault();
            e.stopPropagation();
            onDone();
          }
        }}
      />
      {error !== null && (
        <p className="run-error small" role="alert" data-testid="message-edit-error">
          {error}
        </p>
      )}
      <div className="message-edit-actions">
        <span className="muted small">Sends in a new branch; this thread stays as it is.</span>
        <button type="button" className="btn small-btn" data-testid="message-edit-cancel" onClick={onDone}>
          Cancel
        </button>
        <button type="submit" className="btn primary small-btn" data-testid="message-edit-send" disabled={!canSend}>
          Send
        </button>
      </div>
    </form>
  );
}
