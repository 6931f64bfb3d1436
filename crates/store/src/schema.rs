//! The schema as an ordered list of migrations. `PRAGMA user_version` holds how many of them a
//! database has had; later slices append steps here and never edit a released one.

/// Migration `i` takes a database from schema version `i` to `i + 1`.
pub(crate) const MIGRATIONS: &[&str] = &[
    // 1: threads, messages, streamed deltas, runs, settings.
    r#"
    CREATE TABLE threads (
        id          TEXT PRIMARY KEY,
        title       TEXT NOT NULL,
        created_at  INTEGER NOT NULL,
        updated_at  INTEGER NOT NULL,
        state_json  TEXT NOT NULL DEFAULT '{}'
    );
    CREATE INDEX threads_by_updated ON threads (updated_at DESC);

    CREATE TABLE messages (
        id               TEXT PRIMARY KEY,
        thread_id        TEXT NOT NULL REFERENCES threads (id) ON DELETE CASCADE,
        -- Position in the thread; insertion order, 1-based.
        seq              INTEGER NOT NULL,
        run_id           TEXT,
        role             TEXT NOT NULL,
        content          TEXT NOT NULL,
        reasoning        TEXT NOT NULL DEFAULT '',
        tool_calls_json  TEXT NOT NULL DEFAULT '[]',
        tool_call_id     TEXT,
        is_error         INTEGER NOT NULL DEFAULT 0,
        status           TEXT NOT NULL,
        error            TEXT,
        created_at       INTEGER NOT NULL,
        UNIQUE (thread_id, seq)
    );
    -- Recovery looks for unfinished messages on every list and load; this keeps that a lookup
    -- in a (normally empty) index instead of a scan.
    CREATE INDEX messages_streaming ON messages (run_id) WHERE status = 'streaming';

    -- Append-only chunks of a streaming message: one small insert per token, folded into the
    -- message row when it is finished (or recovered), then deleted.
    CREATE TABLE message_deltas (
        message_id  TEXT NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
        seq         INTEGER NOT NULL,
        text        TEXT NOT NULL,
        reasoning   INTEGER NOT NULL,
        PRIMARY KEY (message_id, seq)
    ) WITHOUT ROWID;

    CREATE TABLE runs (
        id          TEXT PRIMARY KEY,
        thread_id   TEXT NOT NULL REFERENCES threads (id) ON DELETE CASCADE,
        -- The process that owns the run, and (where the OS tells) when that process started,
        -- so that a reused pid is not mistaken for the owner.
        pid         INTEGER NOT NULL,
        proc_start  INTEGER,
        status      TEXT NOT NULL
                    CHECK (status IN ('running', 'completed', 'cancelled', 'failed', 'interrupted')),
        started_at  INTEGER NOT NULL,
        ended_at    INTEGER
    );
    CREATE INDEX runs_running ON runs (id) WHERE status = 'running';
    CREATE INDEX runs_by_thread ON runs (thread_id);

    CREATE TABLE settings (
        key         TEXT PRIMARY KEY,
        value_json  TEXT NOT NULL
    );
    "#,
    // 2: messages meant for the model only (reminders, warnings, injected images).
    r#"
    ALTER TABLE messages ADD COLUMN hidden INTEGER NOT NULL DEFAULT 0;
    "#,
];
