//! Memories and result metadata on a real SQLite file: save, dedupe, edit, delete, count uses,
//! survive a reopen; a tool result's deprecation block round-trips.
#![allow(clippy::unwrap_used)]

mod common;

use common::db_path;
use workbench_core::memory::{MemoryStore, Remembered};
use workbench_core::thread::{Deprecation, Message, ResultMetadata, ThreadStore};
use workbench_store::SqliteStore;

#[test]
fn facts_are_saved_once_edited_counted_and_deleted() {
    let (_dir, path) = db_path();
    let store = SqliteStore::open(&path).unwrap();
    let thread = store.create_thread("t").unwrap();

    let Remembered::New(tabs) = store
        .remember("The user prefers tabs.", Some(&thread.id))
        .unwrap()
    else {
        panic!("expected a new fact");
    };
    std::thread::sleep(std::time::Duration::from_millis(3));
    let Remembered::New(uk) = store.remember("They write British English.", None).unwrap() else {
        panic!("expected a new fact");
    };
    assert_eq!(store.list_memories().unwrap()[0].id, uk.id, "newest first");

    std::thread::sleep(std::time::Duration::from_millis(3));
    let again = store.remember("the user  PREFERS tabs.", None).unwrap();
    assert!(matches!(&again, Remembered::Existing(m) if m.id == tabs.id));
    let all = store.list_memories().unwrap();
    assert_eq!(all.len(), 2, "no duplicate");
    assert_eq!(all[0].id, tabs.id, "saving it again made it the newest");

    store
        .mark_memories_used(std::slice::from_ref(&tabs.id))
        .unwrap();
    store
        .mark_memories_used(&[tabs.id.clone(), uk.id.clone()])
        .unwrap();
    let edited = store
        .update_memory(&uk.id, "They write US English.")
        .unwrap();
    assert_eq!(edited.fact, "They write US English.");
    assert_eq!(edited.uses, 1);

    // Deleting the thread that saved a fact keeps the fact.
    store.delete_thread(&thread.id).unwrap();
    drop(store);
    let store = SqliteStore::open(&path).unwrap();
    let all = store.list_memories().unwrap();
    assert_eq!(all.len(), 2);
    assert_eq!(all.iter().find(|m| m.id == tabs.id).unwrap().uses, 2);

    store.delete_memory(&tabs.id).unwrap();
    assert_eq!(store.list_memories().unwrap().len(), 1);
    let err = store.delete_memory(&tabs.id).unwrap_err();
    assert!(err.to_string().contains("no memory with id"), "{err}");
    let err = store.update_memory("nope", "x").unwrap_err();
    assert!(err.to_string().contains("no memory with id"), "{err}");
}

#[test]
fn a_results_deprecation_block_is_stored_and_loaded() {
    let (_dir, path) = db_path();
    let store = SqliteStore::open(&path).unwrap();
    let thread = store.create_thread("t").unwrap();
    let mut m = Message::tool_result(&thread.id, "r1", "c1", "listed", false);
    m.metadata = Some(ResultMetadata {
        deprecation: Some(Deprecation {
            this_tool: "list_dir".into(),
            use_instead: "ls".into(),
            removed_in: "0.3.0".into(),
            message: "renamed".into(),
        }),
    });
    store.begin_run(&thread.id, "r1").unwrap();
    store.append_message(&m).unwrap();
    let plain = Message::tool_result(&thread.id, "r1", "c2", "plain", false);
    store.append_message(&plain).unwrap();
    let loaded = store.load_messages(&thread.id).unwrap();
    assert_eq!(loaded[0].metadata, m.metadata);
    assert_eq!(loaded[1].metadata, None);
}
