//! The confined shell: the `bash` tool and its background jobs (`job_output`, `job_cancel`).
//!
//! A command runs as `bash -c` in the thread's workspace, in its own process group, with a
//! scrubbed environment, a timeout, a head+tail output cap, host paths masked to their virtual
//! ones, and OS confinement ([`confine`]): Landlock limits writes to the thread's writable
//! folders plus a private temp folder, and, unless the network is allowed, Landlock TCP rules and
//! a seccomp filter refuse network sockets.
//!
//! Not here: whether the shell is offered at all (the host-shell gate in core decides from
//! [`Confinement::detect`]) or whether a command needs the user's approval.

pub mod bash_tool;
pub mod confine;
pub mod env;
pub mod jobs;
pub mod mask;
pub mod output;
pub mod run;

pub use bash_tool::{bash_spec, BashTool};
pub use confine::{ConfineError, Confinement, ConfinementKind};
pub use jobs::{JobCancelTool, JobInfo, JobOutputTool, JobTable};
pub use run::{Shell, ShellConfig, ShellError, ShellOutcome};

use std::sync::Arc;

use workbench_core::tools::Tool;

/// The three shell tools sharing one shell and one job table (one set per thread).
pub fn shell_tools(shell: Arc<Shell>, jobs: Arc<JobTable>) -> Vec<Arc<dyn Tool>> {
    vec![
        Arc::new(BashTool::new(shell, jobs.clone())),
        Arc::new(JobOutputTool::new(jobs.clone())),
        Arc::new(JobCancelTool::new(jobs)),
    ]
}
