/**
 * The MCP manager page's state and actions, as a small external store over the MCP part of
 * the `Api` (the page renders it; tests drive it with a fake). The overview is the single
 * source of truth: once the watch channel has delivered, every change arrives through it
 * (statuses that change on their own included); command answers are applied only before that.
 *
 * What the user typed (the add/edit form, pasted JSON) lives here too, so an error or a
 * closed page loses none of it.
 */
import type { McpOverview } from "../bindings/McpOverview";
import type { PromptInfo } from "../bindings/PromptInfo";
import type { ResourceInfo } from "../bindings/ResourceInfo";
import type { ServerView } from "../bindings/ServerView";
import type { ValidationReport } from "../bindings/ValidationReport";
import { errorText, type Api } from "./api";
import { emptyForm, formFromServer, formToInput, importSentence, validateForm, type FieldErrors, type ServerForm } from "./mcpForm";
import { checkPastedJson } from "./mcpJson";

export type McpApi = Pick<
  Api,
  | "mcpOverview"
  | "mcpWatch"
  | "mcpSaveServer"
  | "mcpRemoveServer"
  | "mcpSetEnabled"
  | "mcpSetToolEnabled"
  | "mcpReconnect"
  | "mcpValidate"
  | "mcpImportJson"
  | "mcpImportClaude"
  | "mcpResources"
  | "mcpPrompts"
>;

/** The add/edit form with what happened to it. */
export type EditorState = {
  mode: "add" | "edit";
  form: ServerForm;
  /** Field problems; shown after the first save or validate attempt, then kept current. */
  errors: FieldErrors;
  showErrors: boolean;
  saving: boolean;
  saveError: string | null;
  validating: boolean;
  validation: ValidationReport | null;
  validationError: string | null;
};

export type PasteState = {
  text: string;
  /** The name for a single pasted entry. */
  name: string;
  overwrite: boolean;
  importing: boolean;
  error: string | null;
};

/** A server's resources and prompts, loaded when its section is opened. */
export type ServerDetails = {
  loading: boolean;
  resources: ResourceInfo[] | null;
  prompts: PromptInfo[] | null;
  resourcesError: string | null;
  promptsError: string | null;
};

export type Notice = { text: string; tone: "ok" | "error" };

export type McpState = {
  loading: boolean;
  overview: McpOverview | null;
  /** Loading the overview failed (the page offers to try again). */
  loadError: string | null;
  /** The watch channel has delivered: it is the source of the overview from now on. */
  live: boolean;
  /** Server name -> the action running on it ("reconnect", "remove", ...). */
  busy: Readonly<Record<string, string>>;
  /** Server name -> why the last action on it failed. */
  serverErrors: Readonly<Record<string, string>>;
  /** The last import's outcome, or a page-level failure. */
  notice: Notice | null;
  editor: EditorState | null;
  paste: PasteState | null;
  importingClaude: boolean;
  /** Servers the last Claude Desktop import skipped (names taken): the page offers to replace them. */
  claudeSkipped: string[];
  details: Readonly<Record<string, ServerDetails>>;
};

export const initialMcpState: McpState = {
  loading: false,
  overview: null,
  loadError: null,
  live: false,
  busy: {},
  serverErrors: {},
  notice: null,
  editor: null,
  paste: null,
  importingClaude: false,
  claudeSkipped: [],
  details: {},
};

function without<T>(rec: Readonly<Record<string, T>>, key: string): Record<string, T> {
  const next = { ...rec };
  delete next[key];
  return next;
}

export function createMcpStore(api: McpApi) {
  let state = initialMcpState;
  let watchStarted = false;
  const listeners = new Set<() => void>();
  const set = (patch: Partial<McpState> | ((s: McpState) => Partial<McpState>)) => {
    state = { ...state, ...(typeof patch === "function" ? patch(state) : patch) };
    for (const l of listeners) l();
  };
  const setEditor = (patch: Partial<EditorState>) => {
    if (state.editor !== null) set({ editor: { ...state.editor, ...patch } });
  };
  const setPaste = (patch: Partial<PasteState>) => {
    if (state.paste !== null) set({ paste: { ...state.paste, ...patch } });
  };
  /** A command's answer; ignored once the watch delivers (it may be older than the watch's). */
  const answered = (overview: McpOverview) => {
    if (!state.live) set({ overview });
  };
  const fromWatch = (overview: McpOverview) => set({ overview, live: true, loading: false, loadError: null });
  const otherNames = (editing: string | null) =>
    (state.overview?.servers ?? []).map((s) => s.name).filter((n) => n !== editing);
  const server = (name: string): ServerView | undefined => state.overview?.servers.find((s) => s.name === name);
  const patchServer = (name: string, patch: (s: ServerView) => ServerView) => {
    if (state.overview === null) return;
    set({ overview: { ...state.overview, servers: state.overview.servers.map((s) => (s.name === name ? patch(s) : s)) } });
  };

  /** Runs an action on one server: busy while it runs, its error shown on the server. */
  async function onServer(name: string, action: string, run: () => Promise<McpOverview>, undo?: () => void): Promise<boolean> {
    set((s) => ({ busy: { ...s.busy, [name]: action }, serverErrors: without(s.serverErrors, name) }));
    try {
      answered(await run());
      set((s) => ({ busy: without(s.busy, name) }));
      return true;
    } catch (err) {
      undo?.();
      set((s) => ({ busy: without(s.busy, name), serverErrors: { ...s.serverErrors, [name]: errorText(err) } }));
      return false;
    }
  }

  function editorErrors(form: ServerForm, mode: "add" | "edit"): FieldErrors {
    return validateForm(form, mode === "add" ? otherNames(null) : []);
  }

  return {
    getState: (): McpState => state,
    subscribe(listener: () => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    /** Loads the overview and starts watching (once for the app's life: the backend keeps sending). */
    async open(): Promise<void> {
      if (!watchStarted) {
        watchStarted = true;
        api.mcpWatch(fromWatch).catch((err: unknown) => {
          // Without the watch the page still works from command answers; say live status is off.
          watchStarted = false;
          set({ notice: { text: `Live status is unavailable: ${errorText(err)}`, tone: "error" } });
        });
      }
      if (state.live) return;
      set({ loading: state.overview === null, loadError: null });
      try {
        const overview = await api.mcpOverview();
        if (!state.live) set({ overview });
        set({ loading: false });
      } catch (err) {
        set({ loading: false, loadError: errorText(err) });
      }
    },

    dismissNotice(): void {
      set({ notice: null, claudeSkipped: [] });
    },

    async setEnabled(name: string, enabled: boolean): Promise<void> {
      const before = server(name);
      patchServer(name, (s) => ({ ...s, enabled }));
      await onServer(name, enabled ? "enable" : "disable", () => api.mcpSetEnabled(name, enabled), () => {
        if (before) patchServer(name, () => before);
      });
    },

    async setToolEnabled(name: string, tool: string, enabled: boolean): Promise<void> {
      const before = server(name);
      patchServer(name, (s) => ({
        ...s,
        tools: s.tools.map((t) => (t.name === tool ? { ...t, enabled } : t)),
        disabledTools: enabled ? s.disabledTools.filter((t) => t !== tool) : [...s.disabledTools.filter((t) => t !== tool), tool],
      }));
      await onServer(name, "tool", () => api.mcpSetToolEnabled(name, tool, enabled), () => {
        if (before) patchServer(name, () => before);
      });
    },

    async reconnect(name: string): Promise<void> {
      await onServer(name, "reconnect", () => api.mcpReconnect(name));
    },

    async remove(name: string): Promise<boolean> {
      const ok = await onServer(name, "remove", () => api.mcpRemoveServer(name));
      if (ok) set((s) => ({ details: without(s.details, name), serverErrors: without(s.serverErrors, name) }));
      return ok;
    },

    /** Opens the add form; an add form already open keeps what was typed. */
    startAdd(): void {
      if (state.editor?.mode === "add") return;
      set({ paste: null, editor: newEditor("add", emptyForm()) });
    },

    startEdit(name: string): void {
      const s = server(name);
      if (s === undefined) return;
      if (state.editor?.mode === "edit" && state.editor.form.name === name) return;
      set({ paste: null, editor: newEditor("edit", formFromServer(s)) });
    },

    /** Changes the form; the validation result no longer applies to what is typed. */
    editForm(update: (f: ServerForm) => ServerForm): void {
      const e = state.editor;
      if (e === null) return;
      const form = update(e.form);
      setEditor({ form, errors: e.showErrors ? editorErrors(form, e.mode) : e.errors, validation: null, validationError: null });
    },

    closeEditor(): void {
      set({ editor: null });
    },

    /** Tries the form's server without saving; resolves with the report (null if not sent). */
    async validateEditor(): Promise<ValidationReport | null> {
      const e = state.editor;
      if (e === null || e.validating) return null;
      const errors = editorErrors(e.form, e.mode);
      setEditor({ errors, showErrors: true, validation: null, validationError: null });
      if (Object.keys(errors).length > 0) return null;
      setEditor({ validating: true });
      try {
        const report = await api.mcpValidate(formToInput(e.form));
        setEditor({ validating: false, validation: report });
        return report;
      } catch (err) {
        setEditor({ validating: false, validationError: errorText(err) });
        return null;
      }
    },

    /** Saves the form; true when saved (the form closes), false with the reason shown. */
    async saveEditor(): Promise<boolean> {
      const e = state.editor;
      if (e === null || e.saving) return false;
      const errors = editorErrors(e.form, e.mode);
      setEditor({ errors, showErrors: true, saveError: null });
      if (Object.keys(errors).length > 0) return false;
      setEditor({ saving: true });
      const input = formToInput(e.form);
      try {
        answered(await api.mcpSaveServer(input, e.mode === "edit"));
        set((s) => ({
          editor: null,
          notice: { text: `Saved “${input.name}”.`, tone: "ok" },
          details: without(s.details, input.name),
          serverErrors: without(s.serverErrors, input.name),
        }));
        return true;
      } catch (err) {
        setEditor({ saving: false, saveError: errorText(err) });
        return false;
      }
    },

    startPaste(): void {
      if (state.paste !== null) return;
      set({ editor: null, paste: { text: "", name: "", overwrite: false, importing: false, error: null } });
    },

    editPaste(patch: Partial<Pick<PasteState, "text" | "name" | "overwrite">>): void {
      setPaste({ ...patch, error: null });
    },

    closePaste(): void {
      set({ paste: null });
    },

    /** Imports the pasted JSON; the text stays when it is refused. */
    async importPaste(): Promise<boolean> {
      const p = state.paste;
      if (p === null || p.importing) return false;
      const check = checkPastedJson(p.text, p.name);
      if (!check.ok) {
        setPaste({ error: check.error });
        return false;
      }
      setPaste({ importing: true, error: null });
      try {
        const report = await api.mcpImportJson(check.text, check.single ? p.name.trim() : null, p.overwrite);
        if (!state.live) answered(await api.mcpOverview());
        set({ paste: null, notice: { text: importSentence(report), tone: report.added.length > 0 ? "ok" : "error" } });
        return true;
      } catch (err) {
        setPaste({ importing: false, error: errorText(err) });
        return false;
      }
    },

    async importClaude(overwrite: boolean): Promise<void> {
      if (state.importingClaude) return;
      set({ importingClaude: true, notice: null, claudeSkipped: [] });
      try {
        const report = await api.mcpImportClaude(overwrite);
        if (report !== null && !state.live) answered(await api.mcpOverview());
        set({
          importingClaude: false,
          claudeSkipped: report?.skipped ?? [],
          notice:
            report === null
              ? { text: "Claude Desktop's config file was not found on this machine; nothing was imported.", tone: "error" }
              : { text: importSentence(report, "use “Replace them” to overwrite"), tone: report.added.length > 0 ? "ok" : "error" },
        });
      } catch (err) {
        set({ importingClaude: false, claudeSkipped: [], notice: { text: `Importing from Claude Desktop failed: ${errorText(err)}`, tone: "error" } });
      }
    },

    /** Loads a server's resources and prompts (each may fail on its own: many servers list one kind only). */
    async loadDetails(name: string): Promise<void> {
      const put = (d: Partial<ServerDetails>) =>
        set((s) => ({ details: { ...s.details, [name]: { ...(s.details[name] ?? emptyDetails()), ...d } } }));
      put({ loading: true, resourcesError: null, promptsError: null });
      const [resources, prompts] = await Promise.allSettled([api.mcpResources(name), api.mcpPrompts(name)]);
      put({
        loading: false,
        resources: resources.status === "fulfilled" ? resources.value : null,
        resourcesError: resources.status === "rejected" ? errorText(resources.reason) : null,
        prompts: prompts.status === "fulfilled" ? prompts.value : null,
        promptsError: prompts.status === "rejected" ? errorText(prompts.reason) : null,
      });
    },
  };
}

function newEditor(mode: "add" | "edit", form: ServerForm): EditorState {
  return {
    mode,
    form,
    errors: {},
    showErrors: false,
    saving: false,
    saveError: null,
    validating: false,
    validation: null,
    validationError: null,
  };
}

function emptyDetails(): ServerDetails {
  return { loading: false, resources: null, prompts: null, resourcesError: null, promptsError: null };
}

export type McpStore = ReturnType<typeof createMcpStore>;
