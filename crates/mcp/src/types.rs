//! What an MCP server offers and how a call ended, in Workbench's own types (rmcp's stay in
//! `rmcp_client.rs`). These cross IPC to the MCP manager page, so they generate TypeScript.

use serde::{Deserialize, Serialize};

/// A tool as the server describes it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct ToolInfo {
    /// The server's own name for the tool.
    pub name: String,
    /// Its description, if the server gave one.
    #[cfg_attr(feature = "ts", ts(optional))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// JSON Schema of its arguments (always an object schema).
    #[cfg_attr(feature = "ts", ts(type = "Record<string, unknown>"))]
    pub input_schema: serde_json::Value,
}

/// A resource the server lists (read-only view).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct ResourceInfo {
    /// Its URI.
    pub uri: String,
    /// Its name.
    pub name: String,
    /// What it is, if the server says.
    #[cfg_attr(feature = "ts", ts(optional))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Its MIME type, if known.
    #[cfg_attr(feature = "ts", ts(optional))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
}

/// One argument of a prompt.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct PromptArgumentInfo {
    /// Its name.
    pub name: String,
    /// What it is for.
    #[cfg_attr(feature = "ts", ts(optional))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Whether the prompt needs it.
    pub required: bool,
}

/// A prompt the server lists (read-only view).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct PromptInfo {
    /// Its name.
    pub name: String,
    /// What it does.
    #[cfg_attr(feature = "ts", ts(optional))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Its arguments.
    pub arguments: Vec<PromptArgumentInfo>,
}

/// A finished tool call: the text the model reads, and whether the server said it failed
/// (`isError: true`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CallResult {
    /// Every content block as text (images and binary resources as a short note).
    pub text: String,
    /// The server marked the result as an error.
    pub is_error: bool,
}

/// Why a request to a server did not produce a result.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CallError {
    /// The server answered with a JSON-RPC error.
    #[error("the server answered with error {code}: {message}")]
    Rpc {
        /// JSON-RPC error code.
        code: i64,
        /// Its message.
        message: String,
    },
    /// The connection is gone (the process exited, the HTTP session ended).
    #[error("the connection to the server is closed ({0})")]
    Closed(String),
    /// Anything else the transport reported.
    #[error("{0}")]
    Other(String),
}
