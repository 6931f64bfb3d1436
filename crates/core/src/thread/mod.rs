//! Threads and their messages, and the port through which they are persisted.

mod message;
mod state;
mod store;

pub use message::{Deprecation, Message, MessageStatus, ResultMetadata, Role, ToolCall};
pub use state::{Promoted, Thread, ThreadState, ThreadSummary, ThreadView, TodoItem, TodoStatus};
pub use store::{StoreError, ThreadStore};
