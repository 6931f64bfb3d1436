//! The `memories` table: facts saved by `remember`, listed, edited and deleted from Settings ->
//! Memory, and counted each time a run is given them.

use rusqlite::{params, OptionalExtension, TransactionBehavior};
use workbench_core::memory::{normalise_fact, Memory, MemoryStore, Remembered};
use workbench_core::thread::StoreError;
use workbench_core::{new_id, now_ms};

use crate::SqliteStore;

const COLUMNS: &str = "id, fact, created_at, updated_at, uses";

fn row_to_memory(row: &rusqlite::Row<'_>) -> rusqlite::Result<Memory> {
    Ok(Memory {
        id: row.get(0)?,
        fact: row.get(1)?,
        created_at: row.get(2)?,
        updated_at: row.get(3)?,
        uses: row.get(4)?,
    })
}

impl SqliteStore {
    /// Every saved fact, newest first.
    pub fn list_memories(&self) -> Result<Vec<Memory>, StoreError> {
        const OP: &str = "list memories";
        let inner = self.lock();
        let mut stmt = inner
            .conn
            .prepare_cached(&format!(
                "SELECT {COLUMNS} FROM memories ORDER BY updated_at DESC, id DESC"
            ))
            .map_err(self.db(OP))?;
        let rows = stmt.query_map([], row_to_memory).map_err(self.db(OP))?;
        rows.collect::<Result<_, _>>().map_err(self.db(OP))
    }

    /// Replaces a fact's text (already checked by the caller) and marks it fresh.
    pub fn update_memory(&self, id: &str, fact: &str) -> Result<Memory, StoreError> {
        const OP: &str = "edit a memory";
        let inner = self.lock();
        let n = inner
            .conn
            .execute(
                "UPDATE memories SET fact = ?2, updated_at = ?3 WHERE id = ?1",
                params![id, fact, now_ms()],
            )
            .map_err(self.db(OP))?;
        if n == 0 {
            return Err(not_found(OP, id));
        }
        inner
            .conn
            .query_row(
                &format!("SELECT {COLUMNS} FROM memories WHERE id = ?1"),
                [id],
                row_to_memory,
            )
            .map_err(self.db(OP))
    }

    /// Deletes a fact; deleting one that is already gone is an error the UI can show.
    pub fn delete_memory(&self, id: &str) -> Result<(), StoreError> {
        const OP: &str = "delete a memory";
        let inner = self.lock();
        let n = inner
            .conn
            .execute("DELETE FROM memories WHERE id = ?1", [id])
            .map_err(self.db(OP))?;
        if n == 0 {
            return Err(not_found(OP, id));
        }
        Ok(())
    }

    /// Counts one more use of each fact a run was given.
    pub fn mark_memories_used(&self, ids: &[String]) -> Result<(), StoreError> {
        const OP: &str = "count memory uses";
        let mut inner = self.lock();
        let tx = inner
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(self.db(OP))?;
        for id in ids {
            tx.execute("UPDATE memories SET uses = uses + 1 WHERE id = ?1", [id])
                .map_err(self.db(OP))?;
        }
        tx.commit().map_err(self.db(OP))
    }
}

fn not_found(op: &'static str, id: &str) -> StoreError {
    StoreError::Db {
        op,
        detail: format!("there is no memory with id {id} (it may have been deleted)"),
    }
}

impl MemoryStore for SqliteStore {
    fn remember(&self, fact: &str, thread_id: Option<&str>) -> Result<Remembered, StoreError> {
        const OP: &str = "save a memory";
        let key = normalise_fact(fact);
        let now = now_ms();
        let mut inner = self.lock();
        let tx = inner
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(self.db(OP))?;
        // Few facts are kept (a budget's worth is injected), so comparing in Rust is cheap and
        // keeps the one normal form in one place.
        let existing: Option<Memory> = {
            let mut stmt = tx
                .prepare_cached(&format!("SELECT {COLUMNS} FROM memories"))
                .map_err(self.db(OP))?;
            let rows = stmt.query_map([], row_to_memory).map_err(self.db(OP))?;
            let all: Vec<Memory> = rows.collect::<Result<_, _>>().map_err(self.db(OP))?;
            all.into_iter().find(|m| normalise_fact(&m.fact) == key)
        };
        if let Some(mut m) = existing {
            tx.execute(
                "UPDATE memories SET updated_at = ?2 WHERE id = ?1",
                params![m.id, now],
            )
            .map_err(self.db(OP))?;
            tx.commit().map_err(self.db(OP))?;
            m.updated_at = now;
            return Ok(Remembered::Existing(m));
        }
        let thread_exists: Option<i64> = match thread_id {
            Some(t) => tx
                .query_row("SELECT 1 FROM threads WHERE id = ?1", [t], |r| r.get(0))
                .optional()
                .map_err(self.db(OP))?,
            None => None,
        };
        let m = Memory {
            id: new_id(),
            fact: fact.to_string(),
            created_at: now,
            updated_at: now,
            uses: 0,
        };
        tx.execute(
            "INSERT INTO memories (id, fact, created_at, updated_at, uses, thread_id)
             VALUES (?1, ?2, ?3, ?3, 0, ?4)",
            params![m.id, m.fact, now, thread_exists.and(thread_id)],
        )
        .map_err(self.db(OP))?;
        tx.commit().map_err(self.db(OP))?;
        Ok(Remembered::New(m))
    }
}
