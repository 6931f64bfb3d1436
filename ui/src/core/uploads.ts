/**
 * Uploading files into a thread: dropped on the chat or picked with the attach button. The
 * backend copies host files into the thread's uploads folder and answers with their virtual
 * paths, which are then written into the composer so the model is told where the files are.
 * Pure TS: the chat renders this store's state.
 */
import { errorText, type Api, type FileDropEvent } from "./api";

export type UploadsApi = Pick<Api, "uploadFiles" | "pickFiles">;

/** Where uploaded files land, as the model sees them. */
export const UPLOADS_ROOT = "/mnt/user-data/uploads";

/** What the uploads store needs from the app around it. */
export type UploadHost = {
  /** The open thread, or null when none is open. */
  activeThread(): string | null;
  /** Opens a new thread for files dropped before any was open; null if that failed (the app says why). */
  newThread(): Promise<string | null>;
  /** Puts the uploaded files' virtual paths into the thread's composer text. */
  mention(threadId: string, virtualPaths: string[]): void;
  /** Files are not taken now (another page covers the chat). */
  blocked(): boolean;
};

/**
 * `draft` with each of `paths` on a line of its own at the end, leaving out those it already
 * names, so the message tells the model where the files are.
 */
export function mentionPaths(draft: string, paths: readonly string[]): string {
  const fresh = [...new Set(paths)].filter((p) => !draft.includes(p));
  if (fresh.length === 0) return draft;
  const lines = fresh.join("\n");
  if (draft.trim() === "") return `${lines}\n`;
  return draft.endsWith("\n") ? `${draft}${lines}\n` : `${draft}\n${lines}\n`;
}

/** A file's name from a host or virtual path (either separator). */
export function fileName(path: string): string {
  return path.split(/[\\/]/).filter((p) => p !== "").at(-1) ?? path;
}

/** "Uploading report.pdf…" / "Uploading 3 files…" */
export function uploadingText(hostPaths: readonly string[]): string {
  return hostPaths.length === 1 ? `Uploading ${fileName(hostPaths[0] ?? "")}…` : `Uploading ${hostPaths.length} files…`;
}

/** "Uploaded report.pdf." / "Uploaded 3 files." with where the model finds them. */
export function uploadedText(virtualPaths: readonly string[]): string {
  const what = virtualPaths.length === 1 ? fileName(virtualPaths[0] ?? "") : `${virtualPaths.length} files`;
  return `Uploaded ${what} to ${UPLOADS_ROOT}; the path${virtualPaths.length === 1 ? " is" : "s are"} in your message.`;
}

export type UploadsState = {
  /** Files are over the window. */
  dragging: boolean;
  /** An upload in progress: its thread and what it copies. */
  busy: { threadId: string; text: string } | null;
  /** The last upload's result, for its thread. */
  result: { threadId: string; paths: string[]; text: string } | null;
  /** Why the last upload failed (the backend's sentence), for its thread. Nothing was kept. */
  error: { threadId: string | null; text: string } | null;
};

export const initialUploadsState: UploadsState = { dragging: false, busy: null, result: null, error: null };

export type UploadsStore = ReturnType<typeof createUploadsStore>;

export function createUploadsStore(api: UploadsApi, host: UploadHost) {
  let state = initialUploadsState;
  const listeners = new Set<() => void>();
  const set = (patch: Partial<UploadsState>) => {
    state = { ...state, ...patch };
    for (const l of listeners) l();
  };

  /** Uploads `hostPaths` into the open thread (a new one when none is open). */
  async function upload(hostPaths: string[]): Promise<void> {
    if (hostPaths.length === 0 || state.busy !== null) return;
    let threadId = host.activeThread();
    if (threadId === null) {
      threadId = await host.newThread();
      if (threadId === null) return;
    }
    const id = threadId;
    set({ busy: { threadId: id, text: uploadingText(hostPaths) }, error: null, result: null });
    try {
      const paths = await api.uploadFiles(id, hostPaths);
      host.mention(id, paths);
      set({ busy: null, result: { threadId: id, paths, text: uploadedText(paths) } });
    } catch (err) {
      set({ busy: null, error: { threadId: id, text: errorText(err) } });
    }
  }

  return {
    getState: (): UploadsState => state,
    subscribe(listener: () => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    upload,
    /** The attach button: the system file picker, then upload what was picked. */
    async pickAndUpload(): Promise<void> {
      let picked: string[];
      try {
        picked = await api.pickFiles("Attach files to this thread");
      } catch (err) {
        set({ error: { threadId: host.activeThread(), text: errorText(err) } });
        return;
      }
      await upload(picked);
    },
    /** Feeds one drag-and-drop event of the window. */
    onDrop(event: FileDropEvent): void {
      if (host.blocked()) {
        if (state.dragging) set({ dragging: false });
        return;
      }
      switch (event.type) {
        case "enter":
          if (event.paths.length > 0) set({ dragging: true });
          return;
        case "over":
          return;
        case "leave":
          set({ dragging: false });
          return;
        case "drop":
          set({ dragging: false });
          void upload(event.paths);
          return;
      }
    },
    dismiss(): void {
      set({ result: null, error: null });
    },
  };
}
