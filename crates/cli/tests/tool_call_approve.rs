//! `workbench tool call` and `workbench approve` as a user runs them: a tool called by hand
//! goes through the same sandbox and approvals as a model's call, and a run that stops for
//! approval exits with its own status and resumes from `approve`.

#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};
use std::process::Command;

use scripted_model::{ScriptedServer, ServerOptions};
use serde_json::Value;

fn workbench(data: &Path) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_workbench"));
    cmd.env("WORKBENCH_DATA_DIR", data)
        .env_remove("WORKBENCH_API_KEY");
    cmd
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn new_thread(data: &Path) -> String {
    let out = workbench(data)
        .args(["tool", "call", "ls", "{}"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let err = text(&out.stderr);
    err.split("new thread ")
        .nth(1)
        .unwrap()
        .split_whitespace()
        .next()
        .unwrap()
        .to_string()
}

#[test]
fn a_file_tool_call_writes_inside_the_thread_and_prints_virtual_paths() {
    let dir = tempfile::tempdir().unwrap();
    let thread = new_thread(dir.path());
    let out = workbench(dir.path())
        .args(["tool", "call", "--thread", &thread, "write_file"])
        .arg(r#"{"path": "/mnt/user-data/outputs/note.md", "content": "hi\n"}"#)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let written = dir
        .path()
        .join("threads")
        .join(&thread)
        .join("outputs/note.md");
    assert_eq!(std::fs::read_to_string(written).unwrap(), "hi\n");
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("/mnt/user-data/outputs/note.md"),
        "{stdout}"
    );
    assert!(!stdout.contains(dir.path().to_str().unwrap()), "{stdout}");
}

#[test]
fn an_escape_is_an_error_result_with_exit_status_1() {
    let dir = tempfile::tempdir().unwrap();
    let thread = new_thread(dir.path());
    let out = workbench(dir.path())
        .args(["tool", "call", "--json", "--thread", &thread, "read_file"])
        .arg(r#"{"path": "/mnt/user-data/workspace/../../../../etc/passwd"}"#)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let v: Value = serde_json::from_str(text(&out.stdout).trim()).unwrap();
    assert_eq!(v["is_error"], true);
    assert!(!v["content"].as_str().unwrap().contains("root:"));
}

#[test]
fn bash_needs_approve_and_then_runs_confined() {
    let dir = tempfile::tempdir().unwrap();
    let thread = new_thread(dir.path());
    let refused = workbench(dir.path())
        .args([
            "tool",
            "call",
            "--thread",
            &thread,
            "bash",
            r#"{"command": "echo hi"}"#,
        ])
        .output()
        .unwrap();
    assert_eq!(refused.status.code(), Some(2));
    assert!(
        text(&refused.stderr).contains("--approve"),
        "{}",
        text(&refused.stderr)
    );

    let out = workbench(dir.path())
        .args(["tool", "call", "--approve", "--thread", &thread, "bash"])
        .arg(
            r#"{"command": "echo inside > made.txt; touch /etc/workbench-escape 2>&1; echo done"}"#,
        )
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("done") && stdout.contains("[exit code: 0]"),
        "{stdout}"
    );
    assert!(!Path::new("/etc/workbench-escape").exists());
    let made = dir
        .path()
        .join("threads")
        .join(&thread)
        .join("workspace/made.txt");
    assert_eq!(std::fs::read_to_string(made).unwrap(), "inside\n");
}

#[test]
fn an_unknown_tool_and_bad_arguments_are_clear_errors() {
    let dir = tempfile::tempdir().unwrap();
    let thread = new_thread(dir.path());
    let out = workbench(dir.path())
        .args(["tool", "call", "--thread", &thread, "no_such_tool", "{}"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stdout).contains("no_such_tool"),
        "{}",
        text(&out.stdout)
    );
    let out = workbench(dir.path())
        .args([
            "tool",
            "call",
            "--thread",
            &thread,
            "read_file",
            "{not json",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stdout).contains("not valid JSON"),
        "{}",
        text(&out.stdout)
    );
}

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/model")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_run_waiting_for_approval_exits_3_and_approve_resumes_it() {
    let srv = ScriptedServer::start(fixtures(), ServerOptions::default()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let provider = [
        "--provider",
        "openai",
        "--base-url",
        &srv.base_url(),
        "--model",
        "shell",
    ];
    let out = workbench(dir.path())
        .arg("run")
        .args(provider)
        .arg("Run a command")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3), "{}", text(&out.stderr));
    let err = text(&out.stderr);
    assert!(err.contains("waiting for approval: bash"), "{err}");
    // "answer: workbench approve THREAD CALL allow|always|deny"
    let answer = err.split("workbench approve ").nth(1).unwrap();
    let mut words = answer.split_whitespace();
    let (thread, call) = (words.next().unwrap(), words.next().unwrap());

    let out = workbench(dir.path())
        .args(["approve", thread, call, "allow"])
        .args(provider)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("Done"), "{}", text(&out.stdout));
    let ran = dir
        .path()
        .join("threads")
        .join(thread)
        .join("workspace/ran.txt");
    assert_eq!(std::fs::read_to_string(ran).unwrap(), "approved\n");

    let again = workbench(dir.path())
        .args(["approve", thread, call, "deny"])
        .args(provider)
        .output()
        .unwrap();
    assert_eq!(again.status.code(), Some(2), "answered already");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_question_prints_its_options_exits_3_and_answer_resumes() {
    let srv = ScriptedServer::start(fixtures(), ServerOptions::default()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let provider = [
        "--provider",
        "openai",
        "--base-url",
        &srv.base_url(),
        "--model",
        "ask",
    ];
    let out = workbench(dir.path())
        .arg("run")
        .args(provider)
        .arg("Make me a report")
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3), "{}", text(&out.stderr));
    let err = text(&out.stderr);
    assert!(
        err.contains("the agent asks: Which format should the report use?"),
        "{err}"
    );
    assert!(
        err.contains("1. Markdown") && err.contains("2. CSV"),
        "{err}"
    );
    let thread = err
        .split("workbench answer ")
        .nth(1)
        .unwrap()
        .split_whitespace()
        .next()
        .unwrap()
        .to_string();

    let out = workbench(dir.path())
        .args(["answer", &thread, "CSV please"])
        .args(provider)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let shown = workbench(dir.path())
        .args(["show", "--json", &thread])
        .output()
        .unwrap();
    assert!(text(&shown.stdout).contains("The user answered: CSV please"));
    let again = workbench(dir.path())
        .args(["answer", &thread, "JSON"])
        .args(provider)
        .output()
        .unwrap();
    assert_eq!(again.status.code(), Some(2));
    assert!(text(&again.stderr).contains("no question waits"));
}
