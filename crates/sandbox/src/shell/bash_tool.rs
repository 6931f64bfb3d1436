//! The `bash` tool: one shell command in the thread's workspace, confined.

use std::sync::Arc;
use std::time::Duration;

use serde::Deserialize;
use workbench_core::model::ToolSpec;
use workbench_core::tools::{Tool, ToolContext, ToolError, ToolMeta, ToolOutput, ToolSource};

use super::jobs::JobTable;
use super::run::{Shell, ShellOutcome};

/// Timeout when the model gives none: long enough for a build step, short enough that a hung
/// command does not stall the run.
pub const DEFAULT_TIMEOUT_SECS: u64 = 120;
/// The longest timeout a model may ask for; longer work belongs in a background job.
pub const MAX_TIMEOUT_SECS: u64 = 600;

/// The `bash` tool.
pub struct BashTool {
    shell: Arc<Shell>,
    jobs: Arc<JobTable>,
    spec: ToolSpec,
    meta: ToolMeta,
}

#[derive(Debug, Deserialize)]
struct BashArgs {
    command: String,
    timeout_secs: Option<i64>,
    #[serde(default)]
    background: bool,
}

/// Checks the arguments; the message says how to fix the call.
fn validate(args: serde_json::Value) -> Result<(BashArgs, Duration), ToolError> {
    let args: BashArgs = serde_json::from_value(args).map_err(|e| {
        ToolError::InvalidArguments(format!(
            "{e}; expected {{\"command\": string, \"timeout_secs\"?: integer, \"background\"?: \
             boolean}}"
        ))
    })?;
    if args.command.trim().is_empty() {
        return Err(ToolError::InvalidArguments(
            "command is empty; give the shell command to run".into(),
        ));
    }
    let secs = args.timeout_secs.unwrap_or(DEFAULT_TIMEOUT_SECS as i64);
    if !(1..=MAX_TIMEOUT_SECS as i64).contains(&secs) {
        return Err(ToolError::InvalidArguments(format!(
            "timeout_secs must be between 1 and {MAX_TIMEOUT_SECS} (got {secs}); for longer work \
             use \"background\": true"
        )));
    }
    Ok((args, Duration::from_secs(secs as u64)))
}

/// The `bash` tool's schema and description; `allow_network` says whether commands reach
/// the network.
pub fn bash_spec(allow_network: bool) -> ToolSpec {
    ToolSpec {
        name: "bash".into(),
        description: format!(
            "Run a bash command in /mnt/user-data/workspace (the working directory). Writes \
             are allowed only under /mnt/user-data and $TMPDIR{}. stdout and stderr are \
             returned together, long output shortened to its start and end, with the exit \
             code. Default timeout {DEFAULT_TIMEOUT_SECS} s, at most {MAX_TIMEOUT_SECS} s. \
             With \"background\": true the command keeps running and a job id is returned; \
             read its output with job_output and stop it with job_cancel.",
            if allow_network {
                ""
            } else {
                "; there is no network access"
            }
        ),
        parameters: serde_json::json!({
            "type": "object",
            "properties": {
                "command": {"type": "string", "description": "The bash command to run."},
                "timeout_secs": {
                    "type": "integer", "minimum": 1, "maximum": MAX_TIMEOUT_SECS,
                    "description": "Seconds before the command is killed (default 120)."
                },
                "background": {
                    "type": "boolean",
                    "description": "Run as a background job and return its id at once."
                }
            },
            "required": ["command"]
        }),
    }
}

impl BashTool {
    /// The tool for `shell`, starting background jobs in `jobs`.
    pub fn new(shell: Arc<Shell>, jobs: Arc<JobTable>) -> Self {
        let spec = bash_spec(shell.allows_network());
        let meta = ToolMeta {
            is_shell: true,
            ..ToolMeta::new(ToolSource::Sandbox, "bash")
        };
        Self {
            shell,
            jobs,
            spec,
            meta,
        }
    }
}

/// The model's view of a finished (not timed out) command.
fn describe(outcome: &ShellOutcome) -> String {
    let mut text = outcome.output.clone();
    if text.is_empty() {
        text.push_str("(no output)");
    }
    if !text.ends_with('\n') {
        text.push('\n');
    }
    match (outcome.exit_code, outcome.signal) {
        (Some(code), _) => text.push_str(&format!("[exit code: {code}]")),
        (None, Some(sig)) => text.push_str(&format!("[killed by signal {sig}]")),
        (None, None) => text.push_str("[exit status unknown]"),
    }
    text
}

#[async_trait::async_trait]
impl Tool for BashTool {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }

    fn meta(&self) -> &ToolMeta {
        &self.meta
    }

    async fn call(
        &self,
        args: serde_json::Value,
        ctx: &ToolContext,
    ) -> Result<ToolOutput, ToolError> {
        let (args, timeout) = validate(args)?;
        if args.background {
            let id = self
                .jobs
                .start(&self.shell, &args.command, &ctx.cancel)
                .await
                .map_err(|e| ToolError::Failed(self.shell.mask(&e.to_string())))?;
            return Ok(ToolOutput::text(format!(
                "started background job {id}. Read its output with job_output {{\"job_id\": \
                 \"{id}\"}}; stop it with job_cancel."
            )));
        }
        let outcome = self
            .shell
            .run(&args.command, timeout, &ctx.cancel)
            .await
            .map_err(|e| ToolError::Failed(self.shell.mask(&e.to_string())))?;
        if outcome.cancelled {
            return Err(ToolError::Cancelled);
        }
        if outcome.timed_out {
            return Ok(ToolOutput::error(format!(
                "command timed out after {} s and its process group was killed. Output so \
                 far:\n{}",
                timeout.as_secs(),
                outcome.output
            )));
        }
        Ok(ToolOutput::text(describe(&outcome)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments_are_checked_with_fixable_messages() {
        let bad = [
            serde_json::json!({}),
            serde_json::json!({"command": "  "}),
            serde_json::json!({"command": "ls", "timeout_secs": 0}),
            serde_json::json!({"command": "ls", "timeout_secs": 601}),
            serde_json::json!({"command": "ls", "timeout_secs": "x"}),
        ];
        for args in bad {
            assert!(matches!(
                validate(args),
                Err(ToolError::InvalidArguments(_))
            ));
        }
        let (args, t) = validate(serde_json::json!({"command": "ls"})).expect("valid");
        assert_eq!(t, Duration::from_secs(DEFAULT_TIMEOUT_SECS));
        assert!(!args.background);
    }

    #[test]
    fn exit_codes_and_signals_are_reported() {
        let mut o = ShellOutcome {
            exit_code: Some(3),
            signal: None,
            output: "hi".into(),
            omitted: 0,
            timed_out: false,
            cancelled: false,
            elapsed: Duration::ZERO,
        };
        assert_eq!(describe(&o), "hi\n[exit code: 3]");
        o.exit_code = None;
        o.signal = Some(9);
        o.output.clear();
        assert_eq!(describe(&o), "(no output)\n[killed by signal 9]");
    }
}
