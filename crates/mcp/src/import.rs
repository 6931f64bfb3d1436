//! Server entries from pasted JSON or from Claude Desktop's config file.
//!
//! Pasted text may be a whole config (`{"mcpServers": {...}}`), a map of servers
//! (`{"github": {...}}`), or a single entry (`{"command": ...}`) when a name is given.

use std::collections::BTreeMap;
use std::path::PathBuf;

use crate::config::{validate_server_name, McpConfig, ServerConfig};

/// Why pasted or imported JSON gave no servers.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ImportError {
    /// The text is not JSON in any of the accepted shapes.
    #[error("{0}")]
    Invalid(String),
    /// The file could not be read.
    #[error("could not read {path}: {detail}")]
    Read {
        /// The file.
        path: String,
        /// What the OS said.
        detail: String,
    },
}

/// Where Claude Desktop keeps its config on this platform (`~/.config/Claude/...` on Linux).
pub fn claude_desktop_config_path() -> Option<PathBuf> {
    dirs::config_dir().map(|d| d.join("Claude").join("claude_desktop_config.json"))
}

/// Parses pasted JSON into named server entries. `name` names a single pasted entry.
pub fn parse_servers(
    text: &str,
    name: Option<&str>,
) -> Result<BTreeMap<String, ServerConfig>, ImportError> {
    let value: serde_json::Value =
        serde_json::from_str(text).map_err(|e| ImportError::Invalid(format!("not JSON: {e}")))?;
    let obj = value
        .as_object()
        .ok_or_else(|| ImportError::Invalid("expected a JSON object".into()))?;
    let servers: BTreeMap<String, ServerConfig> = if obj.contains_key("mcpServers") {
        McpConfig::parse(text)
            .map_err(ImportError::Invalid)?
            .servers
    } else if obj.contains_key("command") || obj.contains_key("url") {
        let name = name.ok_or_else(|| {
            ImportError::Invalid("this is a single server entry: give it a name".into())
        })?;
        let entry: ServerConfig = serde_json::from_value(value.clone())
            .map_err(|e| ImportError::Invalid(format!("the entry is not valid: {e}")))?;
        [(name.to_string(), entry)].into()
    } else {
        serde_json::from_value(value.clone()).map_err(|e| {
            ImportError::Invalid(format!(
                "expected {{\"mcpServers\": {{...}}}}, a map of servers, or one server entry: {e}"
            ))
        })?
    };
    if servers.is_empty() {
        return Err(ImportError::Invalid("the JSON names no servers".into()));
    }
    for (name, entry) in &servers {
        validate_server_name(name).map_err(ImportError::Invalid)?;
        entry
            .validate()
            .map_err(|e| ImportError::Invalid(format!("server `{name}` {e}")))?;
    }
    Ok(servers)
}

/// The servers in Claude Desktop's config; `Ok(None)` when the file does not exist.
pub fn read_claude_desktop(
    path: &std::path::Path,
) -> Result<Option<BTreeMap<String, ServerConfig>>, ImportError> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => {
            return Err(ImportError::Read {
                path: path.display().to_string(),
                detail: e.to_string(),
            })
        }
    };
    parse_servers(&text, None).map(Some)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{ConfigValue, TransportKind};

    #[test]
    fn accepts_the_three_shapes() {
        let whole = r#"{"mcpServers": {"a": {"command": "npx", "args": ["x"]}}}"#;
        assert_eq!(parse_servers(whole, None).unwrap()["a"].args, vec!["x"]);
        let map = r#"{"a": {"url": "https://h/mcp", "headers": {"X-Team": "t"}}, "b": {"command": "uvx"}}"#;
        let got = parse_servers(map, None).unwrap();
        assert_eq!(got["a"].transport(), Ok(TransportKind::Http));
        assert_eq!(got["a"].headers["X-Team"], ConfigValue::Plain("t".into()));
        assert_eq!(got.len(), 2);
        let one = r#"{"command": "node", "args": ["server.js"]}"#;
        assert_eq!(
            parse_servers(one, Some("mine")).unwrap()["mine"]
                .command
                .as_deref(),
            Some("node")
        );
    }

    #[test]
    fn bad_input_is_refused_with_a_reason() {
        for (text, needle) in [
            ("[1,2]", "JSON object"),
            ("{oops", "not JSON"),
            (r#"{"command": "x"}"#, "give it a name"),
            (r#"{"mcpServers": {}}"#, "no servers"),
            (r#"{"a": {"args": []}}"#, "server `a` needs"),
            (r#"{"a/b": {"command": "x"}}"#, "`/`"),
            (r#"{"a": 3}"#, "expected"),
        ] {
            let err = parse_servers(text, None).unwrap_err().to_string();
            assert!(err.contains(needle), "{text}: {err}");
        }
    }

    #[test]
    fn claude_desktop_file_missing_is_none() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("claude_desktop_config.json");
        assert_eq!(read_claude_desktop(&path).unwrap(), None);
        std::fs::write(
            &path,
            r#"{"mcpServers": {"fs": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/home"]}}, "theme": "dark"}"#,
        )
        .unwrap();
        let got = read_claude_desktop(&path).unwrap().unwrap();
        assert_eq!(got["fs"].args.len(), 3);
    }
}
