//! Small builders the middleware tests share: messages, calls and run facts.

use crate::model::ModelRequest;
use crate::thread::{Message, MessageStatus, Role, ToolCall};

use super::RunInfo;

pub const THREAD: &str = "t1";
pub const RUN: &str = "r1";

pub fn call(id: &str, name: &str, arguments: &str) -> ToolCall {
    ToolCall {
        id: id.into(),
        name: name.into(),
        arguments: arguments.into(),
    }
}

pub fn user(text: &str) -> Message {
    Message::user(THREAD, text)
}

/// A complete assistant message with this text and these calls.
pub fn assistant(text: &str, calls: Vec<ToolCall>) -> Message {
    let mut m = Message::assistant_streaming(THREAD, RUN);
    m.content = text.into();
    m.tool_calls = calls;
    m.status = MessageStatus::Complete;
    m
}

/// A tool message answering `call_id`.
pub fn result(call_id: &str, content: &str) -> Message {
    let mut m = Message::user(THREAD, content);
    m.run_id = Some(RUN.into());
    m.role = Role::Tool;
    m.tool_call_id = Some(call_id.into());
    m
}

pub fn request(messages: Vec<Message>) -> ModelRequest {
    ModelRequest {
        model: "test-model".into(),
        system: Some("You are a test.".into()),
        messages,
        tools: Vec::new(),
        max_tokens: None,
    }
}

pub fn run() -> RunInfo {
    RunInfo {
        thread_id: THREAD.into(),
        run_id: RUN.into(),
        turns: 1,
        thread_dir: None,
    }
}

/// A short description of each message: `user`, `assistant[a,b]`, `tool(a)`, `tool!(a)` for
/// an error result. Lets tests assert the shape of a history in one line.
pub fn shape(messages: &[Message]) -> Vec<String> {
    messages
        .iter()
        .map(|m| match m.role {
            Role::User => "user".to_string(),
            Role::Assistant => {
                let ids: Vec<&str> = m.tool_calls.iter().map(|c| c.id.as_str()).collect();
                format!("assistant[{}]", ids.join(","))
            }
            Role::Tool => format!(
                "tool{}({})",
                if m.is_error { "!" } else { "" },
                m.tool_call_id.as_deref().unwrap_or("?")
            ),
        })
        .collect()
}
