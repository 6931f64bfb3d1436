import { useCallback, useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent } from "react";
import { draftOf, isThreadRunning } from "../core/store";
import { MessageList } from "./chat/MessageList";
import { FilesIcon, FolderIcon, WrenchIcon } from "./icons";
import { FoldersPanel } from "./FoldersPanel";
import { AttachButton, DropOverlay, UploadStatus, useUploads } from "./Uploads";
import type { UploadsStore } from "../core/uploads";
import { ApprovalPrompt } from "./ApprovalPrompt";
import { JobsBar } from "./JobsBar";
import { RunPicker } from "./RunPicker";
import { TodoPanel } from "./TodoPanel";
import { BranchBanner, ExportMenu, RegenerateBar } from "./ThreadActions";
import { ToolsInspector } from "./ToolsInspector";
import { useAppState, useStore } from "./storeContext";

export function ChatPane() {
  const state = useAppState();
  const store = useStore();
  const active = state.threads.find((t) => t.id === state.activeThreadId) ?? null;
  const running = isThreadRunning(state, state.activeThreadId);
  const runError = state.activeThreadId !== null ? state.runErrors[state.activeThreadId] : undefined;
  const runNotice = state.activeThreadId !== null ? state.runNotices[state.activeThreadId] : undefined;
  const [toolsOpen, setToolsOpen] = useState(false);
  const [foldersOpen, setFoldersOpen] = useState(false);
  const foldersButton = useRef<HTMLButtonElement>(null);
  const closeFolders = useCallback(() => {
    setFoldersOpen(false);
    foldersButton.current?.focus();
  }, []);
  const uploads = useUploads();
  const presentedCount = state.threadState?.artifacts.length ?? 0;
  const toolsButton = useRef<HTMLButtonElement>(null);
  const closeTools = useCallback(() => {
    setToolsOpen(false);
    // Back to where the user was.
    toolsButton.current?.focus();
  }, []);

  // Esc stops the run from anywhere in the window, unless a dialog is open (Esc closes it)
  // or something nearer already handled the key (a rename box cancelling its edit).
  useEffect(() => {
    if (!running) return;
    const onKey = (e: globalThis.KeyboardEvent) => {
      if (e.key !== "Escape" || e.defaultPrevented || e.isComposing) return;
      if (document.querySelector('[role="dialog"]') !== null) return;
      e.preventDefault();
      void store.stop();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [running, store]);

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
        <ExportMenu />
        <button
          type="button"
          className="btn small-btn head-btn"
          data-testid="open-artifacts"
          aria-pressed={state.artifactsOpen}
          disabled={state.activeThreadId === null}
          title={state.artifactsOpen ? "Hide the files the agent made" : "Show the files the agent made"}
          onClick={() => store.toggleArtifacts()}
        >
          <FilesIcon /> Artifacts
          {presentedCount > 0 && (
            <span className="head-count" data-testid="artifacts-count">
              {presentedCount}
            </span>
          )}
        </button>
        <button
          type="button"
          ref={foldersButton}
          className="btn small-btn head-btn"
          data-testid="open-folders"
          aria-haspopup="dialog"
          aria-expanded={foldersOpen}
          disabled={state.activeThreadId === null}
          title="The conversation's folders, and folders you give the agent"
          onClick={() => setFoldersOpen(true)}
        >
          <FolderIcon /> Folders
        </button>
      </header>
      {toolsOpen && <ToolsInspector threadId={state.activeThreadId} onClose={closeTools} />}
      {foldersOpen && state.activeThreadId !== null && (
        <FoldersPanel key={`folders-${state.activeThreadId}`} threadId={state.activeThreadId} onClose={closeFolders} />
      )}
      <DropOverlay uploads={uploads} />
      <BranchBanner />
      <MessageList
        messages={state.messages}
        running={running}
        loading={state.threadLoading}
        threadId={state.activeThreadId}
        runUsage={state.runUsage}
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
      <RegenerateBar />
      <JobsBar />
      <ApprovalPrompt />
      <TodoPanel />
      <UploadStatus uploads={uploads} threadId={state.activeThreadId} />
      <Composer key={state.activeThreadId ?? ""} draft={draftOf(state)} running={running} uploads={uploads} />
    </main>
  );
}

function Composer({ draft, running, uploads }: { draft: string; running: boolean; uploads: UploadsStore }) {
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
    <div className="composer-wrap">
      <div className="composer-bar">
        <RunPicker disabled={running} />
      </div>
    <form
      className="composer"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <AttachButton uploads={uploads} />
      <label htmlFor="composer-input" className="visually-hidden">
        Message
      </label>
      <textarea
        id="composer-input"
        ref={ref}
        data-testid="composer-input"
        rows={1}
        value={draft}
        placeholder={running ? "The agent is replying… Esc stops it; you can type your next message" : "Message the agent"}
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
    </div>
  );
}
