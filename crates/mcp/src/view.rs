//! What the MCP manager page and the CLI see and send: server views with status, and the form
//! input for adding or editing a server. Every type here generates TypeScript (`make bindings`).
//!
//! Secret values never leave the backend: a secret shows as `{name, secret: true}` with no value.

use serde::{Deserialize, Serialize};

use crate::types::ToolInfo;

/// The whole MCP picture: where the config is, whether it could be read, and every server.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct McpOverview {
    /// The path of `mcp.json`.
    pub config_path: String,
    /// Set when the file could not be read or parsed; the servers shown are the last good ones.
    #[cfg_attr(feature = "ts", ts(optional))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub config_error: Option<String>,
    /// Every configured server, by name.
    pub servers: Vec<ServerView>,
}

/// A server's connection state.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(tag = "state", rename_all = "camelCase")]
pub enum ServerStatus {
    /// Switched off.
    Disabled,
    /// Starting or reaching it for the first time.
    Connecting,
    /// Connected; `toolCount` tools listed (disabled ones included).
    #[serde(rename_all = "camelCase")]
    Connected {
        /// How many tools the server lists.
        tool_count: u32,
    },
    /// Could not start or connect; Workbench does not retry until the entry changes or the
    /// user asks to reconnect.
    #[serde(rename_all = "camelCase")]
    Failed {
        /// What went wrong, as a sentence.
        error: String,
        /// The last lines the server wrote to stderr.
        stderr: Vec<String>,
    },
    /// Was connected, stopped; retrying with backoff (1 s doubling to 30 s).
    #[serde(rename_all = "camelCase")]
    Reconnecting {
        /// Retries so far (1 for the first).
        attempt: u32,
        /// Milliseconds until the next try.
        #[cfg_attr(feature = "ts", ts(type = "number"))]
        retry_in_ms: u64,
        /// Why it stopped or why the last try failed.
        error: String,
        /// The last lines the server wrote to stderr.
        stderr: Vec<String>,
    },
}

/// An `env` or `headers` entry as shown: secrets without their value.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct ValueView {
    /// The variable or header name.
    pub name: String,
    /// The value, absent for secrets (shown masked).
    #[cfg_attr(feature = "ts", ts(optional))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    /// Stored in the OS keychain.
    pub secret: bool,
}

/// One tool of a server, as the manager page lists it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct ToolView {
    /// The tool as the server describes it (its own name, description, schema).
    #[serde(flatten)]
    pub info: ToolInfo,
    /// The name the model sees: `<server>__<tool>`, sanitised.
    pub qualified_name: String,
    /// Offered to the model (not in the server's `disabledTools`).
    pub enabled: bool,
}

/// Transport kind of a server.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub enum TransportName {
    /// A child process on stdin/stdout.
    Stdio,
    /// Streamable HTTP.
    Http,
}

/// A configured server with its status and tools.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct ServerView {
    /// Its name (the key in `mcpServers`).
    pub name: String,
    /// `stdio` or `http`; absent when the entry is invalid (see `status`).
    #[cfg_attr(feature = "ts", ts(optional))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transport: Option<TransportName>,
    /// stdio: the command.
    #[cfg_attr(feature = "ts", ts(optional))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
    /// stdio: its arguments.
    pub args: Vec<String>,
    /// stdio: working directory.
    #[cfg_attr(feature = "ts", ts(optional))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cwd: Option<String>,
    /// stdio: environment entries.
    pub env: Vec<ValueView>,
    /// http: the endpoint.
    #[cfg_attr(feature = "ts", ts(optional))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// http: headers.
    pub headers: Vec<ValueView>,
    /// The enabled switch.
    pub enabled: bool,
    /// Seconds allowed to start and list tools.
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub startup_timeout_secs: u64,
    /// Seconds allowed per tool call.
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub call_timeout_secs: u64,
    /// Connection state.
    pub status: ServerStatus,
    /// Its tools while connected, each with its switch.
    pub tools: Vec<ToolView>,
    /// Tools switched off (kept even while the server is not connected).
    pub disabled_tools: Vec<String>,
}

/// An `env` or `headers` entry from the form.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct ValueInput {
    /// The variable or header name.
    pub name: String,
    /// The value; absent = keep the value already stored for this name (editing a secret
    /// without retyping it).
    #[cfg_attr(feature = "ts", ts(optional))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    /// `true` = store in the keychain, `false` = keep plain even if the name looks secret,
    /// absent = decide by the name (Authorization, *KEY*, *TOKEN*, *SECRET*, *PASS*...).
    #[cfg_attr(feature = "ts", ts(optional))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub secret: Option<bool>,
}

/// How to reach a server, from the form.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum TransportInput {
    /// A child process.
    #[serde(rename_all = "camelCase")]
    Stdio {
        /// The program (a name on PATH or a path).
        command: String,
        /// Its arguments.
        #[serde(default)]
        args: Vec<String>,
        /// Environment entries.
        #[serde(default)]
        env: Vec<ValueInput>,
        /// Working directory.
        #[cfg_attr(feature = "ts", ts(optional))]
        #[serde(default, skip_serializing_if = "Option::is_none")]
        cwd: Option<String>,
    },
    /// Streamable HTTP.
    #[serde(rename_all = "camelCase")]
    Http {
        /// The endpoint.
        url: String,
        /// Headers.
        #[serde(default)]
        headers: Vec<ValueInput>,
    },
}

/// A server from the add/edit form.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct ServerInput {
    /// Its name.
    pub name: String,
    /// How to reach it.
    pub transport: TransportInput,
    /// Start it (default true).
    #[cfg_attr(feature = "ts", ts(optional))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub enabled: Option<bool>,
    /// Tools to switch off.
    #[serde(default)]
    pub disabled_tools: Vec<String>,
    /// Seconds to start (default 30).
    #[cfg_attr(feature = "ts", ts(optional, type = "number"))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub startup_timeout_secs: Option<u64>,
    /// Seconds per call (default 60).
    #[cfg_attr(feature = "ts", ts(optional, type = "number"))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub call_timeout_secs: Option<u64>,
}

/// What trying a server without saving it found.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct ValidationReport {
    /// It connected and listed its tools.
    pub ok: bool,
    /// Why not, when `ok` is false.
    #[cfg_attr(feature = "ts", ts(optional))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// The last lines the server wrote to stderr.
    pub stderr: Vec<String>,
    /// Its tools.
    pub tools: Vec<ToolInfo>,
    /// Milliseconds from start to tool list (or failure).
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub elapsed_ms: u64,
}

/// Result of an import: which servers were added and which were skipped (name taken).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct ImportReport {
    /// Added, by name.
    pub added: Vec<String>,
    /// Not added because a server of that name exists (import with overwrite to replace).
    pub skipped: Vec<String>,
}
