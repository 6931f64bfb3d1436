//! The middleware chain around model calls and tool calls. Each middleware is one file with
//! its thresholds as named constants and its own tests; [`Chain`] runs them in order.
//!
//! A chain is built per run, so a middleware may keep per-run state behind a `Mutex`.

use std::sync::Arc;

use crate::model::ModelRequest;
use crate::thread::{Message, ThreadState, ToolCall};
use crate::tools::{ToolMeta, ToolOutput};

/// What the loop should do after a middleware looked at a model turn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Flow {
    /// Go on.
    Continue,
    /// End the run now with this sentence for the user (e.g. the turn limit was reached).
    Stop { reason: String },
}

/// What the loop should do when the model answered without tool calls.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Finish {
    /// End the run: the answer stands.
    End,
    /// Give the model one more turn (a middleware queued a hidden note for it).
    AnotherTurn,
}

/// Facts about the run that middlewares read.
#[derive(Debug, Clone, Default)]
pub struct RunInfo {
    pub thread_id: String,
    pub run_id: String,
    /// Model turns completed so far in this run.
    pub turns: usize,
    /// The thread's own folder, where middlewares may spill large outputs; `None` when the
    /// run has no folder (then they must not write files).
    pub thread_dir: Option<std::path::PathBuf>,
}

/// One middleware. Every hook has a do-nothing default.
#[async_trait::async_trait]
pub trait Middleware: Send + Sync {
    /// Short name for logs and the run report.
    fn name(&self) -> &'static str;

    /// Before each model call: may rewrite the request (repair history, filter tools,
    /// compact). Hidden messages it adds are not stored.
    async fn before_model(&self, _request: &mut ModelRequest, _run: &RunInfo) {}

    /// After each model turn, before its tool calls run: may stop the run.
    fn after_model(&self, _reply: &Message, _run: &RunInfo) -> Flow {
        Flow::Continue
    }

    /// When a reply has no tool calls (the run would end): may ask for another turn, after
    /// queueing what the model should read in its own `before_model`.
    fn before_finish(&self, _reply: &Message, _state: &ThreadState, _run: &RunInfo) -> Finish {
        Finish::End
    }

    /// Before a tool call runs: returning an output answers the call without running it
    /// (a denial, a loop stop, an unknown tool).
    fn before_tool(&self, _call: &ToolCall, _run: &RunInfo) -> Option<ToolOutput> {
        None
    }

    /// Before a resolved call runs, after `before_tool`: may ask the user first or refuse
    /// (approvals). Calls the user already approved skip this.
    fn check_approval(&self, _call: &ToolCall, _meta: &ToolMeta, _run: &RunInfo) -> Approval {
        Approval::Granted
    }

    /// After a tool call: may rewrite its output (spill a large one, normalise an error).
    fn after_tool(&self, _call: &ToolCall, _output: &mut ToolOutput, _run: &RunInfo) {}
}

/// The ordered middlewares of one run.
#[derive(Clone, Default)]
pub struct Chain(Vec<Arc<dyn Middleware>>);

impl Chain {
    /// A chain of these middlewares, first to last.
    pub fn new(middlewares: Vec<Arc<dyn Middleware>>) -> Self {
        Self(middlewares)
    }

    /// The names in order, for logs and reports.
    pub fn names(&self) -> Vec<&'static str> {
        self.0.iter().map(|m| m.name()).collect()
    }

    /// Runs every `before_model`, first to last.
    pub async fn before_model(&self, request: &mut ModelRequest, run: &RunInfo) {
        for m in &self.0 {
            m.before_model(request, run).await;
        }
    }

    /// The first `Stop` wins.
    pub fn after_model(&self, reply: &Message, run: &RunInfo) -> Flow {
        for m in &self.0 {
            if let stop @ Flow::Stop { .. } = m.after_model(reply, run) {
                return stop;
            }
        }
        Flow::Continue
    }

    /// The first `AnotherTurn` wins.
    pub fn before_finish(&self, reply: &Message, state: &ThreadState, run: &RunInfo) -> Finish {
        for m in &self.0 {
            if m.before_finish(reply, state, run) == Finish::AnotherTurn {
                return Finish::AnotherTurn;
            }
        }
        Finish::End
    }

    /// The first middleware that answers the call wins.
    pub fn before_tool(&self, call: &ToolCall, run: &RunInfo) -> Option<ToolOutput> {
        self.0.iter().find_map(|m| m.before_tool(call, run))
    }

    /// The first middleware that does not grant the call decides.
    pub fn check_approval(&self, call: &ToolCall, meta: &ToolMeta, run: &RunInfo) -> Approval {
        self.0
            .iter()
            .map(|m| m.check_approval(call, meta, run))
            .find(|a| *a != Approval::Granted)
            .unwrap_or(Approval::Granted)
    }

    /// Every `after_tool`, first to last.
    pub fn after_tool(&self, call: &ToolCall, output: &mut ToolOutput, run: &RunInfo) {
        for m in &self.0 {
            m.after_tool(call, output, run);
        }
    }
}

// ---- The middlewares, one file each, and the default order. ----

mod approvals;
mod compaction;
mod dangling_repair;
mod loop_detection;
mod max_turns;
mod output_budget;
mod text;
mod todo_reminder;
mod tool_errors;

#[cfg(test)]
mod testkit;

pub use approvals::{Approval, ApprovalPolicy, Approvals, Permission, ASK_BY_DEFAULT};
pub use compaction::{
    estimate_tokens, CompactionNotice, ContextCompaction, Summarizer, CHARS_PER_TOKEN,
    DEFAULT_COMPACTION_SHARE, DEFAULT_KEEP_RECENT_TURNS,
};
pub use dangling_repair::{DanglingToolCallRepair, INTERRUPTED_RESULT};
pub use loop_detection::{LoopDetection, LOOP_STOP_AT, LOOP_WARN_AT, LOOP_WINDOW};
pub use max_turns::{MaxTurns, MAX_TURNS_PER_RUN};
pub use output_budget::{
    saved_result_path, valid_result_id, ToolOutputBudget, RETRIEVE_TOOL_NAME,
    TOOL_OUTPUT_BUDGET_CHARS, TOOL_RESULTS_DIR,
};
pub use todo_reminder::{TodoReminder, REMINDER_MAX_ITEMS, REMINDER_PREFIX};
pub use tool_errors::{error_output, ToolErrorNormaliser, MAX_ERROR_CHARS};

/// The chain every run gets, first to last. `Chain` runs each hook in this order (the first
/// `Stop` and the first answer to a call win), so the order is part of the behaviour:
///
/// 1. *(input sanitising: not yet built)*
/// 2. [`ToolOutputBudget`]: first of the `after_tool` rewriters, so a long result (an error
///    too) is saved whole before anything cuts it.
/// 3. [`DanglingToolCallRepair`]: first of the `before_model` rewriters, so every later one
///    (compaction above all) sees a history where each call has its result.
/// 4. *(LLM error retry with backoff: not yet built; the providers retry before the first
///    event today)*
/// 5. [`Approvals`] when given a policy: `check_approval` runs after every `before_tool`
///    (so a call loop detection stops is never put to the user) and before the tool runs.
/// 6. [`ToolErrorNormaliser`]: after the budget, so it prefixes and bounds what the model
///    will actually read.
/// 7. *(view-image injection: not yet built; `before_model`)*
/// 8. *(deferred-tool filter: not yet built; `before_model` hides unpromoted schemas and
///    `before_tool` refuses unpromoted calls)*
/// 9. *(subagent limit: not yet built; `before_tool` on `task`)*
/// 10. [`LoopDetection`]: its warning is appended last, so no earlier rewriter can cut it off.
/// 11. [`TodoReminder`]: its `before_model` adds a hidden note, so it runs before compaction
///     measures the request.
/// 12. [`MaxTurns`] with `max_turns` (use [`MAX_TURNS_PER_RUN`]).
/// 13. [`ContextCompaction`] when given: after every `before_model` that adds or removes
///     content (repair, view images, the deferred filter), so it measures the real request.
/// 14. *(title: not yet built)*
/// 15. *(clarification: not yet built; always last, so its `after_model` stop for a question
///     comes after every other check)*
pub fn default_chain(
    max_turns: usize,
    approvals: Option<Approvals>,
    compaction: Option<ContextCompaction>,
) -> Chain {
    let mut chain: Vec<Arc<dyn Middleware>> = vec![
        Arc::new(ToolOutputBudget::new()),
        Arc::new(DanglingToolCallRepair::new()),
    ];
    if let Some(approvals) = approvals {
        chain.push(Arc::new(approvals));
    }
    chain.extend([
        Arc::new(ToolErrorNormaliser::new()) as Arc<dyn Middleware>,
        Arc::new(LoopDetection::new()),
        Arc::new(TodoReminder::new()),
        Arc::new(MaxTurns::new(max_turns)),
    ]);
    if let Some(compaction) = compaction {
        chain.push(Arc::new(compaction));
    }
    Chain::new(chain)
}

#[cfg(test)]
mod default_chain_tests;
