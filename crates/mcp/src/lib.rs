//! The user's MCP servers: their config (`mcp.json` in Claude Desktop's `mcpServers` format,
//! secrets in the OS keychain), connecting to them (stdio and streamable HTTP through rmcp,
//! behind our own [`client::Connector`] trait), their status and reconnects, and their tools
//! as run candidates ([`adapter::McpSource`]).
//!
//! Not here: drawing the manager page (ui/), the IPC commands (src-tauri/), the keychain
//! itself (the app adapts `workbench_providers::keychain` to [`secrets::SecretStore`]).

pub mod adapter;
pub mod client;
pub mod command;
pub mod config;
mod edit;
pub mod file;
pub mod import;
mod manager;
pub mod rmcp_client;
pub mod secrets;
mod spec;
mod supervisor;
pub mod types;
pub mod view;
mod watch;

pub use manager::{McpError, McpManager};
pub use supervisor::{backoff, BACKOFF_MAX, BACKOFF_START};

use std::sync::Arc;

/// A manager over `mcp.json` at `path` that connects with rmcp.
pub fn manager_with_rmcp(
    path: impl Into<std::path::PathBuf>,
    secrets: Arc<dyn secrets::SecretStore>,
) -> McpManager {
    McpManager::new(
        file::ConfigFile::new(path),
        secrets,
        Arc::new(rmcp_client::RmcpConnector),
    )
}
