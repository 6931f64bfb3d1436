//! The sandbox: each thread's folders, seen by the model as virtual paths under
//! `/mnt/user-data`, the file and search tools that resolve those paths by capability (a
//! directory handle, never string checks), and the shell confined by the OS.
//!
//! Not here: deciding whether a tool may run (assembly gates, approvals) or what the UI shows.

pub mod fs;
pub mod git;
pub mod mounts;
pub mod roots;
pub mod shell;
pub mod vpath;

pub use fs::file_tools;
pub use git::git_tools;
pub use mounts::{check_mounts, merge_mounts, validate_mount_name, MountError, MountSpec};
pub use roots::{Mount, ThreadRoots, VIRTUAL_ROOT};
pub use shell::{BashTool, Confinement, ConfinementKind, JobTable, Shell, ShellConfig};
pub use vpath::{mask_host_paths, VPath, VirtualFs, VpathError};
