//! Shared set-up for the MCP integration tests: the test servers under tests/mcp-servers, a
//! manager over a fresh `mcp.json`, and waiting for states.
#![allow(dead_code, clippy::unwrap_used)]

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use serde_json::{json, Value};
use workbench_mcp::secrets::MemorySecrets;
use workbench_mcp::view::{ServerStatus, ServerView};
use workbench_mcp::McpManager;

/// tests/mcp-servers in the repository.
pub fn servers_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/mcp-servers")
}

/// An npm-installed server's entry script; fails with what to run when it is missing.
pub fn npm_server(package: &str) -> PathBuf {
    let path = servers_dir()
        .join("node_modules/@modelcontextprotocol")
        .join(package)
        .join("dist/index.js");
    assert!(
        path.exists(),
        "{} is missing: run `make setup` (it installs tests/mcp-servers with npm ci)",
        path.display()
    );
    path
}

/// The misbehaving test server.
pub fn misbehaving() -> String {
    servers_dir()
        .join("misbehaving.py")
        .canonicalize()
        .unwrap()
        .display()
        .to_string()
}

/// A stdio entry for the misbehaving server in `mode`, with short timeouts.
pub fn misbehaving_entry(mode: &str) -> Value {
    json!({"command": "python3", "args": [misbehaving(), mode],
           "startupTimeoutSecs": 3, "callTimeoutSecs": 20})
}

/// A stdio entry for server-everything.
pub fn everything_entry() -> Value {
    json!({"command": "node", "args": [npm_server("server-everything").display().to_string(), "stdio"],
           "startupTimeoutSecs": 30})
}

/// A manager over a fresh data folder whose `mcp.json` holds `servers`.
pub fn manager(servers: Value) -> (McpManager, tempfile::TempDir, Arc<MemorySecrets>) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mcp.json");
    std::fs::write(&path, json!({"mcpServers": servers}).to_string()).unwrap();
    let secrets = Arc::new(MemorySecrets::default());
    let m = workbench_mcp::manager_with_rmcp(&path, secrets.clone());
    (m, dir, secrets)
}

/// Waits until `pred` holds for the server's view, or panics after `limit`.
pub async fn wait_for(
    m: &McpManager,
    name: &str,
    limit: Duration,
    pred: impl Fn(&ServerView) -> bool,
) -> ServerView {
    let mut rx = m.subscribe();
    let deadline = tokio::time::Instant::now() + limit;
    loop {
        if let Ok(v) = m.server(name) {
            if pred(&v) {
                return v;
            }
        }
        if tokio::time::timeout_at(deadline, rx.changed())
            .await
            .is_err()
        {
            panic!(
                "server `{name}` never got there; now: {:?}",
                m.server(name).map(|v| v.status)
            );
        }
    }
}

pub fn is_connected(v: &ServerView) -> bool {
    matches!(v.status, ServerStatus::Connected { .. })
}

pub fn is_failed(v: &ServerView) -> bool {
    matches!(v.status, ServerStatus::Failed { .. })
}

pub fn error_of(v: &ServerView) -> String {
    match &v.status {
        ServerStatus::Failed { error, .. } | ServerStatus::Reconnecting { error, .. } => {
            error.clone()
        }
        other => panic!("no error: {other:?}"),
    }
}

pub fn args(v: Value) -> serde_json::Map<String, Value> {
    v.as_object().cloned().unwrap()
}
