//! The default chain as a whole: its order, and the middlewares working together.

use std::sync::Arc;

use super::testkit::{assistant, call, request, run, shape, user};
use super::*;
use crate::thread::Message;

struct CountOnly;

#[async_trait::async_trait]
impl Summarizer for CountOnly {
    async fn summarize(&self, messages: &[Message]) -> Result<String, String> {
        Ok(format!("{} earlier messages", messages.len()))
    }
}

#[test]
fn the_order_follows_the_architecture() {
    assert_eq!(
        default_chain(MAX_TURNS_PER_RUN, None, None).names(),
        [
            "tool_output_budget",
            "dangling_tool_call_repair",
            "tool_error_normaliser",
            "loop_detection",
            "todo_reminder",
            "max_turns",
        ]
    );
    let with = default_chain(
        3,
        Some(Approvals::new(ApprovalPolicy::default())),
        Some(ContextCompaction::new(Arc::new(CountOnly), 1_000)),
    );
    assert_eq!(
        with.names()[2],
        "approvals",
        "after repair, before the error normaliser"
    );
    assert_eq!(with.names().last(), Some(&"context_compaction"));
}

#[tokio::test]
async fn a_repaired_history_is_what_compaction_sees() {
    let chain = default_chain(
        MAX_TURNS_PER_RUN,
        None,
        Some(ContextCompaction::new(Arc::new(CountOnly), 1_000).with_keep_recent_turns(1)),
    );
    // An interrupted call, then a large user message that pushes the request over the share.
    let mut req = request(vec![
        user("go"),
        assistant("", vec![call("a", "ls", "{}")]),
        user(&"long ".repeat(1_000)),
    ]);
    chain.before_model(&mut req, &run()).await;
    // Repair answered the call, so compaction could summarise that turn.
    assert_eq!(shape(&req.messages), ["user", "user"]);
    assert!(req.messages[0].content.ends_with("3 earlier messages"));
}

#[test]
fn a_long_unprefixed_error_is_spilled_then_prefixed() {
    let chain = default_chain(MAX_TURNS_PER_RUN, None, None);
    let mut out = crate::tools::ToolOutput::error("boom ".repeat(5_000));
    chain.after_tool(&call("c", "sh", "{}"), &mut out, &run());
    assert!(out.is_error);
    assert!(out.content.starts_with("Error: boom"));
    assert!(out.content.contains("output too long"));
}

#[test]
fn a_loop_warning_survives_a_long_output() {
    let chain = default_chain(MAX_TURNS_PER_RUN, None, None);
    let c = call("c", "sh", r#"{"cmd":"cat big.log"}"#);
    let mut last = crate::tools::ToolOutput::text("");
    for _ in 0..LOOP_WARN_AT {
        assert_eq!(chain.before_tool(&c, &run()), None);
        last = crate::tools::ToolOutput::text("x".repeat(50_000));
        chain.after_tool(&c, &mut last, &run());
    }
    assert!(last.content.contains("output too long"));
    assert!(last.content.contains("Warning from Workbench"));
}

#[test]
fn the_turn_limit_stops_a_run_still_calling_tools() {
    let chain = default_chain(2, None, None);
    let reply = assistant("", vec![call("a", "ls", "{}")]);
    let at_limit = RunInfo { turns: 2, ..run() };
    assert!(matches!(
        chain.after_model(&reply, &at_limit),
        Flow::Stop { .. }
    ));
}
