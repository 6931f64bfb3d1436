//! `workbench tools search` as a user runs it, over the real catalogs in tests/fixtures.

#![allow(clippy::unwrap_used)] // test helpers panic to report failures

use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::Value;

fn catalogs() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/mcp-catalogs")
}

fn search(data: &Path, args: &[&str]) -> Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_workbench"))
        .env("WORKBENCH_DATA_DIR", data)
        .args(["tools", "search"])
        .args(args)
        .output()
        .unwrap()
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn prints_ranked_server_tool_names() {
    let data = tempfile::tempdir().unwrap();
    let dir = catalogs();
    let out = search(
        data.path(),
        &[
            "--catalogs",
            dir.to_str().unwrap(),
            "take a screenshot of the page",
        ],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines: Vec<String> = stdout(&out).lines().map(str::to_string).collect();
    assert_eq!(lines.len(), 5, "{lines:?}");
    assert!(lines.iter().all(|l| l.contains('/')), "{lines:?}");
    assert!(
        lines
            .iter()
            .any(|l| l == "playwright/browser_take_screenshot"),
        "{lines:?}"
    );
    // Only catalogs are read: queries-dev.json lies in the same folder.
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn json_output_has_names_and_scores_best_first() {
    let data = tempfile::tempdir().unwrap();
    let dir = catalogs();
    let out = search(
        data.path(),
        &[
            "--catalogs",
            dir.to_str().unwrap(),
            "--limit",
            "3",
            "--json",
            "git commit",
        ],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let rows: Vec<Value> = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(rows.len(), 3);
    assert_eq!(rows[0]["name"], "git/git_commit");
    let scores: Vec<f64> = rows.iter().map(|r| r["score"].as_f64().unwrap()).collect();
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{scores:?}");
}

#[test]
fn select_form_passes_through() {
    let data = tempfile::tempdir().unwrap();
    let dir = catalogs();
    let out = search(
        data.path(),
        &[
            "--catalogs",
            dir.to_str().unwrap(),
            "select:slack/slack_post_message,time__get_current_time",
        ],
    );
    assert_eq!(
        stdout(&out).lines().collect::<Vec<_>>(),
        ["slack/slack_post_message", "time/get_current_time"]
    );
}

#[test]
fn a_missing_or_empty_folder_exits_2() {
    let data = tempfile::tempdir().unwrap();
    let missing = data.path().join("nope");
    let out = search(data.path(), &["--catalogs", missing.to_str().unwrap(), "x"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no such folder"));

    let empty = tempfile::tempdir().unwrap();
    let out = search(
        data.path(),
        &["--catalogs", empty.path().to_str().unwrap(), "x"],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no catalog files"));
}

#[test]
fn a_broken_file_is_skipped_with_a_warning_naming_it() {
    let data = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(catalogs().join("git.json"), dir.path().join("git.json")).unwrap();
    std::fs::write(dir.path().join("broken.json"), "{ not json").unwrap();
    let out = search(
        data.path(),
        &["--catalogs", dir.path().to_str().unwrap(), "git log"],
    );
    assert!(out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("broken.json"), "{stderr}");
    assert_eq!(stdout(&out).lines().next(), Some("git/git_log"));
}
