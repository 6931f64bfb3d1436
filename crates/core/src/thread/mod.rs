//! Threads and their messages, and the port through which they are persisted.

mod message;
mod state;
mod store;

pub use message::{Message, MessageStatus, Role, ToolCall};
pub use state::{Promoted, Thread, ThreadSearchHit, ThreadState, ThreadSummary, ThreadView};
pub use store::{StoreError, ThreadStore};
