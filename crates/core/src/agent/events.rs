use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::model::Usage;
use crate::thread::{Message, ThreadState};

/// How a run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "snake_case")]
pub enum RunOutcome {
    Completed,
    Cancelled,
    Failed,
    /// Stopped on tool calls the user must approve; answering them resumes the thread.
    WaitingForUser,
}

impl RunOutcome {
    /// Stable text form, as stored.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Completed => "completed",
            Self::Cancelled => "cancelled",
            Self::Failed => "failed",
            Self::WaitingForUser => "waiting_for_user",
        }
    }
}

/// What a run announces, in order. Every event that names a message is sent only after that
/// message (or delta) was committed to the store, so a crash never loses what was shown.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum RunEvent {
    RunStarted {
        run_id: String,
        thread_id: String,
    },
    /// A new message was stored (the user's message, the assistant's streaming message).
    MessageAdded {
        message: Message,
    },
    /// More streamed text for a streaming message.
    Delta {
        message_id: String,
        text: String,
        /// True when the text is reasoning, not answer.
        reasoning: bool,
    },
    /// A message reached its final form (complete, cancelled, error) or otherwise changed.
    MessageUpdated {
        message: Message,
    },
    Usage {
        run_id: String,
        usage: Usage,
    },
    /// Older turns were summarised to fit the model's context window; the stored messages are
    /// unchanged, only what the model is sent.
    ContextCompacted {
        run_id: String,
        summarised_messages: u32,
        tokens_before: u32,
        tokens_after: u32,
    },
    /// A tool changed the thread's state (promoted tools, artifacts); this is the new state.
    StateUpdated {
        thread_id: String,
        state: ThreadState,
    },
    /// A subagent started by a `task` call changed: started, took a step, or ended.
    Subagent {
        thread_id: String,
        /// The `task` call this subagent answers.
        call_id: String,
        update: SubagentUpdate,
    },
    RunFinished {
        run_id: String,
        thread_id: String,
        outcome: RunOutcome,
        /// The sentence to show when the run failed.
        error: Option<String>,
    },
    /// The thread got a new title (the model named it after the first exchange). Sent after
    /// `RunFinished`, once the title is stored.
    ThreadTitled {
        thread_id: String,
        title: String,
    },
}

/// Where a subagent is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "snake_case")]
pub enum SubagentStatus {
    Started,
    Running,
    Completed,
    Failed,
    Cancelled,
    TimedOut,
}

/// One change of a subagent, for its card.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct SubagentUpdate {
    pub status: SubagentStatus,
    /// The task's short description, as the lead agent gave it.
    pub description: String,
    pub subagent_type: String,
    /// The step it took (a tool it called, a turn it finished), for `running`.
    pub step: Option<String>,
    /// Tokens used so far.
    pub usage: Option<Usage>,
    /// Its final answer, once completed.
    pub result: Option<String>,
    /// Why it failed, for `failed` and `timed_out`.
    pub error: Option<String>,
}

/// Where a run's events go: a Tauri channel, stdout, a test's vector.
pub type EventSink = Arc<dyn Fn(RunEvent) + Send + Sync>;
