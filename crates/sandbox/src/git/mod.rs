//! Read-only git tools over the thread's folders: `git_status` (branch, ahead/behind, staged,
//! unstaged, untracked as lists) and `git_diff` (staged or working tree, per file, capped).
//!
//! Both run the `git` CLI with machine-readable output (`--porcelain=v2 -z`, `--numstat -z`) on
//! the host folder behind a virtual path, and keep it inside the thread's folders:
//! - repository discovery stops at the root (`GIT_CEILING_DIRECTORIES`), and the work tree and
//!   git directory git finds must both lie inside that root (a `.git` file pointing elsewhere,
//!   or object alternates, are refused);
//! - no user or system config is read, and repository config that would run programs
//!   (fsmonitor, external diff, textconv) is overridden on the command line;
//! - git itself runs under the shell's OS confinement with no writable folder at all and no
//!   network, so a filter a repository config names still cannot write or phone out;
//! - `GIT_OPTIONAL_LOCKS=0`, so `status` does not refresh the index on disk;
//! - host paths are masked out of everything returned.
//!
//! Not here: anything that changes a repository (commit, checkout): that is the shell's job,
//! behind approvals.

pub mod diff;
mod run;
pub mod status;

use std::sync::Arc;

use workbench_core::tools::{Tool, ToolMeta, ToolSource};

use crate::roots::ThreadRoots;

pub use diff::GitDiffTool;
pub use run::{GitError, Repo};
pub use status::GitStatusTool;

/// The group of the git tools.
pub const GIT_GROUP: &str = "git";

/// Both git tools for a thread's roots.
pub fn git_tools(roots: &ThreadRoots) -> Vec<Arc<dyn Tool>> {
    vec![
        Arc::new(GitStatusTool::new(roots.clone())),
        Arc::new(GitDiffTool::new(roots.clone())),
    ]
}

fn meta() -> ToolMeta {
    ToolMeta::new(ToolSource::Sandbox, GIT_GROUP)
}
