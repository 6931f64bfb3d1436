//! `mcp.json`: the user's MCP servers in Claude Desktop's `mcpServers` format, plus Workbench's
//! optional fields (`enabled`, `disabledTools`, `startupTimeoutSecs`, `callTimeoutSecs`).
//!
//! A value in `env` or `headers` is either plain text or a reference to the OS keychain,
//! `{"secret": "mcp/<server>/<name>"}`; the file never holds a secret itself. Fields this
//! version does not know are kept (`extra`) so editing through Workbench loses nothing.

use std::collections::BTreeMap;
use std::time::Duration;

use serde::{Deserialize, Serialize};

/// How long a server may take to start and list its tools unless its entry says otherwise.
pub const DEFAULT_STARTUP_TIMEOUT: Duration = Duration::from_secs(30);
/// How long one tool call may take unless the server's entry says otherwise.
pub const DEFAULT_CALL_TIMEOUT: Duration = Duration::from_secs(60);
/// Longest server name: it becomes the prefix of every exposed tool name (64 characters max).
pub const MAX_SERVER_NAME_LEN: usize = 40;

/// The whole `mcp.json`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct McpConfig {
    /// Servers by name, in name order (a `BTreeMap` keeps the file's diffs stable).
    #[serde(rename = "mcpServers", default)]
    pub servers: BTreeMap<String, ServerConfig>,
    /// Top-level fields of other apps, kept as they were.
    #[serde(flatten)]
    pub extra: serde_json::Map<String, serde_json::Value>,
}

/// One `env` or `headers` value: plain text, or a reference to a keychain entry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ConfigValue {
    /// Stored in the OS keychain under this account (`mcp/<server>/<name>`).
    Secret {
        /// The keychain account.
        secret: String,
    },
    /// Plain text, kept in the file.
    Plain(String),
}

impl ConfigValue {
    /// Whether the value lives in the keychain.
    pub fn is_secret(&self) -> bool {
        matches!(self, Self::Secret { .. })
    }
}

/// One server's entry.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ServerConfig {
    /// `stdio` or `http` (also `streamable-http`, `streamableHttp`); inferred from
    /// `command` / `url` when absent, as Claude Desktop does.
    #[serde(rename = "type", default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    /// stdio: the program to start.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
    /// stdio: its arguments.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub args: Vec<String>,
    /// stdio: environment variables added to the inherited environment.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub env: BTreeMap<String, ConfigValue>,
    /// stdio: working directory.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cwd: Option<String>,
    /// http: the streamable-HTTP endpoint.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// http: headers sent with every request (Authorization, API keys...).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub headers: BTreeMap<String, ConfigValue>,
    /// Off = configured but not started (default on).
    #[serde(default = "yes", skip_serializing_if = "is_true")]
    pub enabled: bool,
    /// Tools of this server (their own names) never offered to the model.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub disabled_tools: Vec<String>,
    /// Seconds to start and list tools (default 30).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub startup_timeout_secs: Option<u64>,
    /// Seconds per tool call (default 60).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub call_timeout_secs: Option<u64>,
    /// Fields of other apps, kept as they were.
    #[serde(flatten)]
    pub extra: serde_json::Map<String, serde_json::Value>,
}

fn yes() -> bool {
    true
}

fn is_true(b: &bool) -> bool {
    *b
}

/// How a server is reached, once its entry is checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TransportKind {
    /// A child process speaking JSON-RPC on stdin/stdout.
    Stdio,
    /// Streamable HTTP.
    Http,
}

impl ServerConfig {
    /// A stdio server entry with nothing else set.
    pub fn stdio(command: impl Into<String>, args: Vec<String>) -> Self {
        Self {
            command: Some(command.into()),
            args,
            ..Self::empty()
        }
    }

    /// A streamable-HTTP server entry with nothing else set.
    pub fn http(url: impl Into<String>) -> Self {
        Self {
            url: Some(url.into()),
            ..Self::empty()
        }
    }

    fn empty() -> Self {
        Self {
            kind: None,
            command: None,
            args: Vec::new(),
            env: BTreeMap::new(),
            cwd: None,
            url: None,
            headers: BTreeMap::new(),
            enabled: true,
            disabled_tools: Vec::new(),
            startup_timeout_secs: None,
            call_timeout_secs: None,
            extra: serde_json::Map::new(),
        }
    }

    /// The transport, or what is wrong with the entry.
    pub fn transport(&self) -> Result<TransportKind, String> {
        let kind = self.kind.as_deref().map(|k| k.trim().to_ascii_lowercase());
        let inferred = match (&self.command, &self.url) {
            (Some(_), None) => Some(TransportKind::Stdio),
            (None, Some(_)) => Some(TransportKind::Http),
            (Some(_), Some(_)) => {
                return Err("has both `command` and `url`; keep one".into());
            }
            (None, None) => None,
        };
        let kind = match kind.as_deref() {
            None => inferred.ok_or("needs `command` (stdio) or `url` (streamable HTTP)")?,
            Some("stdio") => TransportKind::Stdio,
            Some("http" | "streamable-http" | "streamablehttp" | "streamable_http") => {
                TransportKind::Http
            }
            Some("sse") => {
                return Err(
                    "uses the old SSE transport, which Workbench does not speak; most servers \
                     also serve streamable HTTP (often at `/mcp` instead of `/sse`)"
                        .into(),
                )
            }
            Some(other) => return Err(format!("has an unknown `type` `{other}`")),
        };
        match kind {
            TransportKind::Stdio => {
                let cmd = self.command.as_deref().unwrap_or_default().trim();
                if cmd.is_empty() {
                    return Err("is a stdio server without a `command`".into());
                }
            }
            TransportKind::Http => {
                let url = self.url.as_deref().unwrap_or_default().trim();
                if !(url.starts_with("http://") || url.starts_with("https://")) {
                    return Err(format!(
                        "needs a `url` starting with http:// or https:// (got `{url}`)"
                    ));
                }
            }
        }
        Ok(kind)
    }

    /// The startup timeout in force.
    pub fn startup_timeout(&self) -> Duration {
        self.startup_timeout_secs
            .map(Duration::from_secs)
            .unwrap_or(DEFAULT_STARTUP_TIMEOUT)
    }

    /// The tool-call timeout in force.
    pub fn call_timeout(&self) -> Duration {
        self.call_timeout_secs
            .map(Duration::from_secs)
            .unwrap_or(DEFAULT_CALL_TIMEOUT)
    }

    /// Whether the tool with this (original) name is offered.
    pub fn tool_enabled(&self, tool: &str) -> bool {
        !self.disabled_tools.iter().any(|t| t == tool)
    }

    /// Checks the entry and says what to fix.
    pub fn validate(&self) -> Result<TransportKind, String> {
        let kind = self.transport()?;
        for (label, secs) in [
            ("startupTimeoutSecs", self.startup_timeout_secs),
            ("callTimeoutSecs", self.call_timeout_secs),
        ] {
            if secs == Some(0) {
                return Err(format!("has `{label}` 0; use at least 1"));
            }
        }
        let names = self.env.keys().map(|k| ("env", k));
        for (what, name) in names.chain(self.headers.keys().map(|k| ("headers", k))) {
            if name.trim().is_empty() {
                return Err(format!("has an empty name in `{what}`"));
            }
        }
        for name in self.headers.keys() {
            if http::HeaderName::from_bytes(name.as_bytes()).is_err() {
                return Err(format!(
                    "has a header name `{name}` that HTTP does not allow"
                ));
            }
        }
        Ok(kind)
    }
}

/// Checks a server name: it prefixes tool names and keychain accounts.
pub fn validate_server_name(name: &str) -> Result<(), String> {
    if name.trim().is_empty() {
        return Err("a server name cannot be empty".into());
    }
    if name.chars().count() > MAX_SERVER_NAME_LEN {
        return Err(format!(
            "the server name `{name}` is longer than {MAX_SERVER_NAME_LEN} characters"
        ));
    }
    if name.contains('/') || name.chars().any(char::is_control) {
        return Err(format!(
            "the server name `{name}` may not contain `/` or control characters"
        ));
    }
    Ok(())
}

impl McpConfig {
    /// Parses the text of `mcp.json`; the error says where the text is wrong.
    pub fn parse(text: &str) -> Result<Self, String> {
        if text.trim().is_empty() {
            return Ok(Self::default());
        }
        serde_json::from_str(text).map_err(|e| e.to_string())
    }

    /// The file's text: pretty JSON with a final newline.
    pub fn to_text(&self) -> String {
        let mut text = serde_json::to_string_pretty(self).unwrap_or_else(|_| "{}".into());
        text.push('\n');
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CLAUDE_STYLE: &str = r#"{
      "mcpServers": {
        "filesystem": {
          "command": "npx",
          "args": ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"],
          "env": {"DEBUG": "1", "GITHUB_TOKEN": {"secret": "mcp/filesystem/GITHUB_TOKEN"}}
        },
        "remote": {"type": "http", "url": "https://example.com/mcp",
                   "headers": {"Authorization": {"secret": "mcp/remote/Authorization"}},
                   "enabled": false, "disabledTools": ["drop_db"], "callTimeoutSecs": 5,
                   "someOtherAppField": {"x": 1}}
      },
      "globalShortcut": "Ctrl+Space"
    }"#;

    #[test]
    fn reads_claude_desktop_entries_with_our_fields() {
        let cfg = McpConfig::parse(CLAUDE_STYLE).unwrap();
        let fs = &cfg.servers["filesystem"];
        assert_eq!(fs.transport(), Ok(TransportKind::Stdio));
        assert!(fs.enabled);
        assert_eq!(fs.env["DEBUG"], ConfigValue::Plain("1".into()));
        assert!(fs.env["GITHUB_TOKEN"].is_secret());
        assert_eq!(fs.startup_timeout(), DEFAULT_STARTUP_TIMEOUT);
        let remote = &cfg.servers["remote"];
        assert_eq!(remote.transport(), Ok(TransportKind::Http));
        assert!(!remote.enabled);
        assert!(!remote.tool_enabled("drop_db"));
        assert!(remote.tool_enabled("query"));
        assert_eq!(remote.call_timeout(), Duration::from_secs(5));
    }

    #[test]
    fn unknown_fields_survive_a_round_trip() {
        let cfg = McpConfig::parse(CLAUDE_STYLE).unwrap();
        let again = McpConfig::parse(&cfg.to_text()).unwrap();
        assert_eq!(cfg, again);
        assert_eq!(again.extra["globalShortcut"], "Ctrl+Space");
        assert_eq!(
            again.servers["remote"].extra["someOtherAppField"]["x"],
            serde_json::json!(1)
        );
        // Defaults are not written out.
        assert!(!cfg.to_text().contains("\"enabled\": true"));
    }

    #[test]
    fn bad_entries_say_what_to_fix() {
        let both = ServerConfig {
            url: Some("http://x".into()),
            ..ServerConfig::stdio("npx", vec![])
        };
        assert!(both.validate().unwrap_err().contains("both"));
        let neither = ServerConfig {
            command: None,
            ..ServerConfig::stdio("x", vec![])
        };
        assert!(neither.validate().unwrap_err().contains("needs `command`"));
        let sse = ServerConfig {
            kind: Some("sse".into()),
            ..ServerConfig::http("http://x/sse")
        };
        assert!(sse.validate().unwrap_err().contains("SSE"));
        assert!(ServerConfig::http("ftp://x")
            .validate()
            .unwrap_err()
            .contains("http://"));
        let zero = ServerConfig {
            call_timeout_secs: Some(0),
            ..ServerConfig::stdio("x", vec![])
        };
        assert!(zero.validate().unwrap_err().contains("callTimeoutSecs"));
        let bad_header = ServerConfig {
            headers: [("bad header".to_string(), ConfigValue::Plain("v".into()))].into(),
            ..ServerConfig::http("http://x")
        };
        assert!(bad_header.validate().unwrap_err().contains("bad header"));
    }

    #[test]
    fn server_names_are_checked() {
        assert!(validate_server_name("github").is_ok());
        assert!(validate_server_name("my server").is_ok());
        assert!(validate_server_name("").is_err());
        assert!(validate_server_name("a/b").is_err());
        assert!(validate_server_name(&"x".repeat(41)).is_err());
    }

    #[test]
    fn malformed_json_is_an_error_and_empty_text_is_no_servers() {
        assert!(McpConfig::parse("{ not json").is_err());
        assert!(McpConfig::parse("  ").unwrap().servers.is_empty());
        assert!(McpConfig::parse(r#"{"mcpServers": {"x": {"command": 5}}}"#).is_err());
    }
}
