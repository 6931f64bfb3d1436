//! The [`Connector`] built on rmcp, the official Rust SDK: child-process and streamable-HTTP
//! transports. This is the only file that names rmcp types; results are turned into our own
//! types through their JSON wire form, which the MCP spec keeps stable across SDK versions.

use std::collections::HashMap;
use std::process::Stdio;
use std::sync::{Arc, Mutex, Once};

use process_wrap::tokio::{CommandWrap, ProcessGroup};
use rmcp::model::{
    CallToolRequestParams, ClientCapabilities, Implementation, InitializeRequestParams,
    ProtocolVersion,
};
use rmcp::service::{NotificationContext, RunningService, RunningServiceCancellationToken};
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::transport::{StreamableHttpClientTransport, TokioChildProcess};
use rmcp::{ClientHandler, Peer, RoleClient, ServiceError, ServiceExt};
use serde_json::Value;
use tokio::io::AsyncBufReadExt;
use tokio_util::sync::CancellationToken;

use crate::client::{ConnectSpec, Connection, Connector, Hooks, StderrTail};
use crate::types::{CallError, CallResult, PromptArgumentInfo, PromptInfo, ResourceInfo, ToolInfo};

/// Connects with rmcp.
#[derive(Debug, Clone, Default)]
pub struct RmcpConnector;

/// Receives the server's notifications.
struct Handler {
    on_tools_changed: Arc<dyn Fn() + Send + Sync>,
}

impl ClientHandler for Handler {
    async fn on_tool_list_changed(&self, _context: NotificationContext<RoleClient>) {
        (self.on_tools_changed)();
    }

    fn get_info(&self) -> InitializeRequestParams {
        InitializeRequestParams::new(
            ClientCapabilities::default(),
            Implementation::new("workbench", env!("CARGO_PKG_VERSION")),
        )
        .with_protocol_version(ProtocolVersion::LATEST_WITH_INITIALIZE)
    }
}

/// rmcp's reqwest has no TLS crypto provider compiled in; install ring's once per process.
fn install_crypto_provider() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // Err means another part of the process installed one first, which is as good.
        let _ = rustls::crypto::ring::default_provider().install_default();
    });
}

#[async_trait::async_trait]
impl Connector for RmcpConnector {
    async fn connect(
        &self,
        spec: &ConnectSpec,
        hooks: Hooks,
    ) -> Result<Arc<dyn Connection>, String> {
        let handler = Handler {
            on_tools_changed: hooks.on_tools_changed.clone(),
        };
        let running = match spec {
            ConnectSpec::Stdio {
                program,
                args,
                env,
                path_env,
                cwd,
            } => {
                let mut cmd = tokio::process::Command::new(program);
                cmd.args(args).envs(env).env("PATH", path_env);
                // rmcp kills the child from a spawned task on drop, which a runtime that is
                // shutting down may never run; tokio's own kill-on-drop is synchronous.
                cmd.kill_on_drop(true);
                if let Some(dir) = cwd {
                    cmd.current_dir(dir);
                }
                let mut wrap = CommandWrap::from(cmd);
                wrap.wrap(ProcessGroup::leader());
                let (transport, stderr) = TokioChildProcess::builder(wrap)
                    .stderr(Stdio::piped())
                    .spawn()
                    .map_err(|e| format!("could not start `{}`: {e}", program.display()))?;
                if let Some(stderr) = stderr {
                    tokio::spawn(read_stderr(stderr, hooks.stderr.clone()));
                }
                handler
                    .serve(transport)
                    .await
                    .map_err(|e| format!("the server did not complete the MCP handshake: {e}"))?
            }
            ConnectSpec::Http { url, headers } => {
                install_crypto_provider();
                let mut custom = HashMap::new();
                for (name, value) in headers {
                    let name = http::HeaderName::from_bytes(name.as_bytes())
                        .map_err(|e| format!("the header name `{name}` is not valid: {e}"))?;
                    // The value may be a secret: say which header, never what it holds.
                    let value = http::HeaderValue::from_str(value)
                        .map_err(|_| format!("the value of header `{name}` is not valid"))?;
                    custom.insert(name, value);
                }
                let config = StreamableHttpClientTransportConfig::with_uri(url.as_str())
                    .custom_headers(custom);
                let transport = StreamableHttpClientTransport::from_config(config);
                handler
                    .serve(transport)
                    .await
                    .map_err(|e| format!("could not connect to {url}: {e}"))?
            }
        };
        Ok(Arc::new(RmcpConnection::start(running)))
    }
}

/// Keeps the last stderr lines of a server for its status.
async fn read_stderr(stderr: tokio::process::ChildStderr, tail: Arc<StderrTail>) {
    let mut lines = tokio::io::BufReader::new(stderr).lines();
    while let Ok(Some(line)) = lines.next_line().await {
        tail.push(&line);
    }
}

/// An rmcp client session.
struct RmcpConnection {
    peer: Peer<RoleClient>,
    cancel: Mutex<Option<RunningServiceCancellationToken>>,
    ended: CancellationToken,
}

impl RmcpConnection {
    fn start(running: RunningService<RoleClient, Handler>) -> Self {
        let peer = running.peer().clone();
        let cancel = Mutex::new(Some(running.cancellation_token()));
        let ended = CancellationToken::new();
        let done = ended.clone();
        tokio::spawn(async move {
            let reason = running.waiting().await;
            tracing::debug!(?reason, "MCP session ended");
            done.cancel();
        });
        Self {
            peer,
            cancel,
            ended,
        }
    }
}

fn map_error(e: ServiceError) -> CallError {
    match e {
        ServiceError::McpError(data) => CallError::Rpc {
            code: i64::from(data.code.0),
            message: data.message.to_string(),
        },
        ServiceError::TransportClosed => CallError::Closed("transport closed".into()),
        ServiceError::TransportSend(e) => CallError::Closed(e.to_string()),
        other => CallError::Other(other.to_string()),
    }
}

#[async_trait::async_trait]
impl Connection for RmcpConnection {
    async fn list_tools(&self) -> Result<Vec<ToolInfo>, CallError> {
        let tools = self.peer.list_all_tools().await.map_err(map_error)?;
        Ok(tools
            .into_iter()
            .map(|t| {
                let mut schema = Value::Object((*t.input_schema).clone());
                if schema.get("type").is_none() {
                    schema["type"] = Value::String("object".into());
                }
                ToolInfo {
                    name: t.name.to_string(),
                    description: t.description.map(|d| d.to_string()),
                    input_schema: schema,
                }
            })
            .collect())
    }

    async fn call_tool(
        &self,
        name: &str,
        args: serde_json::Map<String, Value>,
    ) -> Result<CallResult, CallError> {
        let params = CallToolRequestParams::new(name.to_string()).with_arguments(args);
        let result = self.peer.call_tool(params).await.map_err(map_error)?;
        let wire = serde_json::to_value(&result).unwrap_or(Value::Null);
        Ok(call_result_from_wire(&wire))
    }

    async fn list_resources(&self) -> Result<Vec<ResourceInfo>, CallError> {
        let resources = self.peer.list_all_resources().await.map_err(map_error)?;
        Ok(resources
            .into_iter()
            .map(|r| ResourceInfo {
                uri: r.uri.clone(),
                name: r.name.clone(),
                description: r.description.clone(),
                mime_type: r.mime_type.clone(),
            })
            .collect())
    }

    async fn list_prompts(&self) -> Result<Vec<PromptInfo>, CallError> {
        let prompts = self.peer.list_all_prompts().await.map_err(map_error)?;
        Ok(prompts
            .into_iter()
            .map(|p| PromptInfo {
                name: p.name,
                description: p.description,
                arguments: p
                    .arguments
                    .unwrap_or_default()
                    .into_iter()
                    .map(|a| PromptArgumentInfo {
                        name: a.name,
                        description: a.description,
                        required: a.required.unwrap_or(false),
                    })
                    .collect(),
            })
            .collect())
    }

    async fn closed(&self) {
        self.ended.cancelled().await;
    }

    async fn close(&self) {
        let token = self.cancel.lock().ok().and_then(|mut c| c.take());
        if let Some(token) = token {
            token.cancel();
        }
    }
}

/// A `tools/call` result (its JSON wire form) as text for the model.
fn call_result_from_wire(wire: &Value) -> CallResult {
    let mut parts: Vec<String> = Vec::new();
    for block in wire["content"].as_array().into_iter().flatten() {
        let part = match block["type"].as_str() {
            Some("text") => block["text"].as_str().unwrap_or_default().to_string(),
            Some("image") | Some("audio") => format!(
                "[{} content, {}, {} base64 characters]",
                block["type"].as_str().unwrap_or_default(),
                block["mimeType"].as_str().unwrap_or("unknown type"),
                block["data"].as_str().map(str::len).unwrap_or(0)
            ),
            Some("resource") => {
                let res = &block["resource"];
                match res["text"].as_str() {
                    Some(text) => format!(
                        "[resource {}]\n{text}",
                        res["uri"].as_str().unwrap_or_default()
                    ),
                    None => format!(
                        "[binary resource {}, {}]",
                        res["uri"].as_str().unwrap_or_default(),
                        res["mimeType"].as_str().unwrap_or("unknown type")
                    ),
                }
            }
            Some("resource_link") => format!(
                "[resource link {} ({})]",
                block["uri"].as_str().unwrap_or_default(),
                block["name"].as_str().unwrap_or_default()
            ),
            _ => block.to_string(),
        };
        parts.push(part);
    }
    if parts.is_empty() {
        if let Some(structured) = wire.get("structuredContent") {
            parts.push(structured.to_string());
        }
    }
    CallResult {
        text: parts.join("\n"),
        is_error: wire["isError"].as_bool().unwrap_or(false),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn content_blocks_become_text() {
        let wire = json!({"content": [
            {"type": "text", "text": "hello"},
            {"type": "image", "data": "AAAA", "mimeType": "image/png"},
            {"type": "resource", "resource": {"uri": "file:///a", "text": "body"}},
            {"type": "resource_link", "uri": "file:///b", "name": "b"}
        ]});
        let r = call_result_from_wire(&wire);
        assert!(!r.is_error);
        assert_eq!(
            r.text,
            "hello\n[image content, image/png, 4 base64 characters]\n[resource file:///a]\nbody\n[resource link file:///b (b)]"
        );
    }

    #[test]
    fn is_error_and_structured_content_are_kept() {
        let r = call_result_from_wire(
            &json!({"content": [{"type": "text", "text": "no"}], "isError": true}),
        );
        assert!(r.is_error);
        assert_eq!(r.text, "no");
        let r = call_result_from_wire(&json!({"content": [], "structuredContent": {"n": 3}}));
        assert_eq!(r.text, r#"{"n":3}"#);
    }
}
