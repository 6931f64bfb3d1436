//! `workbench thread export ID --format md|json [-o FILE]`.

#![allow(clippy::unwrap_used)] // test helpers panic to report failures

use std::path::Path;
use std::process::{Command, Output};

use workbench_app::{App, DataDir};
use workbench_core::thread::{Message, ThreadStore};

fn workbench(data: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_workbench"))
        .env("WORKBENCH_DATA_DIR", data)
        .args(args)
        .output()
        .unwrap()
}

fn thread_with_messages(data: &Path) -> String {
    let app = App::open(DataDir::new(data)).unwrap();
    let t = app.create_thread(Some("Export me")).unwrap();
    let store = app.store();
    store
        .append_message(&Message::user(&t.id, "What is 2 + 2?"))
        .unwrap();
    let mut hidden = Message::user(&t.id, "[reminder, not from the user] internal");
    hidden.hidden = true;
    store.append_message(&hidden).unwrap();
    t.id
}

#[test]
fn exports_markdown_to_stdout_and_json_to_a_file() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    let id = thread_with_messages(&data);

    let out = workbench(&data, &["thread", "export", &id, "--format", "md"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "# Export me\n\n## User\n\nWhat is 2 + 2?\n"
    );

    let file = tmp.path().join("thread.json");
    let out = workbench(
        &data,
        &[
            "thread",
            "export",
            &id,
            "--format",
            "json",
            "-o",
            file.to_str().unwrap(),
        ],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(json["thread"]["id"], id.as_str());
    let messages = json["messages"].as_array().unwrap();
    assert_eq!(messages.len(), 1, "the hidden message is left out");
    assert_eq!(messages[0]["content"], "What is 2 + 2?");
}

#[test]
fn bad_input_is_refused_with_a_sentence_and_writes_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    let id = thread_with_messages(&data);
    let file = tmp.path().join("out.pdf");

    let out = workbench(
        &data,
        &[
            "thread",
            "export",
            &id,
            "--format",
            "pdf",
            "-o",
            file.to_str().unwrap(),
        ],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("use md or json"));
    assert!(!file.exists());

    let out = workbench(&data, &["thread", "export", "no-such-thread"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(!String::from_utf8_lossy(&out.stderr).trim().is_empty());
}
