use serde::{Deserialize, Serialize};

/// Who wrote a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "snake_case")]
pub enum Role {
    User,
    Assistant,
    Tool,
}

/// Where a message is in its life. Only assistant messages are ever anything but `complete`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "snake_case")]
pub enum MessageStatus {
    /// Being streamed by a live run.
    Streaming,
    /// Finished normally.
    Complete,
    /// The user stopped the run; the text so far is kept.
    Cancelled,
    /// The app stopped while streaming (killed, crashed); the text so far is kept.
    Interrupted,
    /// The model or the network failed; `error` says why and the text so far is kept.
    Error,
}

impl MessageStatus {
    /// Stable text form, as stored.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Streaming => "streaming",
            Self::Complete => "complete",
            Self::Cancelled => "cancelled",
            Self::Interrupted => "interrupted",
            Self::Error => "error",
        }
    }

    /// Parses the stored text form.
    pub fn parse(s: &str) -> Option<Self> {
        Some(match s {
            "streaming" => Self::Streaming,
            "complete" => Self::Complete,
            "cancelled" => Self::Cancelled,
            "interrupted" => Self::Interrupted,
            "error" => Self::Error,
            _ => return None,
        })
    }
}

/// A tool call the model made, with its arguments as the raw JSON text it streamed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct ToolCall {
    pub id: String,
    pub name: String,
    /// JSON text; kept raw because models sometimes send invalid JSON and that must be
    /// reported back to them, not lost.
    pub arguments: String,
}

/// A call made by a tool's old name: what to call instead and until when the old name works.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct Deprecation {
    /// The name the call used (the alias).
    pub this_tool: String,
    /// The tool that ran (the canonical name).
    pub use_instead: String,
    /// The version that removes the alias.
    pub removed_in: String,
    pub message: String,
}

/// What a tool result carries besides its text, for the UI and logs (never sent to the model).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct ResultMetadata {
    /// Set when the call named a deprecated alias.
    #[serde(
        rename = "_deprecation",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    #[cfg_attr(feature = "ts", ts(optional, rename = "_deprecation"))]
    pub deprecation: Option<Deprecation>,
}

impl ResultMetadata {
    /// Whether there is nothing in it.
    pub fn is_empty(&self) -> bool {
        self.deprecation.is_none()
    }
}

/// One message of a thread. Flat on purpose: it maps one-to-one to a row, to the UI's
/// message list and to the chat formats of the providers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct Message {
    pub id: String,
    pub thread_id: String,
    /// The run that wrote it; `None` for the user's own messages.
    pub run_id: Option<String>,
    pub role: Role,
    pub content: String,
    /// Reasoning text some models stream before their answer.
    #[serde(default)]
    pub reasoning: String,
    #[serde(default)]
    pub tool_calls: Vec<ToolCall>,
    /// For `Role::Tool`: the call this message answers.
    pub tool_call_id: Option<String>,
    /// For `Role::Tool`: whether the tool failed.
    #[serde(default)]
    pub is_error: bool,
    /// For `Role::Tool`: facts about the call besides its result (a deprecated alias).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub metadata: Option<ResultMetadata>,
    pub status: MessageStatus,
    /// A plain sentence for the user when `status` is `error`.
    pub error: Option<String>,
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub created_at: i64,
    /// Written for the model only (an internal reminder, a loop warning, an injected image):
    /// sent to the model like any other message, never shown in the conversation.
    #[serde(default)]
    pub hidden: bool,
    /// Images attached to this message for one model request (`view_image`). Filled only
    /// while a request is built; never stored, never sent to the UI.
    #[serde(skip)]
    #[cfg_attr(feature = "ts", ts(skip))]
    pub images: Vec<super::ImagePart>,
}

impl Message {
    /// A complete user message.
    pub fn user(thread_id: &str, content: impl Into<String>) -> Self {
        Self::new(
            thread_id,
            None,
            Role::User,
            content.into(),
            MessageStatus::Complete,
        )
    }

    /// An empty assistant message about to be streamed by `run_id`.
    pub fn assistant_streaming(thread_id: &str, run_id: &str) -> Self {
        Self::new(
            thread_id,
            Some(run_id.to_string()),
            Role::Assistant,
            String::new(),
            MessageStatus::Streaming,
        )
    }

    /// A complete tool result answering `call_id`.
    pub fn tool_result(
        thread_id: &str,
        run_id: &str,
        call_id: &str,
        content: impl Into<String>,
        is_error: bool,
    ) -> Self {
        let mut m = Self::new(
            thread_id,
            Some(run_id.to_string()),
            Role::Tool,
            content.into(),
            MessageStatus::Complete,
        );
        m.tool_call_id = Some(call_id.to_string());
        m.is_error = is_error;
        m
    }

    fn new(
        thread_id: &str,
        run_id: Option<String>,
        role: Role,
        content: String,
        status: MessageStatus,
    ) -> Self {
        Self {
            id: crate::new_id(),
            thread_id: thread_id.to_string(),
            run_id,
            role,
            content,
            reasoning: String::new(),
            tool_calls: Vec::new(),
            tool_call_id: None,
            is_error: false,
            metadata: None,
            status,
            error: None,
            created_at: crate::now_ms(),
            hidden: false,
            images: Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_round_trips_through_its_stored_form() {
        for s in [
            MessageStatus::Streaming,
            MessageStatus::Complete,
            MessageStatus::Cancelled,
            MessageStatus::Interrupted,
            MessageStatus::Error,
        ] {
            assert_eq!(MessageStatus::parse(s.as_str()), Some(s));
        }
        assert_eq!(MessageStatus::parse("bogus"), None);
    }

    #[test]
    fn message_serialises_with_snake_case_role_and_status() {
        let m = Message::user("t1", "hi");
        let v = serde_json::to_value(&m).unwrap();
        assert_eq!(v["role"], "user");
        assert_eq!(v["status"], "complete");
        assert_eq!(v["thread_id"], "t1");
        assert_eq!(v["hidden"], false);
    }

    #[test]
    fn a_message_without_the_hidden_field_reads_as_shown() {
        let mut v = serde_json::to_value(Message::user("t1", "hi")).unwrap();
        v.as_object_mut().unwrap().remove("hidden");
        let m: Message = serde_json::from_value(v).unwrap();
        assert!(!m.hidden);
    }
}
