//! The middleware chain around model calls and tool calls. Each middleware is one file with
//! its thresholds as named constants and its own tests; [`Chain`] runs them in order.
//!
//! A chain is built per run, so a middleware may keep per-run state behind a `Mutex`.

use std::sync::Arc;

use crate::model::ModelRequest;
use crate::thread::{Message, ToolCall};
use crate::tools::ToolOutput;

/// What the loop should do after a middleware looked at a model turn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Flow {
    /// Go on.
    Continue,
    /// End the run now with this sentence for the user (e.g. the turn limit was reached).
    Stop { reason: String },
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

    /// Before a tool call runs: returning an output answers the call without running it
    /// (a denial, a loop stop, an unknown tool).
    fn before_tool(&self, _call: &ToolCall, _run: &RunInfo) -> Option<ToolOutput> {
        None
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

    /// The first middleware that answers the call wins.
    pub fn before_tool(&self, call: &ToolCall, run: &RunInfo) -> Option<ToolOutput> {
        self.0.iter().find_map(|m| m.before_tool(call, run))
    }

    /// Every `after_tool`, first to last.
    pub fn after_tool(&self, call: &ToolCall, output: &mut ToolOutput, run: &RunInfo) {
        for m in &self.0 {
            m.after_tool(call, output, run);
        }
    }
}
