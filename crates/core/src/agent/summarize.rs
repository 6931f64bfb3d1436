use std::sync::Arc;

use futures::StreamExt;

use crate::middleware::Summarizer;
use crate::model::{ModelClient, ModelRequest, StreamEvent};
use crate::thread::{Message, Role};

/// What the model is told when it summarises older turns for compaction.
const SUMMARY_INSTRUCTIONS: &str = "You compress conversations. Summarise the conversation \
below for yourself, to continue the work later: the user's goals and constraints, decisions \
made, facts learned (names, paths, numbers), tool results that still matter, and what is left \
to do. Be concise; use short bullet points; do not invent anything.";

/// Longest transcript excerpt of one message sent for summarising, in characters; the summary
/// needs the gist, not whole tool outputs.
const MAX_CHARS_PER_MESSAGE: usize = 4_000;

/// Summarises older turns with the run's own model (one non-tool call).
pub struct ModelSummarizer {
    model: Arc<dyn ModelClient>,
    model_name: String,
}

impl ModelSummarizer {
    /// A summariser calling `model_name` through `model`.
    pub fn new(model: Arc<dyn ModelClient>, model_name: impl Into<String>) -> Self {
        Self {
            model,
            model_name: model_name.into(),
        }
    }
}

#[async_trait::async_trait]
impl Summarizer for ModelSummarizer {
    async fn summarize(&self, messages: &[Message]) -> Result<String, String> {
        let request = ModelRequest {
            model: self.model_name.clone(),
            system: Some(SUMMARY_INSTRUCTIONS.into()),
            messages: vec![Message::user("", transcript(messages))],
            tools: Vec::new(),
            max_tokens: None,
        };
        let mut stream = self
            .model
            .stream(request)
            .await
            .map_err(|e| e.to_string())?;
        let mut summary = String::new();
        while let Some(event) = stream.next().await {
            match event.map_err(|e| e.to_string())? {
                StreamEvent::TextDelta(t) => summary.push_str(&t),
                StreamEvent::Finish(_) => break,
                _ => {}
            }
        }
        if summary.trim().is_empty() {
            return Err("the model returned an empty summary".into());
        }
        Ok(summary)
    }
}

/// The messages as plain text, one block per message, long ones cut in the middle.
fn transcript(messages: &[Message]) -> String {
    let mut out = String::new();
    for m in messages {
        let who = match m.role {
            Role::User => "User",
            Role::Assistant => "Assistant",
            Role::Tool => "Tool result",
        };
        out.push_str(&format!("## {who}\n{}\n", cut(&m.content)));
        for call in &m.tool_calls {
            out.push_str(&format!(
                "(called {} with {})\n",
                call.name,
                cut(&call.arguments)
            ));
        }
        out.push('\n');
    }
    out
}

fn cut(text: &str) -> String {
    if text.chars().count() <= MAX_CHARS_PER_MESSAGE {
        return text.to_string();
    }
    let half = MAX_CHARS_PER_MESSAGE / 2;
    let head: String = text.chars().take(half).collect();
    let tail: String = text
        .chars()
        .rev()
        .take(half)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    format!("{head}\n[...]\n{tail}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::thread::ToolCall;

    #[test]
    fn the_transcript_names_roles_and_tool_calls_and_cuts_long_text() {
        let mut a = Message::assistant_streaming("t", "r");
        a.tool_calls.push(ToolCall {
            id: "c".into(),
            name: "grep".into(),
            arguments: "{\"q\":\"x\"}".into(),
        });
        let long = "y".repeat(MAX_CHARS_PER_MESSAGE * 2);
        let text = transcript(&[Message::user("t", "find x"), a, Message::user("t", long)]);
        assert!(text.contains("## User\nfind x"));
        assert!(text.contains("(called grep with {\"q\":\"x\"})"));
        assert!(text.contains("[...]"));
        assert!(text.len() < MAX_CHARS_PER_MESSAGE * 2);
    }
}
