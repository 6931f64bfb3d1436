/**
 * The single typed wrapper over the Tauri IPC. Every command the UI calls is here, with the
 * argument names the Rust side expects (camelCase in JS, snake_case in Rust). Errors reject
 * with a plain string meant for the user; `errorText` turns whatever arrives into one.
 */
import { Channel, invoke } from "@tauri-apps/api/core";
import type { ApprovalDecision } from "./bindings/ApprovalDecision";
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
  startRun: (threadId: string, content: string, onEvent: (event: RunEvent) => void, options?: RunOptions) => {
    const channel = new Channel<RunEvent>();
    channel.onmessage = onEvent;
    return invoke<string>("start_run", { threadId, content, options: options ?? null, onEvent: channel });
  },
  cancelRun: (threadId: string) => invoke<boolean>("cancel_run", { threadId }),
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
};
