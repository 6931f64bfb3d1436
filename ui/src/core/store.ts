/**
 * The app state and every action that changes it, as a tiny external store (plain TS, no
 * React). Components read it with `useSyncExternalStore` and call its actions; they keep only
 * ephemeral view state (an open rename box, a confirm step) themselves.
 */
import type { ApprovalDecision } from "../bindings/ApprovalDecision";
import type { BranchLink } from "../bindings/BranchLink";
import type { Message } from "../bindings/Message";
import type { ProviderStatus } from "../bindings/ProviderStatus";
import type { RunEvent } from "../bindings/RunEvent";
import type { ThreadState } from "../bindings/ThreadState";
import type { ThreadSummary } from "../bindings/ThreadSummary";
import type { Usage } from "../bindings/Usage";
import type { VisibilityReport } from "../bindings/VisibilityReport";
import { errorText, type Api, type ArtifactContent, type OutputFile } from "./api";
import { newlyPresented } from "./artifacts";
import { EXPORT_FORMATS, exportFileName, type ExportFormat } from "./exportFile";
import { isAnswered } from "./approvals";
import { applySubagentUpdate, type SubagentView } from "./subagents";
import { DEFAULT_OPTIONS, sameOptions, type RunChoices, type RunOptions } from "./runChoices";
import { applyRunEvent, applyThreadState, settleStreaming } from "./messages";
import { toSettings, type ProviderForm } from "./settings";
import { patchThread, sortThreads, upsertThread } from "./threads";
import { mentionPaths } from "./uploads";

/** How often a thread running elsewhere (no channel in this window) is re-read. */
export const EXTERNAL_RUN_POLL_MS = 1000;

export type Screen = "loading" | "setup" | "main";

export type AppState = {
  screen: Screen;
  /** Settings opened from the main view (the setup screen is `screen: "setup"`). */
  settingsOpen: boolean;
  /** The MCP manager page is open. */
  mcpOpen: boolean;
  provider: ProviderStatus | null;
  /** Startup failed: the sentence, with a retry offered. */
  loadError: string | null;
  threads: ThreadSummary[];
  activeThreadId: string | null;
  /** Messages of the active thread. */
  messages: Message[];
  /** State of the active thread (promoted tools, artifacts); null until it is loaded. */
  threadState: ThreadState | null;
  threadLoading: boolean;
  /** Runs this window started and has not seen finish: thread id -> run id ("" until known). */
  liveRuns: Readonly<Record<string, string>>;
  /** Threads the backend says are running but whose events this window does not receive. */
  externalRuns: Readonly<Record<string, true>>;
  /** Run-level errors per thread (start_run rejected, run failed, cancel failed). */
  runErrors: Readonly<Record<string, string>>;
  /** Run-level notes per thread that are not errors (the context was compacted). */
  runNotices: Readonly<Record<string, string>>;
  /** Live subagent cards of the active thread, by `task` call id. */
  subagents: Readonly<Record<string, SubagentView>>;
  /** Composer text per thread; "" is the key used before any thread exists. */
  drafts: Readonly<Record<string, string>>;
  /** Errors of sidebar actions (create, rename, delete, list). */
  listError: string | null;
  /** Tokens each run used so far, summed over its model turns: run id -> usage. */
  runUsage: Readonly<Record<string, Usage>>;
  /** The file (virtual path) the artifacts panel shows: picked there, from a chat link, or just presented. */
  openedFile: string | null;
  /** The artifacts panel is open (it shows the active thread's files). */
  artifactsOpen: boolean;
  /** The active thread's outputs as last listed, presented ones first. */
  outputs: OutputFile[];
  /** Why listing the outputs failed, or why they are not watched. */
  outputsError: string | null;
  /** Bumped when files in outputs change, so the open preview reads its file again. */
  outputsVersion: number;
  /** The active thread is a branch of this thread, made by editing this message there. */
  branchedFrom: BranchLink | null;
  /** Branches made from the active thread, each at the user message it edited. */
  branches: readonly BranchLink[];
  /** The agent and skills picked per thread; "" is the key used before any thread exists. */
  runOptions: Readonly<Record<string, RunOptions>>;
  /** The custom agents and skills to pick from, as last listed; null until listed. */
  runChoices: RunChoices | null;
  /** Why listing the agents and skills failed. */
  runChoicesError: string | null;
};

export const initialState: AppState = {
  screen: "loading",
  settingsOpen: false,
  mcpOpen: false,
  provider: null,
  loadError: null,
  threads: [],
  activeThreadId: null,
  messages: [],
  threadState: null,
  threadLoading: false,
  liveRuns: {},
  externalRuns: {},
  runErrors: {},
  runNotices: {},
  subagents: {},
  drafts: {},
  listError: null,
  runUsage: {},
  openedFile: null,
  artifactsOpen: false,
  outputs: [],
  outputsError: null,
  outputsVersion: 0,
  branchedFrom: null,
  branches: [],
  runOptions: {},
  runChoices: null,
  runChoicesError: null,
};

export function isThreadRunning(state: AppState, threadId: string | null): boolean {
  if (threadId === null) return false;
  return threadId in state.liveRuns || threadId in state.externalRuns;
}

export function draftOf(state: AppState): string {
  return state.drafts[state.activeThreadId ?? ""] ?? "";
}

/** The agent and skills the active thread (or the new one) runs with. */
export function runOptionsOf(state: AppState): RunOptions {
  return state.runOptions[state.activeThreadId ?? ""] ?? DEFAULT_OPTIONS;
}

function without<T>(record: Readonly<Record<string, T>>, key: string): Record<string, T> {
  if (!(key in record)) return record as Record<string, T>;
  const next = { ...record };
  delete next[key];
  return next;
}

export type Store = ReturnType<typeof createStore>;

export function createStore(api: Api) {
  let state: AppState = initialState;
  const listeners = new Set<() => void>();
  let pollTimer: ReturnType<typeof setTimeout> | null = null;
  /** The thread whose outputs the backend watches for the panel (one at a time). */
  let watching: string | null = null;
  /** Watch changes in the order asked: the backend keeps only the last one. */
  let watchChain: Promise<void> = Promise.resolve();
  /** Numbers outputs listings so a slow, older answer never replaces a newer one. */
  let listSeq = 0;

  function set(patch: Partial<AppState> | ((s: AppState) => Partial<AppState>)): void {
    const p = typeof patch === "function" ? patch(state) : patch;
    const version = state.outputsVersion;
    state = { ...state, ...p };
    for (const l of listeners) l();
    const listed = syncWatch();
    if (!listed && state.outputsVersion !== version && state.artifactsOpen) void refreshOutputs();
  }

  /**
   * Watches the active thread's outputs while the panel is open, and nothing otherwise.
   * Returns whether it asked for a new listing.
   */
  function syncWatch(): boolean {
    const want = state.artifactsOpen ? state.activeThreadId : null;
    if (want === watching) return false;
    watching = want;
    watchChain = watchChain.then(async () => {
      try {
        await api.watchOutputs(want, () => outputsChanged(want));
      } catch (err) {
        if (state.activeThreadId === want) set({ outputsError: errorText(err) });
      }
    });
    if (want === null) return false;
    void refreshOutputs();
    return true;
  }

  function outputsChanged(threadId: string | null): void {
    if (threadId === null || state.activeThreadId !== threadId) return;
    set((s) => ({ outputsVersion: s.outputsVersion + 1 }));
  }

  async function refreshOutputs(): Promise<void> {
    const id = state.activeThreadId;
    if (id === null) return;
    const seq = ++listSeq;
    try {
      const outputs = await api.listOutputs(id);
      if (seq !== listSeq || state.activeThreadId !== id) return;
      // With nothing picked the first file shows, and stays shown when others appear above it.
      set((s) => ({ outputs, outputsError: null, openedFile: s.openedFile ?? outputs[0]?.path ?? null }));
    } catch (err) {
      if (seq === listSeq && state.activeThreadId === id) set({ outputsError: errorText(err) });
    }
  }

  /**
   * What changes in the panel when the active thread's state changes from `before` to
   * `after`: a newly presented file opens the panel on it; any change in the presented files
   * lists the outputs again.
   */
  function artifactsPatch(before: ThreadState | null, after: ThreadState | null): Partial<AppState> {
    if (before === null || after === null) return {};
    const prev = before.artifacts;
    const next = after.artifacts;
    if (prev.length === next.length && prev.every((p, i) => p === next[i])) return {};
    const added = newlyPresented(prev, next);
    const listAgain = { outputsVersion: state.outputsVersion + 1 };
    return added === null ? listAgain : { ...listAgain, artifactsOpen: true, openedFile: added };
  }

  const noBranches: Partial<AppState> = { branchedFrom: null, branches: [] };

  /** A fresh panel for another thread: its own files, nothing selected. */
  const panelReset: Partial<AppState> = { openedFile: null, outputs: [], outputsError: null };

  async function refreshThreads(): Promise<void> {
    try {
      const list = await api.listThreads();
      set((s) => ({
        threads: sortThreads(
          list.map((t) => (isThreadRunning(s, t.id) ? { ...t, running: true } : t)),
        ),
        listError: null,
      }));
    } catch (err) {
      set({ listError: errorText(err) });
    }
  }

  function schedulePoll(): void {
    if (pollTimer !== null) return;
    pollTimer = setTimeout(() => {
      pollTimer = null;
      void pollExternal();
    }, EXTERNAL_RUN_POLL_MS);
  }

  async function pollExternal(): Promise<void> {
    const id = state.activeThreadId;
    if (id === null || !(id in state.externalRuns) || id in state.liveRuns) return;
    try {
      const view = await api.getThread(id);
      if (state.activeThreadId !== id || id in state.liveRuns) return;
      if (view.running) {
        set((s) => ({ messages: view.messages, threadState: view.thread.state, ...artifactsPatch(s.threadState, view.thread.state) }));
        schedulePoll();
      } else {
        set((s) => ({
          ...artifactsPatch(s.threadState, view.thread.state),
          messages: view.messages,
          threadState: view.thread.state,
          externalRuns: without(s.externalRuns, id),
          threads: patchThread(s.threads, id, { running: false }),
        }));
        void refreshThreads();
      }
    } catch {
      schedulePoll();
    }
  }

  function onRunEvent(threadId: string, event: RunEvent): void {
    switch (event.type) {
      case "run_started":
        set((s) => ({
          liveRuns: { ...s.liveRuns, [threadId]: event.run_id },
          threads: patchThread(s.threads, threadId, { running: true }),
          runNotices: without(s.runNotices, threadId),
        }));
        return;
      case "subagent":
        set((s) =>
          s.activeThreadId === threadId
            ? { subagents: { ...s.subagents, [event.call_id]: applySubagentUpdate(s.subagents[event.call_id], event.update) } }
            : {},
        );
        return;
      case "context_compacted":
        set((s) => ({
          runNotices: {
            ...s.runNotices,
            [threadId]: compactionNotice(event.summarised_messages, event.tokens_before, event.tokens_after),
          },
        }));
        return;
      case "message_added":
      case "delta":
      case "message_updated":
        set((s) => {
          const patch: Partial<AppState> = {};
          if (s.activeThreadId === threadId) {
            const next = applyRunEvent(s.messages, event, threadId);
            if (next !== s.messages) patch.messages = next;
          }
          if (event.type === "message_added") {
            patch.threads = patchThread(s.threads, threadId, {
              updated_at: Math.max(event.message.created_at, Date.now()),
            });
          }
          return patch;
        });
        return;
      case "usage":
        set((s) => ({ runUsage: { ...s.runUsage, [event.run_id]: addUsage(s.runUsage[event.run_id], event.usage) } }));
        return;
      case "state_updated":
        set((s) => {
          const next = applyThreadState(s.threadState, event, s.activeThreadId === threadId ? threadId : null);
          return next === s.threadState ? {} : { threadState: next, ...artifactsPatch(s.threadState, next) };
        });
        return;
      case "run_finished": {
        const settled =
          event.outcome === "completed" || event.outcome === "waiting_for_user"
            ? "complete"
            : event.outcome === "cancelled"
              ? "cancelled"
              : "error";
        set((s) => ({
          liveRuns: without(s.liveRuns, threadId),
          externalRuns: without(s.externalRuns, threadId),
          threads: patchThread(s.threads, threadId, { running: false }),
          messages: s.activeThreadId === threadId ? settleStreaming(s.messages, settled) : s.messages,
          runErrors:
            event.outcome === "failed"
              ? { ...s.runErrors, [threadId]: event.error?.trim() || "The run failed." }
              : s.runErrors,
        }));
        // The backend may have retitled the thread.
        void refreshThreads();
        return;
      }
      case "thread_titled":
        // The model named the thread after its first exchange.
        set((s) => ({ threads: patchThread(s.threads, event.thread_id, { title: event.title }) }));
        return;
      default:
        return;
    }
  }

  const actions = {
    async init(): Promise<void> {
      set({ screen: "loading", loadError: null });
      try {
        const provider = await api.providerStatus();
        if (provider.settings === null) {
          set({ provider, screen: "setup" });
        } else {
          set({ provider, screen: "main" });
          await refreshThreads();
        }
      } catch (err) {
        set({ loadError: errorText(err) });
      }
    },

    openSettings(): void {
      set({ settingsOpen: true });
    },
    closeSettings(): void {
      set({ settingsOpen: false });
    },
    openMcp(): void {
      set({ mcpOpen: true, settingsOpen: false });
    },
    closeMcp(): void {
      set({ mcpOpen: false });
    },

    /** Saves the provider. Resolves with the error sentence, or null on success. */
    async saveProvider(form: ProviderForm): Promise<string | null> {
      const { settings, apiKey } = toSettings(form);
      try {
        const provider = await api.saveProvider(settings, apiKey);
        const firstRun = state.screen !== "main";
        set({ provider, screen: "main", settingsOpen: false });
        if (firstRun) await refreshThreads();
        return null;
      } catch (err) {
        return errorText(err);
      }
    },

    refreshThreads,

    /** Threads whose title or messages contain `query`; rejects with the backend's sentence. */
    searchThreads: (query: string) => api.searchThreads(query),

    /** Local model servers found on their usual ports; [] when none answer. */
    detectLocalServers: () => api.detectLocalServers(),

    /**
     * Why each tool is visible, deferred or hidden in the next run of `threadId` (or of a new
     * thread when null). Rejects with the backend's sentence; the inspector shows it.
     */
    explainTools: (threadId: string | null): Promise<VisibilityReport> => {
      // Explains for the agent and skills the composer shows, so the two always agree.
      const o = state.runOptions[threadId ?? ""];
      return o === undefined ? api.explainTools(threadId, null, null) : api.explainTools(threadId, o.agent, o.skills);
    },

    /** Lists the custom agents and skills again (they are folders the user may change). */
    async loadRunChoices(): Promise<void> {
      try {
        const runChoices = await api.listRunChoices();
        set({ runChoices, runChoicesError: null });
      } catch (err) {
        set({ runChoicesError: errorText(err) });
      }
    },

    /**
     * Picks the agent and skills of the active thread (or of the new one). Shown at once and
     * saved for a thread; a refused save puts the previous choice back with the reason.
     */
    async setRunOptions(options: RunOptions): Promise<void> {
      const id = state.activeThreadId;
      const key = id ?? "";
      const before = state.runOptions[key] ?? DEFAULT_OPTIONS;
      if (sameOptions(before, options)) return;
      set((s) => ({ runOptions: { ...s.runOptions, [key]: options } }));
      if (id === null) return;
      try {
        const saved = await api.setThreadRunOptions(id, options);
        set((s) => (sameOptions(s.runOptions[id] ?? DEFAULT_OPTIONS, options) ? { runOptions: { ...s.runOptions, [id]: saved } } : {}));
      } catch (err) {
        set((s) => ({ runOptions: { ...s.runOptions, [id]: before }, runErrors: { ...s.runErrors, [id]: errorText(err) } }));
      }
    },
    listJobs: (threadId: string) => api.listJobs(threadId),
    cancelSubagent: (threadId: string, callId: string) => api.cancelSubagent(threadId, callId),
    cancelJob: (threadId: string, jobId: string) => api.cancelJob(threadId, jobId),

    async newThread(): Promise<string | null> {
      try {
        const thread = await api.createThread(null);
        set((s) => ({
          threads: upsertThread(s.threads, {
            id: thread.id,
            title: thread.title,
            updated_at: thread.updated_at,
            running: false,
          }),
          activeThreadId: thread.id,
          ...panelReset,
          subagents: {},
          messages: [],
          threadState: thread.state,
          threadLoading: false,
          listError: null,
          ...noBranches,
        }));
        return thread.id;
      } catch (err) {
        set({ listError: errorText(err) });
        return null;
      }
    },

    async openThread(threadId: string): Promise<void> {
      if (state.activeThreadId === threadId && !state.threadLoading) return;
      set({ activeThreadId: threadId, messages: [], threadState: null, threadLoading: true, subagents: {}, ...panelReset, ...noBranches });
      set({ activeThreadId: threadId, messages: [], threadState: null, threadLoading: true, subagents: {}, ...panelReset });
      void loadThreadOptions(threadId);
      try {
        const view = await api.getThread(threadId);
        if (state.activeThreadId !== threadId) return;
        const external = view.running && !(threadId in state.liveRuns);
        set((s) => ({
          messages: view.messages,
          threadState: view.thread.state,
          threadLoading: false,
          branchedFrom: view.branched_from ?? null,
          branches: view.branches ?? [],
          externalRuns: external ? { ...s.externalRuns, [threadId]: true } : s.externalRuns,
          threads: view.running ? patchThread(s.threads, threadId, { running: true }) : s.threads,
        }));
        if (external) schedulePoll();
      } catch (err) {
        if (state.activeThreadId !== threadId) return;
        set((s) => ({
          threadLoading: false,
          runErrors: { ...s.runErrors, [threadId]: errorText(err) },
        }));
      }
    },

    async renameThread(threadId: string, title: string): Promise<void> {
      const clean = title.trim();
      const current = state.threads.find((t) => t.id === threadId);
      if (clean === "" || current?.title === clean) return;
      try {
        await api.renameThread(threadId, clean);
        set((s) => ({ threads: patchThread(s.threads, threadId, { title: clean }), listError: null }));
      } catch (err) {
        set({ listError: errorText(err) });
      }
    },

    /**
     * Asks where to save the active thread as `format` and writes it there. Resolves with the
     * sentence to show ("Saved to …", the backend's error), or null when the user cancelled.
     */
    async exportThread(format: ExportFormat): Promise<{ ok: boolean; text: string } | null> {
      const id = state.activeThreadId;
      if (id === null) return null;
      const title = state.threads.find((t) => t.id === id)?.title ?? "thread";
      try {
        const path = await api.chooseSavePath(exportFileName(title, format), EXPORT_FORMATS[format].filterName, format);
        if (path === null) return null;
        await api.exportThread(id, format, path);
        return { ok: true, text: `Saved to ${path}` };
      } catch (err) {
        return { ok: false, text: errorText(err) };
      }
    },

    async deleteThread(threadId: string): Promise<void> {
      try {
        await api.deleteThread(threadId);
        set((s) => ({
          threads: s.threads.filter((t) => t.id !== threadId),
          activeThreadId: s.activeThreadId === threadId ? null : s.activeThreadId,
          messages: s.activeThreadId === threadId ? [] : s.messages,
          threadState: s.activeThreadId === threadId ? null : s.threadState,
          ...(s.activeThreadId === threadId ? panelReset : {}),
          drafts: without(s.drafts, threadId),
          runErrors: without(s.runErrors, threadId),
          listError: null,
        }));
      } catch (err) {
        set({ listError: errorText(err) });
      }
    },

    /** Shows `virtualPath` (a /mnt/user-data path of the active thread) in the artifacts panel, opening it. */
    openFile(virtualPath: string): void {
      set({ openedFile: virtualPath, artifactsOpen: true });
    },
    toggleArtifacts(): void {
      set((s) => ({ artifactsOpen: !s.artifactsOpen }));
    },
    closeArtifacts(): void {
      set({ artifactsOpen: false });
    },
    refreshOutputs,
    /** A file of the active thread for its preview; rejects with the backend's sentence. */
    readArtifact(threadId: string, path: string): Promise<ArtifactContent> {
      return api.readArtifact(threadId, path);
    },
    /** Opens a file with its system app; resolves with the error sentence, or null. */
    async openArtifact(threadId: string, path: string): Promise<string | null> {
      try {
        await api.openArtifact(threadId, path);
        return null;
      } catch (err) {
        return errorText(err);
      }
    },

    /**
     * Asks where to save a copy of a thread's file, then saves it. Resolves with where it was
     * saved, the sentence of what went wrong, or null when the user cancelled the dialog.
     */
    async saveArtifactAs(threadId: string, path: string): Promise<{ savedTo: string } | { error: string } | null> {
      const name = path.split("/").pop() ?? "file";
      let dest: string | null;
      try {
        const dot = name.lastIndexOf(".");
        dest = await api.chooseSavePath(name, "Same type", dot > 0 ? name.slice(dot + 1) : "");
      } catch (err) {
        return { error: errorText(err) };
      }
      if (dest === null) return null;
      try {
        await api.saveArtifactAs(threadId, path, dest);
        return { savedTo: dest };
      } catch (err) {
        return { error: errorText(err) };
      }
    },

    setDraft(text: string): void {
      const key = state.activeThreadId ?? "";
      set((s) => ({ drafts: { ...s.drafts, [key]: text } }));
    },

    /** Adds uploaded files' virtual paths to a thread's composer text, so the model is told where they are. */
    mentionFiles(threadId: string, virtualPaths: string[]): void {
      set((s) => ({ drafts: { ...s.drafts, [threadId]: mentionPaths(s.drafts[threadId] ?? "", virtualPaths) } }));
    },

    dismissRunError(): void {
      const id = state.activeThreadId;
      if (id !== null) set((s) => ({ runErrors: without(s.runErrors, id) }));
    },
    dismissListError(): void {
      set({ listError: null });
    },

    /**
     * Sends the active thread's draft (creating a thread first if none is open). The draft
     * is cleared at once and put back if the run could not start, so nothing typed is lost.
     */
    async send(): Promise<void> {
      const startKey = state.activeThreadId ?? "";
      const text = state.drafts[startKey] ?? "";
      if (text.trim() === "" || isThreadRunning(state, state.activeThreadId)) return;

      let threadId = state.activeThreadId;
      if (threadId === null) {
        threadId = await actions.newThread();
        if (threadId === null) return; // listError says why; the draft stays under "".
        const id = threadId;
        set((s) => ({
          drafts: { ...without(s.drafts, ""), [id]: text },
          runOptions: "" in s.runOptions ? { ...without(s.runOptions, ""), [id]: s.runOptions[""] ?? DEFAULT_OPTIONS } : s.runOptions,
        }));
      }
      const id = threadId;
      set((s) => ({
        drafts: { ...s.drafts, [id]: "" },
        liveRuns: { ...s.liveRuns, [id]: s.liveRuns[id] ?? "" },
        runErrors: without(s.runErrors, id),
        threads: patchThread(s.threads, id, { running: true }),
      }));
      try {
        const picked = state.runOptions[id];
        const onEvent = (event: RunEvent) => onRunEvent(id, event);
        // Without a pick the backend uses the thread's saved choice.
        const runId = await (picked === undefined ? api.startRun(id, text, onEvent) : api.startRun(id, text, onEvent, picked));
        // run_finished may already have arrived; only record the id while still live.
        set((s) => (id in s.liveRuns ? { liveRuns: { ...s.liveRuns, [id]: runId } } : {}));
        // The backend titles a new thread from its first message when the run starts.
        void refreshThreads();
      } catch (err) {
        set((s) => {
          const typedSince = s.drafts[id] ?? "";
          return {
            liveRuns: without(s.liveRuns, id),
            threads: patchThread(s.threads, id, { running: false }),
            drafts: { ...s.drafts, [id]: typedSince === "" ? text : `${text}\n${typedSince}` },
            runErrors: { ...s.runErrors, [id]: errorText(err) },
          };
        });
      }
    },

    /**
     * Answers the active thread's last message again: its reply (everything after the last
     * message the user wrote) goes, and the new one streams in its place.
     */
    async regenerate(): Promise<void> {
      const id = state.activeThreadId;
      if (id === null || isThreadRunning(state, id)) return;
      const before = state.messages;
      const cut = lastUserIndex(before);
      if (cut === -1) return;
      set((s) => ({
        messages: s.messages.slice(0, cut + 1),
        liveRuns: { ...s.liveRuns, [id]: s.liveRuns[id] ?? "" },
        runErrors: without(s.runErrors, id),
        threads: patchThread(s.threads, id, { running: true }),
      }));
      try {
        const runId = await api.regenerate(id, (event) => onRunEvent(id, event));
        set((s) => (id in s.liveRuns ? { liveRuns: { ...s.liveRuns, [id]: runId } } : {}));
      } catch (err) {
        // Nothing was replaced: show the old reply again with the reason.
        set((s) => ({
          messages: s.activeThreadId === id ? before : s.messages,
          liveRuns: without(s.liveRuns, id),
          threads: patchThread(s.threads, id, { running: false }),
          runErrors: { ...s.runErrors, [id]: errorText(err) },
        }));
      }
    },

    /**
     * Sends an edited version of a past user message of the active thread. The backend makes
     * a branch (a new thread with the messages before it) and answers there; the view moves
     * to the branch, which links back to the original. Resolves with the error sentence, or
     * null once the branch runs.
     */
    async editAndResend(messageId: string, text: string): Promise<string | null> {
      const source = state.activeThreadId;
      const content = text.trim();
      if (source === null || content === "" || isThreadRunning(state, source)) return null;
      const at = state.messages.findIndex((m) => m.id === messageId);
      if (at === -1) return null;
      const kept = state.messages.slice(0, at);
      // Events may arrive before the branch's id does: hold them until it is known.
      let branch: string | null = null;
      const early: RunEvent[] = [];
      const onEvent = (event: RunEvent) => (branch === null ? early.push(event) : onRunEvent(branch, event));
      try {
        const started = await api.editAndResend(source, messageId, content, onEvent);
        const id = started.thread.id;
        set((s) => ({
          threads: upsertThread(s.threads, { id, title: started.thread.title, updated_at: started.thread.updated_at, running: true }),
          activeThreadId: id,
          ...panelReset,
          subagents: {},
          // The copies the branch starts from, as shown here; reopening it loads the stored ones.
          messages: kept,
          threadState: started.thread.state,
          threadLoading: false,
          liveRuns: { ...s.liveRuns, [id]: started.run_id },
          branchedFrom: { thread_id: source, message_id: messageId, title: s.threads.find((t) => t.id === source)?.title ?? "" },
          branches: [],
        }));
        branch = id;
        for (const event of early) onRunEvent(id, event);
        return null;
      } catch (err) {
        return errorText(err);
      }
    },

    /**
     * Answers a call waiting for approval in the active thread. The answer shows at once; when
     * it was the last open one the thread resumes here, as a live run of this window.
     */
    async answerApproval(callId: string, decision: ApprovalDecision): Promise<void> {
      await answerPending(callId, { decision }, (id, onEvent) => api.answerApproval(id, callId, decision, onEvent));
    },

    /** Answers the agent's question in the active thread; the thread resumes when nothing else waits. */
    async answerClarification(callId: string, answer: string): Promise<void> {
      const text = answer.trim();
      if (text === "") return;
      await answerPending(callId, { answer: text }, (id, onEvent) => api.answerClarification(id, callId, text, onEvent));
    },
    async stop(): Promise<void> {
      const id = state.activeThreadId;
      if (id === null) return;
      try {
        await api.cancelRun(id);
        if (id in state.externalRuns) schedulePoll();
      } catch (err) {
        set((s) => ({ runErrors: { ...s.runErrors, [id]: errorText(err) } }));
      }
    },
  };

  /** The thread's saved agent and skills, unless the user picked while they loaded. */
  async function loadThreadOptions(threadId: string): Promise<void> {
    try {
      const saved = await api.threadRunOptions(threadId);
      set((s) => (threadId in s.runOptions ? {} : { runOptions: { ...s.runOptions, [threadId]: saved } }));
    } catch {
      // The picker shows the defaults; start_run without options still uses the saved choice.
    }
  }

  /**
   * Shows an answer at once and sends it; when it was the last open one the thread resumes
   * here, as a live run of this window. A rejected answer puts the question back.
   */
  async function answerPending(
    callId: string,
    patch: { decision: ApprovalDecision } | { answer: string },
    send: (threadId: string, onEvent: (event: RunEvent) => void) => Promise<string | null>,
  ): Promise<void> {
    const id = state.activeThreadId;
    if (id === null || isThreadRunning(state, id)) return;
    const before = state.threadState;
    set((s) => ({
      threadState:
        s.threadState === null
          ? null
          : {
              ...s.threadState,
              pending: s.threadState.pending.map((p) => (p.call.id === callId ? { ...p, ...patch } : p)),
            },
      runErrors: without(s.runErrors, id),
    }));
    const resumes = (state.threadState?.pending ?? []).every(isAnswered);
    if (resumes) {
      set((s) => ({
        liveRuns: { ...s.liveRuns, [id]: s.liveRuns[id] ?? "" },
        threads: patchThread(s.threads, id, { running: true }),
      }));
    }
    try {
      const runId = await send(id, (event) => onRunEvent(id, event));
      if (runId !== null) {
        set((s) => (id in s.liveRuns ? { liveRuns: { ...s.liveRuns, [id]: runId } } : {}));
      }
    } catch (err) {
      // Nothing was resumed: show the question again with the reason.
      set((s) => ({
        threadState: s.activeThreadId === id ? before : s.threadState,
        liveRuns: without(s.liveRuns, id),
        threads: patchThread(s.threads, id, { running: false }),
        runErrors: { ...s.runErrors, [id]: errorText(err) },
      }));
    }
  }

  return {
    /** The backend, for pages with their own small stores (Settings -> Memory). */
    api,
    getState: (): AppState => state,
    subscribe(listener: () => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    /** Exposed for tests: feed an event as if it came from a run of `threadId`. */
    onRunEvent,
    ...actions,
  };
}

/** Index of the last message the user wrote (not a hidden note); -1 when there is none. */
export function lastUserIndex(messages: readonly Message[]): number {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m !== undefined && m.role === "user" && !m.hidden) return i;
  }
  return -1;
}

/** `total` plus one more turn's tokens. */
export function addUsage(total: Usage | undefined, turn: Usage): Usage {
  if (total === undefined) return { ...turn };
  return { input_tokens: total.input_tokens + turn.input_tokens, output_tokens: total.output_tokens + turn.output_tokens };
}

/** `1,234 in · 56 out tokens`, grouped in the user's locale. */
export function usageText(u: Usage, locale?: string): string {
  const n = (x: number) => x.toLocaleString(locale);
  return `${n(u.input_tokens)} in · ${n(u.output_tokens)} out tokens`;
}

/** The sentence shown when older turns were summarised to fit the model's context window. */
export function compactionNotice(messages: number, before: number, after: number): string {
  const noun = messages === 1 ? "message was" : "messages were";
  return `To fit the model's context window, ${messages} earlier ${noun} summarised for the model (about ${before} → ${after} tokens). The conversation here is unchanged.`;
}
