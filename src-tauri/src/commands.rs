//! The IPC commands. Each one is thin: parse, call the app, turn the error into its sentence.

use std::sync::Arc;

use tauri::ipc::Channel;
use tauri::State;
use workbench_app::{App, AppError, ModelChoice, RunOptions};
use workbench_core::agent::RunEvent;
use workbench_core::config::{DetectedServer, ProviderSettings, ProviderStatus};
use workbench_core::thread::{Thread, ThreadSearchHit, ThreadSummary, ThreadView};
use workbench_core::tools::VisibilityReport;

type AppState<'a> = State<'a, Arc<App>>;
/// Errors cross IPC as the sentence the UI shows.
type CmdResult<T> = Result<T, String>;

fn user_facing(e: AppError) -> String {
    tracing::warn!(error = %e, "command failed");
    e.to_string()
}

/// Runs a quick store-backed app call on the blocking pool, off the async threads.
async fn off_thread<T, F>(app: &AppState<'_>, f: F) -> CmdResult<T>
where
    T: Send + 'static,
    F: FnOnce(&App) -> Result<T, AppError> + Send + 'static,
{
    let app: Arc<App> = Arc::clone(app);
    tauri::async_runtime::spawn_blocking(move || f(&app))
        .await
        .map_err(|e| format!("internal error: {e}"))?
        .map_err(user_facing)
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
    off_thread(&app, |a| a.list_threads()).await
}

#[tauri::command]
pub async fn search_threads(app: AppState<'_>, query: String) -> CmdResult<Vec<ThreadSearchHit>> {
    off_thread(&app, move |a| a.search_threads(&query)).await
}

#[tauri::command]
pub async fn create_thread(app: AppState<'_>, title: Option<String>) -> CmdResult<Thread> {
    off_thread(&app, move |a| a.create_thread(title.as_deref())).await
}

#[tauri::command]
pub async fn rename_thread(app: AppState<'_>, thread_id: String, title: String) -> CmdResult<()> {
    off_thread(&app, move |a| a.rename_thread(&thread_id, &title)).await
}

#[tauri::command]
pub async fn delete_thread(app: AppState<'_>, thread_id: String) -> CmdResult<()> {
    app.delete_thread(&thread_id).await.map_err(user_facing)
}

#[tauri::command]
pub async fn get_thread(app: AppState<'_>, thread_id: String) -> CmdResult<ThreadView> {
    off_thread(&app, move |a| a.get_thread(&thread_id)).await
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

/// The visibility report of a thread's next run: every candidate tool and why it is visible,
/// deferred or hidden.
#[tauri::command]
pub async fn explain_tools(
    app: AppState<'_>,
    thread_id: Option<String>,
    agent: Option<String>,
    skills: Option<Vec<String>>,
) -> CmdResult<VisibilityReport> {
    let options = RunOptions {
        agent,
        skills: skills.unwrap_or_default(),
    };
    off_thread(&app, move |a| {
        a.explain_tools(thread_id.as_deref(), &options)
    })
    .await
}

#[tauri::command]
pub async fn cancel_run(app: AppState<'_>, thread_id: String) -> CmdResult<bool> {
    Ok(app.cancel_run(&thread_id))
}
