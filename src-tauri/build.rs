//! Tauri's build step, with the app's commands declared so that capabilities can grant the
//! UI exactly these and nothing more.

/// Every command the UI may call; keep in step with `src/commands.rs` and
/// `capabilities/default.json`.
const COMMANDS: &[&str] = &[
    "provider_status",
    "detect_local_servers",
    "save_provider",
    "list_threads",
    "search_threads",
    "create_thread",
    "rename_thread",
    "delete_thread",
    "get_thread",
    "export_thread",
    "regenerate_reply",
    "edit_and_resend",
    "start_run",
    "cancel_run",
    "explain_tools",
    "list_run_choices",
    "thread_run_options",
    "set_thread_run_options",
    "answer_approval",
    "approval_policy",
    "set_approval_policy",
    "list_jobs",
    "cancel_job",
    "answer_clarification",
    "cancel_subagent",
    "list_outputs",
    "read_artifact",
    "open_artifact",
    "save_artifact_as",
    "watch_outputs",
    "thread_mounts",
    "set_thread_mounts",
    "thread_folders",
    "upload_files",
    "open_thread_folder",
    "mcp_overview",
    "mcp_watch",
    "mcp_save_server",
    "mcp_remove_server",
    "mcp_set_enabled",
    "mcp_set_tool_enabled",
    "mcp_reconnect",
    "mcp_validate",
    "mcp_import_json",
    "mcp_import_claude",
    "mcp_resources",
    "mcp_prompts",
    "list_memories",
    "update_memory",
    "delete_memory",
    "memory_enabled",
    "set_memory_enabled",
    "shell_settings",
    "set_shell_settings",
];

fn main() {
    tauri_build::try_build(
        tauri_build::Attributes::new()
            .app_manifest(tauri_build::AppManifest::new().commands(COMMANDS))
            .capabilities_path_pattern("./src-tauri/capabilities/**/*"),
    )
    .expect("tauri build script failed");
}
