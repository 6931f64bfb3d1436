//! Shared helpers for the provider integration tests: the scripted server with the project's
//! fixtures, a fast retry policy, and collecting a stream into what a test asserts on.
#![allow(dead_code)] // each test binary uses a different subset

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use futures::StreamExt;
use scripted_model::{ScriptedServer, ServerOptions};
use workbench_core::config::{ProviderKind, ProviderSettings};
use workbench_core::model::{
    FinishReason, ModelClient, ModelError, ModelRequest, ModelStream, StreamEvent, Usage,
};
use workbench_core::thread::{Message, ToolCall};
use workbench_providers::{client_for_with, ClientOptions, RetryPolicy};

pub const KEY: &str = "sk-test-0123456789";

pub fn fixtures_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/model")
}

/// The scripted server on the project's fixtures, requiring [`KEY`].
pub fn server() -> ScriptedServer {
    server_in(fixtures_dir())
}

pub fn server_in(dir: impl Into<PathBuf>) -> ScriptedServer {
    ScriptedServer::start(
        dir,
        ServerOptions {
            require_key: Some(KEY.into()),
            port: 0,
        },
    )
    .expect("scripted server starts")
}

/// Retries that take milliseconds, so fault tests stay fast.
pub fn fast_retry(max_attempts: u32) -> RetryPolicy {
    RetryPolicy {
        max_attempts,
        base_delay: Duration::from_millis(1),
        max_delay: Duration::from_millis(5),
        max_retry_after: Duration::from_secs(5),
    }
}

pub fn client(kind: ProviderKind, base_url: &str, key: Option<&str>) -> Arc<dyn ModelClient> {
    client_with(kind, base_url, key, fast_retry(4))
}

pub fn client_with(
    kind: ProviderKind,
    base_url: &str,
    key: Option<&str>,
    retry: RetryPolicy,
) -> Arc<dyn ModelClient> {
    let settings = ProviderSettings {
        kind,
        base_url: base_url.into(),
        model: "hello".into(),
        context_window: None,
    };
    let options = ClientOptions {
        retry,
        connect_timeout: Duration::from_secs(2),
        ..ClientOptions::default()
    };
    client_for_with(&settings, key.map(str::to_string), options)
}

pub fn request(model: &str, user_text: &str) -> ModelRequest {
    ModelRequest {
        model: model.into(),
        system: None,
        messages: vec![Message::user("t1", user_text)],
        tools: Vec::new(),
        max_tokens: None,
    }
}

/// Everything a stream yielded, in the shape tests assert on.
#[derive(Debug, Default)]
pub struct Collected {
    pub text: String,
    pub reasoning: String,
    pub text_deltas: usize,
    pub calls: Vec<ToolCall>,
    pub usage: Option<Usage>,
    pub finish: Option<FinishReason>,
    pub error: Option<ModelError>,
    /// Events after `Finish` (there must be none).
    pub after_finish: usize,
}

pub async fn collect(mut stream: ModelStream) -> Collected {
    let mut c = Collected::default();
    let deadline = Duration::from_secs(20);
    loop {
        let item = tokio::time::timeout(deadline, stream.next())
            .await
            .expect("the stream neither ended nor yielded for 20 s");
        let Some(item) = item else { break };
        if c.finish.is_some() {
            c.after_finish += 1;
        }
        match item {
            Ok(StreamEvent::TextDelta(t)) => {
                c.text_deltas += 1;
                c.text.push_str(&t);
            }
            Ok(StreamEvent::ReasoningDelta(t)) => c.reasoning.push_str(&t),
            Ok(StreamEvent::ToolCall(call)) => c.calls.push(call),
            Ok(StreamEvent::Usage(u)) => c.usage = Some(u),
            Ok(StreamEvent::Finish(f)) => c.finish = Some(f),
            Err(e) => {
                c.error = Some(e);
                break;
            }
        }
    }
    c
}

/// Streams `request` to completion; the call itself must succeed.
pub async fn run(client: &Arc<dyn ModelClient>, request: ModelRequest) -> Collected {
    let stream = client.stream(request).await.expect("the call starts");
    collect(stream).await
}

/// Polls `cond` every 20 ms for up to `within`.
pub async fn eventually(within: Duration, mut cond: impl FnMut() -> bool) -> bool {
    let start = std::time::Instant::now();
    while start.elapsed() < within {
        if cond() {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    cond()
}

pub const HELLO: &str = "Hello! I am a scripted model. How can I help you today?";
