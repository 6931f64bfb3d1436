//! Tool calls a run stopped on because the user must answer first (an approval today; a
//! clarification later). They live in the thread state, so a question still open survives
//! switching threads and restarting the app.

use serde::{Deserialize, Serialize};

use super::ToolCall;
use crate::tools::ToolSource;

/// One tool call waiting for the user.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct PendingCall {
    /// The call as the model made it (its arguments are shown to the user).
    pub call: ToolCall,
    /// The run that stopped on it.
    pub run_id: String,
    /// Where the tool comes from (an MCP server's tools show the server).
    pub source: ToolSource,
    /// The tool's group, which "always allow" may apply to.
    pub group: String,
    /// Why the user is asked ("`bash` is set to ask (group bash)").
    pub reason: String,
    /// The user's answer, once given; the run resumes when every pending call has one.
    #[serde(default)]
    pub decision: Option<ApprovalDecision>,
}

/// What the user answered to an approval.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "snake_case")]
pub enum ApprovalDecision {
    /// Run this call.
    AllowOnce,
    /// Run this call and stop asking for this tool.
    AllowAlways,
    /// Do not run it; the model reads that the user refused.
    Deny,
}

impl ApprovalDecision {
    /// Whether the call runs.
    pub fn allows(self) -> bool {
        !matches!(self, Self::Deny)
    }
}

/// What the model reads for a call the user denied.
pub fn denied_result(tool: &str) -> String {
    format!(
        "the user denied running `{tool}` this time. Do not retry the same call; ask the user \
         what they want instead, or continue without it"
    )
}

/// What the model reads for a call that was still waiting when the user wrote a new message.
pub const SUPERSEDED_RESULT: &str =
    "not run: the user wrote a new message instead of answering the approval request";
