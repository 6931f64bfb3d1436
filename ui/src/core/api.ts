/**
 * The backend as the core sees it: one method per Tauri command. `src/ipc.ts` implements it
 * over `invoke`; tests implement it with fakes, so the store is tested without a window.
 */
import type { ApprovalDecision } from "../bindings/ApprovalDecision";
import type { ApprovalPolicy } from "../bindings/ApprovalPolicy";
import type { DetectedServer } from "../bindings/DetectedServer";
import type { ImportReport } from "../bindings/ImportReport";
import type { McpOverview } from "../bindings/McpOverview";
import type { Memory } from "../bindings/Memory";
import type { ProviderSettings } from "../bindings/ProviderSettings";
import type { PromptInfo } from "../bindings/PromptInfo";
import type { ProviderStatus } from "../bindings/ProviderStatus";
import type { ResourceInfo } from "../bindings/ResourceInfo";
import type { RunEvent } from "../bindings/RunEvent";
import type { ServerInput } from "../bindings/ServerInput";
import type { Thread } from "../bindings/Thread";
import type { ThreadSearchHit } from "../bindings/ThreadSearchHit";
import type { ThreadSummary } from "../bindings/ThreadSummary";
import type { ThreadView } from "../bindings/ThreadView";
import type { ValidationReport } from "../bindings/ValidationReport";
import type { VisibilityReport } from "../bindings/VisibilityReport";
import type { RunChoices, RunOptions } from "./runChoices";

/** A background shell job of a thread (`bash` with `background: true`). */
export type JobInfo = { id: string; command: string; running: boolean };

// The artifacts panel's shapes, written by hand after crates/app/src/artifacts.rs (no ts-rs
// derive there yet); keep them in step with `OutputFile` and `ArtifactContent`.

/** A file in a thread's outputs. */
export type OutputFile = {
  /** `/mnt/user-data/outputs/...` */
  path: string;
  size: number;
  /** Milliseconds since the epoch. */
  modified_ms: number;
  /** The agent presented it (present_files). */
  presented: boolean;
};

/** A file's content for its preview: `text` for text types, `base64` for images and PDFs. */
export type ArtifactContent = {
  path: string;
  mime: string;
  size: number;
  text: string | null;
  base64: string | null;
  /** Only the start of the file was read. */
  truncated: boolean;
};

// A thread's folders, written by hand after crates/sandbox/src/mounts.rs (`MountSpec`) and
// crates/app/src/mounts.rs (`ThreadFolder`), which have no ts-rs derive; keep them in step.

/** A host folder given to a thread: the workspace itself (`name` null) or `/mnt/user-data/mounts/<name>`. */
export type MountSpec = {
  name: string | null;
  /** The host folder (absolute). */
  host: string;
  /** Never written by the file tools or the shell. */
  read_only: boolean;
};

/** One of a thread's folders: where the model sees it and where it is on the host. */
export type ThreadFolder = {
  virtual_path: string;
  host: string;
  writable: boolean;
  /** A folder the user mounted (not one of the thread's own). */
  mounted: boolean;
};

/** The shell's switches (Settings -> Permissions), after crates/app/src/shells.rs `ShellSettings`. */
export type ShellSettings = { allow_network: boolean; allow_unconfined: boolean };

/** The shell's switches and the OS confinement this machine gives it (null: none). */
export type ShellSettingsView = ShellSettings & { confinement: string | null };

/** Files dragged over the window, from the webview (host paths, never file contents). */
export type FileDropEvent = { type: "enter"; paths: string[] } | { type: "over" } | { type: "drop"; paths: string[] } | { type: "leave" };

export interface Api {
  providerStatus(): Promise<ProviderStatus>;
  detectLocalServers(): Promise<DetectedServer[]>;
  /** `apiKey` null keeps the stored key; a non-empty string replaces it. */
  saveProvider(settings: ProviderSettings, apiKey: string | null): Promise<ProviderStatus>;
  listThreads(): Promise<ThreadSummary[]>;
  /** Threads whose title or shown messages contain `query`, newest first, with an excerpt. */
  searchThreads(query: string): Promise<ThreadSearchHit[]>;
  createThread(title: string | null): Promise<Thread>;
  renameThread(threadId: string, title: string): Promise<void>;
  deleteThread(threadId: string): Promise<void>;
  getThread(threadId: string): Promise<ThreadView>;
  /** Asks the user where to save a file (the system's save dialog); null when they cancelled. */
  chooseSavePath(defaultName: string, filterName: string, extension: string): Promise<string | null>;
  /** Writes the thread as Markdown or JSON to `path`; rejects with the backend's sentence. */
  exportThread(threadId: string, format: "md" | "json", path: string): Promise<void>;
  /**
   * Resolves with the run id once the run started; events arrive on `onEvent`. `options`
   * picks the agent and skills (and saves them as the thread's); absent = the thread's saved.
   */
  startRun(threadId: string, content: string, onEvent: (event: RunEvent) => void, options?: RunOptions): Promise<string>;
  cancelRun(threadId: string): Promise<boolean>;
  /** Answers the thread's last message again, replacing its reply; resolves with the run id. */
  regenerate(threadId: string, onEvent: (event: RunEvent) => void): Promise<string>;
  /**
   * Sends an edited past message in a new thread (a branch) made from the messages before it;
   * the original stays. Resolves with the branch and its run id; events arrive on `onEvent`.
   */
  editAndResend(
    threadId: string,
    messageId: string,
    content: string,
    onEvent: (event: RunEvent) => void,
  ): Promise<{ thread: Thread; run_id: string }>;
  /** Answers the agent's question; like `answerApproval`, resolves with the resumed run's id. */
  answerClarification(
    threadId: string,
    callId: string,
    answer: string,
    onEvent: (event: RunEvent) => void,
  ): Promise<string | null>;
  /** Stops one subagent (a `task` call) of the thread's run; false when it already ended. */
  cancelSubagent(threadId: string, callId: string): Promise<boolean>;
  /** The thread's background shell jobs, running or ended. */
  listJobs(threadId: string): Promise<JobInfo[]>;
  /** Kills a background job; resolves with the sentence to show. */
  cancelJob(threadId: string, jobId: string): Promise<string>;
  /**
   * Answers a tool call waiting for approval. Resolves with the id of the resumed run when it
   * was the last open one (its events arrive on `onEvent`), null otherwise.
   */
  answerApproval(
    threadId: string,
    callId: string,
    decision: ApprovalDecision,
    onEvent: (event: RunEvent) => void,
  ): Promise<string | null>;
  /**
   * Every candidate tool of the next run of `threadId` (a new thread when null) with its
   * verdict. `agent` / `skills` null mean the defaults.
   */
  explainTools(threadId: string | null, agent: string | null, skills: string[] | null): Promise<VisibilityReport>;
  /** The custom agents and skills a thread can pick, and the problems of those that did not load. */
  listRunChoices(): Promise<RunChoices>;
  /** The agent and skills a thread's next run uses (the last saved choice, or the defaults). */
  threadRunOptions(threadId: string): Promise<RunOptions>;
  /** Saves a thread's agent and skills; rejects with the sentence when one does not exist. */
  setThreadRunOptions(threadId: string, options: RunOptions): Promise<RunOptions>;
  /** Saved facts, newest first. */
  listMemories(): Promise<Memory[]>;
  /** Rejects with the reason when the new text looks like a secret. */
  updateMemory(id: string, fact: string): Promise<Memory>;
  deleteMemory(id: string): Promise<void>;
  memoryEnabled(): Promise<boolean>;
  setMemoryEnabled(enabled: boolean): Promise<void>;
  /** The files in the thread's outputs, presented ones first. */
  listOutputs(threadId: string): Promise<OutputFile[]>;
  /** A file of the thread (a virtual path) for its preview. */
  readArtifact(threadId: string, path: string): Promise<ArtifactContent>;
  /** Opens a file of the thread with the system's app for its type. */
  openArtifact(threadId: string, path: string): Promise<void>;
  /** Saves a copy of a thread's file at a host path; resolves with the bytes written. */
  saveArtifactAs(threadId: string, path: string, dest: string): Promise<number>;
  /**
   * Watches one thread's outputs, replacing any earlier watch: `onChange` runs shortly after
   * files there change. `threadId` null stops watching.
   */
  watchOutputs(threadId: string | null, onChange: () => void): Promise<void>;
  /** Every configured MCP server with its status and tools. */
  mcpOverview(): Promise<McpOverview>;
  /** Sends the overview on `onChange` now and after every change (status, config, tools). */
  mcpWatch(onChange: (overview: McpOverview) => void): Promise<void>;
  /** Adds a server (`replace` false) or edits the one of that name; resolves with the new overview. */
  mcpSaveServer(server: ServerInput, replace: boolean): Promise<McpOverview>;
  /** Removes a server and its keychain entries. */
  mcpRemoveServer(name: string): Promise<McpOverview>;
  mcpSetEnabled(name: string, enabled: boolean): Promise<McpOverview>;
  /** Switches one tool (the server's own name for it) on or off. */
  mcpSetToolEnabled(name: string, tool: string, enabled: boolean): Promise<McpOverview>;
  mcpReconnect(name: string): Promise<McpOverview>;
  /** Connects and lists tools without saving; failures are in the report, not a rejection. */
  mcpValidate(server: ServerInput): Promise<ValidationReport>;
  /** Imports pasted JSON; `name` names a single pasted entry. */
  mcpImportJson(text: string, name: string | null, overwrite: boolean): Promise<ImportReport>;
  /** Imports Claude Desktop's servers; null when its config is not on this machine. */
  mcpImportClaude(overwrite: boolean): Promise<ImportReport | null>;
  /** A connected server's resources (read-only). */
  mcpResources(name: string): Promise<ResourceInfo[]>;
  /** A connected server's prompts (read-only). */
  mcpPrompts(name: string): Promise<PromptInfo[]>;
  /** The folders the user mounted into a thread, as saved. */
  threadMounts(threadId: string): Promise<MountSpec[]>;
  /**
   * Replaces a thread's mounts; rejects with the backend's sentence (bad name, missing
   * folder, ...). Resolves with them as saved (canonical paths). Applies from the next run.
   */
  setThreadMounts(threadId: string, mounts: MountSpec[]): Promise<MountSpec[]>;
  /** Every folder of a thread: its own three and the mounted ones. */
  threadFolders(threadId: string): Promise<ThreadFolder[]>;
  /** Copies host files into the thread's uploads; resolves with their virtual paths. */
  uploadFiles(threadId: string, paths: string[]): Promise<string[]>;
  /** Opens the thread's folder in the system file manager. */
  openThreadFolder(threadId: string): Promise<void>;
  /** The system folder picker; null when the user cancelled. */
  pickFolder(title: string): Promise<string | null>;
  /** The system file picker (several files); [] when the user cancelled. */
  pickFiles(title: string): Promise<string[]>;
  /** Calls `handler` for files dragged over and dropped on the window; resolves with the unsubscribe. */
  onFileDrop(handler: (event: FileDropEvent) => void): Promise<() => void>;
  /** The approval rules (per tool and per group). */
  approvalPolicy(): Promise<ApprovalPolicy>;
  /** Replaces the approval rules. */
  setApprovalPolicy(policy: ApprovalPolicy): Promise<void>;
  shellSettings(): Promise<ShellSettingsView>;
  setShellSettings(settings: ShellSettings): Promise<void>;
}

/** The sentence to show for a rejected command. The backend rejects with plain strings. */
export function errorText(err: unknown): string {
  if (typeof err === "string" && err.trim() !== "") return err;
  if (err instanceof Error && err.message) return err.message;
  if (err && typeof err === "object" && "message" in err && typeof err.message === "string") {
    return err.message;
  }
  return "Something went wrong and the app gave no reason.";
}
