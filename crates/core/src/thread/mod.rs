//! Threads and their messages, and the port through which they are persisted.

mod message;
mod pending;
mod state;
mod store;

pub use message::{Message, MessageStatus, Role, ToolCall};
pub use pending::{denied_result, ApprovalDecision, PendingCall, SUPERSEDED_RESULT};
pub use state::{Promoted, Thread, ThreadState, ThreadSummary, ThreadView};
pub use store::{StoreError, ThreadStore};
