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
    /// The user's answer to an approval, once given; the run resumes when every pending call
    /// has its answer.
    #[serde(default)]
    pub decision: Option<ApprovalDecision>,
    /// Set when the call is the agent's question to the user (ask_clarification) rather than
    /// an approval.
    #[serde(default)]
    pub question: Option<Clarification>,
    /// The user's answer to the question; it becomes the call's result.
    #[serde(default)]
    pub answer: Option<String>,
}

impl PendingCall {
    /// Whether the user has answered (decided an approval, or answered a question).
    pub fn is_answered(&self) -> bool {
        match &self.question {
            Some(_) => self.answer.is_some(),
            None => self.decision.is_some(),
        }
    }
}

/// A question the agent asks the user (ask_clarification).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct Clarification {
    pub question: String,
    pub clarification_type: ClarificationType,
    /// Why the agent asks, when it said.
    #[serde(default)]
    pub context: Option<String>,
    /// Choices to offer as buttons; the user may always answer in their own words.
    #[serde(default)]
    pub options: Vec<String>,
}

/// What kind of question it is; the UI labels the card with it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "snake_case")]
pub enum ClarificationType {
    MissingInfo,
    AmbiguousRequirement,
    ApproachChoice,
    RiskConfirmation,
    Suggestion,
}

/// What the model reads as the result of its question.
pub fn answer_result(answer: &str) -> String {
    format!("The user answered: {answer}")
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
