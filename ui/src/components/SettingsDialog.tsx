import { useEffect, useState } from "react";
import { MemorySettings } from "./MemorySettings";
import { PermissionsSettings } from "./PermissionsSettings";
import { ProviderSetup } from "./ProviderSetup";
import { useStore } from "./storeContext";

type Tab = "provider" | "memory" | "permissions";

/** Settings opened from the main view: the model provider, and Memory. */
export function SettingsDialog() {
  const [tab, setTab] = useState<Tab>("provider");
  const store = useStore();
  useEffect(() => {
    // The provider form closes on Escape itself; the other pages do the same.
    if (tab === "provider") return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") store.closeSettings();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [tab, store]);
  return (
    <div className="settings-dialog">
      <div className="settings-tabs" role="tablist" aria-label="Settings sections">
        <button type="button" role="tab" aria-selected={tab === "provider"} className="tab" onClick={() => setTab("provider")}>
          Provider
        </button>
        <button
          type="button"
          role="tab"
          aria-selected={tab === "memory"}
          className="tab"
          onClick={() => setTab("memory")}
          data-testid="settings-tab-memory"
        >
          Memory
        </button>
        <button
          type="button"
          role="tab"
          aria-selected={tab === "permissions"}
          className="tab"
          onClick={() => setTab("permissions")}
          data-testid="settings-tab-permissions"
        >
          Permissions
        </button>
      </div>
      {tab === "provider" ? (
        <ProviderSetup firstRun={false} />
      ) : tab === "permissions" ? (
        <div className="card settings-card" role="tabpanel" aria-label="Permissions">
          <h2>Permissions</h2>
          <PermissionsSettings />
          <div className="actions">
            <button type="button" className="btn" onClick={() => store.closeSettings()}>
              Close
            </button>
          </div>
        </div>
      ) : (
        <div className="card settings-card" role="tabpanel" aria-label="Memory">
          <h2>Memory</h2>
          <MemorySettings />
          <div className="actions">
            <button type="button" className="btn" onClick={() => store.closeSettings()}>
              Close
            </button>
          </div>
        </div>
      )}
    </div>
  );
}
