//! `workbench mcp ...` as a user runs it: add, list, tools, validate, disable, import, remove,
//! against the misbehaving test server (plain values only: the CLI uses the real keychain).

#![allow(clippy::unwrap_used)] // test helpers panic to report failures

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

fn misbehaving() -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/mcp-servers/misbehaving.py")
        .canonicalize()
        .unwrap()
        .display()
        .to_string()
}

fn workbench(data: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_workbench"))
        .env("WORKBENCH_DATA_DIR", data)
        .args(args)
        .output()
        .unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).to_string()
}

#[test]
fn add_list_tools_validate_disable_remove() {
    let dir = tempfile::tempdir().unwrap();
    let script = misbehaving();
    let out = workbench(
        dir.path(),
        &[
            "mcp",
            "add",
            "good",
            "--command",
            "python3",
            "--env",
            "MODE_NOTE=plain",
            "--startup-timeout",
            "10",
            "--",
            &script,
            "ok",
        ],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let again = workbench(dir.path(), &["mcp", "add", "good", "--command", "python3"]);
    assert_eq!(again.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&again.stderr).contains("already exists"));

    let cfg: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("mcp.json")).unwrap())
            .unwrap();
    assert_eq!(cfg["mcpServers"]["good"]["args"][1], "ok");
    assert_eq!(cfg["mcpServers"]["good"]["env"]["MODE_NOTE"], "plain");

    let list = workbench(dir.path(), &["mcp", "list"]);
    assert!(
        stdout(&list).contains("connected, 4 tools"),
        "{}",
        stdout(&list)
    );
    let tools = workbench(dir.path(), &["mcp", "tools", "good"]);
    assert!(stdout(&tools).contains("good__ping"), "{}", stdout(&tools));
    let valid = workbench(dir.path(), &["mcp", "validate", "good"]);
    assert!(
        valid.status.success() && stdout(&valid).contains("ok: 4 tools"),
        "{}",
        stdout(&valid)
    );

    let off = workbench(dir.path(), &["mcp", "disable", "good", "--tool", "fail"]);
    assert!(off.status.success());
    let tools = workbench(dir.path(), &["mcp", "tools", "good"]);
    assert!(
        stdout(&tools).contains("- good__fail"),
        "{}",
        stdout(&tools)
    );

    // A missing command fails validation with its name, exit 1.
    workbench(
        dir.path(),
        &["mcp", "add", "broken", "--command", "no-such-mcp-cmd-xyz"],
    );
    let bad = workbench(dir.path(), &["mcp", "validate", "broken"]);
    assert_eq!(bad.status.code(), Some(1));
    assert!(
        stdout(&bad).contains("`no-such-mcp-cmd-xyz` was not found"),
        "{}",
        stdout(&bad)
    );
    let list = workbench(dir.path(), &["mcp", "list"]);
    assert!(
        stdout(&list).contains("failed: the command `no-such-mcp-cmd-xyz`"),
        "{}",
        stdout(&list)
    );

    // Import from a file: a new name is added, a taken one skipped.
    let file = dir.path().join("servers.json");
    std::fs::write(&file, format!(r#"{{"mcpServers": {{"good": {{"command": "x"}}, "second": {{"command": "python3", "args": ["{script}", "ok"]}}}}}}"#)).unwrap();
    let imp = workbench(
        dir.path(),
        &["mcp", "import", "--json", file.to_str().unwrap()],
    );
    assert!(
        stdout(&imp).contains("added second") && stdout(&imp).contains("skipped good"),
        "{}",
        stdout(&imp)
    );
    let bad_json = dir.path().join("bad.json");
    std::fs::write(&bad_json, "{ nope").unwrap();
    let imp = workbench(
        dir.path(),
        &["mcp", "import", "--json", bad_json.to_str().unwrap()],
    );
    assert_eq!(imp.status.code(), Some(2));

    for name in ["good", "broken", "second"] {
        assert!(workbench(dir.path(), &["mcp", "remove", name])
            .status
            .success());
    }
    let offline = workbench(dir.path(), &["mcp", "list", "--offline", "--json"]);
    let cfg: Value = serde_json::from_str(&stdout(&offline)).unwrap();
    assert_eq!(cfg["mcpServers"], serde_json::json!({}));
    assert_eq!(
        workbench(dir.path(), &["mcp", "remove", "good"])
            .status
            .code(),
        Some(2)
    );
}
