//! Our side of the MCP client: a [`Connector`] opens a [`Connection`] to one server. The only
//! implementation is `rmcp_client::RmcpConnector`; the manager and the tools adapter know only
//! these traits, so a new major version of rmcp changes one file.

use std::collections::{BTreeMap, VecDeque};
use std::ffi::OsString;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use crate::types::{CallError, CallResult, PromptInfo, ResourceInfo, ToolInfo};

/// Lines of a server's stderr kept for its status.
pub const STDERR_TAIL_LINES: usize = 20;
/// Characters kept of one stderr line.
const STDERR_LINE_MAX_CHARS: usize = 400;

/// How to reach one server, with secrets already read from the keychain. Never logged.
#[derive(Clone)]
pub enum ConnectSpec {
    /// A child process.
    Stdio {
        /// The program's resolved path.
        program: PathBuf,
        /// Its arguments.
        args: Vec<String>,
        /// Environment added to the inherited one.
        env: BTreeMap<String, String>,
        /// The login shell's PATH.
        path_env: OsString,
        /// Working directory.
        cwd: Option<PathBuf>,
    },
    /// Streamable HTTP.
    Http {
        /// The endpoint.
        url: String,
        /// Headers for every request.
        headers: BTreeMap<String, String>,
    },
}

impl std::fmt::Debug for ConnectSpec {
    // Values may be secrets: show names only.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Stdio {
                program, args, env, ..
            } => f
                .debug_struct("Stdio")
                .field("program", program)
                .field("args", args)
                .field("env", &env.keys().collect::<Vec<_>>())
                .finish(),
            Self::Http { url, headers } => f
                .debug_struct("Http")
                .field("url", url)
                .field("headers", &headers.keys().collect::<Vec<_>>())
                .finish(),
        }
    }
}

/// The last lines a server wrote to stderr, shown when it fails.
#[derive(Debug, Default)]
pub struct StderrTail(Mutex<VecDeque<String>>);

impl StderrTail {
    /// Keeps one line, dropping the oldest past [`STDERR_TAIL_LINES`].
    pub fn push(&self, line: &str) {
        let line: String = line
            .trim_end()
            .chars()
            .take(STDERR_LINE_MAX_CHARS)
            .collect();
        if let Ok(mut lines) = self.0.lock() {
            if lines.len() == STDERR_TAIL_LINES {
                lines.pop_front();
            }
            lines.push_back(line);
        }
    }

    /// The kept lines, oldest first.
    pub fn lines(&self) -> Vec<String> {
        self.0
            .lock()
            .map(|l| l.iter().cloned().collect())
            .unwrap_or_default()
    }

    /// Forgets the lines (a new process starts).
    pub fn clear(&self) {
        if let Ok(mut lines) = self.0.lock() {
            lines.clear();
        }
    }
}

/// What a connection reports back while it runs.
#[derive(Clone)]
pub struct Hooks {
    /// Called when the server sends `notifications/tools/list_changed`. Must not block.
    pub on_tools_changed: Arc<dyn Fn() + Send + Sync>,
    /// Where the server's stderr lines go.
    pub stderr: Arc<StderrTail>,
}

/// An open connection to one server.
#[async_trait::async_trait]
pub trait Connection: Send + Sync {
    /// Every tool (all pages).
    async fn list_tools(&self) -> Result<Vec<ToolInfo>, CallError>;
    /// Calls a tool by its own name.
    async fn call_tool(
        &self,
        name: &str,
        args: serde_json::Map<String, serde_json::Value>,
    ) -> Result<CallResult, CallError>;
    /// Every resource (all pages).
    async fn list_resources(&self) -> Result<Vec<ResourceInfo>, CallError>;
    /// Every prompt (all pages).
    async fn list_prompts(&self) -> Result<Vec<PromptInfo>, CallError>;
    /// Resolves once the connection has ended (the process exited, the session closed).
    async fn closed(&self);
    /// Ends the connection (and stops the process).
    async fn close(&self);
}

/// Opens connections.
#[async_trait::async_trait]
pub trait Connector: Send + Sync {
    /// Starts or reaches the server and completes the MCP handshake. The error is a sentence.
    async fn connect(
        &self,
        spec: &ConnectSpec,
        hooks: Hooks,
    ) -> Result<Arc<dyn Connection>, String>;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stderr_keeps_the_last_lines_cut_to_length() {
        let tail = StderrTail::default();
        for i in 0..30 {
            tail.push(&format!("line {i}\n"));
        }
        tail.push(&"x".repeat(1000));
        let lines = tail.lines();
        assert_eq!(lines.len(), STDERR_TAIL_LINES);
        assert_eq!(lines[0], "line 11");
        assert_eq!(lines.last().unwrap().len(), STDERR_LINE_MAX_CHARS);
    }

    #[test]
    fn debug_output_never_shows_values() {
        let spec = ConnectSpec::Http {
            url: "https://h/mcp".into(),
            headers: [("Authorization".to_string(), "Bearer s3cr3t".to_string())].into(),
        };
        let shown = format!("{spec:?}");
        assert!(shown.contains("Authorization") && !shown.contains("s3cr3t"));
    }
}
