//! Threads and their messages, and the port through which they are persisted.

mod memory;
mod message;
mod pending;
mod state;
mod store;

pub use memory::MemoryStore;
pub use message::{Message, MessageStatus, Role, ToolCall};
pub use pending::{
    answer_result, denied_result, ApprovalDecision, Clarification, ClarificationType, PendingCall,
    SUPERSEDED_RESULT,
};
pub use state::{Promoted, Thread, ThreadState, ThreadSummary, ThreadView};
pub use store::{StoreError, ThreadStore};
