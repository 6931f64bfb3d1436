//! Helpers shared by the store's integration tests: a database file in a fresh temp dir, and
//! a raw SQLite connection to look behind the store's back.
#![allow(dead_code, clippy::unwrap_used)]

use std::path::{Path, PathBuf};

use workbench_core::thread::{Message, ThreadStore};
use workbench_store::SqliteStore;

/// A temp dir holding `data/workbench.db` (the `data/` dir does not exist yet: open makes it).
pub fn db_path() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("data").join("workbench.db");
    (dir, path)
}

/// A plain connection to the file, as another program would see it.
pub fn raw(path: &Path) -> rusqlite::Connection {
    let conn = rusqlite::Connection::open(path).unwrap();
    conn.busy_timeout(std::time::Duration::from_secs(5))
        .unwrap();
    conn
}

/// Counts rows of a table matching a WHERE clause.
pub fn count(path: &Path, table: &str, filter: &str) -> i64 {
    raw(path)
        .query_row(
            &format!("SELECT COUNT(*) FROM {table} WHERE {filter}"),
            [],
            |r| r.get(0),
        )
        .unwrap()
}

/// A run with a streaming assistant reply that has received `deltas`, left unfinished.
/// Returns the thread id, the run id and the reply's id.
pub fn start_streaming(store: &SqliteStore, deltas: &[(&str, bool)]) -> (String, String, String) {
    let thread = store.create_thread("streaming").unwrap();
    let run_id = workbench_core::new_id();
    store.begin_run(&thread.id, &run_id).unwrap();
    store
        .append_message(&Message::user(&thread.id, "hello"))
        .unwrap();
    let reply = Message::assistant_streaming(&thread.id, &run_id);
    store.append_message(&reply).unwrap();
    for (text, reasoning) in deltas {
        store.append_delta(&reply.id, text, *reasoning).unwrap();
    }
    (thread.id, run_id, reply.id)
}
