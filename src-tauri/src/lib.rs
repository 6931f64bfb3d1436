//! The desktop shell: Tauri setup, the IPC commands and the event channel. No domain logic:
//! every command parses its arguments, calls `workbench-app`, and maps the error to the
//! sentence the UI shows.

mod commands;
mod logging;
mod open_folder;

use workbench_app::{default_data_dir, App};

/// Starts the desktop app; returns when the window is closed.
pub fn run() {
    let data = default_data_dir();
    let _log_guard = logging::init(&data.logs());
    let app = match App::open(data.clone()) {
        Ok(app) => app,
        Err(e) => {
            tracing::error!(error = %e, "could not open the data folder");
            eprintln!("Workbench could not start: {e}");
            std::process::exit(1);
        }
    };
    tracing::info!(data_dir = %data.path().display(), "Workbench starting");
    // A thread is titled by the model after its first exchange (the CLI does not do this).
    app.set_model_titles(true);
    // MCP servers connect in the background; their status shows on the MCP page.
    tauri::async_runtime::spawn({
        let app = app.clone();
        async move { app.start_mcp().await }
    });
    let shutdown = app.clone();
    let result = tauri::Builder::default()
        .manage(app)
        .manage(commands::PanelWatch::default())
        // The system's file dialogs: open folder (mounts), attach files, save as, export.
        .plugin(tauri_plugin_dialog::init())
        .invoke_handler(tauri::generate_handler![
            commands::provider_status,
            commands::detect_local_servers,
            commands::save_provider,
            commands::list_threads,
            commands::search_threads,
            commands::create_thread,
            commands::rename_thread,
            commands::delete_thread,
            commands::get_thread,
            commands::export_thread,
            commands::regenerate_reply,
            commands::edit_and_resend,
            commands::start_run,
            commands::cancel_run,
            commands::explain_tools,
            commands::list_run_choices,
            commands::thread_run_options,
            commands::set_thread_run_options,
            commands::answer_approval,
            commands::approval_policy,
            commands::set_approval_policy,
            commands::list_jobs,
            commands::cancel_job,
            commands::answer_clarification,
            commands::cancel_subagent,
            commands::list_outputs,
            commands::read_artifact,
            commands::open_artifact,
            commands::save_artifact_as,
            commands::watch_outputs,
            commands::thread_mounts,
            commands::set_thread_mounts,
            commands::thread_folders,
            commands::upload_files,
            commands::open_thread_folder,
            commands::mcp_overview,
            commands::mcp_watch,
            commands::mcp_save_server,
            commands::mcp_remove_server,
            commands::mcp_set_enabled,
            commands::mcp_set_tool_enabled,
            commands::mcp_reconnect,
            commands::mcp_validate,
            commands::mcp_import_json,
            commands::mcp_import_claude,
            commands::mcp_resources,
            commands::mcp_prompts,
            commands::list_memories,
            commands::update_memory,
            commands::delete_memory,
            commands::memory_enabled,
            commands::set_memory_enabled,
            commands::shell_settings,
            commands::set_shell_settings,
        ])
        .run(tauri::generate_context!());
    shutdown.cancel_all();
    shutdown.mcp().shutdown();
    if let Err(e) = result {
        tracing::error!(error = %e, "the window failed");
        eprintln!("Workbench stopped with an error: {e}");
        std::process::exit(1);
    }
}
