//! The MCP manager: owns `mcp.json`, one supervisor task per enabled server, their status and
//! tools, and the calls into them.
//!
//! Reading state (status, tools for a run) is synchronous and cheap; everything that waits on
//! a server happens in the server's own task or under its own timeout.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, Instant};

use tokio::sync::watch;
use tokio_util::sync::CancellationToken;
use workbench_core::tools::names::qualify_mcp_name;
use workbench_core::tools::ToolOutput;

use crate::client::{Connection, Connector, Hooks, StderrTail};
use crate::config::{validate_server_name, ConfigValue, McpConfig, ServerConfig, TransportKind};
use crate::edit;
use crate::file::{ConfigFile, FileError};
use crate::secrets::{self, SecretError, SecretStore};
use crate::spec;
use crate::supervisor::{self, Job};
use crate::types::{CallError, PromptInfo, ResourceInfo, ToolInfo};
use crate::view::{
    ImportReport, McpOverview, ServerInput, ServerStatus, ServerView, ToolView, TransportName,
    ValidationReport, ValueView,
};

/// Why a manager operation failed; `Display` is the sentence the user sees.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum McpError {
    /// `mcp.json` could not be read or written.
    #[error(transparent)]
    File(#[from] FileError),
    /// The keychain failed.
    #[error("{0}")]
    Secret(#[from] SecretError),
    /// The input is wrong; the sentence says how.
    #[error("{0}")]
    Invalid(String),
    /// No server of that name.
    #[error("there is no MCP server named `{0}`")]
    NotFound(String),
    /// The server is not connected.
    #[error("the MCP server `{name}` is not connected ({state})")]
    NotConnected {
        /// The server.
        name: String,
        /// Its state, in words.
        state: String,
    },
    /// The server failed the request.
    #[error("the MCP server `{name}` failed: {detail}")]
    Request {
        /// The server.
        name: String,
        /// What went wrong.
        detail: String,
    },
}

/// One server's live state.
pub(crate) struct Slot {
    pub config: ServerConfig,
    pub status: ServerStatus,
    pub tools: Vec<ToolInfo>,
    pub conn: Option<Arc<dyn Connection>>,
    pub stderr: Arc<StderrTail>,
    pub cancel: CancellationToken,
    pub generation: u64,
}

pub(crate) struct Inner {
    pub file: ConfigFile,
    pub secrets: Arc<dyn SecretStore>,
    pub connector: Arc<dyn Connector>,
    slots: RwLock<BTreeMap<String, Slot>>,
    config_error: RwLock<Option<String>>,
    next_generation: Mutex<u64>,
    /// Bumped on every visible change; front-ends watch it.
    changes: watch::Sender<u64>,
    /// Serialises config edits and reloads.
    edit_lock: tokio::sync::Mutex<()>,
    pub(crate) watcher: Mutex<Option<notify::RecommendedWatcher>>,
}

impl Inner {
    /// Applies `f` to the slot if it is still of `generation`; false when it is gone or newer.
    pub(crate) fn update_slot(
        &self,
        name: &str,
        generation: u64,
        f: impl FnOnce(&mut Slot),
    ) -> bool {
        let applied = match self.slots.write() {
            Ok(mut slots) => match slots.get_mut(name) {
                Some(slot) if slot.generation == generation => {
                    f(slot);
                    true
                }
                _ => false,
            },
            Err(_) => false,
        };
        if applied {
            self.changed();
        }
        applied
    }

    fn changed(&self) {
        self.changes.send_modify(|n| *n = n.wrapping_add(1));
    }
}

impl Drop for Inner {
    fn drop(&mut self) {
        if let Ok(slots) = self.slots.read() {
            for slot in slots.values() {
                slot.cancel.cancel();
            }
        }
    }
}

/// The MCP manager; cheap to clone (all clones share one state).
#[derive(Clone)]
pub struct McpManager {
    pub(crate) inner: Arc<Inner>,
}

impl McpManager {
    /// A manager over `file`; nothing starts until [`McpManager::start`].
    pub fn new(
        file: ConfigFile,
        secrets: Arc<dyn SecretStore>,
        connector: Arc<dyn Connector>,
    ) -> Self {
        Self {
            inner: Arc::new(Inner {
                file,
                secrets,
                connector,
                slots: RwLock::new(BTreeMap::new()),
                config_error: RwLock::new(None),
                next_generation: Mutex::new(0),
                changes: watch::channel(0).0,
                edit_lock: tokio::sync::Mutex::new(()),
                watcher: Mutex::new(None),
            }),
        }
    }

    /// The config file.
    pub fn file(&self) -> &ConfigFile {
        &self.inner.file
    }

    /// Reads `mcp.json` and connects every enabled server, each in its own task. Returns at
    /// once; watch [`McpManager::subscribe`] or call [`McpManager::wait_settled`].
    pub async fn start(&self) -> Result<(), McpError> {
        self.reload().await
    }

    /// Re-reads `mcp.json` and applies what changed: new servers start, removed ones stop,
    /// changed ones restart; untouched servers keep their connection. An unreadable file
    /// leaves the servers as they are and is reported in the overview.
    pub async fn reload(&self) -> Result<(), McpError> {
        let _guard = self.inner.edit_lock.lock().await;
        self.reload_locked().await
    }

    async fn reload_locked(&self) -> Result<(), McpError> {
        let file = self.inner.file.clone();
        let loaded = tokio::task::spawn_blocking(move || file.load())
            .await
            .map_err(|e| McpError::Invalid(format!("internal error: {e}")))?;
        match loaded {
            Ok(cfg) => {
                self.set_config_error(None);
                self.apply(&cfg);
                Ok(())
            }
            Err(e) => {
                tracing::warn!(error = %e, "mcp.json could not be read; keeping the servers as they are");
                self.set_config_error(Some(e.to_string()));
                Err(e.into())
            }
        }
    }

    fn set_config_error(&self, error: Option<String>) {
        if let Ok(mut slot) = self.inner.config_error.write() {
            if *slot != error {
                *slot = error;
                drop(slot);
                self.inner.changed();
            }
        }
    }

    /// Makes the running state match `cfg`.
    fn apply(&self, cfg: &McpConfig) {
        let mut to_start: Vec<Job> = Vec::new();
        {
            let Ok(mut slots) = self.inner.slots.write() else {
                return;
            };
            slots.retain(|name, slot| {
                let keep = cfg.servers.contains_key(name);
                if !keep {
                    slot.cancel.cancel();
                }
                keep
            });
            for (name, entry) in &cfg.servers {
                if let Some(slot) = slots.get_mut(name) {
                    if same_connection(&slot.config, entry) {
                        // Only tool switches or nothing changed: keep the connection.
                        slot.config = entry.clone();
                        continue;
                    }
                    slot.cancel.cancel();
                }
                let generation = self.next_generation();
                let cancel = CancellationToken::new();
                let stderr = Arc::new(StderrTail::default());
                let status = initial_status(name, entry);
                if status == ServerStatus::Connecting {
                    to_start.push(Job {
                        name: name.clone(),
                        config: entry.clone(),
                        generation,
                        cancel: cancel.clone(),
                        stderr: stderr.clone(),
                    });
                }
                slots.insert(
                    name.clone(),
                    Slot {
                        config: entry.clone(),
                        status,
                        tools: Vec::new(),
                        conn: None,
                        stderr,
                        cancel,
                        generation,
                    },
                );
            }
        }
        self.inner.changed();
        for job in to_start {
            tracing::info!(server = %job.name, "starting MCP server");
            tokio::spawn(supervisor::supervise(Arc::downgrade(&self.inner), job));
        }
    }

    fn next_generation(&self) -> u64 {
        let mut n = self
            .inner
            .next_generation
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        *n += 1;
        *n
    }

    /// Stops every server.
    pub fn shutdown(&self) {
        if let Ok(slots) = self.inner.slots.read() {
            for slot in slots.values() {
                slot.cancel.cancel();
            }
        }
    }

    /// A receiver that changes whenever a status, tool list or the config changes.
    pub fn subscribe(&self) -> watch::Receiver<u64> {
        self.inner.changes.subscribe()
    }

    /// Waits until no server is `connecting` (each is bounded by its startup timeout), or
    /// `limit` passes.
    pub async fn wait_settled(&self, limit: Duration) {
        let mut rx = self.subscribe();
        let deadline = tokio::time::Instant::now() + limit;
        loop {
            let busy = self
                .inner
                .slots
                .read()
                .map(|s| {
                    s.values()
                        .any(|slot| slot.status == ServerStatus::Connecting)
                })
                .unwrap_or(false);
            if !busy {
                return;
            }
            if tokio::time::timeout_at(deadline, rx.changed())
                .await
                .is_err()
            {
                return;
            }
        }
    }

    /// Every server with its status and tools.
    pub fn overview(&self) -> McpOverview {
        let servers = self
            .inner
            .slots
            .read()
            .map(|slots| slots.iter().map(|(n, s)| view(n, s)).collect())
            .unwrap_or_default();
        McpOverview {
            config_path: self.inner.file.path().display().to_string(),
            config_error: self.inner.config_error.read().ok().and_then(|e| e.clone()),
            servers,
        }
    }

    /// One server's view.
    pub fn server(&self, name: &str) -> Result<ServerView, McpError> {
        let slots = self
            .inner
            .slots
            .read()
            .map_err(|_| McpError::Invalid("internal error: state lock".into()))?;
        slots
            .get(name)
            .map(|s| view(name, s))
            .ok_or_else(|| McpError::NotFound(name.into()))
    }

    /// The enabled tools of every connected server, for a run: `(server, tool)`.
    pub fn offered_tools(&self) -> Vec<(String, ToolInfo)> {
        let Ok(slots) = self.inner.slots.read() else {
            return Vec::new();
        };
        slots
            .iter()
            .filter(|(_, s)| s.conn.is_some())
            .flat_map(|(name, s)| {
                s.tools
                    .iter()
                    .filter(|t| s.config.tool_enabled(&t.name))
                    .map(|t| (name.clone(), t.clone()))
                    .collect::<Vec<_>>()
            })
            .collect()
    }

    fn connection(&self, name: &str) -> Result<(Arc<dyn Connection>, ServerConfig), McpError> {
        let slots = self
            .inner
            .slots
            .read()
            .map_err(|_| McpError::Invalid("internal error: state lock".into()))?;
        let slot = slots
            .get(name)
            .ok_or_else(|| McpError::NotFound(name.into()))?;
        match &slot.conn {
            Some(c) => Ok((c.clone(), slot.config.clone())),
            None => Err(McpError::NotConnected {
                name: name.into(),
                state: describe(&slot.status),
            }),
        }
    }

    /// Calls a tool and turns every outcome into a result for the model: the server's
    /// `isError` and JSON-RPC errors at once, a stopped server at once, silence after the
    /// call timeout.
    pub async fn call_tool(
        &self,
        server: &str,
        tool: &str,
        args: serde_json::Map<String, serde_json::Value>,
        cancel: &CancellationToken,
    ) -> ToolOutput {
        let (conn, config) = match self.connection(server) {
            Ok(c) => c,
            Err(e) => return ToolOutput::error(e.to_string()),
        };
        if !config.tool_enabled(tool) {
            return ToolOutput::error(format!(
                "the tool `{tool}` of MCP server `{server}` is switched off"
            ));
        }
        let timeout = config.call_timeout();
        let started = Instant::now();
        let outcome = tokio::select! {
            biased;
            _ = cancel.cancelled() => return ToolOutput::error("cancelled"),
            r = tokio::time::timeout(timeout, conn.call_tool(tool, args)) => r,
            _ = conn.closed() => Ok(Err(CallError::Closed("the server stopped".into()))),
        };
        tracing::debug!(
            server,
            tool,
            elapsed_ms = started.elapsed().as_millis() as u64,
            "MCP tool call finished"
        );
        match outcome {
            Ok(Ok(result)) if result.is_error => ToolOutput::error(if result.text.is_empty() {
                format!("the MCP tool `{tool}` reported an error without a message")
            } else {
                result.text
            }),
            Ok(Ok(result)) => ToolOutput::text(result.text),
            Ok(Err(CallError::Closed(_))) => {
                let stderr = self.stderr_note(server);
                ToolOutput::error(format!(
                    "the MCP server `{server}` stopped during the call to `{tool}`; Workbench \
                     is restarting it{stderr}"
                ))
            }
            Ok(Err(e)) => {
                ToolOutput::error(format!("the MCP server `{server}` refused `{tool}`: {e}"))
            }
            Err(_) => ToolOutput::error(format!(
                "the MCP server `{server}` did not answer `{tool}` within {} s (callTimeoutSecs)",
                timeout.as_secs()
            )),
        }
    }

    fn stderr_note(&self, server: &str) -> String {
        let lines = self
            .inner
            .slots
            .read()
            .ok()
            .and_then(|s| s.get(server).map(|slot| slot.stderr.lines()))
            .unwrap_or_default();
        match lines.last() {
            Some(last) => format!(" (its last stderr line: {last})"),
            None => String::new(),
        }
    }

    /// The server's resources (read-only).
    pub async fn resources(&self, name: &str) -> Result<Vec<ResourceInfo>, McpError> {
        let (conn, config) = self.connection(name)?;
        self.bounded(name, config.call_timeout(), conn.list_resources())
            .await
    }

    /// The server's prompts (read-only).
    pub async fn prompts(&self, name: &str) -> Result<Vec<PromptInfo>, McpError> {
        let (conn, config) = self.connection(name)?;
        self.bounded(name, config.call_timeout(), conn.list_prompts())
            .await
    }

    async fn bounded<T>(
        &self,
        name: &str,
        timeout: Duration,
        fut: impl std::future::Future<Output = Result<T, CallError>>,
    ) -> Result<T, McpError> {
        match tokio::time::timeout(timeout, fut).await {
            Ok(Ok(v)) => Ok(v),
            // A server without resources or prompts answers "method not found".
            Ok(Err(e)) => Err(McpError::Request {
                name: name.into(),
                detail: e.to_string(),
            }),
            Err(_) => Err(McpError::Request {
                name: name.into(),
                detail: format!("no answer within {} s", timeout.as_secs()),
            }),
        }
    }

    /// Restarts one server now (a failed one too).
    pub fn reconnect(&self, name: &str) -> Result<(), McpError> {
        let job = {
            let mut slots = self
                .inner
                .slots
                .write()
                .map_err(|_| McpError::Invalid("internal error: state lock".into()))?;
            let slot = slots
                .get_mut(name)
                .ok_or_else(|| McpError::NotFound(name.into()))?;
            slot.cancel.cancel();
            let generation = self.next_generation();
            let cancel = CancellationToken::new();
            slot.generation = generation;
            slot.cancel = cancel.clone();
            slot.conn = None;
            slot.tools.clear();
            slot.status = initial_status(name, &slot.config);
            (slot.status == ServerStatus::Connecting).then(|| Job {
                name: name.into(),
                config: slot.config.clone(),
                generation,
                cancel,
                stderr: slot.stderr.clone(),
            })
        };
        self.inner.changed();
        if let Some(job) = job {
            tokio::spawn(supervisor::supervise(Arc::downgrade(&self.inner), job));
        }
        Ok(())
    }

    /// Edits `mcp.json` under the edit lock, then applies it.
    async fn edit<T, F>(&self, f: F) -> Result<T, McpError>
    where
        T: Send + 'static,
        F: FnOnce(&mut McpConfig, &dyn SecretStore) -> Result<T, McpError> + Send + 'static,
    {
        let _guard = self.inner.edit_lock.lock().await;
        let file = self.inner.file.clone();
        let secrets = self.inner.secrets.clone();
        let (out, cfg) = tokio::task::spawn_blocking(move || {
            let mut cfg = file.load()?;
            let out = f(&mut cfg, secrets.as_ref())?;
            file.save(&cfg)?;
            Ok::<_, McpError>((out, cfg))
        })
        .await
        .map_err(|e| McpError::Invalid(format!("internal error: {e}")))??;
        self.set_config_error(None);
        self.apply(&cfg);
        Ok(out)
    }

    /// Adds a server from the form; `replace` allows overwriting one of the same name (edit).
    /// Secret values go to the keychain; values left empty keep what is stored.
    pub async fn save_server(&self, input: ServerInput, replace: bool) -> Result<(), McpError> {
        self.edit(move |cfg, secrets| {
            let name = input.name.clone();
            let old = cfg.servers.get(&name).cloned();
            if old.is_some() && !replace {
                return Err(McpError::Invalid(format!(
                    "a server named `{name}` already exists; edit it or pick another name"
                )));
            }
            let entry = edit::entry_from_input(&input, old.as_ref(), secrets)?;
            if let Some(old) = &old {
                edit::forget_unused_secrets(old, &entry, secrets)?;
            }
            cfg.servers.insert(name, entry);
            Ok(())
        })
        .await
    }

    /// Removes a server and its keychain entries.
    pub async fn remove_server(&self, name: &str) -> Result<(), McpError> {
        let name = name.to_string();
        self.edit(move |cfg, secrets| {
            let old = cfg
                .servers
                .remove(&name)
                .ok_or_else(|| McpError::NotFound(name.clone()))?;
            for account in secrets::referenced_accounts(&old) {
                secrets.delete(&account)?;
            }
            Ok(())
        })
        .await
    }

    /// Switches a server on or off.
    pub async fn set_enabled(&self, name: &str, enabled: bool) -> Result<(), McpError> {
        let name = name.to_string();
        self.edit(move |cfg, _| {
            let entry = cfg
                .servers
                .get_mut(&name)
                .ok_or_else(|| McpError::NotFound(name.clone()))?;
            entry.enabled = enabled;
            Ok(())
        })
        .await
    }

    /// Switches one tool of a server on or off (by the tool's own name).
    pub async fn set_tool_enabled(
        &self,
        name: &str,
        tool: &str,
        enabled: bool,
    ) -> Result<(), McpError> {
        let (name, tool) = (name.to_string(), tool.to_string());
        self.edit(move |cfg, _| {
            let entry = cfg
                .servers
                .get_mut(&name)
                .ok_or_else(|| McpError::NotFound(name.clone()))?;
            entry.disabled_tools.retain(|t| t != &tool);
            if !enabled {
                entry.disabled_tools.push(tool);
                entry.disabled_tools.sort();
            }
            Ok(())
        })
        .await
    }

    /// Adds imported entries; secret-looking plain values move to the keychain. Existing names
    /// are skipped unless `overwrite`.
    pub async fn import(
        &self,
        servers: BTreeMap<String, ServerConfig>,
        overwrite: bool,
    ) -> Result<ImportReport, McpError> {
        self.edit(move |cfg, secrets| {
            let mut report = ImportReport {
                added: Vec::new(),
                skipped: Vec::new(),
            };
            for (name, mut entry) in servers {
                validate_server_name(&name).map_err(McpError::Invalid)?;
                if cfg.servers.contains_key(&name) && !overwrite {
                    report.skipped.push(name);
                    continue;
                }
                secrets::externalize(&name, &mut entry, &[], &[], secrets)?;
                cfg.servers.insert(name.clone(), entry);
                report.added.push(name);
            }
            Ok(report)
        })
        .await
    }

    /// Tries a server from the form without saving it: connect, list tools, disconnect.
    pub async fn validate_input(&self, input: ServerInput) -> ValidationReport {
        let old = self
            .inner
            .slots
            .read()
            .ok()
            .and_then(|s| s.get(&input.name).map(|slot| slot.config.clone()));
        let secrets = self.inner.secrets.clone();
        // Build the entry against a scratch store so nothing is written to the keychain.
        let built = tokio::task::spawn_blocking(move || {
            let scratch = secrets::MemorySecrets::default();
            let entry = edit::entry_from_input(&input, old.as_ref(), &scratch)?;
            spec_for(&entry, &scratch, secrets.as_ref()).map(|s| (entry, s))
        })
        .await;
        match built {
            Ok(Ok((entry, spec))) => self.try_connect(&entry, spec).await,
            Ok(Err(e)) => failed_report(e.to_string(), Vec::new(), Duration::ZERO),
            Err(e) => failed_report(format!("internal error: {e}"), Vec::new(), Duration::ZERO),
        }
    }

    /// Tries a saved server with a fresh connection, leaving the running one alone.
    pub async fn validate_saved(&self, name: &str) -> Result<ValidationReport, McpError> {
        let file = self.inner.file.clone();
        let secrets = self.inner.secrets.clone();
        let name = name.to_string();
        let built = tokio::task::spawn_blocking(move || {
            let cfg = file.load()?;
            let entry = cfg
                .servers
                .get(&name)
                .cloned()
                .ok_or_else(|| McpError::NotFound(name.clone()))?;
            Ok::<_, McpError>((entry.clone(), spec::build(&entry, secrets.as_ref())))
        })
        .await
        .map_err(|e| McpError::Invalid(format!("internal error: {e}")))??;
        Ok(match built {
            (entry, Ok(spec)) => self.try_connect(&entry, spec).await,
            (_, Err(e)) => failed_report(e, Vec::new(), Duration::ZERO),
        })
    }

    async fn try_connect(
        &self,
        entry: &ServerConfig,
        spec: crate::client::ConnectSpec,
    ) -> ValidationReport {
        let stderr = Arc::new(StderrTail::default());
        let hooks = Hooks {
            on_tools_changed: Arc::new(|| {}),
            stderr: stderr.clone(),
        };
        let started = Instant::now();
        let timeout = entry.startup_timeout();
        let connector = self.inner.connector.clone();
        let attempt = async {
            let conn = connector.connect(&spec, hooks).await?;
            let tools = conn.list_tools().await.map_err(|e| e.to_string());
            conn.close().await;
            tools
        };
        match tokio::time::timeout(timeout, attempt).await {
            Ok(Ok(tools)) => ValidationReport {
                ok: true,
                error: None,
                stderr: stderr.lines(),
                tools,
                elapsed_ms: millis(started.elapsed()),
            },
            Ok(Err(e)) => failed_report(e, stderr.lines(), started.elapsed()),
            Err(_) => failed_report(
                format!(
                    "the server did not start and list its tools within {} s",
                    timeout.as_secs()
                ),
                stderr.lines(),
                started.elapsed(),
            ),
        }
    }
}

fn spec_for(
    entry: &ServerConfig,
    scratch: &dyn SecretStore,
    keychain: &dyn SecretStore,
) -> Result<crate::client::ConnectSpec, McpError> {
    let layered = edit::Layered {
        first: scratch,
        then: keychain,
    };
    spec::build(entry, &layered).map_err(McpError::Invalid)
}

fn failed_report(error: String, stderr: Vec<String>, elapsed: Duration) -> ValidationReport {
    ValidationReport {
        ok: false,
        error: Some(error),
        stderr,
        tools: Vec::new(),
        elapsed_ms: millis(elapsed),
    }
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// Whether two entries connect the same way (only tool switches may differ).
fn same_connection(a: &ServerConfig, b: &ServerConfig) -> bool {
    let strip = |c: &ServerConfig| ServerConfig {
        disabled_tools: Vec::new(),
        ..c.clone()
    };
    strip(a) == strip(b)
}

fn initial_status(name: &str, entry: &ServerConfig) -> ServerStatus {
    if !entry.enabled {
        return ServerStatus::Disabled;
    }
    let checked = validate_server_name(name).and_then(|()| entry.validate().map(|_| ()));
    match checked {
        Ok(()) => ServerStatus::Connecting,
        Err(e) => ServerStatus::Failed {
            error: format!("the entry {e}"),
            stderr: Vec::new(),
        },
    }
}

fn describe(status: &ServerStatus) -> String {
    match status {
        ServerStatus::Disabled => "it is switched off".into(),
        ServerStatus::Connecting => "it is still starting".into(),
        ServerStatus::Connected { .. } => "connected".into(),
        ServerStatus::Failed { error, .. } => format!("it failed: {error}"),
        ServerStatus::Reconnecting { error, .. } => format!("reconnecting after: {error}"),
    }
}

fn values(map: &BTreeMap<String, ConfigValue>) -> Vec<ValueView> {
    map.iter()
        .map(|(name, v)| match v {
            ConfigValue::Plain(text) => ValueView {
                name: name.clone(),
                value: Some(text.clone()),
                secret: false,
            },
            ConfigValue::Secret { .. } => ValueView {
                name: name.clone(),
                value: None,
                secret: true,
            },
        })
        .collect()
}

fn view(name: &str, slot: &Slot) -> ServerView {
    let c = &slot.config;
    ServerView {
        name: name.into(),
        transport: c.transport().ok().map(|t| match t {
            TransportKind::Stdio => TransportName::Stdio,
            TransportKind::Http => TransportName::Http,
        }),
        command: c.command.clone(),
        args: c.args.clone(),
        cwd: c.cwd.clone(),
        env: values(&c.env),
        url: c.url.clone(),
        headers: values(&c.headers),
        enabled: c.enabled,
        startup_timeout_secs: c.startup_timeout().as_secs(),
        call_timeout_secs: c.call_timeout().as_secs(),
        status: slot.status.clone(),
        tools: slot
            .tools
            .iter()
            .map(|t| ToolView {
                qualified_name: qualify_mcp_name(name, &t.name),
                enabled: c.tool_enabled(&t.name),
                info: t.clone(),
            })
            .collect(),
        disabled_tools: c.disabled_tools.clone(),
    }
}
