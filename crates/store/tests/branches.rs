//! Branching a thread at an edited message, and cutting a thread for a regenerated reply.
#![allow(clippy::unwrap_used)]

mod common;

use common::db_path;
use workbench_core::thread::{Message, MessageStatus, ThreadStore};
use workbench_store::{SqliteStore, TitleSource};

fn thread_with(store: &SqliteStore, texts: &[&str]) -> (String, Vec<String>) {
    let t = store.create_thread("Source").unwrap();
    let mut ids = Vec::new();
    for text in texts {
        let m = Message::user(&t.id, *text);
        store.append_message(&m).unwrap();
        ids.push(m.id);
    }
    (t.id, ids)
}

#[test]
fn a_branch_copies_the_messages_before_the_edited_one_and_links_both_ways() {
    let (_dir, path) = db_path();
    let store = SqliteStore::open(&path).unwrap();
    let (source, ids) = thread_with(&store, &["one", "two", "three"]);

    let branch = store
        .branch_thread(&source, &ids[1], "Source", TitleSource::User)
        .unwrap();
    let copied = store.load_messages(&branch.id).unwrap();
    assert_eq!(copied.len(), 1);
    assert_eq!(copied[0].content, "one");
    assert_ne!(copied[0].id, ids[0], "copies get their own ids");
    assert_eq!(copied[0].thread_id, branch.id);
    assert_eq!(store.title_source(&branch.id).unwrap(), TitleSource::User);

    // The source is untouched.
    assert_eq!(store.load_messages(&source).unwrap().len(), 3);
    let from = store.branched_from(&branch.id).unwrap().unwrap();
    assert_eq!(
        (from.thread_id.as_str(), from.message_id.as_str()),
        (source.as_str(), ids[1].as_str())
    );
    let branches = store.branches_of(&source).unwrap();
    assert_eq!(branches.len(), 1);
    assert_eq!(branches[0].thread_id, branch.id);
    assert_eq!(branches[0].message_id, ids[1]);

    // New messages continue after the copies.
    store
        .append_message(&Message::user(&branch.id, "two, edited"))
        .unwrap();
    let after: Vec<_> = store
        .load_messages(&branch.id)
        .unwrap()
        .into_iter()
        .map(|m| m.content)
        .collect();
    assert_eq!(after, ["one", "two, edited"]);

    // Deleting the source keeps the branch, which no longer points anywhere.
    store.delete_thread(&source).unwrap();
    assert!(store.branched_from(&branch.id).unwrap().is_none());
    assert_eq!(store.load_messages(&branch.id).unwrap().len(), 2);
}

#[test]
fn branching_refuses_a_foreign_message_and_a_streaming_thread() {
    let (_dir, path) = db_path();
    let store = SqliteStore::open(&path).unwrap();
    let (a, _) = thread_with(&store, &["a"]);
    let (_b, b_ids) = thread_with(&store, &["b"]);
    assert!(store
        .branch_thread(&a, &b_ids[0], "x", TitleSource::User)
        .is_err());
    let before = store.list_threads().unwrap().len();

    let (c, c_ids) = thread_with(&store, &["c"]);
    let run = workbench_core::new_id();
    store.begin_run(&c, &run).unwrap();
    let reply = Message::assistant_streaming(&c, &run);
    assert_eq!(reply.status, MessageStatus::Streaming);
    store.append_message(&reply).unwrap();
    assert!(store
        .branch_thread(&c, &c_ids[0], "x", TitleSource::User)
        .is_err());
    assert_eq!(
        store.list_threads().unwrap().len(),
        before + 1,
        "no thread was made"
    );
}

#[test]
fn cutting_after_a_message_removes_everything_after_it() {
    let (_dir, path) = db_path();
    let store = SqliteStore::open(&path).unwrap();
    let (t, ids) = thread_with(&store, &["one", "two", "three"]);
    assert_eq!(store.delete_messages_after(&t, &ids[0]).unwrap(), 2);
    let left: Vec<_> = store
        .load_messages(&t)
        .unwrap()
        .into_iter()
        .map(|m| m.content)
        .collect();
    assert_eq!(left, ["one"]);
    assert_eq!(store.delete_messages_after(&t, &ids[0]).unwrap(), 0);
    assert!(
        store.delete_messages_after(&t, &ids[2]).is_err(),
        "already gone"
    );
    assert!(store.delete_messages_after("nope", &ids[0]).is_err());
    store.append_message(&Message::user(&t, "again")).unwrap();
    assert_eq!(store.load_messages(&t).unwrap().len(), 2);
}
