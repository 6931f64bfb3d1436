import { useEffect, useMemo, useSyncExternalStore } from "react";
import { createUploadsStore, fileName, type UploadsStore } from "../core/uploads";
import { PaperclipIcon, CrossIcon } from "./icons";
import { useStore } from "./storeContext";
import "./folders.css";

/**
 * The chat's uploads store, listening to files dropped on the window for as long as the chat
 * is shown. Dropped files go to the open thread (a new one when none is open).
 */
export function useUploads(): UploadsStore {
  const app = useStore();
  const uploads = useMemo(
    () =>
      createUploadsStore(app.api, {
        activeThread: () => app.getState().activeThreadId,
        newThread: () => app.newThread(),
        mention: (threadId, paths) => app.mentionFiles(threadId, paths),
        blocked: () => {
          const s = app.getState();
          return s.settingsOpen || s.mcpOpen || s.screen !== "main";
        },
      }),
    [app],
  );
  useEffect(() => {
    let unlisten: (() => void) | null = null;
    let gone = false;
    app.api.onFileDrop((e) => uploads.onDrop(e)).then(
      (u) => {
        if (gone) u();
        else unlisten = u;
      },
      // Without the webview's drop events the attach button still uploads.
      () => {},
    );
    return () => {
      gone = true;
      unlisten?.();
    };
  }, [app, uploads]);
  return uploads;
}

/** The cover shown while files are dragged over the window. */
export function DropOverlay({ uploads }: { uploads: UploadsStore }) {
  const state = useSyncExternalStore(uploads.subscribe, uploads.getState);
  if (!state.dragging) return null;
  return (
    <div className="drop-overlay" data-testid="drop-overlay" aria-hidden="true">
      <div className="drop-box">
        <PaperclipIcon />
        <p>Drop files to upload them to this conversation</p>
        <p className="small muted">The agent finds them in /mnt/user-data/uploads</p>
      </div>
    </div>
  );
}

/** What the last upload of the open thread did: in progress, the files it copied, or why it failed. */
export function UploadStatus({ uploads, threadId }: { uploads: UploadsStore; threadId: string | null }) {
  const state = useSyncExternalStore(uploads.subscribe, uploads.getState);
  if (state.busy !== null && state.busy.threadId === threadId) {
    return (
      <div className="upload-status" role="status" data-testid="upload-busy">
        <span className="spinner" aria-hidden="true" /> {state.busy.text}
      </div>
    );
  }
  if (state.error !== null && (state.error.threadId === threadId || state.error.threadId === null)) {
    return (
      <div className="run-error" role="alert" data-testid="upload-error">
        <span>{state.error.text}</span>
        <button type="button" className="link" onClick={() => uploads.dismiss()} aria-label="Dismiss upload error">
          Dismiss
        </button>
      </div>
    );
  }
  if (state.result !== null && state.result.threadId === threadId) {
    return (
      <div className="upload-status" role="status" data-testid="upload-result">
        <span>{state.result.text}</span>
        <ul className="upload-chips" aria-label="Uploaded files">
          {state.result.paths.map((p) => (
            <li key={p} className="chip upload-chip" title={p} data-testid="upload-chip">
              {fileName(p)}
            </li>
          ))}
        </ul>
        <button type="button" className="icon-btn" onClick={() => uploads.dismiss()} aria-label="Hide upload result">
          <CrossIcon />
        </button>
      </div>
    );
  }
  return null;
}

/** The composer's attach button: the system file picker, then upload. */
export function AttachButton({ uploads }: { uploads: UploadsStore }) {
  const state = useSyncExternalStore(uploads.subscribe, uploads.getState);
  return (
    <button
      type="button"
      className="icon-btn attach-btn"
      data-testid="attach-files"
      aria-label="Attach files"
      title="Attach files (or drop them on the chat)"
      disabled={state.busy !== null}
      onClick={() => void uploads.pickAndUpload()}
    >
      <PaperclipIcon />
    </button>
  );
}
