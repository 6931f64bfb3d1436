//! `workbench tools --explain`: the report a user reads to learn why a tool is missing.

#![allow(clippy::unwrap_used)] // test helpers panic to report failures

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures")
}

/// A data folder holding the fixture agents and skills.
fn data_dir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (sub, files) in [
        ("agents/researcher", &["SOUL.md", "agent.json"][..]),
        ("skills/pdf-tools", &["SKILL.md"][..]),
        ("skills/notes", &["SKILL.md"][..]),
    ] {
        std::fs::create_dir_all(dir.path().join(sub)).unwrap();
        for f in files {
            std::fs::copy(fixtures().join(sub).join(f), dir.path().join(sub).join(f)).unwrap();
        }
    }
    dir
}

fn explain(data: &Path, extra: &[&str]) -> (Option<i32>, Value, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_workbench"))
        .env("WORKBENCH_DATA_DIR", data)
        .args(["tools", "--explain", "--json"])
        .args(extra)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    let report = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    (out.status.code(), report, stderr)
}

fn verdict<'a>(report: &'a Value, name: &str) -> &'a Value {
    report["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == name)
        .unwrap_or_else(|| panic!("{name} is not in the report"))
}

#[test]
fn catalog_tools_are_deferred_behind_tool_search() {
    let data = data_dir();
    let catalogs = fixtures().join("mcp-catalogs");
    let (code, report, err) = explain(data.path(), &["--catalogs", catalogs.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{err}");
    let issue = verdict(&report, "github__create_issue");
    assert_eq!(issue["visibility"], "deferred");
    assert_eq!(issue["gate"], "deferral");
    assert_eq!(issue["original_name"], "create_issue");
    assert_eq!(issue["source"]["server"], "github");
    let search = verdict(&report, "tool_search");
    assert_eq!(search["visibility"], "visible");
    assert!(search["reason"].as_str().unwrap().contains("848"));
    assert!(report["catalog_hash"].is_string());
}

#[test]
fn an_agents_tool_groups_hide_other_groups_and_say_so() {
    let data = data_dir();
    let (code, report, err) = explain(data.path(), &["--agent", "researcher"]);
    assert_eq!(code, Some(0), "{err}");
    let v = verdict(&report, "retrieve_tool_result");
    assert_eq!(v["visibility"], "hidden");
    assert_eq!(v["gate"], "agent_tool_groups");
    assert_eq!(
        v["reason"],
        "group `builtin` is not in agent `researcher`'s tool_groups (web, file)"
    );
    // The sandbox's file tools are in group `file`, its search tools in group `search`.
    assert_eq!(verdict(&report, "read_file")["visibility"], "visible");
    assert_eq!(verdict(&report, "write_file")["visibility"], "visible");
    assert_eq!(verdict(&report, "grep")["gate"], "agent_tool_groups");
}

#[test]
fn an_active_skill_narrows_the_tools_and_is_named() {
    let data = data_dir();
    let (code, report, err) = explain(data.path(), &["--skill", "pdf-tools"]);
    assert_eq!(code, Some(0), "{err}");
    let v = verdict(&report, "retrieve_tool_result");
    assert_eq!(v["visibility"], "hidden");
    assert_eq!(v["gate"], "skill_allowed_tools");
    assert!(v["reason"].as_str().unwrap().contains("`pdf-tools`"));
    assert_eq!(verdict(&report, "read_file")["visibility"], "visible");
    assert_eq!(verdict(&report, "ls")["gate"], "skill_allowed_tools");
    // A skill without allowed_tools narrows nothing.
    let (_, report, _) = explain(data.path(), &["--skill", "notes"]);
    assert_eq!(
        verdict(&report, "retrieve_tool_result")["visibility"],
        "visible"
    );
}

#[test]
fn unknown_agents_and_skills_are_refused_with_where_to_put_them() {
    let data = data_dir();
    let (code, _, err) = explain(data.path(), &["--agent", "nobody"]);
    assert_eq!(code, Some(2));
    assert!(
        err.contains("no agent named `nobody`") && err.contains("agents"),
        "{err}"
    );
    let (code, _, err) = explain(data.path(), &["--skill", "nothing"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("no skill named `nothing`"), "{err}");
}

#[test]
fn the_table_form_ends_with_a_summary() {
    let data = data_dir();
    let out = Command::new(env!("CARGO_BIN_EXE_workbench"))
        .env("WORKBENCH_DATA_DIR", data.path())
        .args(["tools", "--explain", "--agent", "researcher"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("TOOL"), "{text}");
    // ls, read_file, write_file, str_replace, apply_patch and the three web tools visible (the
    // agent's groups are web and file); the search, git and shell tools and the six built-ins
    // hidden by them, and view_image by the model gate (no model is configured here).
    assert!(text.contains("8 visible, 0 deferred, 15 hidden"), "{text}");
    assert!(
        text.contains(
            "view_image            sandbox   hidden   model_capability   no model is configured"
        ),
        "{text}"
    );
    // Aliases are listed after the tools with where they lead.
    assert!(
        text.contains("list_dir -> ls  (removed in 0.3.0): calls run `ls`"),
        "{text}"
    );
}

#[test]
fn config_tools_are_listed_with_source_config_and_bad_entries_are_named() {
    let data = data_dir();
    std::fs::write(
        data.path().join("tools.json"),
        r#"{"tools": [
            {"name": "search_files", "group": "file", "use": "sandbox.grep"},
            {"name": "oops", "group": "file", "use": "sandbox.grepp"}
        ]}"#,
    )
    .unwrap();
    let (code, report, err) = explain(data.path(), &["--agent", "researcher"]);
    assert_eq!(code, Some(0), "{err}");
    let v = verdict(&report, "search_files");
    assert_eq!(v["source"]["kind"], "config");
    assert_eq!(v["source"]["impl_id"], "sandbox.grep");
    assert_eq!(
        v["visibility"], "visible",
        "the agent's `file` group admits it"
    );
    assert_eq!(verdict(&report, "grep")["visibility"], "hidden");

    let out = Command::new(env!("CARGO_BIN_EXE_workbench"))
        .env("WORKBENCH_DATA_DIR", data.path())
        .args(["tools", "--explain"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let row = text
        .lines()
        .find(|l| l.starts_with("search_files"))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(
        row.contains("config") && row.contains("runs `sandbox.grep`"),
        "{row}"
    );
    assert!(text.contains("Tool configuration problems"), "{text}");
    assert!(text.contains("entry 2 (`oops`)"), "{text}");
}
