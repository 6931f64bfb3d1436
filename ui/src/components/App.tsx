import { ChatPane } from "./ChatPane";
import { ProviderSetup } from "./ProviderSetup";
import { SettingsDialog } from "./SettingsDialog";
import { Sidebar } from "./Sidebar";
import { useAppState, useStore } from "./storeContext";

export function App() {
  const state = useAppState();
  const store = useStore();

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
  return (
    <div className="app">
      <Sidebar />
      <ChatPane />
      {state.settingsOpen && (
        <div className="overlay" role="dialog" aria-modal="true" aria-label="Settings">
          <SettingsDialog />
        </div>
      )}
    </div>
  );
}
