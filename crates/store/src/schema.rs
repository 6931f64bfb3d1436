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
    // 2: a run may end waiting for the user (approvals). SQLite cannot change a CHECK, so the
    // runs table is rebuilt with the same rows.
    r#"
    CREATE TABLE runs_v2 (
        id          TEXT PRIMARY KEY,
        thread_id   TEXT NOT NULL REFERENCES threads (id) ON DELETE CASCADE,
        pid         INTEGER NOT NULL,
        proc_start  INTEGER,
        status      TEXT NOT NULL
                    CHECK (status IN ('running', 'completed', 'cancelled', 'failed',
                                      'interrupted', 'waiting_for_user')),
        started_at  INTEGER NOT NULL,
        ended_at    INTEGER
    );
    INSERT INTO runs_v2 (id, thread_id, pid, proc_start, status, started_at, ended_at)
        SELECT id, thread_id, pid, proc_start, status, started_at, ended_at FROM runs;
    DROP TABLE runs;
    ALTER TABLE runs_v2 RENAME TO runs;
    CREATE INDEX runs_running ON runs (id) WHERE status = 'running';
    CREATE INDEX runs_by_thread ON runs (thread_id);
    "#,
    // 3: host folders mounted into a thread ("open a folder").
    r#"
    CREATE TABLE thread_mounts (
        thread_id   TEXT NOT NULL REFERENCES threads (id) ON DELETE CASCADE,
        -- Order the user gave them in.
        position    INTEGER NOT NULL,
        -- NULL: the folder is the thread's workspace; else seen at mounts/<name>.
        name        TEXT,
        host_path   TEXT NOT NULL,
        read_only   INTEGER NOT NULL,
        PRIMARY KEY (thread_id, position)
    ) WITHOUT ROWID;
    "#,
    // 4: what a tool result carries besides its text (a deprecated alias), and the facts
    // `remember` saved for later threads.
    r#"
    ALTER TABLE messages ADD COLUMN metadata_json TEXT;

    CREATE TABLE memories (
        id          TEXT PRIMARY KEY,
        fact        TEXT NOT NULL,
        created_at  INTEGER NOT NULL,
        updated_at  INTEGER NOT NULL,
        -- How many runs were given this fact; "most used first" when the budget is tight.
        uses        INTEGER NOT NULL DEFAULT 0,
        -- The thread that saved it, if it still exists.
        thread_id   TEXT REFERENCES threads (id) ON DELETE SET NULL
    );
    CREATE INDEX memories_by_updated ON memories (updated_at DESC);
    "#,
    // 5: messages meant for the model only (reminders, warnings, injected images).
    r#"
    ALTER TABLE messages ADD COLUMN hidden INTEGER NOT NULL DEFAULT 0;
    "#,
    // 6: where a thread's title came from, so a model title never replaces one the user typed.
    // Threads from before keep their title ('kept'), except those still bearing the default.
    r#"
    ALTER TABLE threads ADD COLUMN title_source TEXT NOT NULL DEFAULT 'kept';
    UPDATE threads SET title_source = 'default' WHERE title = 'New thread';
    "#,
    // 7: a thread made by editing a past message of another ("branch"): where it came from.
    r#"
    ALTER TABLE threads ADD COLUMN branched_from_thread TEXT
        REFERENCES threads (id) ON DELETE SET NULL;
    ALTER TABLE threads ADD COLUMN branched_from_message TEXT;
    CREATE INDEX threads_by_branch_source ON threads (branched_from_thread)
        WHERE branched_from_thread IS NOT NULL;
    "#,
];
