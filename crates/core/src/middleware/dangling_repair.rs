//! Dangling tool-call repair: every tool call in the history gets a result before the model
//! sees it again.
//!
//! A run that was cancelled, crashed or closed while its tools ran leaves assistant messages
//! whose calls have no tool message answering them. OpenAI and Anthropic both reject such a
//! history outright, so the thread would be stuck. Before each model call this middleware
//! inserts a synthetic error result for each unanswered call, right after the assistant
//! message and after the results its sibling calls did get. The repair lives in the request
//! only; the stored thread is not changed.

use std::collections::HashSet;

use tracing::debug;

use super::{Middleware, RunInfo};
use crate::model::ModelRequest;
use crate::thread::{Message, MessageStatus, Role};

/// What the model reads for a call that never got a result.
pub const INTERRUPTED_RESULT: &str =
    "Error: interrupted: this call got no result (the run was stopped or the app closed). \
     Call it again if you still need it.";

/// Gives every unanswered tool call an "interrupted" error result before each model call.
#[derive(Debug, Default, Clone, Copy)]
pub struct DanglingToolCallRepair;

impl DanglingToolCallRepair {
    pub fn new() -> Self {
        Self
    }
}

#[async_trait::async_trait]
impl Middleware for DanglingToolCallRepair {
    fn name(&self) -> &'static str {
        "dangling_tool_call_repair"
    }

    async fn before_model(&self, request: &mut ModelRequest, _run: &RunInfo) {
        let added = repair(&mut request.messages);
        if added > 0 {
            debug!(
                added,
                "answered dangling tool calls with interrupted results"
            );
        }
    }
}

/// Inserts a synthetic error result for every unanswered call; returns how many it added.
///
/// A call counts as answered by a tool message with its id between its assistant message and
/// the next assistant message. Looking no further than that keeps providers that reuse call
/// ids across turns (`call_0` every turn) from having one turn's result vouch for another's.
pub fn repair(messages: &mut Vec<Message>) -> usize {
    let mut added = 0;
    let mut i = 0;
    while i < messages.len() {
        if messages[i].role != Role::Assistant || messages[i].tool_calls.is_empty() {
            i += 1;
            continue;
        }
        let next_assistant = messages[i + 1..]
            .iter()
            .position(|m| m.role == Role::Assistant)
            .map_or(messages.len(), |p| i + 1 + p);
        let answered: HashSet<&str> = messages[i + 1..next_assistant]
            .iter()
            .filter(|m| m.role == Role::Tool)
            .filter_map(|m| m.tool_call_id.as_deref())
            .collect();
        let assistant = &messages[i];
        let synthetic: Vec<Message> = assistant
            .tool_calls
            .iter()
            .filter(|c| !answered.contains(c.id.as_str()))
            .map(|c| interrupted_result(assistant, &c.id))
            .collect();
        // After the assistant message and the results that directly follow it, so the
        // answers stay together and before any later user message.
        let insert_at = messages[i + 1..]
            .iter()
            .position(|m| m.role != Role::Tool)
            .map_or(messages.len(), |p| i + 1 + p);
        let n = synthetic.len();
        messages.splice(insert_at..insert_at, synthetic);
        added += n;
        i = insert_at + n;
    }
    added
}

fn interrupted_result(assistant: &Message, call_id: &str) -> Message {
    // Built from a plain message and then turned into a tool result, so this keeps compiling
    // (with defaults) when `Message` grows fields.
    let mut m = Message::user(&assistant.thread_id, INTERRUPTED_RESULT);
    m.run_id = assistant.run_id.clone();
    m.role = Role::Tool;
    m.tool_call_id = Some(call_id.to_string());
    m.is_error = true;
    m.status = MessageStatus::Complete;
    m.created_at = assistant.created_at;
    m
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::middleware::testkit::{assistant, call, request, result, run, shape, user};

    async fn repaired(messages: Vec<Message>) -> Vec<Message> {
        let mut req = request(messages);
        DanglingToolCallRepair.before_model(&mut req, &run()).await;
        req.messages
    }

    #[tokio::test]
    async fn a_single_unanswered_call_gets_an_interrupted_error_result() {
        let out = repaired(vec![
            user("list files"),
            assistant("", vec![call("a", "ls", "{}")]),
        ])
        .await;
        assert_eq!(shape(&out), ["user", "assistant[a]", "tool!(a)"]);
        assert!(out[2].content.contains("interrupted"));
        assert_eq!(out[2].thread_id, out[1].thread_id);
        assert_eq!(out[2].run_id, out[1].run_id);
    }

    #[tokio::test]
    async fn parallel_calls_partially_answered_get_results_after_the_existing_ones() {
        let out = repaired(vec![
            user("go"),
            assistant(
                "",
                vec![
                    call("a", "x", "{}"),
                    call("b", "y", "{}"),
                    call("c", "z", "{}"),
                ],
            ),
            result("b", "ok"),
            user("hello?"),
        ])
        .await;
        assert_eq!(
            shape(&out),
            [
                "user",
                "assistant[a,b,c]",
                "tool(b)",
                "tool!(a)",
                "tool!(c)",
                "user"
            ]
        );
        assert_eq!(out[2].content, "ok", "the real result is untouched");
    }

    #[tokio::test]
    async fn a_complete_history_is_left_exactly_as_it_was() {
        let history = vec![
            user("go"),
            assistant("", vec![call("a", "x", "{}"), call("b", "y", "{}")]),
            result("b", "ok b"),
            result("a", "ok a"),
            assistant("done", vec![]),
        ];
        let out = repaired(history.clone()).await;
        assert_eq!(out, history);
    }

    #[tokio::test]
    async fn several_turns_are_each_repaired_in_place() {
        let out = repaired(vec![
            user("go"),
            assistant("", vec![call("a", "x", "{}")]),
            user("stop, do this instead"),
            assistant("", vec![call("b", "y", "{}"), call("c", "y", "{}")]),
            result("c", "ok"),
            assistant("", vec![call("d", "z", "{}")]),
        ])
        .await;
        assert_eq!(
            shape(&out),
            [
                "user",
                "assistant[a]",
                "tool!(a)",
                "user",
                "assistant[b,c]",
                "tool(c)",
                "tool!(b)",
                "assistant[d]",
                "tool!(d)",
            ]
        );
    }

    #[tokio::test]
    async fn a_reused_call_id_is_answered_per_turn_not_by_a_later_turns_result() {
        // Some local models number calls from zero every turn.
        let out = repaired(vec![
            user("go"),
            assistant("", vec![call("0", "x", "{}")]),
            assistant("", vec![call("0", "x", "{}")]),
            result("0", "ok"),
        ])
        .await;
        assert_eq!(
            shape(&out),
            [
                "user",
                "assistant[0]",
                "tool!(0)",
                "assistant[0]",
                "tool(0)"
            ]
        );
    }

    #[test]
    fn repair_reports_how_many_results_it_added() {
        let mut messages = vec![assistant(
            "",
            vec![call("a", "x", "{}"), call("b", "x", "{}")],
        )];
        assert_eq!(repair(&mut messages), 2);
        assert_eq!(
            repair(&mut messages),
            0,
            "a repaired history needs nothing more"
        );
    }
}
