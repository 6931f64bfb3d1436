//! Threads and messages on a real SQLite file: create, list, rename, delete, streaming, reopen.
#![allow(clippy::unwrap_used)]

mod common;

use common::{count, db_path, raw, start_streaming};
use workbench_core::thread::{Message, MessageStatus, Role, StoreError, ThreadStore, ToolCall};
use workbench_store::{SqliteStore, MAX_TITLE_CHARS};

#[test]
fn threads_list_most_recently_updated_first() {
    let (_dir, path) = db_path();
    let store = SqliteStore::open(&path).unwrap();
    let a = store.create_thread("a").unwrap();
    let b = store.create_thread("b").unwrap();
    let c = store.create_thread("c").unwrap();
    let ids = |s: &SqliteStore| -> Vec<String> {
        s.list_threads()
            .unwrap()
            .into_iter()
            .map(|t| t.id)
            .collect()
    };
    assert_eq!(ids(&store), [c.id.clone(), b.id.clone(), a.id.clone()]);

    store.append_message(&Message::user(&a.id, "bump")).unwrap();
    assert_eq!(ids(&store), [a.id.clone(), c.id.clone(), b.id.clone()]);
    assert!(store.list_threads().unwrap().iter().all(|t| !t.running));

    let got = store.get_thread(&a.id).unwrap();
    assert_eq!(got.title, "a");
    assert!(got.updated_at > a.updated_at);
    assert!(matches!(
        store.get_thread("nope"),
        Err(StoreError::ThreadNotFound(id)) if id == "nope"
    ));
}

#[test]
fn rename_trims_caps_and_rejects_empty_titles() {
    let (_dir, path) = db_path();
    let store = SqliteStore::open(&path).unwrap();
    let t = store.create_thread("  first  ").unwrap();
    assert_eq!(t.title, "first");

    store.rename_thread(&t.id, "  renamed \n").unwrap();
    assert_eq!(store.get_thread(&t.id).unwrap().title, "renamed");

    store.rename_thread(&t.id, &"x".repeat(500)).unwrap();
    assert_eq!(
        store.get_thread(&t.id).unwrap().title.chars().count(),
        MAX_TITLE_CHARS
    );

    let err = store.rename_thread(&t.id, "   ").unwrap_err();
    assert!(err.to_string().contains("the title is empty"), "{err}");
    assert!(matches!(
        store.rename_thread("missing", "x"),
        Err(StoreError::ThreadNotFound(_))
    ));
}

#[test]
fn delete_removes_the_thread_its_messages_deltas_and_runs() {
    let (_dir, path) = db_path();
    let store = SqliteStore::open(&path).unwrap();
    let keep = store.create_thread("keep").unwrap();
    store
        .append_message(&Message::user(&keep.id, "stay"))
        .unwrap();
    let (thread_id, run_id, reply_id) = start_streaming(&store, &[("par", false), ("tial", false)]);
    assert_eq!(
        count(
            &path,
            "message_deltas",
            &format!("message_id = '{reply_id}'")
        ),
        2
    );

    store.delete_thread(&thread_id).unwrap();
    assert_eq!(
        count(&path, "messages", &format!("thread_id = '{thread_id}'")),
        0
    );
    assert_eq!(count(&path, "message_deltas", "1"), 0);
    assert_eq!(count(&path, "runs", &format!("id = '{run_id}'")), 0);
    assert_eq!(store.load_messages(&keep.id).unwrap().len(), 1);
    assert!(matches!(
        store.delete_thread(&thread_id),
        Err(StoreError::ThreadNotFound(_))
    ));
    assert!(matches!(
        store.load_messages(&thread_id),
        Err(StoreError::ThreadNotFound(_))
    ));
}

#[test]
fn streamed_deltas_fold_while_streaming_and_are_replaced_by_the_finished_message() {
    let (_dir, path) = db_path();
    let store = SqliteStore::open(&path).unwrap();
    let (thread_id, run_id, reply_id) = start_streaming(
        &store,
        &[
            ("Let me ", true),
            ("Hel", false),
            ("think.", true),
            ("lo!", false),
        ],
    );

    let loaded = store.load_messages(&thread_id).unwrap();
    assert_eq!(loaded.len(), 2);
    assert_eq!(loaded[0].role, Role::User);
    assert_eq!(loaded[0].content, "hello");
    let reply = &loaded[1];
    assert_eq!(reply.id, reply_id);
    assert_eq!(reply.status, MessageStatus::Streaming);
    assert_eq!(reply.content, "Hello!");
    assert_eq!(reply.reasoning, "Let me think.");
    assert_eq!(reply.run_id.as_deref(), Some(run_id.as_str()));

    let mut done = reply.clone();
    done.status = MessageStatus::Complete;
    done.tool_calls = vec![ToolCall {
        id: "call_1".into(),
        name: "read_file".into(),
        // Invalid JSON on purpose: it must be kept raw, not lost.
        arguments: "{\"path\": ".into(),
    }];
    store.finish_message(&done).unwrap();
    store.end_run(&run_id, "completed").unwrap();

    assert_eq!(count(&path, "message_deltas", "1"), 0);
    let loaded = store.load_messages(&thread_id).unwrap();
    assert_eq!(loaded[1], done);
    assert_eq!(
        count(
            &path,
            "runs",
            &format!("id = '{run_id}' AND status = 'completed' AND ended_at IS NOT NULL")
        ),
        1
    );
}

#[test]
fn messages_load_in_insertion_order_with_every_field() {
    let (_dir, path) = db_path();
    let store = SqliteStore::open(&path).unwrap();
    let t = store.create_thread("order").unwrap();
    let mut written = Vec::new();
    for i in 0..20 {
        let mut m = Message::user(&t.id, format!("message {i}"));
        if i % 3 == 1 {
            m.role = Role::Tool;
            m.tool_call_id = Some(format!("call_{i}"));
            m.is_error = i % 2 == 0;
        }
        if i % 5 == 4 {
            m.role = Role::Assistant;
            m.run_id = Some("r".into());
            m.status = MessageStatus::Error;
            m.error = Some("the model went away".into());
            m.reasoning = "hmm".into();
        }
        // Timestamps out of order must not change the order: insertion decides.
        m.created_at = 1_000 - i;
        store.append_message(&m).unwrap();
        written.push(m);
    }
    assert_eq!(store.load_messages(&t.id).unwrap(), written);
}

#[test]
fn bad_ids_give_not_found_errors() {
    let (_dir, path) = db_path();
    let store = SqliteStore::open(&path).unwrap();
    assert!(matches!(
        store.append_message(&Message::user("ghost", "hi")),
        Err(StoreError::ThreadNotFound(id)) if id == "ghost"
    ));
    assert!(matches!(
        store.append_delta("ghost", "x", false),
        Err(StoreError::MessageNotFound(id)) if id == "ghost"
    ));
    assert!(matches!(
        store.finish_message(&Message::user("t", "x")),
        Err(StoreError::MessageNotFound(_))
    ));
    assert!(matches!(
        store.begin_run("ghost", "run-1"),
        Err(StoreError::ThreadNotFound(_))
    ));
    let err = store.end_run("no-such-run", "completed").unwrap_err();
    assert!(err.to_string().contains("does not exist"), "{err}");

    let t = store.create_thread("t").unwrap();
    let m = Message::user(&t.id, "done already");
    store.append_message(&m).unwrap();
    let err = store.append_delta(&m.id, "more", false).unwrap_err();
    assert!(err.to_string().contains("not streaming"), "{err}");
    store.begin_run(&t.id, "run-2").unwrap();
    let err = store.end_run("run-2", "exploded").unwrap_err();
    assert!(
        err.to_string().contains("not a way for a run to end"),
        "{err}"
    );
}

#[test]
fn a_run_that_ends_with_its_reply_unfinished_keeps_the_streamed_text() {
    let (_dir, path) = db_path();
    let store = SqliteStore::open(&path).unwrap();
    let (thread_id, run_id, _) = start_streaming(&store, &[("half a ", false), ("reply", false)]);
    // As the run loop does when a store call failed mid-stream: end without finishing.
    store.end_run(&run_id, "failed").unwrap();
    let reply = store.load_messages(&thread_id).unwrap().pop().unwrap();
    assert_eq!(reply.status, MessageStatus::Error);
    assert_eq!(reply.content, "half a reply");
    assert!(reply.error.is_some());
    assert_eq!(count(&path, "message_deltas", "1"), 0);
}

#[test]
fn everything_survives_reopening_the_file() {
    let (_dir, path) = db_path();
    let (thread_id, finished) = {
        let store = SqliteStore::open(&path).unwrap();
        let t = store.create_thread("persisted").unwrap();
        store.rename_thread(&t.id, "renamed").unwrap();
        store.begin_run(&t.id, "run-a").unwrap();
        let mut reply = Message::assistant_streaming(&t.id, "run-a");
        store.append_message(&reply).unwrap();
        store
            .append_delta(&reply.id, "final answer", false)
            .unwrap();
        reply.content = "final answer".into();
        reply.status = MessageStatus::Complete;
        store.finish_message(&reply).unwrap();
        store.end_run("run-a", "completed").unwrap();
        store.set_setting("provider.model", "llama3").unwrap();
        (t.id, reply)
    };

    let store = SqliteStore::open(&path).unwrap();
    let threads = store.list_threads().unwrap();
    assert_eq!(threads.len(), 1);
    assert_eq!(threads[0].title, "renamed");
    assert_eq!(store.load_messages(&thread_id).unwrap(), vec![finished]);
    assert_eq!(
        store
            .get_setting::<String>("provider.model")
            .unwrap()
            .as_deref(),
        Some("llama3")
    );
}

#[test]
fn the_file_uses_wal_and_records_its_schema_version() {
    let (_dir, path) = db_path();
    let _store = SqliteStore::open(&path).unwrap();
    let conn = raw(&path);
    let mode: String = conn
        .query_row("PRAGMA journal_mode", [], |r| r.get(0))
        .unwrap();
    assert_eq!(mode, "wal");
    let version: i64 = conn
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .unwrap();
    assert!(version >= 1);
}

#[test]
fn thread_state_is_saved_and_survives_a_reopen() {
    use workbench_core::tools::StateUpdate;
    let (_dir, path) = db_path();
    let id = {
        let store = SqliteStore::open(&path).unwrap();
        let t = store.create_thread("t").unwrap();
        let mut state = t.state.clone();
        state.apply(&StateUpdate::Promoted {
            catalog_hash: "h".into(),
            names: vec!["github__create_issue".into()],
        });
        store.save_thread_state(&t.id, &state).unwrap();
        t.id
    };
    let store = SqliteStore::open(&path).unwrap();
    assert!(store
        .get_thread(&id)
        .unwrap()
        .state
        .is_promoted("h", "github__create_issue"));
    assert!(matches!(
        store.save_thread_state("nope", &Default::default()),
        Err(StoreError::ThreadNotFound(_))
    ));
}

#[test]
fn a_hidden_message_stays_hidden_across_a_reopen() {
    let (_dir, path) = db_path();
    let (id, shown, hidden) = {
        let store = SqliteStore::open(&path).unwrap();
        let t = store.create_thread("t").unwrap();
        let shown = Message::user(&t.id, "visible");
        let mut hidden = Message::user(&t.id, "a reminder for the model only");
        hidden.hidden = true;
        store.append_message(&shown).unwrap();
        store.append_message(&hidden).unwrap();
        (t.id, shown, hidden)
    };
    let store = SqliteStore::open(&path).unwrap();
    assert_eq!(store.load_messages(&id).unwrap(), vec![shown, hidden]);
}

#[test]
fn search_finds_titles_and_shown_messages_newest_first() {
    let (_dir, path) = db_path();
    let store = SqliteStore::open(&path).unwrap();
    let old = store.create_thread("Budget 2026").unwrap();
    let chat = store.create_thread("Chat").unwrap();
    let other = store.create_thread("Other").unwrap();
    store
        .append_message(&Message::user(
            &chat.id,
            "Can you check the BUDGET numbers\nfor March?",
        ))
        .unwrap();
    let mut tool = Message::user(&other.id, "budget in a tool result");
    tool.role = Role::Tool;
    tool.tool_call_id = Some("c1".into());
    store.append_message(&tool).unwrap();
    let mut hidden = Message::user(&other.id, "budget in a hidden reminder");
    hidden.hidden = true;
    store.append_message(&hidden).unwrap();

    let hits = store.search_threads("budget", 10).unwrap();
    let found: Vec<(&str, &str)> = hits
        .iter()
        .map(|h| (h.thread.id.as_str(), h.snippet.as_str()))
        .collect();
    assert_eq!(
        found,
        [
            (
                chat.id.as_str(),
                "Can you check the BUDGET numbers for March?"
            ),
            (old.id.as_str(), ""),
        ]
    );
    assert_eq!(store.search_threads("budget", 1).unwrap().len(), 1);
    assert!(store
        .search_threads("nothing like it", 10)
        .unwrap()
        .is_empty());
}

#[test]
fn search_takes_wildcards_literally() {
    let (_dir, path) = db_path();
    let store = SqliteStore::open(&path).unwrap();
    let pct = store.create_thread("Raise 5% now").unwrap();
    store.create_thread("Raise 50 now").unwrap();
    store.create_thread("a_b").unwrap();
    let ids = |q: &str| -> Vec<String> {
        store
            .search_threads(q, 10)
            .unwrap()
            .into_iter()
            .map(|h| h.thread.title)
            .collect()
    };
    assert_eq!(ids("5%"), ["Raise 5% now"]);
    assert_eq!(ids("a_b"), ["a_b"]);
    assert!(ids("a%b").is_empty());
    assert_eq!(pct.title, "Raise 5% now");
}
