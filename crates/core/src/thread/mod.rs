//! Threads and their messages, and the port through which they are persisted.

mod images;
mod memory;
mod message;
mod pending;
mod state;
mod store;

pub use images::{ImagePart, ViewedImage, MAX_VIEWED_IMAGES, VIEWED_IMAGES_DIR};
pub use memory::InMemoryStore;
pub use message::{Deprecation, Message, MessageStatus, ResultMetadata, Role, ToolCall};
pub use pending::{
    answer_result, denied_result, ApprovalDecision, Clarification, ClarificationType, PendingCall,
    SUPERSEDED_RESULT,
};
pub use state::{
    BranchLink, Promoted, Thread, ThreadSearchHit, ThreadState, ThreadSummary, ThreadView,
    TodoItem, TodoStatus,
};
pub use store::{StoreError, ThreadStore};
