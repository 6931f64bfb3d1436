//! Crash recovery: a run whose process died shows what it streamed, marked interrupted; a run
//! that is still live (in this process, through any store instance) is never touched.
#![allow(clippy::unwrap_used)]

mod common;

use common::{count, db_path, raw, start_streaming};
use workbench_core::thread::{MessageStatus, ThreadStore};
use workbench_store::SqliteStore;

/// A pid no process can have (above Linux's `pid_max` ceiling of 2^22).
const DEAD_PID: i64 = 0x7fff_fff0;

fn run_status(path: &std::path::Path, run_id: &str) -> String {
    raw(path)
        .query_row("SELECT status FROM runs WHERE id = ?1", [run_id], |r| {
            r.get(0)
        })
        .unwrap()
}

#[test]
fn a_run_whose_process_died_is_recovered_at_open_with_its_streamed_text() {
    let (_dir, path) = db_path();
    let (thread_id, run_id, reply_id) = {
        let store = SqliteStore::open(&path).unwrap();
        start_streaming(
            &store,
            &[("thinking", true), ("The answer ", false), ("is 4", false)],
        )
    };
    // Another process owned it, and that process is gone.
    raw(&path)
        .execute(
            "UPDATE runs SET pid = ?1, proc_start = NULL WHERE id = ?2",
            rusqlite::params![DEAD_PID, run_id],
        )
        .unwrap();

    let store = SqliteStore::open(&path).unwrap();
    // Recovered at open, before anything is read through the store.
    assert_eq!(run_status(&path, &run_id), "interrupted");
    let reply = store.load_messages(&thread_id).unwrap().pop().unwrap();
    assert_eq!(reply.id, reply_id);
    assert_eq!(reply.status, MessageStatus::Interrupted);
    assert_eq!(reply.content, "The answer is 4");
    assert_eq!(reply.reasoning, "thinking");
    // Folded and committed: the deltas are gone and the row holds the text.
    assert_eq!(count(&path, "message_deltas", "1"), 0);
    assert_eq!(
        count(
            &path,
            "messages",
            "status = 'interrupted' AND content = 'The answer is 4'"
        ),
        1
    );
    assert_eq!(store.recover_interrupted().unwrap(), 0);
}

#[test]
fn a_run_of_a_dropped_store_is_recovered_by_a_fresh_store_in_the_same_process() {
    let (_dir, path) = db_path();
    let store = SqliteStore::open(&path).unwrap();
    let (thread_id, run_id, _) = start_streaming(&store, &[("cut ", false), ("off", false)]);
    // Dropped without finishing: nothing in this process can finish the run any more.
    drop(store);

    let store = SqliteStore::open(&path).unwrap();
    assert_eq!(run_status(&path, &run_id), "interrupted");
    let reply = store.load_messages(&thread_id).unwrap().pop().unwrap();
    assert_eq!(reply.status, MessageStatus::Interrupted);
    assert_eq!(reply.content, "cut off");
}

#[test]
fn a_run_left_by_an_earlier_process_with_our_pid_is_dead() {
    let (_dir, path) = db_path();
    let store = SqliteStore::open(&path).unwrap();
    let (thread_id, run_id, _) = start_streaming(&store, &[("old", false)]);
    // Same pid as ours, but a run id no store of this process has begun.
    raw(&path)
        .execute(
            "UPDATE runs SET id = 'from-an-earlier-life' WHERE id = ?1",
            [&run_id],
        )
        .unwrap();
    raw(&path)
        .execute(
            "UPDATE messages SET run_id = 'from-an-earlier-life' WHERE run_id = ?1",
            [&run_id],
        )
        .unwrap();
    assert_eq!(store.recover_interrupted().unwrap(), 1);
    let reply = store.load_messages(&thread_id).unwrap().pop().unwrap();
    assert_eq!(reply.status, MessageStatus::Interrupted);
    assert_eq!(reply.content, "old");
}

#[test]
fn a_live_run_is_not_touched_by_list_load_or_recover() {
    let (_dir, path) = db_path();
    let store = SqliteStore::open(&path).unwrap();
    let (thread_id, run_id, reply_id) = start_streaming(&store, &[("still ", false)]);

    assert_eq!(store.list_threads().unwrap().len(), 1);
    assert_eq!(store.recover_interrupted().unwrap(), 0);
    let reply = store.load_messages(&thread_id).unwrap().pop().unwrap();
    assert_eq!(reply.status, MessageStatus::Streaming);
    assert_eq!(run_status(&path, &run_id), "running");

    // A second store of this process (the app and an embedded CLI) sees it live too.
    let other = SqliteStore::open(&path).unwrap();
    assert_eq!(other.recover_interrupted().unwrap(), 0);
    other.list_threads().unwrap();
    assert_eq!(run_status(&path, &run_id), "running");

    // And the run goes on streaming.
    store.append_delta(&reply_id, "going", false).unwrap();
    let reply = other.load_messages(&thread_id).unwrap().pop().unwrap();
    assert_eq!(reply.content, "still going");
    assert_eq!(reply.status, MessageStatus::Streaming);

    // Once its owner is gone, the other store recovers it lazily on its next list.
    drop(store);
    other.list_threads().unwrap();
    assert_eq!(run_status(&path, &run_id), "interrupted");
    let reply = other.load_messages(&thread_id).unwrap().pop().unwrap();
    assert_eq!(reply.status, MessageStatus::Interrupted);
    assert_eq!(reply.content, "still going");
}

#[test]
fn a_dead_run_is_recovered_lazily_by_load_messages() {
    let (_dir, path) = db_path();
    let store = SqliteStore::open(&path).unwrap();
    let other = SqliteStore::open(&path).unwrap();
    let (thread_id, run_id, _) = start_streaming(&other, &[("abc", false)]);
    raw(&path)
        .execute(
            "UPDATE runs SET pid = ?1 WHERE id = ?2",
            rusqlite::params![DEAD_PID, run_id],
        )
        .unwrap();
    let reply = store.load_messages(&thread_id).unwrap().pop().unwrap();
    assert_eq!(reply.status, MessageStatus::Interrupted);
    assert_eq!(reply.content, "abc");
}

#[cfg(unix)]
#[test]
fn a_run_owned_by_another_live_process_waits_until_that_process_exits() {
    let (_dir, path) = db_path();
    let store = SqliteStore::open(&path).unwrap();
    let (thread_id, run_id, _) = start_streaming(&store, &[("theirs", false)]);
    let mut child = std::process::Command::new("sleep")
        .arg("30")
        .spawn()
        .unwrap();
    raw(&path)
        .execute(
            "UPDATE runs SET pid = ?1, proc_start = NULL WHERE id = ?2",
            rusqlite::params![i64::from(child.id()), run_id],
        )
        .unwrap();

    assert_eq!(store.recover_interrupted().unwrap(), 0);
    assert_eq!(run_status(&path, &run_id), "running");

    child.kill().unwrap();
    child.wait().unwrap();
    assert_eq!(store.recover_interrupted().unwrap(), 1);
    let reply = store.load_messages(&thread_id).unwrap().pop().unwrap();
    assert_eq!(reply.status, MessageStatus::Interrupted);
    assert_eq!(reply.content, "theirs");
}

#[test]
fn a_version_1_database_keeps_its_runs_and_can_end_one_waiting_for_the_user() {
    let (_dir, path) = db_path();
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    {
        // A database as the first release left it: schema step 1 only, with a run in it.
        let conn = raw(&path);
        conn.execute_batch(workbench_store::schema_step(0).unwrap())
            .unwrap();
        conn.execute_batch(
            "PRAGMA user_version = 1;
             INSERT INTO threads (id, title, created_at, updated_at) VALUES ('t', 'old', 1, 1);
             INSERT INTO runs (id, thread_id, pid, status, started_at, ended_at)
                 VALUES ('r-old', 't', 1, 'completed', 1, 2);",
        )
        .unwrap();
    }
    let store = SqliteStore::open(&path).unwrap();
    assert_eq!(run_status(&path, "r-old"), "completed", "old runs are kept");
    store.begin_run("t", "r-new").unwrap();
    store.end_run("r-new", "waiting_for_user").unwrap();
    assert_eq!(run_status(&path, "r-new"), "waiting_for_user");
    assert!(
        store.end_run("r-new", "paused").is_err(),
        "an unknown ending is still refused"
    );
}
