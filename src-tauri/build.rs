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
    "start_run",
    "cancel_run",
    "explain_tools",
];

fn main() {
    tauri_build::try_build(
        tauri_build::Attributes::new()
            .app_manifest(tauri_build::AppManifest::new().commands(COMMANDS))
            .capabilities_path_pattern("./src-tauri/capabilities/**/*"),
    )
    .expect("tauri build script failed");
}
