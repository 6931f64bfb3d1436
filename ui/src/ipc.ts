/**
 * The single typed wrapper over the Tauri IPC. Every command the UI calls is here, with the
 * argument names the Rust side expects (camelCase in JS, snake_case in Rust). Errors reject
 * with a plain string meant for the user; `errorText` turns whatever arrives into one.
 */
import { Channel, invoke } from "@tauri-apps/api/core";
import { getCurrentWebview } from "@tauri-apps/api/webview";
import { open as openDialog, save as saveDialog } from "@tauri-apps/plugin-dialog";
import type { ApprovalDecision } from "./bindings/ApprovalDecision";
import type { ApprovalPolicy } from "./bindings/ApprovalPolicy";
import type { DetectedServer } from "./bindings/DetectedServer";
import type { ImportReport } from "./bindings/ImportReport";
import type { McpOverview } from "./bindings/McpOverview";
import type { Memory } from "./bindings/Memory";
import type { ProviderSettings } from "./bindings/ProviderSettings";
import type { PromptInfo } from "./bindings/PromptInfo";
import type { ProviderStatus } from "./bindings/ProviderStatus";
import type { ResourceInfo } from "./bindings/ResourceInfo";
import type { RunEvent } from "./bindings/RunEvent";
import type { ServerInput } from "./bindings/ServerInput";
import type { Thread } from "./bindings/Thread";
import type { ThreadSearchHit } from "./bindings/ThreadSearchHit";
import type { ThreadSummary } from "./bindings/ThreadSummary";
import type { ThreadView } from "./bindings/ThreadView";
import type { ValidationReport } from "./bindings/ValidationReport";
import type { VisibilityReport } from "./bindings/VisibilityReport";
import type { Api, ArtifactContent, JobInfo, OutputFile } from "./core/api";
import type { MountSpec, ShellSettings, ShellSettingsView, ThreadFolder } from "./core/api";
import type { RunChoices, RunOptions } from "./core/runChoices";

export const ipc: Api = {
  providerStatus: () => invoke<ProviderStatus>("provider_status"),
  detectLocalServers: () => invoke<DetectedServer[]>("detect_local_servers"),
  saveProvider: (settings: ProviderSettings, apiKey: string | null) =>
    invoke<ProviderStatus>("save_provider", { settings, apiKey }),
  listThreads: () => invoke<ThreadSummary[]>("list_threads"),
  searchThreads: (query: string) => invoke<ThreadSearchHit[]>("search_threads", { query }),
  createThread: (title: string | null) => invoke<Thread>("create_thread", { title }),
  renameThread: async (threadId: string, title: string) => {
    await invoke<null>("rename_thread", { threadId, title });
  },
  deleteThread: async (threadId: string) => {
    await invoke<null>("delete_thread", { threadId });
  },
  getThread: (threadId: string) => invoke<ThreadView>("get_thread", { threadId }),
  chooseSavePath: (defaultName: string, filterName: string, extension: string) =>
    saveDialog({ defaultPath: defaultName, filters: extension === "" ? [] : [{ name: filterName, extensions: [extension] }] }),
  exportThread: async (threadId: string, format: "md" | "json", path: string) => {
    await invoke<null>("export_thread", { threadId, format, path });
  },
  startRun: (threadId: string, content: string, onEvent: (event: RunEvent) => void, options?: RunOptions) => {
    const channel = new Channel<RunEvent>();
    channel.onmessage = onEvent;
    return invoke<string>("start_run", { threadId, content, options: options ?? null, onEvent: channel });
  },
  cancelRun: (threadId: string) => invoke<boolean>("cancel_run", { threadId }),
  regenerate: (threadId: string, onEvent: (event: RunEvent) => void) => {
    const channel = new Channel<RunEvent>();
    channel.onmessage = onEvent;
    return invoke<string>("regenerate_reply", { threadId, onEvent: channel });
  },
  editAndResend: (threadId: string, messageId: string, content: string, onEvent: (event: RunEvent) => void) => {
    const channel = new Channel<RunEvent>();
    channel.onmessage = onEvent;
    return invoke<{ thread: Thread; run_id: string }>("edit_and_resend", { threadId, messageId, content, onEvent: channel });
  },
  answerClarification: (threadId: string, callId: string, answer: string, onEvent: (event: RunEvent) => void) => {
    const channel = new Channel<RunEvent>();
    channel.onmessage = onEvent;
    return invoke<string | null>("answer_clarification", { threadId, callId, answer, onEvent: channel });
  },
  cancelSubagent: (threadId: string, callId: string) => invoke<boolean>("cancel_subagent", { threadId, callId }),
  listJobs: (threadId: string) => invoke<JobInfo[]>("list_jobs", { threadId }),
  cancelJob: (threadId: string, jobId: string) => invoke<string>("cancel_job", { threadId, jobId }),
  answerApproval: (threadId: string, callId: string, decision: ApprovalDecision, onEvent: (event: RunEvent) => void) => {
    const channel = new Channel<RunEvent>();
    channel.onmessage = onEvent;
    return invoke<string | null>("answer_approval", { threadId, callId, decision, onEvent: channel });
  },
  explainTools: (threadId: string | null, agent: string | null, skills: string[] | null) =>
    invoke<VisibilityReport>("explain_tools", { threadId, agent, skills }),
  listRunChoices: () => invoke<RunChoices>("list_run_choices"),
  threadRunOptions: (threadId: string) => invoke<RunOptions>("thread_run_options", { threadId }),
  setThreadRunOptions: (threadId: string, options: RunOptions) =>
    invoke<RunOptions>("set_thread_run_options", { threadId, options }),
  listMemories: () => invoke<Memory[]>("list_memories"),
  updateMemory: (id: string, fact: string) => invoke<Memory>("update_memory", { id, fact }),
  deleteMemory: async (id: string) => {
    await invoke<null>("delete_memory", { id });
  },
  memoryEnabled: () => invoke<boolean>("memory_enabled"),
  setMemoryEnabled: async (enabled: boolean) => {
    await invoke<null>("set_memory_enabled", { enabled });
  },
  listOutputs: (threadId: string) => invoke<OutputFile[]>("list_outputs", { threadId }),
  readArtifact: (threadId: string, path: string) => invoke<ArtifactContent>("read_artifact", { threadId, path }),
  openArtifact: async (threadId: string, path: string) => {
    await invoke<null>("open_artifact", { threadId, path });
  },
  watchOutputs: async (threadId: string | null, onChange: () => void) => {
    const channel = new Channel<null>();
    channel.onmessage = () => onChange();
    await invoke<null>("watch_outputs", { threadId, onChange: channel });
  },
  mcpOverview: () => invoke<McpOverview>("mcp_overview"),
  mcpWatch: async (onChange: (overview: McpOverview) => void) => {
    const channel = new Channel<McpOverview>();
    channel.onmessage = onChange;
    await invoke<null>("mcp_watch", { onChange: channel });
  },
  mcpSaveServer: (server: ServerInput, replace: boolean) => invoke<McpOverview>("mcp_save_server", { server, replace }),
  mcpRemoveServer: (name: string) => invoke<McpOverview>("mcp_remove_server", { name }),
  mcpSetEnabled: (name: string, enabled: boolean) => invoke<McpOverview>("mcp_set_enabled", { name, enabled }),
  mcpSetToolEnabled: (name: string, tool: string, enabled: boolean) =>
    invoke<McpOverview>("mcp_set_tool_enabled", { name, tool, enabled }),
  mcpReconnect: (name: string) => invoke<McpOverview>("mcp_reconnect", { name }),
  mcpValidate: (server: ServerInput) => invoke<ValidationReport>("mcp_validate", { server }),
  mcpImportJson: (text: string, name: string | null, overwrite: boolean) =>
    invoke<ImportReport>("mcp_import_json", { text, name, overwrite }),
  mcpImportClaude: (overwrite: boolean) => invoke<ImportReport | null>("mcp_import_claude", { overwrite }),
  mcpResources: (name: string) => invoke<ResourceInfo[]>("mcp_resources", { name }),
  mcpPrompts: (name: string) => invoke<PromptInfo[]>("mcp_prompts", { name }),
  threadMounts: (threadId: string) => invoke<MountSpec[]>("thread_mounts", { threadId }),
  setThreadMounts: (threadId: string, mounts: MountSpec[]) =>
    invoke<MountSpec[]>("set_thread_mounts", { threadId, mounts }),
  threadFolders: (threadId: string) => invoke<ThreadFolder[]>("thread_folders", { threadId }),
  uploadFiles: (threadId: string, paths: string[]) => invoke<string[]>("upload_files", { threadId, paths }),
  openThreadFolder: async (threadId: string) => {
    await invoke<null>("open_thread_folder", { threadId });
  },
  pickFolder: async (title: string) => {
    const picked = await openDialog({ directory: true, multiple: false, title });
    return typeof picked === "string" ? picked : null;
  },
  saveArtifactAs: (threadId: string, path: string, dest: string) => invoke<number>("save_artifact_as", { threadId, path, dest }),
  pickFiles: async (title: string) => {
    const picked = await openDialog({ directory: false, multiple: true, title });
    if (picked === null) return [];
    return Array.isArray(picked) ? picked : [picked];
  },
  onFileDrop: (handler) =>
    getCurrentWebview().onDragDropEvent((event) => {
      const p = event.payload;
      handler(p.type === "enter" || p.type === "drop" ? { type: p.type, paths: p.paths } : { type: p.type });
    }),
  approvalPolicy: () => invoke<ApprovalPolicy>("approval_policy"),
  setApprovalPolicy: async (policy: ApprovalPolicy) => {
    await invoke<null>("set_approval_policy", { policy });
  },
  shellSettings: () => invoke<ShellSettingsView>("shell_settings"),
  setShellSettings: async (settings: ShellSettings) => {
    await invoke<null>("set_shell_settings", { settings });
  },
};
