import { useEffect, useId, useMemo, useRef, useSyncExternalStore, type KeyboardEvent } from "react";
import { createFoldersStore, folderRole, formVirtualPath, mountVirtualPath } from "../core/folders";
import { CrossIcon, FolderIcon, TrashIcon } from "./icons";
import { useStore } from "./storeContext";
import "./folders.css";

/**
 * The thread's folders as a drawer: where the model sees each one and where it is on the host,
 * the button that opens the thread's folder in the file manager, and the form that gives the
 * thread a host folder (as its workspace or as an extra mount, read-write or read-only).
 */
export function FoldersPanel({ threadId, onClose }: { threadId: string; onClose: () => void }) {
  const app = useStore();
  const folders = useMemo(() => createFoldersStore(app.api, threadId), [app, threadId]);
  const state = useSyncExternalStore(folders.subscribe, folders.getState);
  const titleId = useId();
  const panel = useRef<HTMLDivElement>(null);
  const chooseRef = useRef<HTMLButtonElement>(null);
  const { form } = state;

  useEffect(() => {
    void folders.load();
  }, [folders]);

  useEffect(() => {
    chooseRef.current?.focus();
  }, []);

  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent) => {
      if (e.key === "Escape") {
        e.preventDefault();
        onClose();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [onClose]);

  /** Keeps Tab inside the drawer while it is open. */
  function trapTab(e: KeyboardEvent<HTMLDivElement>) {
    if (e.key !== "Tab" || panel.current === null) return;
    const focusable = [...panel.current.querySelectorAll<HTMLElement>("button, input, [href]")].filter(
      (el) => !el.hasAttribute("disabled") && el.offsetParent !== null,
    );
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    if (first === undefined || last === undefined) return;
    if (e.shiftKey && document.activeElement === first) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && document.activeElement === last) {
      e.preventDefault();
      first.focus();
    }
  }

  const mountedPaths = new Set(state.mounts.map(mountVirtualPath));

  return (
    <div
      className="drawer-backdrop"
      onMouseDown={(e) => {
        if (e.target === e.currentTarget) onClose();
      }}
    >
      <div className="drawer" ref={panel} role="dialog" aria-modal="true" aria-labelledby={titleId} data-testid="folders-panel" onKeyDown={trapTab}>
        <header className="drawer-head">
          <div className="drawer-title">
            <h2 id={titleId}>Folders</h2>
            <p className="muted small">What the agent can reach in this conversation, and where it is on your computer</p>
          </div>
          <button type="button" className="icon-btn" onClick={onClose} aria-label="Close folders" data-testid="close-folders">
            <CrossIcon />
          </button>
        </header>
        <div className="drawer-body">
          <div className="folders-actions">
            <button type="button" className="btn small-btn" data-testid="open-thread-folder" onClick={() => void folders.openFolder()}>
              <FolderIcon /> Open folder
            </button>
            <span className="muted small">Opens this conversation's folder in your file manager.</span>
          </div>
          {state.error !== null && (
            <p className="alert" role="alert" data-testid="folders-error">
              {state.error}
            </p>
          )}
          {state.loading ? (
            <p className="muted" role="status">
              Loading folders…
            </p>
          ) : (
            <ul className="folder-list" aria-label="Folders the agent sees">
              {state.folders.map((f) => (
                <li key={f.virtual_path} className="folder-item" data-testid="folder-item" data-path={f.virtual_path}>
                  <div className="folder-line">
                    <span className="folder-role">{folderRole(f)}</span>
                    <span className={f.writable ? "folder-mode rw" : "folder-mode ro"} data-testid="folder-mode">
                      {f.writable ? "read-write" : "read-only"}
                    </span>
                    {f.mounted && mountedPaths.has(f.virtual_path) && (
                      <button
                        type="button"
                        className="btn small-btn danger folder-remove"
                        disabled={state.saving}
                        aria-label={`Remove ${f.virtual_path}`}
                        data-testid="remove-mount"
                        onClick={() => void folders.removeMount(f.virtual_path)}
                      >
                        <TrashIcon /> Remove
                      </button>
                    )}
                  </div>
                  <code className="folder-virtual">{f.virtual_path}</code>
                  <span className="folder-host muted small" title="On your computer">
                    {f.host}
                  </span>
                </li>
              ))}
            </ul>
          )}

          <form
            className="mount-form"
            aria-labelledby={`${titleId}-add`}
            data-testid="mount-form"
            onSubmit={(e) => {
              e.preventDefault();
              void folders.addMount();
            }}
          >
            <h3 id={`${titleId}-add`}>Give the agent a folder</h3>
            <div className="mount-pick">
              <button type="button" ref={chooseRef} className="btn small-btn" data-testid="choose-folder" onClick={() => void folders.pickFolder()}>
                Choose folder…
              </button>
              <span className={form.host === "" ? "muted small" : "mount-host"} data-testid="chosen-folder">
                {form.host === "" ? "No folder chosen" : form.host}
              </span>
            </div>
            <fieldset className="mount-as">
              <legend className="small">The agent sees it as</legend>
              <label>
                <input
                  type="radio"
                  name={`${titleId}-as`}
                  checked={!form.asWorkspace}
                  onChange={() => folders.setForm({ asWorkspace: false })}
                  data-testid="mount-as-extra"
                />{" "}
                an extra folder named
              </label>
              <label className="visually-hidden" htmlFor={`${titleId}-name`}>
                Mount name
              </label>
              <input
                id={`${titleId}-name`}
                className="mount-name"
                value={form.name}
                disabled={form.asWorkspace}
                placeholder="name"
                spellCheck={false}
                autoComplete="off"
                onChange={(e) => folders.setForm({ name: e.target.value })}
                data-testid="mount-name"
              />
              <label>
                <input
                  type="radio"
                  name={`${titleId}-as`}
                  checked={form.asWorkspace}
                  onChange={() => folders.setForm({ asWorkspace: true })}
                  data-testid="mount-as-workspace"
                />{" "}
                the workspace itself (its own workspace is set aside)
              </label>
            </fieldset>
            <label className="mount-ro">
              <input type="checkbox" checked={form.readOnly} onChange={(e) => folders.setForm({ readOnly: e.target.checked })} data-testid="mount-read-only" />{" "}
              Read-only: the agent can read it but never change it, by file tools or the shell
            </label>
            <p className="small muted">
              Seen by the agent at <code data-testid="mount-preview">{formVirtualPath(form)}</code>
            </p>
            {state.formError !== null && (
              <p className="alert" role="alert" data-testid="mount-error">
                {state.formError}
              </p>
            )}
            {state.notice !== null && (
              <p className="mount-notice small" role="status" data-testid="mount-notice">
                {state.notice}
              </p>
            )}
            <div className="actions">
              <button type="submit" className="btn primary small-btn" disabled={state.saving} data-testid="add-mount">
                {state.saving ? "Saving…" : "Add folder"}
              </button>
            </div>
            <p className="muted small">Changes apply from the next run in this conversation; a run going now keeps its folders.</p>
          </form>
        </div>
      </div>
    </div>
  );
}
