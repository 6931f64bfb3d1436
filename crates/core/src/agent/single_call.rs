//! One tool call outside a model turn, exactly as the loop would make it: the same
//! `before_tool` hooks, resolution, argument checks, approvals and `after_tool` rewriting.
//! Front-ends use it to debug a tool (`workbench tool call`).

use tokio_util::sync::CancellationToken;

use super::run::{prepare_call, Prepared};
use crate::middleware::{Chain, RunInfo};
use crate::thread::{ThreadState, ToolCall};
use crate::tools::assembly::Assembly;
use crate::tools::{ToolContext, ToolError, ToolOutput};

/// How a single call ended.
#[derive(Debug)]
pub enum SingleCall {
    /// The tool ran (or a middleware answered for it); this is what the model would read.
    Done(ToolOutput),
    /// The approvals would ask the user first; the sentence says why.
    NeedsApproval(String),
}

/// Runs `call` against `tools` with `chain`. `approved` answers an approval up front.
pub async fn call_once(
    tools: &Assembly,
    chain: &Chain,
    call: &ToolCall,
    state: &ThreadState,
    info: &RunInfo,
    approved: bool,
) -> SingleCall {
    let (tool, args) = match prepare_call(chain, tools, call, state, info, approved) {
        Prepared::Ask(pending) => return SingleCall::NeedsApproval(pending.reason),
        Prepared::Answer(output) => return SingleCall::Done(output),
        Prepared::Run(tool, args) => (tool, args),
    };
    let ctx = ToolContext {
        thread_id: info.thread_id.clone(),
        run_id: info.run_id.clone(),
        call_id: call.id.clone(),
        cancel: CancellationToken::new(),
    };
    // On its own task, so a panicking tool becomes an error result as it does in a run.
    let task = tokio::spawn(async move { tool.call(args, &ctx).await });
    let mut output = match task.await {
        Ok(Ok(out)) => out,
        Ok(Err(ToolError::Cancelled)) => ToolOutput::error("cancelled by the user"),
        Ok(Err(e)) => ToolOutput::error(e.to_string()),
        Err(_) => ToolOutput::error(super::run::TOOL_CRASHED),
    };
    chain.after_tool(call, &mut output, info);
    SingleCall::Done(output)
}
