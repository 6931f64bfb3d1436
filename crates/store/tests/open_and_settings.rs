//! Opening: errors that say what is wrong and never destroy a file; two stores on one file at
//! once; settings.
#![allow(clippy::unwrap_used)]

mod common;

use common::{db_path, raw};
use serde::{Deserialize, Serialize};
use workbench_core::thread::{Message, StoreError, ThreadStore};
use workbench_store::SqliteStore;

fn open_error(path: &std::path::Path) -> String {
    match SqliteStore::open(path) {
        Err(e @ StoreError::Open { .. }) => e.to_string(),
        Err(other) => panic!("expected an Open error, got {other:?}"),
        Ok(_) => panic!("opening {} should have failed", path.display()),
    }
}

#[test]
fn a_directory_at_the_path_is_a_clear_open_error() {
    let dir = tempfile::tempdir().unwrap();
    let msg = open_error(dir.path());
    assert!(msg.contains("is a directory"), "{msg}");
    assert!(msg.contains(&dir.path().display().to_string()), "{msg}");
}

#[test]
fn a_parent_that_is_a_file_is_a_clear_open_error() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("not-a-dir");
    std::fs::write(&file, "x").unwrap();
    let msg = open_error(&file.join("sub").join("workbench.db"));
    assert!(msg.contains("could not create"), "{msg}");
}

#[cfg(unix)]
#[test]
fn an_unwritable_directory_is_a_clear_open_error() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let locked = dir.path().join("locked");
    std::fs::create_dir(&locked).unwrap();
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o555)).unwrap();
    // Root ignores permissions; then there is nothing to test here.
    if std::fs::write(locked.join("probe"), "x").is_ok() {
        eprintln!("skipped: this user can write to a read-only directory (root)");
        return;
    }
    let msg = open_error(&locked.join("workbench.db"));
    assert!(msg.contains("could not be opened"), "{msg}");
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o755)).unwrap();
}

#[test]
fn a_file_that_is_not_sqlite_is_refused_and_left_intact() {
    let (dir, _) = db_path();
    let path = dir.path().join("notes.db");
    let contents = "my precious notes, not a database\n".repeat(200);
    std::fs::write(&path, &contents).unwrap();

    let msg = open_error(&path);
    assert!(msg.contains("not a SQLite database"), "{msg}");
    assert!(msg.contains("left as it is"), "{msg}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), contents);
}

#[test]
fn another_programs_database_is_refused_and_left_intact() {
    let (dir, _) = db_path();
    let path = dir.path().join("other.db");
    let conn = rusqlite::Connection::open(&path).unwrap();
    conn.execute_batch("CREATE TABLE accounts (id INTEGER); INSERT INTO accounts VALUES (7);")
        .unwrap();
    drop(conn);
    let msg = open_error(&path);
    assert!(msg.contains("another program"), "{msg}");
    let n: i64 = raw(&path)
        .query_row("SELECT COUNT(*) FROM sqlite_master", [], |r| r.get(0))
        .unwrap();
    assert_eq!(n, 1);
}

#[test]
fn a_database_from_a_newer_workbench_is_refused() {
    let (_dir, path) = db_path();
    drop(SqliteStore::open(&path).unwrap());
    raw(&path)
        .execute_batch("PRAGMA user_version = 999")
        .unwrap();
    let msg = open_error(&path);
    assert!(msg.contains("newer"), "{msg}");
}

#[test]
fn two_stores_on_one_file_write_at_once() {
    let (_dir, path) = db_path();
    let app = SqliteStore::open(&path).unwrap();
    let cli = SqliteStore::open(&path).unwrap();
    let thread = app.create_thread("shared").unwrap();
    const PER_WRITER: usize = 150;

    std::thread::scope(|s| {
        for (name, store) in [("app", &app), ("cli", &cli)] {
            let thread_id = thread.id.clone();
            s.spawn(move || {
                for i in 0..PER_WRITER {
                    store
                        .append_message(&Message::user(&thread_id, format!("{name} {i}")))
                        .unwrap();
                }
            });
        }
    });

    let from_app = app.load_messages(&thread.id).unwrap();
    let from_cli = cli.load_messages(&thread.id).unwrap();
    assert_eq!(from_app, from_cli);
    assert_eq!(from_app.len(), 2 * PER_WRITER);
    // Each writer's messages keep their own order.
    for name in ["app", "cli"] {
        let mine: Vec<&str> = from_app
            .iter()
            .map(|m| m.content.as_str())
            .filter(|c| c.starts_with(name))
            .collect();
        let expected: Vec<String> = (0..PER_WRITER).map(|i| format!("{name} {i}")).collect();
        assert_eq!(mine, expected);
    }
    // A thread created by one is listed by the other.
    let t2 = cli.create_thread("from the cli").unwrap();
    assert_eq!(app.list_threads().unwrap()[0].id, t2.id);
}

#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct ProviderSettings {
    kind: String,
    base_url: Option<String>,
    model: String,
}

#[test]
fn settings_round_trip_and_survive_reopening() {
    let (_dir, path) = db_path();
    let value = ProviderSettings {
        kind: "ollama".into(),
        base_url: Some("http://localhost:11434".into()),
        model: "qwen3".into(),
    };
    {
        let store = SqliteStore::open(&path).unwrap();
        assert_eq!(
            store.get_setting::<ProviderSettings>("provider").unwrap(),
            None
        );
        store.set_setting("provider", &value).unwrap();
        store.set_setting("theme", "dark").unwrap();
        store.set_setting("theme", "light").unwrap();
    }
    let store = SqliteStore::open(&path).unwrap();
    assert_eq!(store.get_setting("provider").unwrap(), Some(value));
    assert_eq!(
        store.get_setting::<String>("theme").unwrap().as_deref(),
        Some("light")
    );

    let err = store.get_setting::<u32>("theme").unwrap_err();
    assert!(err.to_string().contains("\"theme\""), "{err}");

    assert!(store.remove_setting("theme").unwrap());
    assert!(!store.remove_setting("theme").unwrap());
    assert_eq!(store.get_setting::<String>("theme").unwrap(), None);
}

#[test]
fn a_negative_schema_version_is_refused() {
    let (_dir, path) = db_path();
    drop(SqliteStore::open(&path).unwrap());
    raw(&path)
        .execute_batch("PRAGMA user_version = -1")
        .unwrap();
    let msg = open_error(&path);
    assert!(msg.contains("invalid schema version"), "{msg}");
}
