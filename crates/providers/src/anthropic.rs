//! Anthropic Messages, streamed: the request body (system on top, alternating roles, tool
//! results as user blocks) and the parser for its typed SSE events.

use std::collections::HashMap;

use base64::prelude::{Engine as _, BASE64_STANDARD};
use serde_json::{json, Value};
use workbench_core::model::{
    FinishReason, ModelClient, ModelError, ModelRequest, ModelStream, StreamEvent, Usage,
};
use workbench_core::thread::{ImagePart, Role, ToolCall};

use crate::http_errors::{self, CallSite};
use crate::sse::{self, StreamCall, WireParser};
use crate::{endpoint, ClientOptions, Endpoint};

/// The API version this parser understands; Anthropic requires the header.
const ANTHROPIC_VERSION: &str = "2023-06-01";
/// `max_tokens` when the request sets none: the API requires one, and 4096 fits every current
/// model's output limit.
pub(crate) const DEFAULT_MAX_TOKENS: u32 = 4096;

/// A client for the Anthropic Messages API.
#[derive(Debug, Clone)]
pub struct AnthropicClient {
    ep: Endpoint,
}

impl AnthropicClient {
    /// A client for `base_url` (e.g. `https://api.anthropic.com/v1`). `default_model` is used
    /// when a request names none. Fails only if the HTTP client cannot be set up (TLS).
    pub fn new(
        base_url: &str,
        default_model: &str,
        api_key: Option<String>,
        options: ClientOptions,
    ) -> Result<Self, String> {
        Ok(Self {
            ep: Endpoint::new(base_url, default_model, api_key, options)?,
        })
    }
}

#[async_trait::async_trait]
impl ModelClient for AnthropicClient {
    async fn stream(&self, request: ModelRequest) -> Result<ModelStream, ModelError> {
        let model = self.ep.model_for(&request);
        let body = request_body(
            &request,
            &model,
            self.ep.options.anthropic_default_max_tokens,
        );
        let url = endpoint(&self.ep.base_url, "messages");
        sse::open(StreamCall {
            site: CallSite {
                base_url: &self.ep.base_url,
                model: &model,
            },
            policy: &self.ep.options.retry,
            build: || {
                let mut rb = self
                    .ep
                    .http
                    .post(&url)
                    .header("anthropic-version", ANTHROPIC_VERSION)
                    .json(&body);
                if let Some(key) = &self.ep.key {
                    rb = rb.header("x-api-key", key.expose());
                }
                rb
            },
            make_parser: || AnthropicParser::new(&self.ep.base_url),
        })
        .await
    }

    fn describe(&self) -> String {
        format!("Anthropic at {}", self.ep.base_url)
    }
}

/// The Messages request body for `request`.
pub(crate) fn request_body(request: &ModelRequest, model: &str, default_max: u32) -> Value {
    // Anthropic wants strictly alternating roles, so consecutive same-role messages (a user
    // message after tool results, several tool results) are merged into one.
    let mut messages: Vec<(&'static str, Vec<Value>)> = Vec::new();
    for m in &request.messages {
        let (role, blocks) = match m.role {
            Role::User => {
                let mut blocks: Vec<Value> = text_block(&m.content).into_iter().collect();
                blocks.extend(m.images.iter().map(image_block));
                ("user", blocks)
            }
            Role::Assistant => {
                let mut blocks: Vec<Value> = text_block(&m.content).into_iter().collect();
                for c in &m.tool_calls {
                    blocks.push(json!({
                        "type": "tool_use",
                        "id": c.id,
                        "name": c.name,
                        "input": tool_input(&c.arguments),
                    }));
                }
                ("assistant", blocks)
            }
            Role::Tool => {
                let mut block = json!({
                    "type": "tool_result",
                    "tool_use_id": m.tool_call_id.as_deref().unwrap_or_default(),
                    "content": m.content,
                });
                if m.is_error {
                    block["is_error"] = json!(true);
                }
                ("user", vec![block])
            }
        };
        // Empty messages (a run cancelled before its first token) are rejected by the API.
        if blocks.is_empty() {
            continue;
        }
        match messages.last_mut() {
            Some((last_role, last_blocks)) if *last_role == role => last_blocks.extend(blocks),
            _ => messages.push((role, blocks)),
        }
    }
    let messages: Vec<Value> = messages
        .into_iter()
        .map(|(role, content)| json!({"role": role, "content": content}))
        .collect();
    let mut body = json!({
        "model": model,
        "max_tokens": request.max_tokens.unwrap_or(default_max),
        "messages": messages,
        "stream": true,
    });
    if let Some(system) = request.system.as_deref().filter(|s| !s.is_empty()) {
        body["system"] = json!(system);
    }
    if !request.tools.is_empty() {
        body["tools"] = request
            .tools
            .iter()
            .map(|t| {
                let schema = if t.parameters.is_object() {
                    t.parameters.clone()
                } else {
                    json!({"type": "object", "properties": {}})
                };
                json!({"name": t.name, "description": t.description, "input_schema": schema})
            })
            .collect();
    }
    body
}

fn text_block(text: &str) -> Option<Value> {
    // The API rejects empty text blocks.
    (!text.is_empty()).then(|| json!({"type": "text", "text": text}))
}

/// An image as a base64 source block. After tool results it lands in the same user turn,
/// behind their `tool_result` blocks, as the API requires.
fn image_block(image: &ImagePart) -> Value {
    json!({
        "type": "image",
        "source": {
            "type": "base64",
            "media_type": image.media_type,
            "data": BASE64_STANDARD.encode(&image.data),
        },
    })
}

/// `tool_use.input` must be an object. Invalid arguments the model sent were already reported
/// back to it in the tool result, so an empty object loses nothing it needs.
fn tool_input(arguments: &str) -> Value {
    match serde_json::from_str::<Value>(arguments) {
        Ok(v) if v.is_object() => v,
        _ => json!({}),
    }
}

#[derive(Debug)]
enum Block {
    Text,
    Thinking,
    ToolUse {
        id: String,
        name: String,
        json: String,
        /// `input` from content_block_start, used when no input_json_delta follows.
        initial: Option<Value>,
    },
    /// Kinds we do not show (redacted thinking, server tools).
    Other,
}

/// Parses Messages stream events.
pub(crate) struct AnthropicParser {
    url: String,
    blocks: HashMap<u64, Block>,
    usage: Usage,
    stop_reason: Option<String>,
    done: bool,
    /// Whether any event came out yet: decides how an `error` event is reported.
    emitted: bool,
}

impl AnthropicParser {
    pub(crate) fn new(url: &str) -> Self {
        Self {
            url: url.to_string(),
            blocks: HashMap::new(),
            usage: Usage::default(),
            stop_reason: None,
            done: false,
            emitted: false,
        }
    }

    fn protocol(&self, detail: impl Into<String>) -> ModelError {
        ModelError::Protocol {
            url: self.url.clone(),
            detail: detail.into(),
        }
    }
}

fn tokens(v: &Value, key: &str) -> Option<u32> {
    v.get(key)
        .and_then(Value::as_u64)
        .map(|n| u32::try_from(n).unwrap_or(u32::MAX))
}

fn stop_reason(s: &str) -> FinishReason {
    match s {
        "end_turn" | "stop_sequence" => FinishReason::Stop,
        "max_tokens" => FinishReason::Length,
        "tool_use" => FinishReason::ToolCalls,
        "refusal" => FinishReason::ContentFilter,
        other => FinishReason::Other(other.to_string()),
    }
}

impl WireParser for AnthropicParser {
    fn on_event(
        &mut self,
        event: &str,
        data: &str,
        out: &mut Vec<StreamEvent>,
    ) -> Result<(), ModelError> {
        let r = self.handle(event, data, out);
        self.emitted |= !out.is_empty();
        r
    }

    fn is_done(&self) -> bool {
        self.done
    }

    fn on_eof(&mut self, _out: &mut Vec<StreamEvent>) -> Result<(), ModelError> {
        if self.done {
            return Ok(());
        }
        Err(ModelError::StreamBroken {
            url: self.url.clone(),
            detail: "the connection closed before the reply finished".into(),
        })
    }
}

impl AnthropicParser {
    fn handle(
        &mut self,
        event: &str,
        data: &str,
        out: &mut Vec<StreamEvent>,
    ) -> Result<(), ModelError> {
        if data.trim().is_empty() {
            return Ok(());
        }
        let v: Value = serde_json::from_str(data)
            .map_err(|e| self.protocol(format!("an event is not valid JSON ({e})")))?;
        // `type` in the data is authoritative; the SSE event name repeats it.
        let kind = v.get("type").and_then(Value::as_str).unwrap_or(event);
        let index = v.get("index").and_then(Value::as_u64).unwrap_or(0);
        match kind {
            "message_start" => {
                if let Some(u) = v.pointer("/message/usage") {
                    // Cached prompt tokens are reported apart; the context used is their sum.
                    self.usage.input_tokens = [
                        "input_tokens",
                        "cache_creation_input_tokens",
                        "cache_read_input_tokens",
                    ]
                    .iter()
                    .filter_map(|k| tokens(u, k))
                    .fold(0u32, u32::saturating_add);
                    self.usage.output_tokens = tokens(u, "output_tokens").unwrap_or(0);
                }
            }
            "content_block_start" => {
                let block = v.get("content_block").cloned().unwrap_or(Value::Null);
                let str_field = |k: &str| {
                    block
                        .get(k)
                        .and_then(Value::as_str)
                        .unwrap_or("")
                        .to_string()
                };
                let b = match block.get("type").and_then(Value::as_str) {
                    Some("text") => {
                        let text = str_field("text");
                        if !text.is_empty() {
                            out.push(StreamEvent::TextDelta(text));
                        }
                        Block::Text
                    }
                    Some("thinking") => {
                        let thinking = str_field("thinking");
                        if !thinking.is_empty() {
                            out.push(StreamEvent::ReasoningDelta(thinking));
                        }
                        Block::Thinking
                    }
                    Some("tool_use") => Block::ToolUse {
                        id: str_field("id"),
                        name: str_field("name"),
                        json: String::new(),
                        initial: block
                            .get("input")
                            .filter(|i| i.as_object().is_some_and(|o| !o.is_empty()))
                            .cloned(),
                    },
                    _ => Block::Other,
                };
                self.blocks.insert(index, b);
            }
            "content_block_delta" => {
                let delta = v.get("delta").cloned().unwrap_or(Value::Null);
                let text = |k: &str| {
                    delta
                        .get(k)
                        .and_then(Value::as_str)
                        .unwrap_or("")
                        .to_string()
                };
                match delta.get("type").and_then(Value::as_str) {
                    Some("text_delta") => {
                        let t = text("text");
                        if !t.is_empty() {
                            out.push(StreamEvent::TextDelta(t));
                        }
                    }
                    Some("thinking_delta") => {
                        let t = text("thinking");
                        if !t.is_empty() {
                            out.push(StreamEvent::ReasoningDelta(t));
                        }
                    }
                    Some("input_json_delta") => match self.blocks.get_mut(&index) {
                        Some(Block::ToolUse { json, .. }) => json.push_str(&text("partial_json")),
                        _ => {
                            return Err(self.protocol(format!(
                                "input_json_delta for block {index}, which is not a tool_use"
                            )))
                        }
                    },
                    // signature_delta, citations_delta: nothing to show.
                    _ => {}
                }
            }
            "content_block_stop" => {
                if let Some(Block::ToolUse {
                    id,
                    name,
                    json,
                    initial,
                }) = self.blocks.remove(&index)
                {
                    let arguments = if !json.trim().is_empty() {
                        json
                    } else if let Some(initial) = initial {
                        initial.to_string()
                    } else {
                        "{}".to_string()
                    };
                    out.push(StreamEvent::ToolCall(ToolCall {
                        id,
                        name,
                        arguments,
                    }));
                }
            }
            "message_delta" => {
                if let Some(r) = v.pointer("/delta/stop_reason").and_then(Value::as_str) {
                    self.stop_reason = Some(r.to_string());
                }
                if let Some(u) = v.get("usage") {
                    if let Some(n) = tokens(u, "output_tokens") {
                        self.usage.output_tokens = n;
                    }
                    if let Some(n) = tokens(u, "input_tokens") {
                        self.usage.input_tokens = n;
                    }
                    out.push(StreamEvent::Usage(self.usage));
                }
            }
            "message_stop" => {
                let reason = self
                    .stop_reason
                    .as_deref()
                    .map(stop_reason)
                    .unwrap_or(FinishReason::Stop);
                out.push(StreamEvent::Finish(reason));
                self.done = true;
            }
            "error" => {
                let kind = v
                    .pointer("/error/type")
                    .and_then(Value::as_str)
                    .unwrap_or("api_error");
                let message = v
                    .pointer("/error/message")
                    .and_then(Value::as_str)
                    .unwrap_or(kind);
                if self.emitted {
                    // Text already reached the caller: the reply broke off mid-way.
                    return Err(ModelError::StreamBroken {
                        url: self.url.clone(),
                        detail: format!("the server reported an error: {message} ({kind})"),
                    });
                }
                let status = http_errors::anthropic_error_status(kind);
                let body = json!({"error": {"message": message}}).to_string();
                // Nothing was shown yet: the same error as if it had come as an HTTP status,
                // which the retry loop treats like one.
                let site = CallSite {
                    base_url: &self.url,
                    model: "",
                };
                return Err(match http_errors::from_status(status, &body, &site, None) {
                    // The model was found (the stream started); say what the server said.
                    ModelError::ModelNotFound { url, .. } => ModelError::BadRequest {
                        url,
                        status,
                        detail: message.to_string(),
                    },
                    other => other,
                });
            }
            // ping, and event types added after this was written.
            _ => {}
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use workbench_core::model::ToolSpec;
    use workbench_core::thread::Message;

    fn msg(role: Role, content: &str) -> Message {
        let mut m = Message::user("t", content);
        m.role = role;
        m
    }

    #[test]
    fn images_become_base64_blocks_in_the_tool_results_turn() {
        let mut assistant = msg(Role::Assistant, "");
        assistant.tool_calls = vec![ToolCall {
            id: "v1".into(),
            name: "view_image".into(),
            arguments: r#"{"image_path":"/mnt/user-data/uploads/a.png"}"#.into(),
        }];
        let mut result = msg(Role::Tool, "shown");
        result.tool_call_id = Some("v1".into());
        let mut images = msg(Role::User, "[image]");
        images.hidden = true;
        images.images = vec![ImagePart {
            media_type: "image/png".into(),
            data: b"\x89PNG-bytes".to_vec(),
        }];
        let req = ModelRequest {
            model: "claude".into(),
            system: None,
            messages: vec![msg(Role::User, "look"), assistant, result, images],
            tools: vec![],
            max_tokens: None,
        };
        let body = request_body(&req, "claude", DEFAULT_MAX_TOKENS);
        assert_eq!(
            body["messages"][2],
            json!({"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": "v1", "content": "shown"},
                {"type": "text", "text": "[image]"},
                {"type": "image", "source": {
                    "type": "base64",
                    "media_type": "image/png",
                    "data": BASE64_STANDARD.encode(b"\x89PNG-bytes"),
                }},
            ]})
        );
        assert_eq!(body["messages"].as_array().unwrap().len(), 3);
    }

    #[test]
    fn request_body_merges_roles_and_sends_tool_results_as_user_blocks() {
        let mut assistant = msg(Role::Assistant, "Let me look.");
        assistant.tool_calls = vec![
            ToolCall {
                id: "t1".into(),
                name: "read_file".into(),
                arguments: r#"{"path":"a"}"#.into(),
            },
            ToolCall {
                id: "t2".into(),
                name: "list_dir".into(),
                arguments: "not json".into(),
            },
        ];
        let mut r1 = msg(Role::Tool, "contents");
        r1.tool_call_id = Some("t1".into());
        let mut r2 = msg(Role::Tool, "no such dir");
        r2.tool_call_id = Some("t2".into());
        r2.is_error = true;
        let req = ModelRequest {
            model: "claude".into(),
            system: Some("be brief".into()),
            messages: vec![
                msg(Role::User, "hi"),
                msg(Role::User, "there"),
                msg(Role::Assistant, ""),
                assistant,
                r1,
                r2,
                msg(Role::User, "thanks"),
            ],
            tools: vec![ToolSpec {
                name: "read_file".into(),
                description: "reads".into(),
                parameters: json!({"type": "object"}),
            }],
            max_tokens: None,
        };
        let body = request_body(&req, "claude", DEFAULT_MAX_TOKENS);
        assert_eq!(body["system"], "be brief");
        assert_eq!(body["max_tokens"], 4096);
        assert_eq!(body["stream"], true);
        assert_eq!(body["tools"][0]["input_schema"], json!({"type": "object"}));
        assert_eq!(
            body["messages"],
            json!([
                {"role": "user", "content": [{"type": "text", "text": "hi"}, {"type": "text", "text": "there"}]},
                {"role": "assistant", "content": [
                    {"type": "text", "text": "Let me look."},
                    {"type": "tool_use", "id": "t1", "name": "read_file", "input": {"path": "a"}},
                    {"type": "tool_use", "id": "t2", "name": "list_dir", "input": {}},
                ]},
                {"role": "user", "content": [
                    {"type": "tool_result", "tool_use_id": "t1", "content": "contents"},
                    {"type": "tool_result", "tool_use_id": "t2", "content": "no such dir", "is_error": true},
                    {"type": "text", "text": "thanks"},
                ]},
            ])
        );
    }

    #[test]
    fn an_overloaded_error_event_is_a_retryable_server_error() {
        let mut p = AnthropicParser::new("u");
        let r = p.on_event(
            "error",
            r#"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#,
            &mut Vec::new(),
        );
        match r {
            Err(e @ ModelError::Server { status: 529, .. }) => {
                assert!(e.is_retryable());
                assert!(e.to_string().contains("Overloaded"), "{e}");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn tool_use_without_deltas_uses_its_initial_input_or_an_empty_object() {
        let mut p = AnthropicParser::new("u");
        let mut out = Vec::new();
        for d in [
            r#"{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"a","name":"f","input":{}}}"#,
            r#"{"type":"content_block_stop","index":0}"#,
            r#"{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"b","name":"g","input":{"x":1}}}"#,
            r#"{"type":"content_block_stop","index":1}"#,
        ] {
            p.on_event("message", d, &mut out).expect("valid event");
        }
        let args: Vec<_> = out
            .iter()
            .filter_map(|e| match e {
                StreamEvent::ToolCall(c) => Some(c.arguments.clone()),
                _ => None,
            })
            .collect();
        assert_eq!(args, ["{}", r#"{"x":1}"#]);
    }

    #[test]
    fn eof_before_message_stop_is_a_broken_stream() {
        let mut p = AnthropicParser::new("u");
        assert!(matches!(
            p.on_eof(&mut Vec::new()),
            Err(ModelError::StreamBroken { .. })
        ));
    }
}
