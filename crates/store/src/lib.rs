//! SQLite persistence for Workbench: threads, their messages, the deltas a run streams into a
//! message, the runs themselves (with crash recovery), and non-secret settings, in one database
//! file that the desktop app and the CLI may open at the same time.
//!
//! Not here: secrets (API keys live in the OS keyring, never in this file), the run loop and
//! the domain types (`workbench-core`), or knowing which runs are streaming for the UI (the app
//! tracks that; this crate only tells dead runs from live ones to recover them).

mod branches;
mod liveness;
mod memories;
mod mounts;
mod schema;
mod search;
mod store;
mod titles;

pub use branches::BranchRow;
pub use mounts::{ThreadMount, MAX_MOUNT_PATH_BYTES};
pub use search::{snippet, SNIPPET_AFTER, SNIPPET_BEFORE};
pub use store::{SqliteStore, BUSY_TIMEOUT, MAX_TITLE_CHARS};
pub use titles::TitleSource;
pub use workbench_core::thread::StoreError;

/// Schema migration step `i` (taking a database from version `i` to `i + 1`), for tests that
/// build a database as an older release left it.
pub fn schema_step(i: usize) -> Option<&'static str> {
    schema::MIGRATIONS.get(i).copied()
}
