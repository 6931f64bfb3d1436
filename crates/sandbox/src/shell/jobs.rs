//! Background shell jobs of one thread: `bash` with `background: true` starts one,
//! `job_output` reads what it printed since the last poll, `job_cancel` kills its group.
//!
//! A job ends when it exits, when `job_cancel` is called, when the run that started it is
//! cancelled, or when its [`JobTable`] is dropped (each job's process group is killed).

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde::Deserialize;
use tokio_util::sync::CancellationToken;
use workbench_core::model::ToolSpec;
use workbench_core::tools::{Tool, ToolContext, ToolError, ToolMeta, ToolOutput, ToolSource};

use super::output::HeadTail;
use super::run::{exit_parts, kill_group, pump, Shell, ShellError, Spawned};

/// Jobs running at once per thread; more is almost always a model looping.
pub const MAX_RUNNING_JOBS: usize = 8;
/// After a job's shell ends, how long to keep reading output held open by escaped processes.
const DRAIN_GRACE: Duration = Duration::from_millis(300);
/// How long `job_cancel` waits for the job to be reaped before answering.
const CANCEL_WAIT: Duration = Duration::from_secs(2);

/// What a job has printed since the last poll, and how it ended.
#[derive(Debug, Default)]
struct JobState {
    unread: HeadTail,
    /// `Some` once the job ended: (exit code, signal).
    ended: Option<(Option<i32>, Option<i32>)>,
    cancelled: bool,
}

struct Job {
    command: String,
    state: Arc<Mutex<JobState>>,
    cancel: CancellationToken,
    pgid: Option<i32>,
    supervisor: tokio::task::JoinHandle<()>,
}

impl Drop for Job {
    fn drop(&mut self) {
        // Killed here, synchronously: an aborted task is only dropped when its runtime next
        // runs it, which may be never.
        let running = self.state.lock().map(|s| s.ended.is_none()).unwrap_or(true);
        if let (true, Some(pgid)) = (running, self.pgid) {
            kill_group(pgid);
        }
        self.cancel.cancel();
        self.supervisor.abort();
    }
}

/// A background job as the UI lists it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct JobInfo {
    pub id: String,
    /// The command, host paths masked.
    pub command: String,
    pub running: bool,
}

/// Sort key: job ids end in a counter (`job-2` before `job-10`).
fn natural_id(id: &str) -> (u64, &str) {
    let n = id
        .rsplit(|c: char| !c.is_ascii_digit())
        .next()
        .and_then(|d| d.parse().ok())
        .unwrap_or(u64::MAX);
    (n, id)
}

/// The background jobs of one thread, shared by `bash`, `job_output` and `job_cancel`.
#[derive(Default)]
pub struct JobTable {
    jobs: Mutex<HashMap<String, Job>>,
    next_id: AtomicU64,
    masker: Mutex<Option<super::mask::PathMasker>>,
}

impl JobTable {
    /// An empty table.
    pub fn new() -> Self {
        Self::default()
    }

    /// Starts `command` as a job; it is killed when `run_cancel` fires. Returns the job id.
    pub async fn start(
        &self,
        shell: &Shell,
        command: &str,
        run_cancel: &CancellationToken,
    ) -> Result<String, JobError> {
        if self.running().len() >= MAX_RUNNING_JOBS {
            return Err(JobError::TooMany);
        }
        let Spawned {
            mut child,
            group,
            output,
        } = shell.spawn(command).await?;
        if let Ok(mut m) = self.masker.lock() {
            *m = Some(shell.masker().clone());
        }
        let id = format!("job-{}", self.next_id.fetch_add(1, Ordering::Relaxed) + 1);
        let state = Arc::new(Mutex::new(JobState::default()));
        let cancel = run_cancel.child_token();
        let pgid = group.id();

        let sink_state = state.clone();
        let end_state = state.clone();
        let token = cancel.clone();
        let supervisor = tokio::spawn(async move {
            let mut group = group;
            let mut reader = tokio::spawn(pump(output, move |bytes| {
                if let Ok(mut s) = sink_state.lock() {
                    s.unread.push(bytes);
                }
            }));
            let waited = tokio::select! {
                status = child.wait() => Some(status),
                _ = token.cancelled() => None,
            };
            let cancelled = waited.is_none();
            group.kill();
            let status = match waited {
                Some(status) => status,
                None => child.wait().await,
            };
            group.disarm();
            if tokio::time::timeout(DRAIN_GRACE, &mut reader)
                .await
                .is_err()
            {
                reader.abort();
            }
            if let Ok(mut s) = end_state.lock() {
                s.ended = Some(status.map(exit_parts).unwrap_or((None, None)));
                s.cancelled = cancelled;
            }
        });
        if let Ok(mut jobs) = self.jobs.lock() {
            jobs.insert(
                id.clone(),
                Job {
                    command: command.to_string(),
                    state,
                    cancel,
                    pgid,
                    supervisor,
                },
            );
        }
        Ok(id)
    }

    /// Every job of the thread, running or ended, by id: what the UI lists.
    pub fn list(&self) -> Vec<JobInfo> {
        let Ok(jobs) = self.jobs.lock() else {
            return Vec::new();
        };
        let mut out: Vec<JobInfo> = jobs
            .iter()
            .map(|(id, j)| JobInfo {
                id: id.clone(),
                command: self.mask(&j.command),
                running: j.state.lock().map(|s| s.ended.is_none()).unwrap_or(false),
            })
            .collect();
        out.sort_by(|a, b| natural_id(&a.id).cmp(&natural_id(&b.id)));
        out
    }

    /// Ids of the jobs still running.
    pub fn running(&self) -> Vec<String> {
        let Ok(jobs) = self.jobs.lock() else {
            return Vec::new();
        };
        let mut ids: Vec<String> = jobs
            .iter()
            .filter(|(_, j)| j.state.lock().map(|s| s.ended.is_none()).unwrap_or(false))
            .map(|(id, _)| id.clone())
            .collect();
        ids.sort();
        ids
    }

    fn unknown(&self, id: &str) -> ToolError {
        let ids: Vec<String> = self
            .jobs
            .lock()
            .map(|j| {
                let mut ids: Vec<String> = j.keys().cloned().collect();
                ids.sort();
                ids
            })
            .unwrap_or_default();
        ToolError::InvalidArguments(format!(
            "no job with id {id:?}; known jobs: {}",
            if ids.is_empty() {
                "none".to_string()
            } else {
                ids.join(", ")
            }
        ))
    }

    /// The job's status line and its output since the last poll (capped, masked).
    pub fn poll(&self, id: &str) -> Result<String, ToolError> {
        let state = {
            let jobs = self
                .jobs
                .lock()
                .map_err(|_| ToolError::Failed("job table unavailable".into()))?;
            jobs.get(id)
                .map(|job| (job.state.clone(), job.command.clone()))
        };
        // The table lock is released before `unknown` takes it again.
        let Some((state, command)) = state else {
            return Err(self.unknown(id));
        };
        let mut s = state
            .lock()
            .map_err(|_| ToolError::Failed("job state unavailable".into()))?;
        let unread = std::mem::take(&mut s.unread);
        let status = match (s.ended, s.cancelled) {
            (None, _) => "running".to_string(),
            (Some(_), true) => "cancelled".to_string(),
            (Some((Some(code), _)), false) => format!("exited with code {code}"),
            (Some((None, Some(sig))), false) => format!("killed by signal {sig}"),
            (Some((None, None)), false) => "ended".to_string(),
        };
        let mut text = format!("job {id} ({command}): {status}\n");
        if unread.total() == 0 {
            text.push_str("(no new output)");
        } else {
            text.push_str(&unread.render());
        }
        Ok(self.mask(&text))
    }

    /// Kills the job's process group and waits briefly for it to be reaped.
    pub async fn cancel(&self, id: &str) -> Result<String, ToolError> {
        let state = {
            let jobs = self
                .jobs
                .lock()
                .map_err(|_| ToolError::Failed("job table unavailable".into()))?;
            jobs.get(id).map(|job| {
                job.cancel.cancel();
                job.state.clone()
            })
        };
        let Some(state) = state else {
            return Err(self.unknown(id));
        };
        let ended = tokio::time::timeout(CANCEL_WAIT, async {
            loop {
                if state.lock().map(|s| s.ended.is_some()).unwrap_or(true) {
                    break;
                }
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        })
        .await
        .is_ok();
        Ok(if ended {
            format!("job {id} cancelled; its processes were killed")
        } else {
            format!("job {id} is being killed")
        })
    }

    fn mask(&self, text: &str) -> String {
        match self.masker.lock() {
            Ok(m) => m
                .as_ref()
                .map(|m| m.mask(text))
                .unwrap_or_else(|| text.into()),
            Err(_) => text.into(),
        }
    }
}

/// Why a job could not start.
#[derive(Debug, thiserror::Error)]
pub enum JobError {
    /// Too many jobs running.
    #[error(
        "{MAX_RUNNING_JOBS} background jobs are already running; cancel one with job_cancel first"
    )]
    TooMany,
    /// The shell could not start.
    #[error(transparent)]
    Shell(#[from] ShellError),
}

#[derive(Debug, Deserialize)]
struct JobIdArgs {
    job_id: String,
}

fn job_id(args: serde_json::Value) -> Result<String, ToolError> {
    serde_json::from_value::<JobIdArgs>(args)
        .map(|a| a.job_id)
        .map_err(|e| ToolError::InvalidArguments(format!("{e}; expected {{\"job_id\": string}}")))
}

fn job_spec(name: &str, description: &str) -> ToolSpec {
    ToolSpec {
        name: name.into(),
        description: description.into(),
        parameters: serde_json::json!({
            "type": "object",
            "properties": {
                "job_id": {"type": "string", "description": "The id bash returned."}
            },
            "required": ["job_id"]
        }),
    }
}

fn job_meta() -> ToolMeta {
    // Shell tools: hidden with `bash` when the shell cannot be confined.
    ToolMeta {
        is_shell: true,
        ..ToolMeta::new(ToolSource::Sandbox, "bash")
    }
}

/// The `job_output` tool.
pub struct JobOutputTool {
    jobs: Arc<JobTable>,
    spec: ToolSpec,
    meta: ToolMeta,
}

impl JobOutputTool {
    /// The tool over `jobs`.
    pub fn new(jobs: Arc<JobTable>) -> Self {
        Self {
            jobs,
            spec: job_spec(
                "job_output",
                "Read what a background bash job printed since the last call, and whether it is \
                 still running.",
            ),
            meta: job_meta(),
        }
    }
}

#[async_trait::async_trait]
impl Tool for JobOutputTool {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }

    fn meta(&self) -> &ToolMeta {
        &self.meta
    }

    async fn call(
        &self,
        args: serde_json::Value,
        _ctx: &ToolContext,
    ) -> Result<ToolOutput, ToolError> {
        let id = job_id(args)?;
        Ok(ToolOutput::text(self.jobs.poll(&id)?))
    }
}

/// The `job_cancel` tool.
pub struct JobCancelTool {
    jobs: Arc<JobTable>,
    spec: ToolSpec,
    meta: ToolMeta,
}

impl JobCancelTool {
    /// The tool over `jobs`.
    pub fn new(jobs: Arc<JobTable>) -> Self {
        Self {
            jobs,
            spec: job_spec(
                "job_cancel",
                "Stop a background bash job, killing every process it started.",
            ),
            meta: job_meta(),
        }
    }
}

#[async_trait::async_trait]
impl Tool for JobCancelTool {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }

    fn meta(&self) -> &ToolMeta {
        &self.meta
    }

    async fn call(
        &self,
        args: serde_json::Value,
        _ctx: &ToolContext,
    ) -> Result<ToolOutput, ToolError> {
        let id = job_id(args)?;
        Ok(ToolOutput::text(self.jobs.cancel(&id).await?))
    }
}
