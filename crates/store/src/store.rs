//! [`SqliteStore`]: the [`ThreadStore`] over one SQLite file.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use rusqlite::{params, Connection, DatabaseName, OptionalExtension, TransactionBehavior};
use serde::de::DeserializeOwned;
use serde::Serialize;
use tracing::{debug, warn};
use workbench_core::thread::{
    Message, MessageStatus, Role, StoreError, Thread, ThreadSearchHit, ThreadState, ThreadStore,
    ThreadSummary, ToolCall,
};
use workbench_core::{new_id, now_ms};

use crate::liveness;
use crate::schema::MIGRATIONS;

/// How long a call waits for another connection (the CLI, the app) to release a write lock.
pub const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

/// Longest thread title kept, in characters; longer titles are cut, not rejected.
pub const MAX_TITLE_CHARS: usize = 200;

/// Run statuses `end_run` accepts; `running` and `interrupted` are the store's own to set.
const END_STATUSES: [&str; 4] = ["completed", "cancelled", "failed", "waiting_for_user"];

/// Threads, messages, runs and settings in one SQLite file (WAL mode, so several processes may
/// use it at once). Every method has committed when it returns.
pub struct SqliteStore {
    path: PathBuf,
    inner: Mutex<Inner>,
}

pub(crate) struct Inner {
    pub(crate) conn: Connection,
    /// Runs begun through this instance and not ended yet; forgotten by the process-wide
    /// liveness registry when the instance is dropped, so they read as dead from then on.
    own_runs: HashSet<String>,
}

impl std::fmt::Debug for SqliteStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SqliteStore")
            .field("path", &self.path)
            .finish_non_exhaustive()
    }
}

impl SqliteStore {
    /// Opens (creating if needed) the database at `path`, brings its schema up to date and
    /// recovers runs that a dead process left `running`.
    pub fn open(path: &Path) -> Result<Self, StoreError> {
        let open_err = |detail: String| StoreError::Open {
            path: path.display().to_string(),
            detail,
        };
        if path.is_dir() {
            return Err(open_err("it is a directory, not a database file".into()));
        }
        if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent)
                .map_err(|e| open_err(format!("could not create {}: {e}", parent.display())))?;
        }
        let mut conn = Connection::open(path).map_err(|e| open_err(e.to_string()))?;
        conn.busy_timeout(BUSY_TIMEOUT)
            .map_err(|e| open_err(format!("could not set the busy timeout: {e}")))?;
        // The first statement that reads the file: a file that is not SQLite fails here, and
        // SQLite never writes to a file whose header it does not recognise.
        let mode: String = conn
            .pragma_update_and_check(None, "journal_mode", "WAL", |row| row.get(0))
            .map_err(|e| open_err(not_a_database_hint(e)))?;
        if !mode.eq_ignore_ascii_case("wal") {
            // Some file systems (network shares) refuse WAL; the store still works, only
            // without concurrent readers during a write.
            warn!(path = %path.display(), %mode, "the database is not in WAL mode");
        }
        if conn
            .is_readonly(DatabaseName::Main)
            .map_err(|e| open_err(e.to_string()))?
        {
            return Err(open_err("it can only be opened read-only".into()));
        }
        conn.pragma_update(None, "synchronous", "NORMAL")
            .map_err(|e| open_err(format!("could not set synchronous=NORMAL: {e}")))?;
        conn.pragma_update(None, "foreign_keys", "ON")
            .map_err(|e| open_err(format!("could not turn on foreign keys: {e}")))?;
        migrate(&mut conn).map_err(open_err)?;

        let store = Self {
            path: path.to_path_buf(),
            inner: Mutex::new(Inner {
                conn,
                own_runs: HashSet::new(),
            }),
        };
        // A failure here (say, another process holds the write lock past the timeout) must not
        // keep the user out of their threads; list and load retry it lazily.
        if let Err(e) = store.recover_interrupted() {
            warn!(path = %path.display(), error = %e, "could not recover interrupted runs at open");
        }
        Ok(store)
    }

    /// The database file this store reads and writes.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Marks every `running` run whose owning process is gone as `interrupted`, and folds the
    /// streamed deltas of its unfinished messages into them (status `interrupted`). Returns how
    /// many runs it marked. Runs still owned by a live store of this process are left alone.
    pub fn recover_interrupted(&self) -> Result<usize, StoreError> {
        let mut inner = self.lock();
        self.recover(&mut inner.conn)
    }

    /// Reads a setting, `None` if it was never set.
    pub fn get_setting<T: DeserializeOwned>(&self, key: &str) -> Result<Option<T>, StoreError> {
        let inner = self.lock();
        let json: Option<String> = inner
            .conn
            .query_row(
                "SELECT value_json FROM settings WHERE key = ?1",
                [key],
                |row| row.get(0),
            )
            .optional()
            .map_err(self.db("read a setting"))?;
        json.map(|j| serde_json::from_str(&j))
            .transpose()
            .map_err(|e| StoreError::Db {
                op: "read a setting",
                detail: format!("setting {key:?} does not have the expected shape: {e}"),
            })
    }

    /// Writes a setting, replacing any earlier value. Never pass a secret here.
    pub fn set_setting<T: Serialize + ?Sized>(
        &self,
        key: &str,
        value: &T,
    ) -> Result<(), StoreError> {
        let json = serde_json::to_string(value).map_err(|e| StoreError::Db {
            op: "write a setting",
            detail: format!("setting {key:?} could not be serialised: {e}"),
        })?;
        let inner = self.lock();
        inner
            .conn
            .execute(
                "INSERT INTO settings (key, value_json) VALUES (?1, ?2)
                 ON CONFLICT (key) DO UPDATE SET value_json = excluded.value_json",
                params![key, json],
            )
            .map_err(self.db("write a setting"))?;
        Ok(())
    }

    /// Removes a setting; returns whether it existed.
    pub fn remove_setting(&self, key: &str) -> Result<bool, StoreError> {
        let inner = self.lock();
        let n = inner
            .conn
            .execute("DELETE FROM settings WHERE key = ?1", [key])
            .map_err(self.db("remove a setting"))?;
        Ok(n > 0)
    }

    /// Threads whose title or shown messages (not tool results, not hidden ones) contain
    /// `query`, ignoring ASCII case, newest first, at most `limit`; see `search.rs`.
    pub fn search_threads(
        &self,
        query: &str,
        limit: usize,
    ) -> Result<Vec<ThreadSearchHit>, StoreError> {
        const OP: &str = "search threads";
        let mut inner = self.lock();
        self.recover_lazily(&mut inner.conn);
        crate::search::search(&inner.conn, query, limit).map_err(self.db(OP))
    }

    pub(crate) fn lock(&self) -> MutexGuard<'_, Inner> {
        // A panic while holding the lock cannot leave a transaction open (rusqlite rolls back
        // on drop), so the connection behind a poisoned lock is still consistent.
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Maps a SQLite error into `StoreError::Db` naming the operation and the file.
    /// Runs `sql` (`?1` = thread id, `?2` = value) on one thread's row; a missing thread is
    /// `ThreadNotFound`.
    fn change_thread(
        &self,
        op: &'static str,
        thread_id: &str,
        sql: &str,
        value: &str,
    ) -> Result<(), StoreError> {
        let inner = self.lock();
        let n = inner
            .conn
            .execute(sql, params![thread_id, value])
            .map_err(self.db(op))?;
        Self::found(n, thread_id)
    }

    /// `ThreadNotFound` when a statement on one thread's row changed nothing.
    pub(crate) fn found(changed: usize, thread_id: &str) -> Result<(), StoreError> {
        if changed == 0 {
            return Err(StoreError::ThreadNotFound(thread_id.to_string()));
        }
        Ok(())
    }

    pub(crate) fn db(&self, op: &'static str) -> impl Fn(rusqlite::Error) -> StoreError + '_ {
        move |e| StoreError::Db {
            op,
            detail: format!("{e} (database {})", self.path.display()),
        }
    }

    /// Recovery as `list_threads` and `load_messages` do it: best effort, since reading must
    /// still work when another process holds the write lock.
    fn recover_lazily(&self, conn: &mut Connection) {
        if let Err(e) = self.recover(conn) {
            warn!(path = %self.path.display(), error = %e, "could not recover interrupted runs");
        }
    }

    fn recover(&self, conn: &mut Connection) -> Result<usize, StoreError> {
        const OP: &str = "recover interrupted runs";
        // A read-only pass first: the common case (nothing to recover) takes no write lock.
        let dead = dead_runs(conn).map_err(self.db(OP))?;
        let unfinished: bool = conn
            .query_row(
                "SELECT EXISTS (SELECT 1 FROM messages m JOIN runs r ON r.id = m.run_id
                                WHERE m.status = 'streaming' AND r.status <> 'running')",
                [],
                |row| row.get(0),
            )
            .map_err(self.db(OP))?;
        if dead.is_empty() && !unfinished {
            return Ok(0);
        }

        let tx = conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(self.db(OP))?;
        let now = now_ms();
        let mut marked = 0;
        for run_id in &dead {
            // Another process may have ended or recovered it since the read pass.
            marked += tx
                .execute(
                    "UPDATE runs SET status = 'interrupted', ended_at = ?2
                     WHERE id = ?1 AND status = 'running'",
                    params![run_id, now],
                )
                .map_err(self.db(OP))?;
        }
        // Every message still streaming for a run that is over, whether it just died or ended
        // without finishing the message.
        let orphans: Vec<(String, String)> = {
            let mut stmt = tx
                .prepare(
                    "SELECT m.id, r.status FROM messages m JOIN runs r ON r.id = m.run_id
                     WHERE m.status = 'streaming' AND r.status <> 'running'",
                )
                .map_err(self.db(OP))?;
            let rows = stmt
                .query_map([], |row| Ok((row.get(0)?, row.get(1)?)))
                .map_err(self.db(OP))?;
            rows.collect::<Result<_, _>>().map_err(self.db(OP))?
        };
        for (message_id, run_status) in &orphans {
            let (status, error) = status_for_unfinished(run_status);
            fold_into_row(&tx, message_id, status, error).map_err(self.db(OP))?;
        }
        tx.commit().map_err(self.db(OP))?;
        if marked > 0 || !orphans.is_empty() {
            debug!(
                runs = marked,
                messages = orphans.len(),
                "recovered interrupted runs"
            );
        }
        Ok(marked)
    }
}

impl Drop for SqliteStore {
    fn drop(&mut self) {
        // Nothing can finish these runs any more: from now on they read as dead, and the next
        // recovery (here or in another process) marks them interrupted.
        let inner = self.inner.get_mut().unwrap_or_else(PoisonError::into_inner);
        for run_id in inner.own_runs.drain() {
            liveness::unregister(&run_id);
        }
    }
}

impl ThreadStore for SqliteStore {
    fn create_thread(&self, title: &str) -> Result<Thread, StoreError> {
        const OP: &str = "create a thread";
        let title = normalise_title(title);
        let id = new_id();
        let created_at = now_ms();
        let mut inner = self.lock();
        let tx = inner
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(self.db(OP))?;
        let updated_at = touch_stamp(&tx).map_err(self.db(OP))?;
        tx.execute(
            "INSERT INTO threads (id, title, created_at, updated_at, state_json, title_source)
             VALUES (?1, ?2, ?3, ?4, '{}', 'default')",
            params![id, title, created_at, updated_at],
        )
        .map_err(self.db(OP))?;
        tx.commit().map_err(self.db(OP))?;
        Ok(Thread {
            id,
            title,
            created_at,
            updated_at,
            state: ThreadState::default(),
        })
    }

    fn get_thread(&self, thread_id: &str) -> Result<Thread, StoreError> {
        const OP: &str = "load a thread";
        let inner = self.lock();
        let row: Option<(String, i64, i64, String)> = inner
            .conn
            .query_row(
                "SELECT title, created_at, updated_at, state_json FROM threads WHERE id = ?1",
                [thread_id],
                |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?)),
            )
            .optional()
            .map_err(self.db(OP))?;
        let (title, created_at, updated_at, state_json) =
            row.ok_or_else(|| StoreError::ThreadNotFound(thread_id.to_string()))?;
        let state = serde_json::from_str(&state_json).map_err(|e| StoreError::Db {
            op: OP,
            detail: format!("the stored state of thread {thread_id} is not valid: {e}"),
        })?;
        Ok(Thread {
            id: thread_id.to_string(),
            title,
            created_at,
            updated_at,
            state,
        })
    }

    fn list_threads(&self) -> Result<Vec<ThreadSummary>, StoreError> {
        const OP: &str = "list threads";
        let mut inner = self.lock();
        self.recover_lazily(&mut inner.conn);
        let mut stmt = inner
            .conn
            .prepare_cached(
                "SELECT id, title, updated_at FROM threads ORDER BY updated_at DESC, id DESC",
            )
            .map_err(self.db(OP))?;
        let rows = stmt
            .query_map([], |row| {
                Ok(ThreadSummary {
                    id: row.get(0)?,
                    title: row.get(1)?,
                    updated_at: row.get(2)?,
                    running: false,
                })
            })
            .map_err(self.db(OP))?;
        rows.collect::<Result<_, _>>().map_err(self.db(OP))
    }

    fn rename_thread(&self, thread_id: &str, title: &str) -> Result<(), StoreError> {
        const OP: &str = "rename thread";
        let title = normalise_title(title);
        if title.is_empty() {
            return Err(StoreError::Db {
                op: OP,
                detail: "the title is empty".into(),
            });
        }
        // Renaming does not bump `updated_at`: the sidebar orders by activity, and an
        // automatic title after the first reply must not reshuffle it. A rename through this
        // port is the user's: automatic titles go through `set_title_if` and never replace it.
        self.change_thread(
            OP,
            thread_id,
            "UPDATE threads SET title = ?2, title_source = 'user' WHERE id = ?1",
            &title,
        )
    }

    fn save_thread_state(&self, thread_id: &str, state: &ThreadState) -> Result<(), StoreError> {
        const OP: &str = "save thread state";
        let json = serde_json::to_string(state).map_err(|e| StoreError::Db {
            op: OP,
            detail: e.to_string(),
        })?;
        self.change_thread(
            OP,
            thread_id,
            "UPDATE threads SET state_json = ?2 WHERE id = ?1",
            &json,
        )
    }

    fn delete_thread(&self, thread_id: &str) -> Result<(), StoreError> {
        // Messages, their deltas and the thread's runs go with it (ON DELETE CASCADE).
        let inner = self.lock();
        let n = inner
            .conn
            .execute("DELETE FROM threads WHERE id = ?1", [thread_id])
            .map_err(self.db("delete a thread"))?;
        Self::found(n, thread_id)
    }

    fn begin_run(&self, thread_id: &str, run_id: &str) -> Result<(), StoreError> {
        const OP: &str = "begin a run";
        let (pid, proc_start) = liveness::current_process();
        let mut inner = self.lock();
        // Registered before the row is committed, so no other store ever sees the row without
        // knowing the run is live.
        liveness::register(run_id);
        let inserted = inner.conn.execute(
            "INSERT INTO runs (id, thread_id, pid, proc_start, status, started_at)
             SELECT ?2, id, ?3, ?4, 'running', ?5 FROM threads WHERE id = ?1",
            params![thread_id, run_id, pid, proc_start, now_ms()],
        );
        match inserted {
            Ok(1) => {
                inner.own_runs.insert(run_id.to_string());
                Ok(())
            }
            Ok(_) => {
                liveness::unregister(run_id);
                Err(StoreError::ThreadNotFound(thread_id.to_string()))
            }
            Err(e) => {
                liveness::unregister(run_id);
                Err(self.db(OP)(e))
            }
        }
    }

    fn end_run(&self, run_id: &str, status: &str) -> Result<(), StoreError> {
        const OP: &str = "end a run";
        if !END_STATUSES.contains(&status) {
            // A caller's bug: refuse before touching anything, the run stays live.
            return Err(StoreError::Db {
                op: OP,
                detail: format!(
                    "{status:?} is not a way for a run to end (expected one of {END_STATUSES:?})"
                ),
            });
        }
        let mut inner = self.lock();
        // Whatever happens below, the caller is done with the run: it is not live any more,
        // and if the update fails, recovery marks it interrupted later.
        liveness::unregister(run_id);
        inner.own_runs.remove(run_id);
        let tx = inner
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(self.db(OP))?;
        let n = tx
            .execute(
                "UPDATE runs SET status = ?2, ended_at = ?3 WHERE id = ?1",
                params![run_id, status, now_ms()],
            )
            .map_err(self.db(OP))?;
        if n == 0 {
            return Err(StoreError::Db {
                op: OP,
                detail: format!("run {run_id} does not exist"),
            });
        }
        // A run that stopped on a store failure may end with its reply still streaming; keep
        // what was streamed instead of leaving the message streaming forever.
        let unfinished: Vec<String> = {
            let mut stmt = tx
                .prepare("SELECT id FROM messages WHERE run_id = ?1 AND status = 'streaming'")
                .map_err(self.db(OP))?;
            let rows = stmt
                .query_map([run_id], |row| row.get(0))
                .map_err(self.db(OP))?;
            rows.collect::<Result<_, _>>().map_err(self.db(OP))?
        };
        let (msg_status, error) = status_for_unfinished(status);
        for message_id in &unfinished {
            fold_into_row(&tx, message_id, msg_status, error).map_err(self.db(OP))?;
        }
        tx.commit().map_err(self.db(OP))
    }

    fn append_message(&self, message: &Message) -> Result<(), StoreError> {
        const OP: &str = "save a message";
        let tool_calls = tool_calls_json(&message.tool_calls, OP)?;
        let metadata = metadata_json(message.metadata.as_ref(), OP)?;
        let mut inner = self.lock();
        let tx = inner
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(self.db(OP))?;
        if !thread_exists(&tx, &message.thread_id).map_err(self.db(OP))? {
            return Err(StoreError::ThreadNotFound(message.thread_id.clone()));
        }
        tx.prepare_cached(
            "INSERT INTO messages (id, thread_id, seq, run_id, role, content, reasoning,
                                   tool_calls_json, tool_call_id, is_error, status, error,
                                   created_at, metadata_json, hidden)
             VALUES (?1, ?2,
                     (SELECT COALESCE(MAX(seq), 0) + 1 FROM messages WHERE thread_id = ?2),
                     ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)",
        )
        .and_then(|mut stmt| {
            stmt.execute(params![
                message.id,
                message.thread_id,
                message.run_id,
                role_str(message.role),
                message.content,
                message.reasoning,
                tool_calls,
                message.tool_call_id,
                message.is_error,
                message.status.as_str(),
                message.error,
                message.created_at,
                metadata,
                message.hidden,
            ])
        })
        .map_err(self.db(OP))?;
        let stamp = touch_stamp(&tx).map_err(self.db(OP))?;
        tx.execute(
            "UPDATE threads SET updated_at = ?2 WHERE id = ?1",
            params![message.thread_id, stamp],
        )
        .map_err(self.db(OP))?;
        tx.commit().map_err(self.db(OP))
    }

    fn append_delta(
        &self,
        message_id: &str,
        text: &str,
        reasoning: bool,
    ) -> Result<(), StoreError> {
        const OP: &str = "save streamed text";
        let inner = self.lock();
        // One statement, one implicit transaction: the hot path of a run, once per token. The
        // next seq comes from the (message_id, seq) primary key, so it costs a lookup, not a
        // scan, and the `status` test keeps finished messages from growing stray deltas.
        let n = inner
            .conn
            .prepare_cached(
                "INSERT INTO message_deltas (message_id, seq, text, reasoning)
                 SELECT m.id,
                        COALESCE((SELECT MAX(d.seq) FROM message_deltas d
                                  WHERE d.message_id = m.id), 0) + 1,
                        ?2, ?3
                 FROM messages m WHERE m.id = ?1 AND m.status = 'streaming'",
            )
            .and_then(|mut stmt| stmt.execute(params![message_id, text, reasoning]))
            .map_err(self.db(OP))?;
        if n == 1 {
            return Ok(());
        }
        let status: Option<String> = inner
            .conn
            .query_row(
                "SELECT status FROM messages WHERE id = ?1",
                [message_id],
                |row| row.get(0),
            )
            .optional()
            .map_err(self.db(OP))?;
        match status {
            None => Err(StoreError::MessageNotFound(message_id.to_string())),
            Some(status) => Err(StoreError::Db {
                op: OP,
                detail: format!("message {message_id} is {status}, not streaming"),
            }),
        }
    }

    fn finish_message(&self, message: &Message) -> Result<(), StoreError> {
        const OP: &str = "finish a message";
        let tool_calls = tool_calls_json(&message.tool_calls, OP)?;
        let mut inner = self.lock();
        let tx = inner
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(self.db(OP))?;
        let n = tx
            .execute(
                "UPDATE messages SET content = ?2, reasoning = ?3, tool_calls_json = ?4,
                                     tool_call_id = ?5, is_error = ?6, status = ?7, error = ?8
                 WHERE id = ?1",
                params![
                    message.id,
                    message.content,
                    message.reasoning,
                    tool_calls,
                    message.tool_call_id,
                    message.is_error,
                    message.status.as_str(),
                    message.error,
                ],
            )
            .map_err(self.db(OP))?;
        if n == 0 {
            return Err(StoreError::MessageNotFound(message.id.clone()));
        }
        // The final text replaces the deltas; keeping them would double it on the next fold.
        tx.execute(
            "DELETE FROM message_deltas WHERE message_id = ?1",
            [&message.id],
        )
        .map_err(self.db(OP))?;
        let stamp = touch_stamp(&tx).map_err(self.db(OP))?;
        tx.execute(
            "UPDATE threads SET updated_at = ?2
             WHERE id = (SELECT thread_id FROM messages WHERE id = ?1)",
            params![message.id, stamp],
        )
        .map_err(self.db(OP))?;
        tx.commit().map_err(self.db(OP))
    }

    fn load_messages(&self, thread_id: &str) -> Result<Vec<Message>, StoreError> {
        const OP: &str = "load messages";
        let mut inner = self.lock();
        self.recover_lazily(&mut inner.conn);
        // One read transaction: the rows and the deltas folded into them are one snapshot,
        // even while another process is streaming into the same thread.
        let tx = inner.conn.transaction().map_err(self.db(OP))?;
        if !thread_exists(&tx, thread_id).map_err(self.db(OP))? {
            return Err(StoreError::ThreadNotFound(thread_id.to_string()));
        }
        let rows: Vec<StoredMessage> = {
            let mut stmt = tx
                .prepare_cached(
                    "SELECT id, run_id, role, content, reasoning, tool_calls_json, tool_call_id,
                            is_error, status, error, created_at, metadata_json, hidden
                     FROM messages WHERE thread_id = ?1 ORDER BY seq",
                )
                .map_err(self.db(OP))?;
            let rows = stmt
                .query_map([thread_id], |row| {
                    Ok(StoredMessage {
                        id: row.get(0)?,
                        run_id: row.get(1)?,
                        role: row.get(2)?,
                        content: row.get(3)?,
                        reasoning: row.get(4)?,
                        tool_calls_json: row.get(5)?,
                        tool_call_id: row.get(6)?,
                        is_error: row.get(7)?,
                        status: row.get(8)?,
                        error: row.get(9)?,
                        created_at: row.get(10)?,
                        metadata_json: row.get(11)?,
                        hidden: row.get(12)?,
                    })
                })
                .map_err(self.db(OP))?;
            rows.collect::<Result<_, _>>().map_err(self.db(OP))?
        };
        let mut messages = Vec::with_capacity(rows.len());
        for row in rows {
            let mut message = row.into_message(thread_id)?;
            if message.status == MessageStatus::Streaming {
                let (content, reasoning) = folded_deltas(&tx, &message.id).map_err(self.db(OP))?;
                message.content.push_str(&content);
                message.reasoning.push_str(&reasoning);
            }
            messages.push(message);
        }
        tx.commit().map_err(self.db(OP))?;
        Ok(messages)
    }
}

/// A message row as stored, before its text columns are checked.
struct StoredMessage {
    id: String,
    run_id: Option<String>,
    role: String,
    content: String,
    reasoning: String,
    tool_calls_json: String,
    tool_call_id: Option<String>,
    is_error: bool,
    status: String,
    error: Option<String>,
    created_at: i64,
    metadata_json: Option<String>,
    hidden: bool,
}

impl StoredMessage {
    fn into_message(self, thread_id: &str) -> Result<Message, StoreError> {
        const OP: &str = "load messages";
        let bad = |what: &str, value: &str| StoreError::Db {
            op: OP,
            detail: format!("message {} has an unknown {what} {value:?}", self.id),
        };
        let role = parse_role(&self.role).ok_or_else(|| bad("role", &self.role))?;
        let status =
            MessageStatus::parse(&self.status).ok_or_else(|| bad("status", &self.status))?;
        let tool_calls: Vec<ToolCall> =
            serde_json::from_str(&self.tool_calls_json).map_err(|e| StoreError::Db {
                op: OP,
                detail: format!("the tool calls of message {} are not valid: {e}", self.id),
            })?;
        // Metadata is a note for the UI: an unreadable one (written by a newer build) is
        // dropped rather than making the whole thread unreadable.
        let metadata = self
            .metadata_json
            .as_deref()
            .and_then(|j| serde_json::from_str(j).ok());
        Ok(Message {
            metadata,
            id: self.id,
            thread_id: thread_id.to_string(),
            run_id: self.run_id,
            role,
            content: self.content,
            reasoning: self.reasoning,
            tool_calls,
            tool_call_id: self.tool_call_id,
            is_error: self.is_error,
            status,
            error: self.error,
            created_at: self.created_at,
            hidden: self.hidden,
            images: Vec::new(),
        })
    }
}

/// The stored form of a result's metadata; `None` when there is nothing to keep.
fn metadata_json(
    metadata: Option<&workbench_core::thread::ResultMetadata>,
    op: &'static str,
) -> Result<Option<String>, StoreError> {
    metadata
        .filter(|m| !m.is_empty())
        .map(serde_json::to_string)
        .transpose()
        .map_err(|e| StoreError::Db {
            op,
            detail: format!("the result metadata could not be serialised: {e}"),
        })
}

/// Brings the schema up to the newest migration, in one write transaction so that two
/// processes opening a fresh file at once cannot both apply the same step.
fn migrate(conn: &mut Connection) -> Result<(), String> {
    let tx = conn
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .map_err(|e| format!("could not start the schema migration: {e}"))?;
    let version: i64 = tx
        .pragma_query_value(None, "user_version", |row| row.get(0))
        .map_err(|e| format!("could not read the schema version: {e}"))?;
    let known = MIGRATIONS.len() as i64;
    if version < 0 {
        return Err(format!("it has an invalid schema version {version}"));
    }
    if version > known {
        return Err(format!(
            "it has schema version {version}, newer than this build of Workbench knows \
             ({known}); update Workbench"
        ));
    }
    if version == 0 {
        // A SQLite file with tables but no version is some other program's database: adding
        // our tables to it would be a surprise at best.
        let tables: i64 = tx
            .query_row("SELECT COUNT(*) FROM sqlite_master", [], |row| row.get(0))
            .map_err(|e| format!("could not read the schema: {e}"))?;
        if tables > 0 {
            return Err("it is a SQLite database of another program; it was left as it is".into());
        }
    }
    for (i, step) in MIGRATIONS.iter().enumerate().skip(version as usize) {
        tx.execute_batch(step)
            .map_err(|e| format!("schema migration {} failed: {e}", i + 1))?;
    }
    if version < known {
        tx.pragma_update(None, "user_version", known)
            .map_err(|e| format!("could not record the schema version: {e}"))?;
    }
    tx.commit()
        .map_err(|e| format!("could not commit the schema migration: {e}"))
}

/// Turns SQLite's terse "file is not a database" into a sentence that says the file is kept.
fn not_a_database_hint(e: rusqlite::Error) -> String {
    match e.sqlite_error_code() {
        Some(rusqlite::ErrorCode::NotADatabase) => {
            format!("it is not a SQLite database ({e}); the file was left as it is")
        }
        _ => e.to_string(),
    }
}

/// `running` runs whose owner is gone.
fn dead_runs(conn: &Connection) -> rusqlite::Result<Vec<String>> {
    let mut stmt =
        conn.prepare_cached("SELECT id, pid, proc_start FROM runs WHERE status = 'running'")?;
    let rows = stmt.query_map([], |row| {
        Ok((
            row.get::<_, String>(0)?,
            row.get::<_, i64>(1)?,
            row.get::<_, Option<i64>>(2)?,
        ))
    })?;
    let mut dead = Vec::new();
    for row in rows {
        let (id, pid, start) = row?;
        if !liveness::run_is_live(&id, pid, start) {
            dead.push(id);
        }
    }
    Ok(dead)
}

/// What an unfinished message becomes when its run is over: the user's stop is `cancelled`,
/// a failure is an `error` (with a sentence), anything else (a dead process, or a run that
/// claims to have completed without finishing it) is `interrupted`.
fn status_for_unfinished(run_status: &str) -> (MessageStatus, Option<&'static str>) {
    match run_status {
        "cancelled" => (MessageStatus::Cancelled, None),
        "failed" => (
            MessageStatus::Error,
            Some("the run stopped before this reply was finished"),
        ),
        _ => (MessageStatus::Interrupted, None),
    }
}

/// Folds a message's deltas into its row with the given final status, and drops the deltas.
fn fold_into_row(
    conn: &Connection,
    message_id: &str,
    status: MessageStatus,
    error: Option<&str>,
) -> rusqlite::Result<()> {
    let (content, reasoning) = folded_deltas(conn, message_id)?;
    conn.execute(
        "UPDATE messages SET content = content || ?2, reasoning = reasoning || ?3, status = ?4,
                             error = COALESCE(error, ?5)
         WHERE id = ?1",
        params![message_id, content, reasoning, status.as_str(), error],
    )?;
    conn.execute(
        "DELETE FROM message_deltas WHERE message_id = ?1",
        [message_id],
    )?;
    Ok(())
}

/// The streamed content and reasoning of a message, in the order they were streamed.
fn folded_deltas(conn: &Connection, message_id: &str) -> rusqlite::Result<(String, String)> {
    let mut stmt = conn.prepare_cached(
        "SELECT text, reasoning FROM message_deltas WHERE message_id = ?1 ORDER BY seq",
    )?;
    let mut rows = stmt.query([message_id])?;
    let (mut content, mut reasoning) = (String::new(), String::new());
    while let Some(row) = rows.next()? {
        let text: String = row.get(0)?;
        if row.get::<_, bool>(1)? {
            reasoning.push_str(&text);
        } else {
            content.push_str(&text);
        }
    }
    Ok((content, reasoning))
}

pub(crate) fn thread_exists(conn: &Connection, thread_id: &str) -> rusqlite::Result<bool> {
    conn.query_row(
        "SELECT EXISTS (SELECT 1 FROM threads WHERE id = ?1)",
        [thread_id],
        |row| row.get(0),
    )
}

/// A fresh `updated_at`, strictly later than every thread's, so that "most recently updated
/// first" is exactly the order of activity even when two writes land in one millisecond.
pub(crate) fn touch_stamp(conn: &Connection) -> rusqlite::Result<i64> {
    let latest: Option<i64> =
        conn.query_row("SELECT MAX(updated_at) FROM threads", [], |row| row.get(0))?;
    let now = now_ms();
    Ok(latest.map_or(now, |l| now.max(l.saturating_add(1))))
}

/// Trims a title and cuts it to [`MAX_TITLE_CHARS`] characters (never inside a character).
pub(crate) fn normalise_title(title: &str) -> String {
    let trimmed = title.trim();
    match trimmed.char_indices().nth(MAX_TITLE_CHARS) {
        Some((cut, _)) => trimmed[..cut].trim_end().to_string(),
        None => trimmed.to_string(),
    }
}

fn tool_calls_json(calls: &[ToolCall], op: &'static str) -> Result<String, StoreError> {
    serde_json::to_string(calls).map_err(|e| StoreError::Db {
        op,
        detail: format!("the tool calls could not be serialised: {e}"),
    })
}

/// The stored form of a role; the same text as its serde form.
fn role_str(role: Role) -> &'static str {
    match role {
        Role::User => "user",
        Role::Assistant => "assistant",
        Role::Tool => "tool",
    }
}

fn parse_role(s: &str) -> Option<Role> {
    Some(match s {
        "user" => Role::User,
        "assistant" => Role::Assistant,
        "tool" => Role::Tool,
        _ => return None,
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn titles_are_trimmed_and_cut_on_a_character_boundary() {
        assert_eq!(normalise_title("  hello \n"), "hello");
        assert_eq!(normalise_title("   "), "");
        let long = "é".repeat(MAX_TITLE_CHARS + 50);
        let cut = normalise_title(&long);
        assert_eq!(cut.chars().count(), MAX_TITLE_CHARS);
    }

    #[test]
    fn roles_round_trip_and_match_their_serde_form() {
        for role in [Role::User, Role::Assistant, Role::Tool] {
            assert_eq!(parse_role(role_str(role)), Some(role));
            let serde_form = serde_json::to_value(role).unwrap();
            assert_eq!(serde_form, role_str(role));
        }
        assert_eq!(parse_role("system"), None);
    }

    #[test]
    fn unfinished_messages_take_their_status_from_how_the_run_ended() {
        assert_eq!(
            status_for_unfinished("cancelled").0,
            MessageStatus::Cancelled
        );
        assert_eq!(status_for_unfinished("failed").0, MessageStatus::Error);
        assert!(status_for_unfinished("failed").1.is_some());
        assert_eq!(
            status_for_unfinished("interrupted").0,
            MessageStatus::Interrupted
        );
        assert_eq!(
            status_for_unfinished("completed").0,
            MessageStatus::Interrupted
        );
    }

    #[test]
    fn every_migration_applies_on_a_fresh_database() {
        let mut conn = Connection::open_in_memory().unwrap();
        migrate(&mut conn).unwrap();
        let v: i64 = conn
            .pragma_query_value(None, "user_version", |r| r.get(0))
            .unwrap();
        assert_eq!(v, MIGRATIONS.len() as i64);
        // Idempotent: a second open does nothing.
        migrate(&mut conn).unwrap();
    }
}
