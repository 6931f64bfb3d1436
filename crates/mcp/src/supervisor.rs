//! One task per enabled server: connect within the startup timeout, keep the tool list fresh on
//! `notifications/tools/list_changed`, and reconnect with backoff when a connected server stops.
//! Each server has its own task, so a slow or broken one never holds up another.

use std::sync::{Arc, Weak};
use std::time::Duration;

use tokio::sync::Notify;
use tokio_util::sync::CancellationToken;

use crate::client::{Connection, Hooks, StderrTail};
use crate::config::ServerConfig;
use crate::manager::Inner;
use crate::spec;
use crate::types::ToolInfo;
use crate::view::ServerStatus;

/// First reconnect delay after a connected server stops.
pub const BACKOFF_START: Duration = Duration::from_secs(1);
/// Longest reconnect delay.
pub const BACKOFF_MAX: Duration = Duration::from_secs(30);

/// The delay before reconnect attempt `attempt` (1-based): 1 s, 2 s, 4 s ... 30 s.
pub fn backoff(attempt: u32) -> Duration {
    let factor = 2u32.saturating_pow(attempt.saturating_sub(1).min(16));
    BACKOFF_START.saturating_mul(factor).min(BACKOFF_MAX)
}

/// What the supervisor of one server was started with.
pub(crate) struct Job {
    pub name: String,
    pub config: ServerConfig,
    /// The slot generation this task reports for; a newer task makes it stale.
    pub generation: u64,
    pub cancel: CancellationToken,
    pub stderr: Arc<StderrTail>,
}

/// Runs until cancelled, or until the first connection fails (status `failed`).
pub(crate) async fn supervise(inner: Weak<Inner>, job: Job) {
    let refresh = Arc::new(Notify::new());
    let hooks = Hooks {
        on_tools_changed: {
            let refresh = refresh.clone();
            Arc::new(move || refresh.notify_one())
        },
        stderr: job.stderr.clone(),
    };
    let mut attempt: u32 = 0;
    let mut ever_connected = false;
    loop {
        job.stderr.clear();
        let connected = tokio::select! {
            _ = job.cancel.cancelled() => return,
            r = connect(&inner, &job, hooks.clone()) => r,
        };
        let error = match connected {
            Ok((conn, tools)) => {
                attempt = 0;
                ever_connected = true;
                if !report(&inner, &job, Some(conn.clone()), Some(tools)) {
                    conn.close().await;
                    return;
                }
                match serve(&inner, &job, conn.as_ref(), &refresh).await {
                    Served::Cancelled => {
                        conn.close().await;
                        return;
                    }
                    Served::Ended => "the server stopped".to_string(),
                }
            }
            Err(e) => e,
        };
        let stderr = job.stderr.lines();
        if !ever_connected {
            tracing::warn!(server = %job.name, error = %error, "MCP server failed to start");
            set_status(&inner, &job, ServerStatus::Failed { error, stderr });
            return;
        }
        attempt = attempt.saturating_add(1);
        let delay = backoff(attempt);
        tracing::warn!(server = %job.name, error = %error, attempt, "MCP server stopped; reconnecting");
        if !set_status(
            &inner,
            &job,
            ServerStatus::Reconnecting {
                attempt,
                retry_in_ms: u64::try_from(delay.as_millis()).unwrap_or(u64::MAX),
                error,
                stderr,
            },
        ) {
            return;
        }
        tokio::select! {
            _ = job.cancel.cancelled() => return,
            _ = tokio::time::sleep(delay) => {}
        }
    }
}

enum Served {
    Cancelled,
    Ended,
}

/// Waits for the end of a connection, refreshing tools when the server says they changed.
async fn serve(inner: &Weak<Inner>, job: &Job, conn: &dyn Connection, refresh: &Notify) -> Served {
    loop {
        tokio::select! {
            _ = job.cancel.cancelled() => return Served::Cancelled,
            _ = conn.closed() => return Served::Ended,
            _ = refresh.notified() => {
                match tokio::time::timeout(job.config.startup_timeout(), conn.list_tools()).await {
                    Ok(Ok(tools)) => {
                        tracing::info!(server = %job.name, count = tools.len(), "MCP tools changed");
                        if !report(inner, job, None, Some(tools)) {
                            return Served::Cancelled;
                        }
                    }
                    Ok(Err(e)) => tracing::warn!(server = %job.name, error = %e, "could not refresh MCP tools"),
                    Err(_) => tracing::warn!(server = %job.name, "refreshing MCP tools timed out"),
                }
            }
        }
    }
}

/// Builds the spec, connects and lists tools, all within the startup timeout.
async fn connect(
    inner: &Weak<Inner>,
    job: &Job,
    hooks: Hooks,
) -> Result<(Arc<dyn Connection>, Vec<ToolInfo>), String> {
    let (secrets, connector) = match inner.upgrade() {
        Some(i) => (i.secrets.clone(), i.connector.clone()),
        None => return Err("the MCP manager stopped".into()),
    };
    let timeout = job.config.startup_timeout();
    let config = job.config.clone();
    let work = async move {
        let spec = tokio::task::spawn_blocking(move || spec::build(&config, secrets.as_ref()))
            .await
            .map_err(|e| format!("internal error: {e}"))??;
        let conn = connector.connect(&spec, hooks).await?;
        match conn.list_tools().await {
            Ok(tools) => Ok((conn, tools)),
            Err(e) => {
                conn.close().await;
                Err(format!("the server did not list its tools: {e}"))
            }
        }
    };
    match tokio::time::timeout(timeout, work).await {
        Ok(r) => r,
        Err(_) => Err(format!(
            "the server did not start and list its tools within {} s (startupTimeoutSecs)",
            timeout.as_secs()
        )),
    }
}

/// Puts a fresh connection and/or tool list into the slot. False when the slot is gone.
fn report(
    inner: &Weak<Inner>,
    job: &Job,
    conn: Option<Arc<dyn Connection>>,
    tools: Option<Vec<ToolInfo>>,
) -> bool {
    let Some(inner) = inner.upgrade() else {
        return false;
    };
    inner.update_slot(&job.name, job.generation, |slot| {
        if let Some(conn) = conn {
            slot.conn = Some(conn);
        }
        if let Some(tools) = tools {
            slot.status = ServerStatus::Connected {
                tool_count: u32::try_from(tools.len()).unwrap_or(u32::MAX),
            };
            slot.tools = tools;
        }
    })
}

/// Sets a status without a connection. False when the slot is gone.
fn set_status(inner: &Weak<Inner>, job: &Job, status: ServerStatus) -> bool {
    let Some(inner) = inner.upgrade() else {
        return false;
    };
    inner.update_slot(&job.name, job.generation, |slot| {
        slot.conn = None;
        slot.tools.clear();
        slot.status = status;
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_from_one_second_to_thirty() {
        let secs: Vec<u64> = (1..=8).map(|a| backoff(a).as_secs()).collect();
        assert_eq!(secs, vec![1, 2, 4, 8, 16, 30, 30, 30]);
        assert_eq!(backoff(u32::MAX), BACKOFF_MAX);
    }
}
