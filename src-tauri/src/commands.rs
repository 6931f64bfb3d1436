//! The IPC commands. Each one is thin: parse, call the app, turn the error into its sentence.

use std::sync::Arc;

use tauri::ipc::Channel;
use tauri::State;
use workbench_app::{App, AppError, ModelChoice, RunOptions};
use workbench_core::agent::RunEvent;
use workbench_core::config::{DetectedServer, ProviderSettings, ProviderStatus};
use workbench_core::thread::{Thread, ThreadSummary, ThreadView};
use workbench_core::tools::VisibilityReport;
use workbench_mcp::types::{PromptInfo, ResourceInfo};
use workbench_mcp::view::{ImportReport, McpOverview, ServerInput, ValidationReport};

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

// ---- MCP servers -------------------------------------------------------------------------
// The MCP manager page's commands. Shapes are the ts-rs bindings in ui/src/bindings
// (McpOverview, ServerView, ServerStatus, ServerInput, ValidationReport, ImportReport,
// ResourceInfo, PromptInfo). Every command that changes something answers with the new
// McpOverview, so the page redraws from one source of truth; statuses that change later
// (connecting -> connected) arrive on `mcp_watch`'s channel.

/// Every configured server with its status, tools and the config file's path.
#[tauri::command]
pub async fn mcp_overview(app: AppState<'_>) -> CmdResult<McpOverview> {
    Ok(app.mcp().overview())
}

/// Sends the overview now and again after every change, until the page goes away.
#[tauri::command]
pub async fn mcp_watch(app: AppState<'_>, on_change: Channel<McpOverview>) -> CmdResult<()> {
    let app: Arc<App> = Arc::clone(&app);
    let mut changes = app.mcp().subscribe();
    tauri::async_runtime::spawn(async move {
        loop {
            if on_change.send(app.mcp().overview()).is_err() {
                break;
            }
            if changes.changed().await.is_err() {
                break;
            }
        }
    });
    Ok(())
}

/// Adds a server from the form, or with `replace` edits the one of that name. Secret values
/// go to the keychain; a value left out keeps the stored one.
#[tauri::command]
pub async fn mcp_save_server(
    app: AppState<'_>,
    server: ServerInput,
    replace: bool,
) -> CmdResult<McpOverview> {
    app.mcp()
        .save_server(server, replace)
        .await
        .map_err(|e| e.to_string())?;
    Ok(app.mcp().overview())
}

/// Removes a server and its keychain entries.
#[tauri::command]
pub async fn mcp_remove_server(app: AppState<'_>, name: String) -> CmdResult<McpOverview> {
    app.mcp()
        .remove_server(&name)
        .await
        .map_err(|e| e.to_string())?;
    Ok(app.mcp().overview())
}

/// Switches a server on or off.
#[tauri::command]
pub async fn mcp_set_enabled(
    app: AppState<'_>,
    name: String,
    enabled: bool,
) -> CmdResult<McpOverview> {
    app.mcp()
        .set_enabled(&name, enabled)
        .await
        .map_err(|e| e.to_string())?;
    Ok(app.mcp().overview())
}

/// Switches one tool (by its own name) of a server on or off.
#[tauri::command]
pub async fn mcp_set_tool_enabled(
    app: AppState<'_>,
    name: String,
    tool: String,
    enabled: bool,
) -> CmdResult<McpOverview> {
    app.mcp()
        .set_tool_enabled(&name, &tool, enabled)
        .await
        .map_err(|e| e.to_string())?;
    Ok(app.mcp().overview())
}

/// Restarts a server now (a failed one too).
#[tauri::command]
pub async fn mcp_reconnect(app: AppState<'_>, name: String) -> CmdResult<McpOverview> {
    app.mcp().reconnect(&name).map_err(|e| e.to_string())?;
    Ok(app.mcp().overview())
}

/// Tries the form's server (connect, list tools) without saving anything.
#[tauri::command]
pub async fn mcp_validate(app: AppState<'_>, server: ServerInput) -> CmdResult<ValidationReport> {
    Ok(app.mcp().validate_input(server).await)
}

/// Imports pasted JSON: `{"mcpServers": ...}`, a map of servers, or one entry named `name`.
#[tauri::command]
pub async fn mcp_import_json(
    app: AppState<'_>,
    text: String,
    name: Option<String>,
    overwrite: bool,
) -> CmdResult<ImportReport> {
    app.import_mcp_json(&text, name.as_deref(), overwrite)
        .await
        .map_err(|e| e.to_string())
}

/// Imports Claude Desktop's servers; `null` when its config does not exist on this machine.
#[tauri::command]
pub async fn mcp_import_claude(
    app: AppState<'_>,
    overwrite: bool,
) -> CmdResult<Option<ImportReport>> {
    app.import_claude_desktop(overwrite)
        .await
        .map_err(|e| e.to_string())
}

/// A connected server's resources (read-only).
#[tauri::command]
pub async fn mcp_resources(app: AppState<'_>, name: String) -> CmdResult<Vec<ResourceInfo>> {
    app.mcp().resources(&name).await.map_err(|e| e.to_string())
}

/// A connected server's prompts (read-only).
#[tauri::command]
pub async fn mcp_prompts(app: AppState<'_>, name: String) -> CmdResult<Vec<PromptInfo>> {
    app.mcp().prompts(&name).await.map_err(|e| e.to_string())
}
