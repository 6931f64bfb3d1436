//! The IPC commands. Each one is thin: parse, call the app, turn the error into its sentence.

use std::path::PathBuf;
use std::sync::Arc;

use tauri::ipc::Channel;
use tauri::State;
use workbench_app::artifacts::{ArtifactContent, OutputFile};
use workbench_app::export::ExportFormat;
use workbench_app::ShellSettings;
use workbench_app::{
    App, AppError, JobInfo, ModelChoice, MountSpec, RunChoices, RunOptions, ThreadFolder,
};
use workbench_core::agent::{EventSink, RunEvent};
use workbench_core::config::{DetectedServer, ProviderSettings, ProviderStatus};
use workbench_core::memory::Memory;
use workbench_core::middleware::ApprovalPolicy;
use workbench_core::thread::{
    ApprovalDecision, Thread, ThreadSearchHit, ThreadSummary, ThreadView,
};
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

/// A run's event sink that forwards to the UI's channel. A window that went away is not an
/// error: the run still finishes and is stored.
fn channel_sink(on_event: Channel<RunEvent>) -> EventSink {
    Arc::new(move |event: RunEvent| {
        if let Err(e) = on_event.send(event) {
            tracing::debug!(error = %e, "run event not delivered");
        }
    })
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

/// Writes the thread as `format` (`md` or `json`) to `path`, the file the user picked in the
/// save dialog.
#[tauri::command]
pub async fn export_thread(
    app: AppState<'_>,
    thread_id: String,
    format: String,
    path: PathBuf,
) -> CmdResult<()> {
    let format = ExportFormat::parse(&format)
        .ok_or_else(|| format!("unknown export format `{format}`; use md or json"))?;
    app.export_thread_to(&thread_id, format, &path)
        .await
        .map_err(user_facing)
}

/// Starts a run and streams its events on `on_event`; returns the run id at once. `options`
/// picks the agent and skills (and is saved as the thread's choice); without it the thread's
/// saved choice is used.
#[tauri::command]
pub async fn start_run(
    app: AppState<'_>,
    thread_id: String,
    content: String,
    options: Option<RunOptions>,
    on_event: Channel<RunEvent>,
) -> CmdResult<String> {
    let sink = channel_sink(on_event);
    let options = match options {
        Some(o) => o,
        None => {
            let id = thread_id.clone();
            off_thread(&app, move |a| a.thread_run_options(&id)).await?
        }
    };
    let app: Arc<App> = Arc::clone(&app);
    let handle = app
        .start_run_with(&thread_id, &content, ModelChoice::Configured, options, sink)
        .await
        .map_err(user_facing)?;
    Ok(handle.run_id)
}

/// Answers the thread's last message again, replacing the reply it had; resolves with the
/// run id, the events streaming on `on_event`.
#[tauri::command]
pub async fn regenerate_reply(
    app: AppState<'_>,
    thread_id: String,
    on_event: Channel<RunEvent>,
) -> CmdResult<String> {
    let sink = channel_sink(on_event);
    let app: Arc<App> = Arc::clone(&app);
    let handle = app
        .regenerate(&thread_id, ModelChoice::Configured, sink)
        .await
        .map_err(user_facing)?;
    Ok(handle.run_id)
}

/// A branch started by editing a past message: the new thread and its run.
#[derive(serde::Serialize)]
pub struct BranchStarted {
    thread: Thread,
    run_id: String,
}

/// Edits a past user message and sends it in a new thread (a branch) made from the messages
/// before it; the branch's run streams on `on_event`.
#[tauri::command]
pub async fn edit_and_resend(
    app: AppState<'_>,
    thread_id: String,
    message_id: String,
    content: String,
    on_event: Channel<RunEvent>,
) -> CmdResult<BranchStarted> {
    let sink = channel_sink(on_event);
    let app: Arc<App> = Arc::clone(&app);
    let (thread, handle) = app
        .edit_and_resend(
            &thread_id,
            &message_id,
            &content,
            ModelChoice::Configured,
            sink,
        )
        .await
        .map_err(user_facing)?;
    Ok(BranchStarted {
        thread,
        run_id: handle.run_id,
    })
}

/// The custom agents and skills a thread can use, and the problems of those that did not load.
#[tauri::command]
pub async fn list_run_choices(app: AppState<'_>) -> CmdResult<RunChoices> {
    off_thread(&app, |a| Ok(a.run_choices())).await
}

/// The agent and skills a thread's next run uses.
#[tauri::command]
pub async fn thread_run_options(app: AppState<'_>, thread_id: String) -> CmdResult<RunOptions> {
    off_thread(&app, move |a| a.thread_run_options(&thread_id)).await
}

/// Saves a thread's agent and skills; returns what was saved.
#[tauri::command]
pub async fn set_thread_run_options(
    app: AppState<'_>,
    thread_id: String,
    options: RunOptions,
) -> CmdResult<RunOptions> {
    off_thread(&app, move |a| a.set_thread_run_options(&thread_id, options)).await
}

/// Answers a tool call waiting for approval. When it was the last open one the thread
/// resumes: the new run's events stream on `on_event` and its id is returned.
#[tauri::command]
pub async fn answer_approval(
    app: AppState<'_>,
    thread_id: String,
    call_id: String,
    decision: ApprovalDecision,
    on_event: Channel<RunEvent>,
) -> CmdResult<Option<String>> {
    let sink = channel_sink(on_event);
    let app: Arc<App> = Arc::clone(&app);
    let handle = app
        .answer_approval(
            &thread_id,
            &call_id,
            decision,
            ModelChoice::Configured,
            sink,
        )
        .await
        .map_err(user_facing)?;
    Ok(handle.map(|h| h.run_id))
}

/// The background shell jobs of a thread.
#[tauri::command]
pub async fn list_jobs(app: AppState<'_>, thread_id: String) -> CmdResult<Vec<JobInfo>> {
    off_thread(&app, move |a| Ok(a.thread_jobs(&thread_id))).await
}

/// Kills one background job; answers with the sentence to show.
#[tauri::command]
pub async fn cancel_job(app: AppState<'_>, thread_id: String, job_id: String) -> CmdResult<String> {
    app.cancel_job(&thread_id, &job_id)
        .await
        .map_err(user_facing)
}

/// Answers the agent's question (ask_clarification). When nothing else waits the thread
/// resumes: the new run's events stream on `on_event` and its id is returned.
#[tauri::command]
pub async fn answer_clarification(
    app: AppState<'_>,
    thread_id: String,
    call_id: String,
    answer: String,
    on_event: Channel<RunEvent>,
) -> CmdResult<Option<String>> {
    let sink = channel_sink(on_event);
    let app: Arc<App> = Arc::clone(&app);
    let handle = app
        .answer_clarification(&thread_id, &call_id, &answer, ModelChoice::Configured, sink)
        .await
        .map_err(user_facing)?;
    Ok(handle.map(|h| h.run_id))
}

/// Stops one subagent of a thread's run; false when it is not working any more.
#[tauri::command]
pub async fn cancel_subagent(
    app: AppState<'_>,
    thread_id: String,
    call_id: String,
) -> CmdResult<bool> {
    Ok(app.cancel_subagent(&thread_id, &call_id))
}

/// The approval rules (per tool and per group).
#[tauri::command]
pub async fn approval_policy(app: AppState<'_>) -> CmdResult<ApprovalPolicy> {
    off_thread(&app, |a| a.approval_policy()).await
}

/// Replaces the approval rules.
#[tauri::command]
pub async fn set_approval_policy(app: AppState<'_>, policy: ApprovalPolicy) -> CmdResult<()> {
    off_thread(&app, move |a| a.set_approval_policy(&policy)).await
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

/// The folders the user mounted into a thread, as saved.
#[tauri::command]
pub async fn thread_mounts(app: AppState<'_>, thread_id: String) -> CmdResult<Vec<MountSpec>> {
    off_thread(&app, move |a| a.thread_mounts(&thread_id)).await
}

/// Replaces a thread's mounts; the app checks that each folder exists and each name is safe,
/// and returns them with canonical paths. Takes effect at the thread's next run.
#[tauri::command]
pub async fn set_thread_mounts(
    app: AppState<'_>,
    thread_id: String,
    mounts: Vec<MountSpec>,
) -> CmdResult<Vec<MountSpec>> {
    off_thread(&app, move |a| a.set_thread_mounts(&thread_id, &mounts)).await
}

/// Every folder of a thread with its host path, virtual path and mode.
#[tauri::command]
pub async fn thread_folders(app: AppState<'_>, thread_id: String) -> CmdResult<Vec<ThreadFolder>> {
    off_thread(&app, move |a| a.thread_folders(&thread_id)).await
}

/// Copies dropped or picked files into the thread's uploads; returns their virtual paths.
#[tauri::command]
pub async fn upload_files(
    app: AppState<'_>,
    thread_id: String,
    paths: Vec<PathBuf>,
) -> CmdResult<Vec<String>> {
    app.upload_files(&thread_id, paths)
        .await
        .map_err(user_facing)
}

/// Opens the thread's folder in the system file manager.
#[tauri::command]
pub async fn open_thread_folder(app: AppState<'_>, thread_id: String) -> CmdResult<()> {
    let dir = off_thread(&app, move |a| a.thread_folder(&thread_id)).await?;
    crate::open_folder::open_in_file_manager(&dir)
}

/// The files in a thread's outputs, presented ones first.
#[tauri::command]
pub async fn list_outputs(app: AppState<'_>, thread_id: String) -> CmdResult<Vec<OutputFile>> {
    off_thread(&app, move |a| a.list_outputs(&thread_id)).await
}

/// A thread's file (a virtual path) for the artifacts panel's preview.
#[tauri::command]
pub async fn read_artifact(
    app: AppState<'_>,
    thread_id: String,
    path: String,
) -> CmdResult<ArtifactContent> {
    off_thread(&app, move |a| a.read_artifact(&thread_id, &path)).await
}

/// Opens a thread's file with the system's app for its type.
#[tauri::command]
pub async fn open_artifact(app: AppState<'_>, thread_id: String, path: String) -> CmdResult<()> {
    let host = off_thread(&app, move |a| a.artifact_host_path(&thread_id, &path)).await?;
    crate::open_folder::open_in_file_manager(&host)
}

/// Saves a copy of a thread's file to a host path the user chose in a save dialog; resolves
/// with the bytes written.
#[tauri::command]
pub async fn save_artifact_as(
    app: AppState<'_>,
    thread_id: String,
    path: String,
    dest: std::path::PathBuf,
) -> CmdResult<u64> {
    off_thread(&app, move |a| a.save_artifact_as(&thread_id, &path, &dest)).await
}

/// The one outputs watch the artifacts panel keeps (it shows one thread at a time).
#[derive(Default)]
pub struct PanelWatch(pub std::sync::Mutex<Option<workbench_app::artifacts::OutputsWatch>>);

/// Watches a thread's outputs for the panel, replacing any earlier watch: `on_change` gets a
/// message shortly after files change. `thread_id` null stops watching.
#[tauri::command]
pub async fn watch_outputs(
    app: AppState<'_>,
    watch: State<'_, PanelWatch>,
    thread_id: Option<String>,
    on_change: Channel<()>,
) -> CmdResult<()> {
    let new = match thread_id {
        None => None,
        Some(id) => {
            let notify = Arc::new(move || {
                let _ = on_change.send(());
            });
            Some(app.watch_outputs(&id, notify).map_err(user_facing)?)
        }
    };
    if let Ok(mut slot) = watch.0.lock() {
        *slot = new;
    }
    Ok(())
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

/// Saved facts, newest first (Settings -> Memory).
#[tauri::command]
pub async fn list_memories(app: AppState<'_>) -> CmdResult<Vec<Memory>> {
    off_thread(&app, |a| a.list_memories()).await
}

/// Replaces a fact's text; a fact that looks like a secret is refused with a sentence.
#[tauri::command]
pub async fn update_memory(app: AppState<'_>, id: String, fact: String) -> CmdResult<Memory> {
    off_thread(&app, move |a| a.update_memory(&id, &fact)).await
}

#[tauri::command]
pub async fn delete_memory(app: AppState<'_>, id: String) -> CmdResult<()> {
    off_thread(&app, move |a| a.delete_memory(&id)).await
}

#[tauri::command]
pub async fn memory_enabled(app: AppState<'_>) -> CmdResult<bool> {
    off_thread(&app, |a| a.memory_enabled()).await
}

/// Turns memory on or off: off hides `remember` and injects nothing; saved facts are kept.
#[tauri::command]
pub async fn set_memory_enabled(app: AppState<'_>, enabled: bool) -> CmdResult<()> {
    off_thread(&app, move |a| a.set_memory_enabled(enabled)).await
}

/// The shell's switches as Settings -> Permissions shows them, with the confinement this
/// machine gives the shell (None: no OS confinement here).
#[derive(serde::Serialize)]
pub struct ShellSettingsView {
    #[serde(flatten)]
    settings: ShellSettings,
    confinement: Option<String>,
}

/// The shell's network and unconfined switches (both off by default).
#[tauri::command]
pub async fn shell_settings(app: AppState<'_>) -> CmdResult<ShellSettingsView> {
    off_thread(&app, |a| {
        Ok(ShellSettingsView {
            settings: a.shell_settings()?,
            confinement: a.shell_confinement(),
        })
    })
    .await
}

/// Saves the shell's switches; each thread's next run gets a shell made with them.
#[tauri::command]
pub async fn set_shell_settings(app: AppState<'_>, settings: ShellSettings) -> CmdResult<()> {
    off_thread(&app, move |a| a.set_shell_settings(settings)).await
}
