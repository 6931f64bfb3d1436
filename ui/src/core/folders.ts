/**
 * A thread's folders (the chat header's Folders panel) as a small external store: the folders
 * the model sees, the host folders mounted into the thread, and the form that adds one. The
 * backend checks every mount (name, existence, overlap with Workbench's data); its sentence is
 * shown as is and the form keeps what was chosen. Mount changes apply from the next run.
 */
import { errorText, type Api, type MountSpec, type ThreadFolder } from "./api";

export type FoldersApi = Pick<Api, "threadMounts" | "setThreadMounts" | "threadFolders" | "openThreadFolder" | "pickFolder">;

/** Where the model sees the user's mounts. */
export const MOUNTS_ROOT = "/mnt/user-data/mounts";
/** The thread's own workspace, or the host folder that replaces it. */
export const WORKSPACE = "/mnt/user-data/workspace";
/** The backend's limit on a mount name (crates/sandbox/src/mounts.rs MAX_MOUNT_NAME_LEN). */
export const MAX_MOUNT_NAME_LEN = 64;

/** What the add-a-folder form holds. */
export type MountForm = {
  /** The host folder picked with the system picker ("" until picked). */
  host: string;
  /** The folder becomes the workspace itself instead of a mount under /mnt/user-data/mounts. */
  asWorkspace: boolean;
  /** The mount's name (ignored for the workspace). */
  name: string;
  readOnly: boolean;
};

export const emptyMountForm: MountForm = { host: "", asWorkspace: false, name: "", readOnly: false };

/** Where the model will see the mount the form describes. */
export function formVirtualPath(form: MountForm): string {
  return form.asWorkspace ? WORKSPACE : `${MOUNTS_ROOT}/${form.name === "" ? "<name>" : form.name}`;
}

/** Where the model sees a saved mount. */
export function mountVirtualPath(m: MountSpec): string {
  return m.name === null ? WORKSPACE : `${MOUNTS_ROOT}/${m.name}`;
}

/** The last part of a host path (`/home/me/Projects/site` -> `site`), either separator. */
export function baseName(path: string): string {
  const parts = path.split(/[\\/]+/).filter((p) => p !== "");
  return parts.at(-1) ?? "";
}

/**
 * A mount name the backend accepts (a-z, 0-9, `-`, `_`, at most 64), made from a folder's
 * name and distinct from `taken`: `My Project!` -> `my-project`, then `my-project-2`, ...
 */
export function suggestMountName(hostPath: string, taken: readonly string[]): string {
  const base =
    baseName(hostPath)
      .toLowerCase()
      .normalize("NFKD")
      .replace(/[^a-z0-9_-]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, MAX_MOUNT_NAME_LEN) || "folder";
  if (!taken.includes(base)) return base;
  for (let n = 2; ; n++) {
    const suffix = `-${n}`;
    const name = `${base.slice(0, MAX_MOUNT_NAME_LEN - suffix.length)}${suffix}`;
    if (!taken.includes(name)) return name;
  }
}

/** The mount the form describes. The name is sent as typed: the backend says what is wrong with it. */
export function formToMount(form: MountForm): MountSpec {
  return { name: form.asWorkspace ? null : form.name.trim(), host: form.host, read_only: form.readOnly };
}

/**
 * `mounts` with `added` in place: a new workspace folder replaces the old one (a thread has one
 * workspace); a mount of an existing name is left for the backend to refuse as a duplicate.
 */
export function withMount(mounts: readonly MountSpec[], added: MountSpec): MountSpec[] {
  const rest = added.name === null ? mounts.filter((m) => m.name !== null) : [...mounts];
  // The workspace first, as the backend lists folders.
  return added.name === null ? [added, ...rest] : [...rest, added];
}

/** `mounts` without the one seen at `virtualPath`. */
export function withoutMount(mounts: readonly MountSpec[], virtualPath: string): MountSpec[] {
  return mounts.filter((m) => mountVirtualPath(m) !== virtualPath);
}

/** A short label for a folder of the list: what the model sees it as. */
export function folderRole(f: ThreadFolder): string {
  if (f.virtual_path === WORKSPACE) return f.mounted ? "Workspace (your folder)" : "Workspace";
  if (f.virtual_path.endsWith("/uploads")) return "Uploads";
  if (f.virtual_path.endsWith("/outputs")) return "Outputs";
  return "Mounted folder";
}

export type FoldersState = {
  loading: boolean;
  folders: ThreadFolder[];
  mounts: MountSpec[];
  /** Loading or opening the folder failed. */
  error: string | null;
  form: MountForm;
  /** Why the last save or removal was refused (the backend's sentence); the form is kept. */
  formError: string | null;
  saving: boolean;
  /** Said after a change: it applies from the next run. */
  notice: string | null;
};

export const initialFoldersState: FoldersState = {
  loading: true,
  folders: [],
  mounts: [],
  error: null,
  form: emptyMountForm,
  formError: null,
  saving: false,
  notice: null,
};

/** Said after every saved change: a running agent keeps the folders it started with. */
export const NEXT_RUN_NOTICE = "Saved. The agent sees this change from its next run in this thread.";

export type FoldersStore = ReturnType<typeof createFoldersStore>;

export function createFoldersStore(api: FoldersApi, threadId: string) {
  let state = initialFoldersState;
  const listeners = new Set<() => void>();
  const set = (patch: Partial<FoldersState>) => {
    state = { ...state, ...patch };
    for (const l of listeners) l();
  };

  async function load(): Promise<void> {
    set({ loading: true, error: null });
    try {
      const [folders, mounts] = await Promise.all([api.threadFolders(threadId), api.threadMounts(threadId)]);
      set({ loading: false, folders, mounts });
    } catch (err) {
      set({ loading: false, error: errorText(err) });
    }
  }

  /** Saves `mounts`; true when the backend took them. */
  async function save(mounts: MountSpec[]): Promise<boolean> {
    set({ saving: true, formError: null, notice: null });
    try {
      const saved = await api.setThreadMounts(threadId, mounts);
      set({ saving: false, mounts: saved, notice: NEXT_RUN_NOTICE });
      try {
        set({ folders: await api.threadFolders(threadId) });
      } catch (err) {
        set({ error: errorText(err) });
      }
      return true;
    } catch (err) {
      set({ saving: false, formError: errorText(err) });
      return false;
    }
  }

  return {
    getState: (): FoldersState => state,
    subscribe(listener: () => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    load,
    setForm(patch: Partial<MountForm>): void {
      set({ form: { ...state.form, ...patch } });
    },
    /**
     * Asks the system folder picker for the folder. A pick fills an empty (or still suggested)
     * name from the folder's name; a cancel changes nothing.
     */
    async pickFolder(): Promise<void> {
      let picked: string | null;
      try {
        picked = await api.pickFolder("Choose a folder for the agent");
      } catch (err) {
        set({ formError: errorText(err) });
        return;
      }
      if (picked === null) return;
      const taken = state.mounts.flatMap((m) => (m.name === null ? [] : [m.name]));
      const before = state.form;
      const suggestedBefore = before.host === "" ? "" : suggestMountName(before.host, taken);
      const keepName = before.name !== "" && before.name !== suggestedBefore;
      set({
        form: { ...before, host: picked, name: keepName ? before.name : suggestMountName(picked, taken) },
        formError: null,
      });
    },
    /** Adds the form's folder; on success the form is cleared, on a refusal it is kept. */
    async addMount(): Promise<boolean> {
      if (state.saving) return false;
      if (state.form.host === "") {
        set({ formError: "Choose a folder first." });
        return false;
      }
      const ok = await save(withMount(state.mounts, formToMount(state.form)));
      if (ok) set({ form: emptyMountForm });
      return ok;
    },
    /** Removes the mount seen at `virtualPath` (the host folder itself is untouched). */
    async removeMount(virtualPath: string): Promise<boolean> {
      if (state.saving) return false;
      return save(withoutMount(state.mounts, virtualPath));
    },
    /** Opens the thread's folder in the file manager; a failure shows its sentence. */
    async openFolder(): Promise<void> {
      try {
        await api.openThreadFolder(threadId);
        set({ error: null });
      } catch (err) {
        set({ error: errorText(err) });
      }
    },
  };
}
