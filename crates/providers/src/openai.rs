//! OpenAI Chat Completions, streamed: the request body, and the parser for its SSE chunks.
//! Local servers (Ollama, llama.cpp, LM Studio, vLLM) speak dialects of it, so the parser reads
//! defensively: optional fields may be missing or null, tool-call `index` may be absent, and
//! arguments may come whole instead of in fragments.

use base64::prelude::{Engine as _, BASE64_STANDARD};
use serde::Deserialize;
use serde_json::{json, Value};
use workbench_core::model::{
    FinishReason, ModelClient, ModelError, ModelRequest, ModelStream, StreamEvent, Usage,
};
use workbench_core::thread::{Message, Role, ToolCall};

use crate::http_errors::CallSite;
use crate::sse::{self, StreamCall, WireParser};
use crate::{endpoint, ClientOptions, Endpoint};

/// A client for an OpenAI-compatible Chat Completions endpoint.
#[derive(Debug, Clone)]
pub struct OpenAiClient {
    ep: Endpoint,
}

impl OpenAiClient {
    /// A client for `base_url` (e.g. `http://localhost:11434/v1`). `default_model` is used when
    /// a request names none. Fails only if the HTTP client cannot be set up (TLS).
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
impl ModelClient for OpenAiClient {
    async fn stream(&self, request: ModelRequest) -> Result<ModelStream, ModelError> {
        let model = self.ep.model_for(&request);
        let body = request_body(&request, &model);
        let url = endpoint(&self.ep.base_url, "chat/completions");
        sse::open(StreamCall {
            site: CallSite {
                base_url: &self.ep.base_url,
                model: &model,
            },
            policy: &self.ep.options.retry,
            build: || {
                let mut rb = self.ep.http.post(&url).json(&body);
                if let Some(key) = &self.ep.key {
                    rb = rb.bearer_auth(key.expose());
                }
                rb
            },
            make_parser: || OpenAiParser::new(&self.ep.base_url),
        })
        .await
    }

    fn describe(&self) -> String {
        format!("OpenAI-compatible at {}", self.ep.base_url)
    }
}

/// The Chat Completions request body for `request`.
pub(crate) fn request_body(request: &ModelRequest, model: &str) -> Value {
    let mut messages = Vec::with_capacity(request.messages.len() + 1);
    if let Some(system) = request.system.as_deref().filter(|s| !s.is_empty()) {
        messages.push(json!({"role": "system", "content": system}));
    }
    for m in &request.messages {
        match m.role {
            Role::User if !m.images.is_empty() => messages.push(json!({
                "role": "user",
                "content": user_parts_with_images(m),
            })),
            Role::User => messages.push(json!({"role": "user", "content": m.content})),
            Role::Assistant => {
                let mut msg = json!({"role": "assistant", "content": m.content});
                if !m.tool_calls.is_empty() {
                    if m.content.is_empty() {
                        // With tool calls and no text, OpenAI expects null, not "".
                        msg["content"] = Value::Null;
                    }
                    msg["tool_calls"] = m
                        .tool_calls
                        .iter()
                        .map(|c| {
                            json!({
                                "id": c.id,
                                "type": "function",
                                "function": {"name": c.name, "arguments": c.arguments},
                            })
                        })
                        .collect();
                }
                messages.push(msg);
            }
            Role::Tool => messages.push(json!({
                "role": "tool",
                "tool_call_id": m.tool_call_id.as_deref().unwrap_or_default(),
                "content": m.content,
            })),
        }
    }
    let mut body = json!({
        "model": model,
        "messages": messages,
        "stream": true,
        "stream_options": {"include_usage": true},
    });
    if !request.tools.is_empty() {
        body["tools"] = request
            .tools
            .iter()
            .map(|t| {
                json!({
                    "type": "function",
                    "function": {
                        "name": t.name,
                        "description": t.description,
                        "parameters": t.parameters,
                    },
                })
            })
            .collect();
    }
    if let Some(max) = request.max_tokens {
        // `max_tokens`, not `max_completion_tokens`: every local server understands it.
        body["max_tokens"] = json!(max);
    }
    body
}

/// A user message with images as content parts: the text, then each image as a base64
/// `data:` URL (the form every OpenAI-compatible server that takes images accepts).
fn user_parts_with_images(m: &Message) -> Value {
    let mut parts = Vec::with_capacity(m.images.len() + 1);
    if !m.content.is_empty() {
        parts.push(json!({"type": "text", "text": m.content}));
    }
    for image in &m.images {
        let url = format!(
            "data:{};base64,{}",
            image.media_type,
            BASE64_STANDARD.encode(&image.data)
        );
        parts.push(json!({"type": "image_url", "image_url": {"url": url}}));
    }
    Value::Array(parts)
}

#[derive(Debug, Deserialize)]
struct Chunk {
    choices: Option<Vec<Choice>>,
    usage: Option<WireUsage>,
    error: Option<Value>,
}

#[derive(Debug, Deserialize)]
struct Choice {
    delta: Option<Delta>,
    finish_reason: Option<String>,
}

#[derive(Debug, Deserialize)]
struct Delta {
    content: Option<String>,
    /// DeepSeek, vLLM, llama.cpp.
    reasoning_content: Option<String>,
    /// OpenRouter, Ollama, LM Studio.
    reasoning: Option<String>,
    tool_calls: Option<Vec<ToolCallDelta>>,
}

#[derive(Debug, Deserialize)]
struct ToolCallDelta {
    index: Option<u64>,
    id: Option<String>,
    function: Option<FunctionDelta>,
}

#[derive(Debug, Deserialize)]
struct FunctionDelta {
    name: Option<String>,
    /// A string fragment normally; some servers send the arguments as a JSON object.
    arguments: Option<Value>,
}

#[derive(Debug, Deserialize)]
struct WireUsage {
    prompt_tokens: Option<u64>,
    completion_tokens: Option<u64>,
}

#[derive(Debug, Default)]
struct PartialCall {
    index: Option<u64>,
    id: String,
    name: String,
    arguments: String,
}

/// Parses Chat Completions chunks, accumulating tool-call fragments until the choice finishes.
pub(crate) struct OpenAiParser {
    url: String,
    calls: Vec<PartialCall>,
    calls_emitted: usize,
    finish: Option<FinishReason>,
    done: bool,
}

impl OpenAiParser {
    pub(crate) fn new(url: &str) -> Self {
        Self {
            url: url.to_string(),
            calls: Vec::new(),
            calls_emitted: 0,
            finish: None,
            done: false,
        }
    }

    fn add_fragment(&mut self, f: ToolCallDelta) {
        let id = f.id.filter(|s| !s.is_empty());
        let existing = match f.index {
            // The latest call at this index, unless the fragment carries a different id: some
            // servers reuse index 0 for every call.
            Some(ix) => self
                .calls
                .iter()
                .rposition(|c| c.index == Some(ix))
                .filter(|&p| {
                    let have = &self.calls[p].id;
                    id.as_ref().is_none_or(|id| have.is_empty() || have == id)
                }),
            // No index (Ollama): a new id starts a new call; no id continues the last one.
            None => match (&id, self.calls.last()) {
                (Some(id), Some(last)) if &last.id == id => Some(self.calls.len() - 1),
                (Some(_), _) => None,
                (None, Some(_)) => Some(self.calls.len() - 1),
                (None, None) => None,
            },
        };
        // A call that was already emitted (finish_reason came first) is never extended.
        let p = match existing.filter(|&p| p >= self.calls_emitted) {
            Some(p) => p,
            None => {
                self.calls.push(PartialCall {
                    index: f.index,
                    ..PartialCall::default()
                });
                self.calls.len() - 1
            }
        };
        let call = &mut self.calls[p];
        if let Some(id) = id {
            if call.id.is_empty() {
                call.id = id;
            }
        }
        if let Some(func) = f.function {
            if let Some(name) = func.name.filter(|n| !n.is_empty()) {
                // The name comes whole in the first fragment; servers that repeat it must not
                // make it "read_fileread_file".
                if call.name.is_empty() {
                    call.name = name;
                }
            }
            match func.arguments {
                Some(Value::String(s)) => call.arguments.push_str(&s),
                Some(Value::Null) | None => {}
                Some(other) => call.arguments = other.to_string(),
            }
        }
    }

    fn flush_calls(&mut self, out: &mut Vec<StreamEvent>) {
        for (n, call) in self.calls.iter().enumerate().skip(self.calls_emitted) {
            let id = if call.id.is_empty() {
                format!("call_{n}")
            } else {
                call.id.clone()
            };
            let arguments = if call.arguments.trim().is_empty() {
                "{}".to_string()
            } else {
                call.arguments.clone()
            };
            out.push(StreamEvent::ToolCall(ToolCall {
                id,
                name: call.name.clone(),
                arguments,
            }));
        }
        self.calls_emitted = self.calls.len();
    }

    fn finish(&mut self, out: &mut Vec<StreamEvent>) {
        self.flush_calls(out);
        let reason = match self.finish.take() {
            // Ollama says "stop" after tool calls; the caller needs to know tools were called.
            Some(FinishReason::Stop) | None if self.calls_emitted > 0 => FinishReason::ToolCalls,
            Some(r) => r,
            None => FinishReason::Stop,
        };
        out.push(StreamEvent::Finish(reason));
        self.done = true;
    }
}

fn finish_reason(s: &str) -> FinishReason {
    match s {
        "stop" | "eos" => FinishReason::Stop,
        "length" => FinishReason::Length,
        "tool_calls" | "function_call" => FinishReason::ToolCalls,
        "content_filter" => FinishReason::ContentFilter,
        other => FinishReason::Other(other.to_string()),
    }
}

fn clamp(n: Option<u64>) -> u32 {
    n.map(|n| u32::try_from(n).unwrap_or(u32::MAX)).unwrap_or(0)
}

impl WireParser for OpenAiParser {
    fn on_event(
        &mut self,
        _event: &str,
        data: &str,
        out: &mut Vec<StreamEvent>,
    ) -> Result<(), ModelError> {
        let data = data.trim();
        if data == "[DONE]" {
            self.finish(out);
            return Ok(());
        }
        if data.is_empty() {
            return Ok(());
        }
        let chunk: Chunk = serde_json::from_str(data).map_err(|e| ModelError::Protocol {
            url: self.url.clone(),
            detail: format!("a stream chunk is not valid JSON ({e})"),
        })?;
        if let Some(err) = chunk.error {
            let detail = err
                .get("message")
                .and_then(Value::as_str)
                .map(str::to_string)
                .unwrap_or_else(|| err.to_string());
            return Err(ModelError::StreamBroken {
                url: self.url.clone(),
                detail: format!("the server reported an error: {detail}"),
            });
        }
        for choice in chunk.choices.unwrap_or_default() {
            if let Some(delta) = choice.delta {
                for reasoning in [delta.reasoning_content, delta.reasoning]
                    .into_iter()
                    .flatten()
                {
                    if !reasoning.is_empty() {
                        out.push(StreamEvent::ReasoningDelta(reasoning));
                    }
                }
                if let Some(text) = delta.content.filter(|t| !t.is_empty()) {
                    out.push(StreamEvent::TextDelta(text));
                }
                for fragment in delta.tool_calls.unwrap_or_default() {
                    self.add_fragment(fragment);
                }
            }
            if let Some(reason) = choice.finish_reason.filter(|r| !r.is_empty()) {
                self.finish = Some(finish_reason(&reason));
                // The calls are complete now; emit them before the usage chunk that follows.
                self.flush_calls(out);
            }
        }
        if let Some(u) = chunk.usage {
            out.push(StreamEvent::Usage(Usage {
                input_tokens: clamp(u.prompt_tokens),
                output_tokens: clamp(u.completion_tokens),
            }));
        }
        Ok(())
    }

    fn is_done(&self) -> bool {
        self.done
    }

    fn on_eof(&mut self, out: &mut Vec<StreamEvent>) -> Result<(), ModelError> {
        if self.done {
            return Ok(());
        }
        if self.finish.is_some() {
            // Some servers end after finish_reason without `[DONE]`; the reply is complete.
            self.finish(out);
            return Ok(());
        }
        Err(ModelError::StreamBroken {
            url: self.url.clone(),
            detail: "the connection closed before the reply finished".into(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use workbench_core::model::ToolSpec;
    use workbench_core::thread::Message;

    fn feed(p: &mut OpenAiParser, data: &[&str]) -> Vec<StreamEvent> {
        let mut out = Vec::new();
        for d in data {
            p.on_event("message", d, &mut out).expect("valid chunk");
        }
        out
    }

    fn calls(events: &[StreamEvent]) -> Vec<ToolCall> {
        events
            .iter()
            .filter_map(|e| match e {
                StreamEvent::ToolCall(c) => Some(c.clone()),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn interleaved_fragments_are_accumulated_per_index() {
        let mut p = OpenAiParser::new("u");
        let out = feed(
            &mut p,
            &[
                r#"{"choices":[{"delta":{"tool_calls":[{"index":0,"id":"a","function":{"name":"f","arguments":"{\"x\""}}]}}]}"#,
                r#"{"choices":[{"delta":{"tool_calls":[{"index":1,"id":"b","function":{"name":"g","arguments":""}}]}}]}"#,
                r#"{"choices":[{"delta":{"tool_calls":[{"index":0,"function":{"arguments":":1}"}}]}}]}"#,
                r#"{"choices":[{"delta":{"tool_calls":[{"index":1,"function":{"arguments":"{}"}}]}}]}"#,
                r#"{"choices":[{"delta":{},"finish_reason":"tool_calls"}]}"#,
                "[DONE]",
            ],
        );
        let c = calls(&out);
        assert_eq!(c.len(), 2);
        assert_eq!(
            (
                c[0].id.as_str(),
                c[0].name.as_str(),
                c[0].arguments.as_str()
            ),
            ("a", "f", r#"{"x":1}"#)
        );
        assert_eq!(
            (
                c[1].id.as_str(),
                c[1].name.as_str(),
                c[1].arguments.as_str()
            ),
            ("b", "g", "{}")
        );
        assert_eq!(
            out.last(),
            Some(&StreamEvent::Finish(FinishReason::ToolCalls))
        );
    }

    #[test]
    fn a_new_id_at_a_reused_index_starts_a_new_call() {
        let mut p = OpenAiParser::new("u");
        let out = feed(
            &mut p,
            &[
                r#"{"choices":[{"delta":{"tool_calls":[{"index":0,"id":"a","function":{"name":"f","arguments":"{}"}}]}}]}"#,
                r#"{"choices":[{"delta":{"tool_calls":[{"index":0,"id":"b","function":{"name":"g","arguments":"{}"}}]}}]}"#,
                "[DONE]",
            ],
        );
        let names: Vec<_> = calls(&out).into_iter().map(|c| c.name).collect();
        assert_eq!(names, ["f", "g"]);
    }

    #[test]
    fn arguments_sent_as_an_object_are_kept_as_json_text() {
        let mut p = OpenAiParser::new("u");
        let out = feed(
            &mut p,
            &[
                r#"{"choices":[{"delta":{"tool_calls":[{"function":{"name":"f","arguments":{"x":1}}}]},"finish_reason":"tool_calls"}]}"#,
                "[DONE]",
            ],
        );
        let c = calls(&out);
        assert_eq!(c[0].arguments, r#"{"x":1}"#);
        assert_eq!(c[0].id, "call_0", "a missing id is made up, never empty");
    }

    #[test]
    fn eof_without_finish_is_a_broken_stream_but_after_finish_it_is_complete() {
        let mut p = OpenAiParser::new("u");
        feed(&mut p, &[r#"{"choices":[{"delta":{"content":"Hi"}}]}"#]);
        assert!(matches!(
            p.on_eof(&mut Vec::new()),
            Err(ModelError::StreamBroken { .. })
        ));

        let mut p = OpenAiParser::new("u");
        feed(
            &mut p,
            &[r#"{"choices":[{"delta":{"content":"Hi"},"finish_reason":"length"}]}"#],
        );
        let mut out = Vec::new();
        p.on_eof(&mut out).expect("finished reply");
        assert_eq!(out, vec![StreamEvent::Finish(FinishReason::Length)]);
    }

    #[test]
    fn an_error_chunk_ends_the_stream_with_its_message() {
        let mut p = OpenAiParser::new("u");
        let r = p.on_event(
            "message",
            r#"{"error":{"message":"upstream died"}}"#,
            &mut Vec::new(),
        );
        match r {
            Err(ModelError::StreamBroken { detail, .. }) => {
                assert!(detail.contains("upstream died"))
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn images_become_data_url_parts_after_the_text() {
        let mut with_images = Message::user("t", "[image]");
        with_images.hidden = true;
        with_images.images = vec![
            workbench_core::thread::ImagePart {
                media_type: "image/png".into(),
                data: b"png-bytes".to_vec(),
            },
            workbench_core::thread::ImagePart {
                media_type: "image/jpeg".into(),
                data: b"jpeg-bytes".to_vec(),
            },
        ];
        let req = ModelRequest {
            model: "m".into(),
            system: None,
            messages: vec![Message::user("t", "plain"), with_images],
            tools: vec![],
            max_tokens: None,
        };
        let body = request_body(&req, "m");
        assert_eq!(
            body["messages"][0],
            json!({"role": "user", "content": "plain"})
        );
        let url =
            |data: &[u8], mt: &str| format!("data:{mt};base64,{}", BASE64_STANDARD.encode(data));
        assert_eq!(
            body["messages"][1],
            json!({"role": "user", "content": [
                {"type": "text", "text": "[image]"},
                {"type": "image_url", "image_url": {"url": url(b"png-bytes", "image/png")}},
                {"type": "image_url", "image_url": {"url": url(b"jpeg-bytes", "image/jpeg")}},
            ]})
        );
    }

    #[test]
    fn request_body_translates_tool_calls_and_results() {
        let mut assistant = Message::assistant_streaming("t", "r");
        assistant.tool_calls = vec![ToolCall {
            id: "c1".into(),
            name: "read_file".into(),
            arguments: r#"{"path":"a"}"#.into(),
        }];
        let mut tool = Message::user("t", "file text");
        tool.role = Role::Tool;
        tool.tool_call_id = Some("c1".into());
        let req = ModelRequest {
            model: "m".into(),
            system: Some("be brief".into()),
            messages: vec![Message::user("t", "hi"), assistant, tool],
            tools: vec![ToolSpec {
                name: "read_file".into(),
                description: "reads".into(),
                parameters: json!({"type": "object"}),
            }],
            max_tokens: Some(100),
        };
        let body = request_body(&req, "m");
        assert_eq!(
            body["messages"],
            json!([
                {"role": "system", "content": "be brief"},
                {"role": "user", "content": "hi"},
                {"role": "assistant", "content": null, "tool_calls": [
                    {"id": "c1", "type": "function", "function": {"name": "read_file", "arguments": "{\"path\":\"a\"}"}}
                ]},
                {"role": "tool", "tool_call_id": "c1", "content": "file text"},
            ])
        );
        assert_eq!(body["tools"][0]["function"]["name"], "read_file");
        assert_eq!(body["stream"], true);
        assert_eq!(body["stream_options"]["include_usage"], true);
        assert_eq!(body["max_tokens"], 100);
    }
}
