import { useCallback, useEffect, useMemo } from "react";
import { createMcpStore } from "../core/mcp";
import { ArtifactsPanel } from "./ArtifactsPanel";
import { ChatActionsProvider, type ChatActions } from "./chat/chatActions";
import { ChatPane } from "./ChatPane";
import { McpManager } from "./McpManager";
import { ProviderSetup } from "./ProviderSetup";
import { SettingsDialog } from "./SettingsDialog";
import { Sidebar } from "./Sidebar";
import { useAppState, useStore } from "./storeContext";
import { isThreadRunning } from "../core/store";
import { branchesByMessage } from "../core/branches";

/** Ctrl+N (Cmd+N on macOS) starts a new thread, as in other chat apps. */
function isNewThreadShortcut(e: KeyboardEvent): boolean {
  return e.key.toLowerCase() === "n" && (e.ctrlKey || e.metaKey) && !e.shiftKey && !e.altKey;
}

export function App() {
  const state = useAppState();
  const store = useStore();
  const main = state.screen === "main" && state.loadError === null;
  const canEdit = !isThreadRunning(state, state.activeThreadId);
  const branches = state.branches;
  const actions = useMemo<ChatActions>(
    () => ({
      onOpenFile: (path) => store.openFile(path),
      onEditMessage: (id, text) => store.editAndResend(id, text),
      canEdit,
      branchesAt: branchesByMessage(branches),
      onOpenThread: (id) => void store.openThread(id),
    }),
    [store, canEdit, branches],
  );
  // One MCP store for the app's life: its watch channel keeps running in the backend, and
  // what was typed in the page survives closing it.
  const mcp = useMemo(() => createMcpStore(store.api), [store]);
  const closeMcp = useCallback(() => {
    store.closeMcp();
    document.querySelector<HTMLElement>('[data-testid="open-mcp"]')?.focus();
  }, [store]);

  useEffect(() => {
    if (!main) return;
    const onKey = (e: KeyboardEvent) => {
      if (!isNewThreadShortcut(e) || document.querySelector('[role="dialog"]') !== null) return;
      e.preventDefault();
      void store.newThread().then(() => document.getElementById("composer-input")?.focus());
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [main, store]);

  if (state.loadError !== null) {
    return (
      <div className="center-screen">
        <div className="card">
          <h1>Workbench could not start</h1>
          <p role="alert" className="alert">
            {state.loadError}
          </p>
          <button type="button" className="btn primary" onClick={() => void store.init()}>
            Try again
          </button>
        </div>
      </div>
    );
  }
  if (state.screen === "loading") {
    return (
      <div className="center-screen" aria-busy="true">
        <p className="muted">Loading…</p>
      </div>
    );
  }
  if (state.screen === "setup") {
    return (
      <div className="center-screen">
        <ProviderSetup firstRun />
      </div>
    );
  }
  const panelThread = state.artifactsOpen ? state.activeThreadId : null;
  return (
    <div className={panelThread !== null ? "app with-artifacts" : "app"} data-opened-file={state.openedFile ?? undefined}>
      <Sidebar />
      <ChatActionsProvider value={actions}>
        <ChatPane />
      </ChatActionsProvider>
      {panelThread !== null && <ArtifactsPanel key={panelThread} threadId={panelThread} />}
      {state.mcpOpen && (
        <div className="overlay" role="dialog" aria-modal="true" aria-label="MCP servers">
          <McpManager mcp={mcp} onClose={closeMcp} />
        </div>
      )}
      {state.settingsOpen && (
        <div className="overlay" role="dialog" aria-modal="true" aria-label="Settings">
          <SettingsDialog />
        </div>
      )}
    </div>
  );
}
