//! The port to a language model: one streaming call, provider-neutral events, typed errors.
//! Wire formats live in `workbench-providers`.

mod error;

pub use error::ModelError;

use futures::stream::BoxStream;
use serde::{Deserialize, Serialize};

use crate::thread::{Message, ToolCall};

/// A tool the model may call, as the provider needs it described.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolSpec {
    pub name: String,
    pub description: String,
    /// JSON Schema of the arguments object.
    pub parameters: serde_json::Value,
}

/// One model turn to stream.
#[derive(Debug, Clone, PartialEq)]
pub struct ModelRequest {
    pub model: String,
    pub system: Option<String>,
    /// The conversation so far, oldest first. Messages that are not `complete` (cancelled,
    /// interrupted, failed) are included with whatever text they have.
    pub messages: Vec<Message>,
    pub tools: Vec<ToolSpec>,
    pub max_tokens: Option<u32>,
}

/// Token counts a provider reports for one turn.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct Usage {
    pub input_tokens: u32,
    pub output_tokens: u32,
}

/// Why the model stopped.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "snake_case")]
pub enum FinishReason {
    Stop,
    ToolCalls,
    Length,
    ContentFilter,
    /// Anything else the provider said, verbatim.
    Other(String),
}

/// What a provider's stream yields, already translated from its wire format.
#[derive(Debug, Clone, PartialEq)]
pub enum StreamEvent {
    /// More answer text.
    TextDelta(String),
    /// More reasoning text (models that expose it).
    ReasoningDelta(String),
    /// A tool call, complete: the provider accumulated its streamed fragments.
    ToolCall(ToolCall),
    /// Token counts; may arrive more than once, the last one wins.
    Usage(Usage),
    /// The turn ended; nothing follows.
    Finish(FinishReason),
}

/// The stream of one turn. It ends after `Finish`, or with an error.
pub type ModelStream = BoxStream<'static, Result<StreamEvent, ModelError>>;

/// A language model behind one streaming call. Implementations retry what is worth retrying
/// before the first event; once events flow, a failure ends the stream with an error.
#[async_trait::async_trait]
pub trait ModelClient: Send + Sync {
    /// Starts streaming one turn.
    async fn stream(&self, request: ModelRequest) -> Result<ModelStream, ModelError>;
    /// Human-readable name of the endpoint, for messages ("OpenAI-compatible at URL").
    fn describe(&self) -> String;
}
