use serde::{Deserialize, Serialize};

/// State a thread carries besides its messages. Later slices add artifacts, promoted tools
/// and viewed images here, each merged by its own reducer.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct ThreadState {}

/// A conversation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct Thread {
    pub id: String,
    pub title: String,
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub created_at: i64,
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub updated_at: i64,
    #[serde(default)]
    pub state: ThreadState,
}

/// A thread as the sidebar lists it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct ThreadSummary {
    pub id: String,
    pub title: String,
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub updated_at: i64,
    /// Whether a run of this thread is streaming right now.
    pub running: bool,
}

/// A thread with its messages, as the UI opens it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct ThreadView {
    pub thread: Thread,
    pub messages: Vec<super::Message>,
    /// Whether a run of this thread is streaming right now.
    pub running: bool,
}
