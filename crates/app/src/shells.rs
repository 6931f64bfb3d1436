//! One confined shell per thread, kept across the thread's runs so background jobs and the
//! shell's temp folder outlive a single run. The shell's settings (network, unconfined) come
//! from Settings; a change makes a new shell for the next run, keeping the job table.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use workbench_core::model::ToolSpec;
use workbench_core::tools::assembly::ShellPolicy;
use workbench_core::tools::{Tool, ToolContext, ToolError, ToolMeta, ToolOutput, ToolSource};
use workbench_sandbox::shell::{
    bash_spec, shell_tools, Confinement, ConfinementKind, JobInfo, JobTable, Shell, ShellConfig,
};
use workbench_sandbox::ThreadRoots;

/// Settings key: commands may use the network (default off).
pub const SHELL_NETWORK_SETTING: &str = "shell.allow_network";
/// Settings key: run the shell unconfined where the OS offers no confinement (default off).
pub const SHELL_UNCONFINED_SETTING: &str = "shell.allow_unconfined";

/// What the user set for the shell (Settings -> Permissions).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ShellSettings {
    /// Commands may open network connections.
    pub allow_network: bool,
    /// Where the OS offers no confinement, `bash` runs unconfined instead of being hidden.
    pub allow_unconfined: bool,
}

struct ThreadShell {
    shell: Arc<Shell>,
    jobs: Arc<JobTable>,
    settings: ShellSettings,
    /// The folders the shell was made for; changed mounts make a new shell.
    roots: ThreadRoots,
}

/// The shells of every thread this process has run.
pub(crate) struct Shells {
    confinement: Option<ConfinementKind>,
    by_thread: Mutex<HashMap<String, ThreadShell>>,
}

impl Shells {
    /// Detects this machine's confinement once.
    pub(crate) fn detect() -> Self {
        let confinement = Confinement::detect();
        match &confinement {
            Some(kind) => tracing::info!(confinement = %kind.label(), "shell confinement"),
            None => tracing::warn!("no OS confinement for the shell on this machine"),
        }
        Self {
            confinement,
            by_thread: Mutex::new(HashMap::new()),
        }
    }

    /// What the host-shell gate needs to know.
    pub(crate) fn policy(&self, settings: ShellSettings) -> ShellPolicy {
        ShellPolicy {
            confinement: self.confinement.map(|k| k.label()),
            allow_unconfined: settings.allow_unconfined,
        }
    }

    /// The shell tools of a thread (`bash`, `job_output`, `job_cancel`). Where no shell can
    /// be made (no confinement, not allowed), `bash` is a stand-in that refuses to run, so the
    /// visibility report still lists it with the gate's reason.
    pub(crate) fn tools(
        &self,
        thread_id: &str,
        roots: &ThreadRoots,
        settings: ShellSettings,
    ) -> Vec<Arc<dyn Tool>> {
        let Ok(mut shells) = self.by_thread.lock() else {
            return vec![Arc::new(NoShell::new("the shell registry is unavailable"))];
        };
        if let Some(t) = shells.get(thread_id) {
            if t.settings == settings && &t.roots == roots {
                return shell_tools(t.shell.clone(), t.jobs.clone());
            }
        }
        let config = ShellConfig {
            roots: roots.clone(),
            allow_network: settings.allow_network,
            allow_unconfined: settings.allow_unconfined,
        };
        match Shell::new(config) {
            Ok(shell) => {
                let jobs = shells
                    .get(thread_id)
                    .map(|t| t.jobs.clone())
                    .unwrap_or_default();
                let shell = Arc::new(shell);
                shells.insert(
                    thread_id.to_string(),
                    ThreadShell {
                        shell: shell.clone(),
                        jobs: jobs.clone(),
                        settings,
                        roots: roots.clone(),
                    },
                );
                shell_tools(shell, jobs)
            }
            Err(e) => vec![Arc::new(NoShell::new(&e.to_string()))],
        }
    }

    /// The thread's background jobs (none before its shell first ran).
    pub(crate) fn jobs(&self, thread_id: &str) -> Vec<JobInfo> {
        self.table(thread_id).map(|t| t.list()).unwrap_or_default()
    }

    /// The thread's job table, if its shell exists.
    pub(crate) fn table(&self, thread_id: &str) -> Option<Arc<JobTable>> {
        let shells = self.by_thread.lock().ok()?;
        shells.get(thread_id).map(|t| t.jobs.clone())
    }

    /// Kills a thread's background jobs and forgets its shell (the thread was deleted).
    pub(crate) fn forget(&self, thread_id: &str) {
        let gone = self
            .by_thread
            .lock()
            .ok()
            .and_then(|mut s| s.remove(thread_id));
        drop(gone);
    }
}

/// `bash` where no shell could be made: listed (so the report can say why it is hidden) but
/// never runnable.
struct NoShell {
    spec: ToolSpec,
    meta: ToolMeta,
    why: String,
}

impl NoShell {
    fn new(why: &str) -> Self {
        Self {
            spec: bash_spec(false),
            meta: ToolMeta {
                is_shell: true,
                ..ToolMeta::new(ToolSource::Sandbox, "bash")
            },
            why: why.to_string(),
        }
    }
}

#[async_trait::async_trait]
impl Tool for NoShell {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }

    fn meta(&self) -> &ToolMeta {
        &self.meta
    }

    async fn call(
        &self,
        _args: serde_json::Value,
        _ctx: &ToolContext,
    ) -> Result<ToolOutput, ToolError> {
        Ok(ToolOutput::error(format!(
            "the shell cannot run here: {}",
            self.why
        )))
    }
}

impl crate::App {
    /// The background shell jobs of a thread, running or ended, for the UI's job list.
    pub fn thread_jobs(&self, thread_id: &str) -> Vec<JobInfo> {
        self.shells.jobs(thread_id)
    }

    /// Kills one background job of a thread.
    pub async fn cancel_job(
        &self,
        thread_id: &str,
        job_id: &str,
    ) -> Result<String, crate::AppError> {
        let table = self
            .shells
            .table(thread_id)
            .ok_or_else(|| crate::AppError::Invalid("this thread has no background jobs".into()))?;
        table
            .cancel(job_id)
            .await
            .map_err(|e| crate::AppError::Invalid(e.to_string()))
    }
}
