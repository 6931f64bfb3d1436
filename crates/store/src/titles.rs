//! Where a thread's title came from. Automatic titles (the first message's words, then the
//! model's) may replace each other, never a title the user typed.

use rusqlite::{params, OptionalExtension};
use workbench_core::thread::StoreError;

use crate::store::{normalise_title, SqliteStore};

/// Who named a thread; stored as text in `threads.title_source`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TitleSource {
    /// The default title of a new thread.
    Default,
    /// The first words of the first message, until the model names the thread.
    FirstMessage,
    /// A short title the model gave after the first exchange.
    Model,
    /// The user typed it (a rename, or a title given at creation).
    User,
    /// Named before sources were stored; left alone like a user's title.
    Kept,
}

impl TitleSource {
    /// Stable stored form.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Default => "default",
            Self::FirstMessage => "first_message",
            Self::Model => "model",
            Self::User => "user",
            Self::Kept => "kept",
        }
    }

    /// The stored form read back; unknown text reads as `Kept` (never overwritten).
    pub fn parse(s: &str) -> Self {
        match s {
            "default" => Self::Default,
            "first_message" => Self::FirstMessage,
            "model" => Self::Model,
            "user" => Self::User,
            _ => Self::Kept,
        }
    }
}

impl SqliteStore {
    /// Where the thread's title came from; `ThreadNotFound` for an unknown thread.
    pub fn title_source(&self, thread_id: &str) -> Result<TitleSource, StoreError> {
        const OP: &str = "read a thread's title source";
        let inner = self.lock();
        let source: Option<String> = inner
            .conn
            .query_row(
                "SELECT title_source FROM threads WHERE id = ?1",
                [thread_id],
                |row| row.get(0),
            )
            .optional()
            .map_err(self.db(OP))?;
        source
            .map(|s| TitleSource::parse(&s))
            .ok_or_else(|| StoreError::ThreadNotFound(thread_id.to_string()))
    }

    /// Sets the title (from `source`) only while the current title came from one of
    /// `replaces`, in one statement, so a rename the user made meanwhile always wins. Returns
    /// whether the title changed; `ThreadNotFound` for an unknown thread.
    pub fn set_title_if(
        &self,
        thread_id: &str,
        title: &str,
        source: TitleSource,
        replaces: &[TitleSource],
    ) -> Result<bool, StoreError> {
        const OP: &str = "set a thread's title";
        let title = normalise_title(title);
        if title.is_empty() {
            return Err(StoreError::Db {
                op: OP,
                detail: "the title is empty".into(),
            });
        }
        let allowed =
            serde_json::to_string(&replaces.iter().map(|s| s.as_str()).collect::<Vec<_>>())
                .map_err(|e| StoreError::Db {
                    op: OP,
                    detail: e.to_string(),
                })?;
        let inner = self.lock();
        let n = inner
            .conn
            .execute(
                "UPDATE threads SET title = ?2, title_source = ?3
                 WHERE id = ?1 AND title_source IN (SELECT value FROM json_each(?4))",
                params![thread_id, title, source.as_str(), allowed],
            )
            .map_err(self.db(OP))?;
        if n == 0 && !crate::store::thread_exists(&inner.conn, thread_id).map_err(self.db(OP))? {
            return Err(StoreError::ThreadNotFound(thread_id.to_string()));
        }
        Ok(n > 0)
    }
}
