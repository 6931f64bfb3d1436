//! The desktop shell: Tauri setup, the IPC commands and the event channel. No domain logic:
//! every command parses its arguments, calls `workbench-app`, and maps the error to the
//! sentence the UI shows.

mod commands;
mod logging;

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
    let shutdown = app.clone();
    let result = tauri::Builder::default()
        .manage(app)
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
            commands::start_run,
            commands::cancel_run,
            commands::explain_tools,
        ])
        .run(tauri::generate_context!());
    shutdown.cancel_all();
    if let Err(e) = result {
        tracing::error!(error = %e, "the window failed");
        eprintln!("Workbench stopped with an error: {e}");
        std::process::exit(1);
    }
}
