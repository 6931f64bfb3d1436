//! A thread's mounts: saved in order, replaced as a whole, gone with the thread, kept across
//! reopening.
#![allow(clippy::unwrap_used)]

mod common;

use std::path::PathBuf;

use common::db_path;
use workbench_core::thread::{StoreError, ThreadStore};
use workbench_store::{SqliteStore, ThreadMount};

fn mount(name: Option<&str>, host: &str, read_only: bool) -> ThreadMount {
    ThreadMount {
        name: name.map(str::to_string),
        host: PathBuf::from(host),
        read_only,
    }
}

#[test]
fn mounts_round_trip_in_order_and_are_replaced_as_a_whole() {
    let (_dir, path) = db_path();
    let store = SqliteStore::open(&path).unwrap();
    let t = store.create_thread("t").unwrap();
    let other = store.create_thread("other").unwrap();
    assert_eq!(store.thread_mounts(&t.id).unwrap(), vec![]);
    let first = vec![
        mount(None, "/home/me/proj", false),
        mount(Some("docs"), "/home/me/docs", true),
    ];
    store.set_thread_mounts(&t.id, &first).unwrap();
    store
        .set_thread_mounts(&other.id, &[mount(Some("x"), "/x", true)])
        .unwrap();
    assert_eq!(store.thread_mounts(&t.id).unwrap(), first);
    drop(store);

    let store = SqliteStore::open(&path).unwrap();
    assert_eq!(
        store.thread_mounts(&t.id).unwrap(),
        first,
        "kept across reopening"
    );
    let second = vec![mount(Some("z"), "/z", false)];
    store.set_thread_mounts(&t.id, &second).unwrap();
    assert_eq!(store.thread_mounts(&t.id).unwrap(), second);
    store.set_thread_mounts(&t.id, &[]).unwrap();
    assert_eq!(store.thread_mounts(&t.id).unwrap(), vec![]);
    assert_eq!(
        store.thread_mounts(&other.id).unwrap().len(),
        1,
        "other thread untouched"
    );
}

#[test]
fn unknown_threads_and_deleted_threads() {
    let (_dir, path) = db_path();
    let store = SqliteStore::open(&path).unwrap();
    assert!(matches!(
        store.set_thread_mounts("nope", &[mount(None, "/a", false)]),
        Err(StoreError::ThreadNotFound(_))
    ));
    assert!(matches!(
        store.thread_mounts("nope"),
        Err(StoreError::ThreadNotFound(_))
    ));
    let t = store.create_thread("t").unwrap();
    store
        .set_thread_mounts(&t.id, &[mount(Some("a"), "/a", true)])
        .unwrap();
    store.delete_thread(&t.id).unwrap();
    assert_eq!(
        common::count(&path, "thread_mounts", "1"),
        0,
        "mounts go with their thread"
    );
}
