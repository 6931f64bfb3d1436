//! The composition root that both front-ends (the Tauri shell and the `workbench` CLI) call:
//! it opens the data folder, owns the live runs, builds model clients from the configured
//! provider and the keychain, and turns every failure into a sentence a user can act on.
//!
//! Not here: how things are drawn or printed (front-ends), wire formats (providers), SQL (store).

pub mod agents;
mod approvals;
pub mod artifacts;
mod branches;
pub mod config_tools;
mod error;
pub mod export;
mod frontmatter;
mod mcp;
mod memory;
mod mounts;
mod paths;
mod provider;
mod run_choices;
mod runs;
mod shells;
pub mod skills;
mod subagents;
mod title;
mod tool_call;
mod tools;
mod vision;
mod web;

pub use approvals::APPROVAL_POLICY_SETTING;
pub use error::AppError;
pub use memory::MEMORY_ENABLED_SETTING;
pub use mounts::{ThreadFolder, MAX_UPLOAD_BYTES};
pub use paths::{default_data_dir, DataDir};
pub use provider::ModelChoice;
pub use run_choices::{AgentChoice, RunChoices, SkillChoice};
pub use runs::RunHandle;
pub use shells::ShellSettings;
pub use subagents::{
    MAX_CONCURRENT_SUBAGENTS, MAX_SUBAGENTS_PER_RUN, SUBAGENT_TIMEOUT, SUBAGENT_TIMEOUT_SETTING,
};
pub use tools::RunOptions;
pub use vision::{name_suggests_vision, MODEL_VISION_SETTING};
pub use web::{SearchKeyStatus, WEB_ENDPOINTS_SETTING};
pub use workbench_sandbox::shell::JobInfo;
pub use workbench_sandbox::MountSpec;

use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex, RwLock};

use workbench_core::config::{DetectedServer, ProviderSettings, ProviderStatus};
use workbench_core::thread::{Thread, ThreadSearchHit, ThreadStore, ThreadSummary, ThreadView};
use workbench_providers::keychain::{OsKeychain, SecretStore};
use workbench_store::SqliteStore;

/// Title a thread has until its first message names it.
pub const DEFAULT_THREAD_TITLE: &str = "New thread";
/// Most threads one search returns: more than a sidebar shows, few enough to send at once.
pub const SEARCH_LIMIT: usize = 50;
/// Longest search text: longer is a paste by mistake, not a search.
pub const SEARCH_QUERY_MAX_CHARS: usize = 200;

/// The application: one per process, shared by every window or command.
pub struct App {
    data: DataDir,
    store: Arc<SqliteStore>,
    secrets: Arc<dyn SecretStore>,
    /// Live runs by thread id; at most one per thread.
    runs: Mutex<HashMap<String, runs::LiveRun>>,
    /// Tool sources besides the built-ins, in dedupe order (MCP, then the web tools).
    sources: RwLock<Vec<Arc<dyn workbench_core::tools::sources::CandidateSource>>>,
    /// Each thread's confined shell and background jobs.
    shells: shells::Shells,
    /// Subagents working right now, cancellable one by one.
    subagents: subagents::LiveSubagents,
    /// The user's MCP servers (`mcp.json`); their tools are the first registered source.
    mcp: workbench_mcp::McpManager,
    /// Whether a finished first exchange gets a title from the model (`set_model_titles`).
    model_titles: AtomicBool,
}

impl App {
    /// Opens the app on a data folder with the OS keychain.
    pub fn open(data: DataDir) -> Result<Arc<Self>, AppError> {
        Self::open_with_secrets(data, Arc::new(OsKeychain::new()))
    }

    /// Opens the app with a given secret store (the OS keychain in production).
    pub fn open_with_secrets(
        data: DataDir,
        secrets: Arc<dyn SecretStore>,
    ) -> Result<Arc<Self>, AppError> {
        data.create()?;
        let store = SqliteStore::open(&data.database())?;
        let (mcp, mcp_source) = mcp::manager(&data, secrets.clone());
        let store = Arc::new(store);
        let web_source = Arc::new(web::WebToolSource::new(store.clone(), secrets.clone()));
        Ok(Arc::new(Self {
            data,
            store,
            secrets,
            runs: Mutex::new(HashMap::new()),
            sources: RwLock::new(vec![mcp_source, web_source]),
            mcp,
            shells: shells::Shells::detect(),
            subagents: subagents::LiveSubagents::default(),
            model_titles: AtomicBool::new(false),
        }))
    }

    /// The data folder this app uses.
    pub fn data_dir(&self) -> &DataDir {
        &self.data
    }

    /// The configured provider and whether its key is in the keychain.
    pub async fn provider_status(&self) -> Result<ProviderStatus, AppError> {
        provider::status(self).await
    }

    /// Local OpenAI-compatible servers answering on their usual ports.
    pub async fn detect_local_servers(&self) -> Vec<DetectedServer> {
        workbench_providers::detect::detect_local_servers().await
    }

    /// Saves the provider settings; `api_key` `None` keeps the stored key, `Some("")`
    /// removes it, anything else replaces it in the keychain.
    pub async fn save_provider(
        &self,
        settings: ProviderSettings,
        api_key: Option<String>,
    ) -> Result<ProviderStatus, AppError> {
        provider::save(self, settings, api_key).await
    }

    /// All threads, most recent first, with `running` set for live ones.
    pub fn list_threads(&self) -> Result<Vec<ThreadSummary>, AppError> {
        let mut threads = self.store.list_threads()?;
        let live = self.live_threads();
        for t in &mut threads {
            t.running = live.contains(&t.id);
        }
        Ok(threads)
    }

    /// Threads whose title or shown messages contain `query` (trimmed; ASCII case ignored),
    /// newest first, at most [`SEARCH_LIMIT`], with `running` set. A blank query finds nothing.
    pub fn search_threads(&self, query: &str) -> Result<Vec<ThreadSearchHit>, AppError> {
        let query = query.trim();
        if query.is_empty() {
            return Ok(Vec::new());
        }
        if query.chars().count() > SEARCH_QUERY_MAX_CHARS {
            return Err(AppError::Invalid(format!(
                "a search is at most {SEARCH_QUERY_MAX_CHARS} characters"
            )));
        }
        let mut hits = self.store.search_threads(query, SEARCH_LIMIT)?;
        let live = self.live_threads();
        for h in &mut hits {
            h.thread.running = live.contains(&h.thread.id);
        }
        Ok(hits)
    }

    /// Creates a thread; an empty or missing title gets the default.
    pub fn create_thread(&self, title: Option<&str>) -> Result<Thread, AppError> {
        let given = title.map(str::trim).filter(|t| !t.is_empty());
        let thread = self
            .store
            .create_thread(given.unwrap_or(DEFAULT_THREAD_TITLE))?;
        if let Some(title) = given {
            // A title typed at creation is the user's: no automatic title replaces it.
            self.store.set_title_if(
                &thread.id,
                title,
                workbench_store::TitleSource::User,
                &[workbench_store::TitleSource::Default],
            )?;
        }
        Ok(thread)
    }

    /// Renames a thread. The title is the user's from then on: the model never replaces it.
    pub fn rename_thread(&self, thread_id: &str, title: &str) -> Result<(), AppError> {
        let title = title.trim();
        if title.is_empty() {
            return Err(AppError::Invalid("a thread title cannot be empty".into()));
        }
        Ok(self.store.rename_thread(thread_id, title)?)
    }

    /// Deletes a thread, stopping its run first.
    pub async fn delete_thread(&self, thread_id: &str) -> Result<(), AppError> {
        if let Some(done) = self.cancel_and_take(thread_id) {
            let _ = done.await;
        }
        self.shells.forget(thread_id);
        let id = thread_id.to_string();
        self.on_store(move |s| s.delete_thread(&id)).await
    }

    /// A thread with its messages.
    pub fn get_thread(&self, thread_id: &str) -> Result<ThreadView, AppError> {
        let thread = self.store.get_thread(thread_id)?;
        let messages = self.store.load_messages(thread_id)?;
        let running = self.live_threads().contains(&thread.id);
        let link = |b: workbench_store::BranchRow| workbench_core::thread::BranchLink {
            thread_id: b.thread_id,
            message_id: b.message_id,
            title: b.title,
        };
        let branched_from = self.store.branched_from(thread_id)?.map(link);
        let branches = self
            .store
            .branches_of(thread_id)?
            .into_iter()
            .map(link)
            .collect();
        Ok(ThreadView {
            thread,
            messages,
            running,
            branched_from,
            branches,
        })
    }

    /// The non-secret settings table, for front-ends' own preferences.
    pub fn store(&self) -> &SqliteStore {
        &self.store
    }

    /// Runs a quick store call on the blocking pool, off the async threads.
    pub(crate) async fn on_store<T, F>(&self, f: F) -> Result<T, AppError>
    where
        T: Send + 'static,
        F: FnOnce(&SqliteStore) -> Result<T, workbench_core::thread::StoreError> + Send + 'static,
    {
        let store = self.store.clone();
        tokio::task::spawn_blocking(move || f(&store))
            .await
            .map_err(|e| AppError::Invalid(format!("internal error: {e}")))?
            .map_err(AppError::from)
    }

    fn live_threads(&self) -> Vec<String> {
        self.runs
            .lock()
            .map(|r| r.keys().cloned().collect())
            .unwrap_or_default()
    }
}
