//! Branches: a thread made from another one's messages before an edited user message, and
//! the cut that regenerating a reply makes. The source thread is never changed by a branch.

use rusqlite::{params, OptionalExtension, TransactionBehavior};
use workbench_core::thread::{StoreError, Thread, ThreadState};
use workbench_core::{new_id, now_ms};

use crate::store::{normalise_title, thread_exists, touch_stamp, SqliteStore};
use crate::titles::TitleSource;

/// One end of a branch link: a thread and the message of the *source* thread it branched at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BranchRow {
    /// The other thread (the source, or a branch of this one).
    pub thread_id: String,
    /// The user message of the source thread that was edited.
    pub message_id: String,
    /// The other thread's title.
    pub title: String,
}

impl SqliteStore {
    /// Makes a new thread holding copies (new ids, same order and content) of the messages of
    /// `source` before `message_id`, remembering where it came from. The edited message and
    /// everything after it stay only in `source`. `ThreadNotFound` for an unknown source;
    /// an error when the message is not in it or the source is still streaming.
    pub fn branch_thread(
        &self,
        source: &str,
        message_id: &str,
        title: &str,
        title_source: TitleSource,
    ) -> Result<Thread, StoreError> {
        const OP: &str = "branch a thread";
        let bad = |detail: String| StoreError::Db { op: OP, detail };
        let title = normalise_title(title);
        let mut inner = self.lock();
        let tx = inner
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(self.db(OP))?;
        if !thread_exists(&tx, source).map_err(self.db(OP))? {
            return Err(StoreError::ThreadNotFound(source.to_string()));
        }
        let seq: Option<i64> = tx
            .query_row(
                "SELECT seq FROM messages WHERE id = ?1 AND thread_id = ?2",
                params![message_id, source],
                |r| r.get(0),
            )
            .optional()
            .map_err(self.db(OP))?;
        let seq = seq.ok_or_else(|| bad(format!("message {message_id} is not in this thread")))?;
        let streaming: i64 = tx
            .query_row(
                "SELECT COUNT(*) FROM messages WHERE thread_id = ?1 AND status = 'streaming'",
                [source],
                |r| r.get(0),
            )
            .map_err(self.db(OP))?;
        if streaming > 0 {
            return Err(bad(
                "the thread is still answering; wait for it or stop it".into()
            ));
        }
        let id = new_id();
        let created_at = now_ms();
        let updated_at = touch_stamp(&tx).map_err(self.db(OP))?;
        tx.execute(
            "INSERT INTO threads (id, title, created_at, updated_at, state_json, title_source,
                                  branched_from_thread, branched_from_message)
             VALUES (?1, ?2, ?3, ?4, '{}', ?5, ?6, ?7)",
            params![
                id,
                title,
                created_at,
                updated_at,
                title_source.as_str(),
                source,
                message_id
            ],
        )
        .map_err(self.db(OP))?;
        let old_ids: Vec<String> = tx
            .prepare("SELECT id FROM messages WHERE thread_id = ?1 AND seq < ?2 ORDER BY seq")
            .and_then(|mut stmt| {
                stmt.query_map(params![source, seq], |r| r.get(0))?
                    .collect::<Result<_, _>>()
            })
            .map_err(self.db(OP))?;
        {
            let mut copy = tx
                .prepare(
                    "INSERT INTO messages (id, thread_id, seq, run_id, role, content, reasoning,
                                           tool_calls_json, tool_call_id, is_error, status, error,
                                           created_at, metadata_json, hidden)
                     SELECT ?1, ?2, seq, run_id, role, content, reasoning, tool_calls_json,
                            tool_call_id, is_error, status, error, created_at, metadata_json, hidden
                     FROM messages WHERE id = ?3",
                )
                .map_err(self.db(OP))?;
            for old in &old_ids {
                copy.execute(params![new_id(), id, old])
                    .map_err(self.db(OP))?;
            }
        }
        tx.commit().map_err(self.db(OP))?;
        Ok(Thread {
            id,
            title,
            created_at,
            updated_at,
            state: ThreadState::default(),
        })
    }

    /// The thread and message `thread_id` was branched from, if it is a branch whose source
    /// still exists.
    pub fn branched_from(&self, thread_id: &str) -> Result<Option<BranchRow>, StoreError> {
        const OP: &str = "read where a thread branched from";
        let inner = self.lock();
        inner
            .conn
            .query_row(
                "SELECT s.id, b.branched_from_message, s.title
                 FROM threads b JOIN threads s ON s.id = b.branched_from_thread
                 WHERE b.id = ?1",
                [thread_id],
                |r| {
                    Ok(BranchRow {
                        thread_id: r.get(0)?,
                        message_id: r.get(1)?,
                        title: r.get(2)?,
                    })
                },
            )
            .optional()
            .map_err(self.db(OP))
    }

    /// Threads branched from `thread_id`, oldest first, each with the message it branched at.
    pub fn branches_of(&self, thread_id: &str) -> Result<Vec<BranchRow>, StoreError> {
        const OP: &str = "list a thread's branches";
        let inner = self.lock();
        let mut stmt = inner
            .conn
            .prepare_cached(
                "SELECT id, branched_from_message, title FROM threads
                 WHERE branched_from_thread = ?1 ORDER BY created_at, id",
            )
            .map_err(self.db(OP))?;
        let rows = stmt
            .query_map([thread_id], |r| {
                Ok(BranchRow {
                    thread_id: r.get(0)?,
                    message_id: r.get(1)?,
                    title: r.get(2)?,
                })
            })
            .map_err(self.db(OP))?;
        rows.collect::<Result<_, _>>().map_err(self.db(OP))
    }

    /// Deletes every message of the thread after `message_id` (with their streamed deltas);
    /// returns how many went. For regenerating a reply: the cut is after the user message
    /// answered again, which stays.
    pub fn delete_messages_after(
        &self,
        thread_id: &str,
        message_id: &str,
    ) -> Result<usize, StoreError> {
        const OP: &str = "remove the last reply";
        let mut inner = self.lock();
        let tx = inner
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(self.db(OP))?;
        if !thread_exists(&tx, thread_id).map_err(self.db(OP))? {
            return Err(StoreError::ThreadNotFound(thread_id.to_string()));
        }
        let seq: Option<i64> = tx
            .query_row(
                "SELECT seq FROM messages WHERE id = ?1 AND thread_id = ?2",
                params![message_id, thread_id],
                |r| r.get(0),
            )
            .optional()
            .map_err(self.db(OP))?;
        let seq = seq.ok_or_else(|| StoreError::Db {
            op: OP,
            detail: format!("message {message_id} is not in this thread"),
        })?;
        let n = tx
            .execute(
                "DELETE FROM messages WHERE thread_id = ?1 AND seq > ?2",
                params![thread_id, seq],
            )
            .map_err(self.db(OP))?;
        tx.commit().map_err(self.db(OP))?;
        Ok(n)
    }
}
