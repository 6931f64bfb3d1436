//! The host folders mounted into each thread, as the user chose them. The store keeps them;
//! checking them (the folder exists, the name is safe) is the app's and the sandbox's job.

use std::path::PathBuf;

use rusqlite::{params, TransactionBehavior};
use serde::{Deserialize, Serialize};
use workbench_core::thread::StoreError;

use crate::store::{thread_exists, SqliteStore};

/// Longest host path stored, in bytes (Linux's PATH_MAX).
pub const MAX_MOUNT_PATH_BYTES: usize = 4096;

/// One folder mounted into a thread.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ThreadMount {
    /// `None`: the folder is the thread's workspace; else it is seen at `mounts/<name>`.
    pub name: Option<String>,
    /// The host folder.
    pub host: PathBuf,
    /// Never written by the agent.
    pub read_only: bool,
}

impl SqliteStore {
    /// The thread's mounts in the order they were set; `ThreadNotFound` for an unknown thread.
    pub fn thread_mounts(&self, thread_id: &str) -> Result<Vec<ThreadMount>, StoreError> {
        let inner = self.lock();
        let op = "read a thread's mounts";
        if !thread_exists(&inner.conn, thread_id).map_err(self.db(op))? {
            return Err(StoreError::ThreadNotFound(thread_id.to_string()));
        }
        let mut stmt = inner
            .conn
            .prepare_cached(
                "SELECT name, host_path, read_only FROM thread_mounts
                 WHERE thread_id = ?1 ORDER BY position",
            )
            .map_err(self.db(op))?;
        let rows = stmt
            .query_map([thread_id], |row| {
                Ok(ThreadMount {
                    name: row.get(0)?,
                    host: PathBuf::from(row.get::<_, String>(1)?),
                    read_only: row.get(2)?,
                })
            })
            .map_err(self.db(op))?;
        rows.collect::<Result<Vec<_>, _>>().map_err(self.db(op))
    }

    /// Replaces the thread's mounts with `mounts`, in one transaction.
    pub fn set_thread_mounts(
        &self,
        thread_id: &str,
        mounts: &[ThreadMount],
    ) -> Result<(), StoreError> {
        let op = "save a thread's mounts";
        let mut hosts = Vec::with_capacity(mounts.len());
        for m in mounts {
            // SQLite stores text; a host path that is not UTF-8 could not be read back as is.
            let host = m.host.to_str().ok_or_else(|| StoreError::Db {
                op,
                detail: format!(
                    "the folder {} has a name that is not UTF-8",
                    m.host.display()
                ),
            })?;
            if host.len() > MAX_MOUNT_PATH_BYTES {
                return Err(StoreError::Db {
                    op,
                    detail: format!("a folder path is longer than {MAX_MOUNT_PATH_BYTES} bytes"),
                });
            }
            hosts.push(host);
        }
        let mut inner = self.lock();
        let tx = inner
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(self.db(op))?;
        if !thread_exists(&tx, thread_id).map_err(self.db(op))? {
            return Err(StoreError::ThreadNotFound(thread_id.to_string()));
        }
        tx.execute(
            "DELETE FROM thread_mounts WHERE thread_id = ?1",
            [thread_id],
        )
        .map_err(self.db(op))?;
        for (i, (m, host)) in mounts.iter().zip(hosts).enumerate() {
            tx.execute(
                "INSERT INTO thread_mounts (thread_id, position, name, host_path, read_only)
                 VALUES (?1, ?2, ?3, ?4, ?5)",
                params![thread_id, i as i64, m.name, host, m.read_only],
            )
            .map_err(self.db(op))?;
        }
        tx.commit().map_err(self.db(op))
    }
}
