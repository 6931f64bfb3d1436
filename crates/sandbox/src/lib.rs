//! The sandbox: each thread's folders, seen by the model as virtual paths under
//! `/mnt/user-data`, the file and search tools that resolve those paths by capability (a
//! directory handle, never string checks), and the shell confined by the OS.
//!
//! Not here: deciding whether a tool may run (assembly gates, approvals) or what the UI shows.

pub mod roots;

pub use roots::{Mount, ThreadRoots, VIRTUAL_ROOT};
