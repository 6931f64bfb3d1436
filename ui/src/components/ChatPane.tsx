import { useCallback, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from "react";
import type { Message } from "../bindings/Message";
import type { PendingCall } from "../bindings/PendingCall";
import { statusNote } from "../core/messages";
import { draftOf, isThreadRunning } from "../core/store";
import { chatItems, type ChatItem } from "../core/toolCalls";
import { WrenchIcon } from "./icons";
import { ApprovalPrompt } from "./ApprovalPrompt";
import { JobsBar } from "./JobsBar";
import { TodoPanel } from "./TodoPanel";
import { ToolCallRows } from "./ToolCallRows";
import { ToolsInspector } from "./ToolsInspector";
import { useAppState, useStore } from "./storeContext";

/** Within this many pixels of the bottom the list keeps following new text. */
const STICK_TO_BOTTOM_PX = 80;

export function ChatPane() {
  const state = useAppState();
  const store = useStore();
  const active = state.threads.find((t) => t.id === state.activeThreadId) ?? null;
  const running = isThreadRunning(state, state.activeThreadId);
  const runError = state.activeThreadId !== null ? state.runErrors[state.activeThreadId] : undefined;
  const runNotice = state.activeThreadId !== null ? state.runNotices[state.activeThreadId] : undefined;
  const [toolsOpen, setToolsOpen] = useState(false);
  const toolsButton = useRef<HTMLButtonElement>(null);
  const closeTools = useCallback(() => {
    setToolsOpen(false);
    // Back to where the user was.
    toolsButton.current?.focus();
  }, []);

  return (
    <main className="chat" aria-label="Chat">
      <header className="chat-head">
        <h1 className="chat-title">{active?.title ?? "New conversation"}</h1>
        {running && (
          <span className="run-badge" data-testid="run-status">
            <span className="run-dot" aria-hidden="true" /> Running
          </span>
        )}
        <button
          type="button"
          ref={toolsButton}
          className="btn small-btn head-btn"
          data-testid="open-tools"
          aria-haspopup="dialog"
          aria-expanded={toolsOpen}
          title="Which tools the next run gets, and why"
          onClick={() => setToolsOpen(true)}
        >
          <WrenchIcon /> Tools
        </button>
      </header>
      {toolsOpen && <ToolsInspector threadId={state.activeThreadId} onClose={closeTools} />}
      <MessageList
        messages={state.messages}
        running={running}
        loading={state.threadLoading}
        threadId={state.activeThreadId}
        waiting={state.threadState?.pending}
      />
      {runNotice !== undefined && (
        <div className="run-notice" role="status" data-testid="run-notice">
          {runNotice}
        </div>
      )}
      {runError !== undefined && (
        <div className="run-error" role="alert" data-testid="run-error">
          <span>{runError}</span>
          <button type="button" className="link" onClick={() => store.dismissRunError()} aria-label="Dismiss error">
            Dismiss
          </button>
        </div>
      )}
      <JobsBar />
      <ApprovalPrompt />
      <TodoPanel />
      <Composer key={state.activeThreadId ?? ""} draft={draftOf(state)} running={running} />
    </main>
  );
}

function MessageList({
  messages,
  running,
  loading,
  threadId,
  waiting,
}: {
  messages: Message[];
  running: boolean;
  loading: boolean;
  threadId: string | null;
  /** Calls waiting for the user's approval. */
  waiting: PendingCall[] | undefined;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const stick = useRef(true);

  // A newly opened thread starts at its end.
  useLayoutEffect(() => {
    stick.current = true;
  }, [threadId]);

  useLayoutEffect(() => {
    const el = ref.current;
    if (el && stick.current) el.scrollTop = el.scrollHeight;
  }, [messages]);

  // Tool results attach to their calls; the list stays the single source of truth.
  const items = useMemo(() => {
    const ids = new Set((waiting ?? []).filter((p) => p.decision === null).map((p) => p.call.id));
    return chatItems(messages, running, ids);
  }, [messages, running, waiting]);

  return (
    <div
      className="messages"
      ref={ref}
      data-testid="message-list"
      onScroll={(e) => {
        const el = e.currentTarget;
        stick.current = el.scrollHeight - el.scrollTop - el.clientHeight < STICK_TO_BOTTOM_PX;
      }}
    >
      <div className="messages-inner">
        {loading && <p className="muted center">Loading…</p>}
        {!loading && items.length === 0 && (
          <div className="empty-chat">
            <h2>{threadId === null ? "Start a conversation" : "No messages yet"}</h2>
            <p className="muted">Type a message below. Enter sends, Shift+Enter adds a new line.</p>
          </div>
        )}
        {items.map((item) => (
          <MessageView key={item.message.id} item={item} />
        ))}
      </div>
    </div>
  );
}

function MessageView({ item }: { item: ChatItem }) {
  const { message: msg, rows } = item;
  const note = statusNote(msg);
  const streaming = msg.status === "streaming";
  const empty = msg.content === "" && msg.reasoning === "";
  return (
    <article className={`message ${msg.role === "user" ? "user" : "assistant"} status-${msg.status}`} data-testid="message" data-role={msg.role} data-status={msg.status}>
      <div className="bubble">
        {msg.reasoning !== "" && (
          <details className="reasoning" open={streaming && msg.content === ""}>
            <summary>Reasoning</summary>
            <div className="reasoning-text">{msg.reasoning}</div>
          </details>
        )}
        <div className="content" data-testid="message-content">
          {msg.content}
          {streaming && <span className="cursor" aria-hidden="true" />}
        </div>
        {streaming && empty && rows.length === 0 && <span className="typing" aria-label="The assistant is replying" role="status"><i /><i /><i /></span>}
        <ToolCallRows rows={rows} />
      </div>
      {note !== null && (
        <p
          className={`message-note note-${msg.status}`}
          data-testid="message-note"
          role={msg.status === "error" ? "alert" : undefined}
        >
          {note}
        </p>
      )}
    </article>
  );
}

function Composer({ draft, running }: { draft: string; running: boolean }) {
  const store = useStore();
  const ref = useRef<HTMLTextAreaElement>(null);
  const canSend = draft.trim() !== "" && !running;

  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    el.style.height = "auto";
    el.style.height = `${Math.min(el.scrollHeight, 240)}px`;
  }, [draft]);

  function onKeyDown(e: KeyboardEvent<HTMLTextAreaElement>) {
    if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      if (canSend) void store.send();
    }
  }

  function submit() {
    if (!canSend) return;
    // Send turns into Stop; keep the keyboard in the composer.
    ref.current?.focus();
    void store.send();
  }

  return (
    <form
      className="composer"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <label htmlFor="composer-input" className="visually-hidden">
        Message
      </label>
      <textarea
        id="composer-input"
        ref={ref}
        data-testid="composer-input"
        rows={1}
        value={draft}
        placeholder={running ? "The agent is replying… you can type your next message" : "Message the agent"}
        onChange={(e) => store.setDraft(e.target.value)}
        onKeyDown={onKeyDown}
        autoFocus
      />
      {running ? (
        <button type="button" className="btn stop" data-testid="stop-button" onClick={() => void store.stop()}>
          <span className="stop-square" aria-hidden="true" /> Stop
        </button>
      ) : (
        <button type="submit" className="btn primary" data-testid="send-button" disabled={!canSend}>
          Send
        </button>
      )}
    </form>
  );
}
