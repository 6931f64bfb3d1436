//! Workbench's domain, free of Tauri, HTTP and SQL: the messages of a thread, the model-client
//! port, the store port, and the run loop that streams one model turn into a thread and announces
//! each step as a [`agent::RunEvent`].
//!
//! Not here: provider wire formats (`workbench-providers`), SQLite (`workbench-store`), wiring
//! (`workbench-app`).

pub mod agent;
pub mod builtins;
pub mod config;
pub mod memory;
pub mod middleware;
pub mod model;
pub mod thread;
pub mod tools;

/// Milliseconds since the Unix epoch, the one clock every stored timestamp uses.
pub fn now_ms() -> i64 {
    use std::time::{SystemTime, UNIX_EPOCH};
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

/// A fresh, time-ordered identifier (UUID v7) as text.
pub fn new_id() -> String {
    uuid::Uuid::now_v7().to_string()
}
