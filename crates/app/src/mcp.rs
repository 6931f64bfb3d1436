//! MCP servers in the app: one manager over `<data folder>/mcp.json`, its secrets in the same
//! keychain as the provider keys, its tools a candidate source of every run. Front-ends call
//! the manager through [`App::mcp`]; the manager's own methods are the operations (list, save,
//! remove, enable, validate, reconnect, import).

use std::sync::Arc;
use std::time::Duration;

use workbench_mcp::adapter::McpSource;
use workbench_mcp::secrets::{SecretError, SecretStore as McpSecretStore};
use workbench_mcp::view::ImportReport;
use workbench_mcp::{McpError, McpManager};
use workbench_providers::keychain::SecretStore;

use crate::App;

/// The keychain as the MCP crate's secret store.
struct KeychainSecrets(Arc<dyn SecretStore>);

impl McpSecretStore for KeychainSecrets {
    fn get(&self, account: &str) -> Result<Option<String>, SecretError> {
        self.0.get(account).map_err(|e| SecretError(e.to_string()))
    }
    fn set(&self, account: &str, secret: &str) -> Result<(), SecretError> {
        self.0
            .set(account, secret)
            .map_err(|e| SecretError(e.to_string()))
    }
    fn delete(&self, account: &str) -> Result<(), SecretError> {
        self.0
            .delete(account)
            .map_err(|e| SecretError(e.to_string()))
    }
}

/// The manager over the data folder's `mcp.json` (nothing starts yet) and its tool source.
pub(crate) fn manager(
    data: &crate::DataDir,
    secrets: Arc<dyn SecretStore>,
) -> (McpManager, Arc<McpSource>) {
    let manager = workbench_mcp::manager_with_rmcp(
        data.path().join(workbench_mcp::file::FILE_NAME),
        Arc::new(KeychainSecrets(secrets)),
    );
    let source = Arc::new(McpSource::new(manager.clone()));
    (manager, source)
}

impl App {
    /// The MCP manager: servers, status, tools, and the operations on them.
    pub fn mcp(&self) -> &McpManager {
        &self.mcp
    }

    /// Connects every enabled MCP server (each in its own task) and watches `mcp.json` for hand
    /// edits. Returns at once; needs a tokio runtime. An unreadable file is reported in the
    /// overview and does not stop the app.
    pub async fn start_mcp(&self) {
        if let Err(e) = self.mcp.start().await {
            tracing::warn!(error = %e, "MCP servers not started");
        }
        if let Err(e) = self.mcp.watch_file() {
            tracing::warn!(error = %e, "mcp.json is not watched; hand edits need a restart");
        }
    }

    /// Connects every enabled MCP server and waits until none is still connecting (at most
    /// `limit`): for headless runs that must see the servers' tools.
    pub async fn start_mcp_and_wait(&self, limit: Duration) {
        if let Err(e) = self.mcp.start().await {
            tracing::warn!(error = %e, "MCP servers not started");
        }
        self.mcp.wait_settled(limit).await;
    }

    /// Imports the servers of Claude Desktop's config; `Ok(None)` when it has none on this
    /// machine. Names already configured are skipped unless `overwrite`.
    pub async fn import_claude_desktop(
        &self,
        overwrite: bool,
    ) -> Result<Option<ImportReport>, McpError> {
        let Some(path) = workbench_mcp::import::claude_desktop_config_path() else {
            return Ok(None);
        };
        let found =
            tokio::task::spawn_blocking(move || workbench_mcp::import::read_claude_desktop(&path))
                .await
                .map_err(|e| McpError::Invalid(format!("internal error: {e}")))?
                .map_err(|e| McpError::Invalid(e.to_string()))?;
        match found {
            Some(servers) => self.mcp.import(servers, overwrite).await.map(Some),
            None => Ok(None),
        }
    }

    /// Imports servers from pasted JSON (`{"mcpServers": ...}`, a map of servers, or one entry
    /// named `name`).
    pub async fn import_mcp_json(
        &self,
        text: &str,
        name: Option<&str>,
        overwrite: bool,
    ) -> Result<ImportReport, McpError> {
        let servers = workbench_mcp::import::parse_servers(text, name)
            .map_err(|e| McpError::Invalid(e.to_string()))?;
        self.mcp.import(servers, overwrite).await
    }
}
