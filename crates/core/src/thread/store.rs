use super::{Message, Thread, ThreadState, ThreadSummary};

/// Why the store could not do what was asked.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("thread {0} does not exist")]
    ThreadNotFound(String),
    #[error("message {0} does not exist")]
    MessageNotFound(String),
    #[error("the database at {path} could not be opened: {detail}")]
    Open { path: String, detail: String },
    #[error("database error while trying to {op}: {detail}")]
    Db { op: &'static str, detail: String },
}

/// Persistence of threads and messages. Implemented over SQLite by `workbench-store`.
///
/// Calls are synchronous and quick (local SQLite); the run loop calls them off the async
/// threads. The contract that matters: every call has committed when it returns, so the
/// caller may announce what it wrote.
pub trait ThreadStore: Send + Sync + 'static {
    /// Creates a thread with the given title.
    fn create_thread(&self, title: &str) -> Result<Thread, StoreError>;
    /// Loads one thread.
    fn get_thread(&self, thread_id: &str) -> Result<Thread, StoreError>;
    /// All threads, most recently updated first. `running` is false here; the app fills it.
    fn list_threads(&self) -> Result<Vec<ThreadSummary>, StoreError>;
    /// Renames a thread.
    fn rename_thread(&self, thread_id: &str, title: &str) -> Result<(), StoreError>;
    /// Replaces the thread's state (after a reducer merged a tool's update).
    fn save_thread_state(&self, thread_id: &str, state: &ThreadState) -> Result<(), StoreError>;
    /// Deletes a thread and everything in it.
    fn delete_thread(&self, thread_id: &str) -> Result<(), StoreError>;

    /// Records that `run_id` started on the thread, owned by this process.
    fn begin_run(&self, thread_id: &str, run_id: &str) -> Result<(), StoreError>;
    /// Records how the run ended (`completed`, `cancelled`, `failed`).
    fn end_run(&self, run_id: &str, status: &str) -> Result<(), StoreError>;

    /// Inserts a message (any role, any status) and bumps the thread's `updated_at`.
    fn append_message(&self, message: &Message) -> Result<(), StoreError>;
    /// Appends streamed text to a streaming message. Cheap: one small insert, no rewrite.
    /// `reasoning` selects the reasoning text instead of the content.
    fn append_delta(&self, message_id: &str, text: &str, reasoning: bool)
        -> Result<(), StoreError>;
    /// Writes a message's final form (content, tool calls, status, error), replacing deltas.
    fn finish_message(&self, message: &Message) -> Result<(), StoreError>;
    /// The thread's messages in order, with streamed-but-unfinished text folded in.
    fn load_messages(&self, thread_id: &str) -> Result<Vec<Message>, StoreError>;
}
