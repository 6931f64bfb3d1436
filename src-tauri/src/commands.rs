//! The IPC commands. Each one is thin: parse, call the app, turn the error into its sentence.

use std::sync::Arc;

use tauri::ipc::Channel;
use tauri::State;
use workbench_app::{App, AppError, ModelChoice};
use workbench_core::agent::RunEvent;
use workbench_core::config::{DetectedServer, ProviderSettings, ProviderStatus};
use workbench_core::thread::{Thread, ThreadSummary, ThreadView};

type AppState<'a> = State<'a, Arc<App>>;
/// Errors cross IPC as the sentence the UI shows.
type CmdResult<T> = Result<T, String>;

fn user_facing(e: AppError) -> String {
    tracing::warn!(error = %e, "command failed");
    e.to_string()
}

#[tauri::command]
pub async fn provider_status(app: AppState<'_>) -> CmdResult<ProviderStatus> {
    app.provider_status().await.map_err(user_facing)
}

#[tauri::command]
pub async fn detect_local_servers(app: AppState<'_>) -> CmdResult<Vec<DetectedServer>> {
    Ok(app.detect_local_servers().await)
}

#[tauri::command]
pub async fn save_provider(
    app: AppState<'_>,
    settings: ProviderSettings,
    api_key: Option<String>,
) -> CmdResult<ProviderStatus> {
    app.save_provider(settings, api_key)
        .await
        .map_err(user_facing)
}

#[tauri::command]
pub async fn list_threads(app: AppState<'_>) -> CmdResult<Vec<ThreadSummary>> {
    app.list_threads().map_err(user_facing)
}

#[tauri::command]
pub async fn create_thread(app: AppState<'_>, title: Option<String>) -> CmdResult<Thread> {
    app.create_thread(title.as_deref()).map_err(user_facing)
}

#[tauri::command]
pub async fn rename_thread(app: AppState<'_>, thread_id: String, title: String) -> CmdResult<()> {
    app.rename_thread(&thread_id, &title).map_err(user_facing)
}

#[tauri::command]
pub async fn delete_thread(app: AppState<'_>, thread_id: String) -> CmdResult<()> {
    app.delete_thread(&thread_id).await.map_err(user_facing)
}

#[tauri::command]
pub async fn get_thread(app: AppState<'_>, thread_id: String) -> CmdResult<ThreadView> {
    app.get_thread(&thread_id).map_err(user_facing)
}

/// Starts a run and streams its events on `on_event`; returns the run id at once.
#[tauri::command]
pub async fn start_run(
    app: AppState<'_>,
    thread_id: String,
    content: String,
    on_event: Channel<RunEvent>,
) -> CmdResult<String> {
    let sink = Arc::new(move |event: RunEvent| {
        if let Err(e) = on_event.send(event) {
            // The window went away; the run still finishes and is stored.
            tracing::debug!(error = %e, "run event not delivered");
        }
    });
    let app: Arc<App> = Arc::clone(&app);
    let handle = app
        .start_run(&thread_id, &content, ModelChoice::Configured, sink)
        .await
        .map_err(user_facing)?;
    Ok(handle.run_id)
}

#[tauri::command]
pub async fn cancel_run(app: AppState<'_>, thread_id: String) -> CmdResult<bool> {
    Ok(app.cancel_run(&thread_id))
}
