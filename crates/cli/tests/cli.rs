//! The `workbench` binary as a user runs it, against the scripted model server.

#![allow(clippy::unwrap_used)] // test helpers panic to report failures

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use scripted_model::{ScriptedServer, ServerOptions};
use serde_json::Value;

const HELLO: &str = "Hello! I am a scripted model. How can I help you today?";

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/model")
}

fn workbench(data: &Path) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_workbench"));
    cmd.env("WORKBENCH_DATA_DIR", data)
        .env_remove("WORKBENCH_API_KEY");
    cmd
}

fn run_with(data: &Path, base_url: &str, model: &str, extra: &[&str], prompt: &str) -> Output {
    workbench(data)
        .args([
            "run",
            "--provider",
            "openai",
            "--base-url",
            base_url,
            "--model",
            model,
        ])
        .args(extra)
        .arg(prompt)
        .output()
        .unwrap()
}

fn events(stdout: &[u8]) -> Vec<Value> {
    String::from_utf8_lossy(stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn run_prints_the_reply_and_stores_the_thread() {
    let srv = ScriptedServer::start(fixtures(), ServerOptions::default()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let out = run_with(dir.path(), &srv.base_url(), "hello", &[], "Who are you?");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), HELLO);

    let list = workbench(dir.path())
        .args(["threads", "--json"])
        .output()
        .unwrap();
    let threads = events(&list.stdout);
    assert_eq!(threads.len(), 1);
    assert_eq!(threads[0]["title"], "Who are you?");

    // Continue the same thread: the model receives the earlier turn.
    let id = threads[0]["id"].as_str().unwrap();
    let out = run_with(
        dir.path(),
        &srv.base_url(),
        "hello",
        &["--thread", id],
        "And now?",
    );
    assert!(out.status.success());
    let show = workbench(dir.path())
        .args(["show", id, "--json"])
        .output()
        .unwrap();
    let view: Value = serde_json::from_slice(&show.stdout).unwrap();
    assert_eq!(view["messages"].as_array().unwrap().len(), 4);
    let last = srv.requests().last().cloned().unwrap();
    let sent = serde_json::to_string(&last).unwrap();
    assert!(
        sent.contains("Who are you?") && sent.contains("And now?"),
        "{sent}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn json_mode_prints_one_event_per_line_in_order() {
    let srv = ScriptedServer::start(fixtures(), ServerOptions::default()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let out = run_with(dir.path(), &srv.base_url(), "hello", &["--json"], "hi");
    assert!(out.status.success());
    let ev = events(&out.stdout);
    assert_eq!(ev.first().unwrap()["type"], "run_started");
    assert_eq!(ev.last().unwrap()["type"], "run_finished");
    assert_eq!(ev.last().unwrap()["outcome"], "completed");
    let text: String = ev
        .iter()
        .filter(|e| e["type"] == "delta")
        .map(|e| e["text"].as_str().unwrap())
        .collect();
    assert_eq!(text, HELLO);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_run_shows_its_text_marked_interrupted() {
    let srv = ScriptedServer::start(fixtures(), ServerOptions::default()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut child = workbench(dir.path())
        .args([
            "run",
            "--json",
            "--provider",
            "openai",
            "--base-url",
            &srv.base_url(),
        ])
        .args(["--model", "slow", "tell me a long story"])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let (mut thread_id, mut shown, mut deltas) = (String::new(), String::new(), 0);
    while deltas < 3 {
        let line = lines.next().unwrap().unwrap();
        let ev: Value = serde_json::from_str(&line).unwrap();
        match ev["type"].as_str().unwrap() {
            "run_started" => thread_id = ev["thread_id"].as_str().unwrap().to_string(),
            "delta" => {
                shown.push_str(ev["text"].as_str().unwrap());
                deltas += 1;
            }
            _ => {}
        }
    }
    child.kill().unwrap(); // SIGKILL: no chance to clean up, like a crash.
    child.wait().unwrap();

    let show = workbench(dir.path())
        .args(["show", &thread_id, "--json"])
        .output()
        .unwrap();
    assert!(
        show.status.success(),
        "{}",
        String::from_utf8_lossy(&show.stderr)
    );
    let view: Value = serde_json::from_slice(&show.stdout).unwrap();
    let reply = view["messages"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(reply["status"], "interrupted");
    let stored = reply["content"].as_str().unwrap();
    assert!(
        stored.starts_with(&shown),
        "everything shown was stored: {stored:?} vs {shown:?}"
    );
}

#[test]
fn bad_flags_and_missing_setup_give_a_clear_error_and_status_2() {
    let dir = tempfile::tempdir().unwrap();
    let out = workbench(dir.path())
        .args([
            "run",
            "--provider",
            "gemini",
            "--base-url",
            "http://x",
            "--model",
            "m",
            "hi",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown provider `gemini`"));

    let out = workbench(dir.path()).args(["run", "hi"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no model provider is configured"));

    let out = workbench(dir.path())
        .args(["show", "nope"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("does not exist"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failed_run_exits_1_with_the_reason() {
    let srv = ScriptedServer::start(fixtures(), ServerOptions::default()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let out = run_with(dir.path(), &srv.base_url(), "no-such-model", &[], "hi");
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("no-such-model") && err.contains("not found"),
        "{err}"
    );
}
