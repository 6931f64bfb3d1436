//! `workbench thread path ID`: the thread's host folders, with mounts and their modes.

#![allow(clippy::unwrap_used)] // test helpers panic to report failures

use std::process::Command;

use workbench_app::{App, DataDir, MountSpec};

#[test]
fn prints_each_folder_with_its_mode() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    let docs = tmp.path().join("docs");
    std::fs::create_dir_all(&docs).unwrap();
    let id = {
        let app = App::open(DataDir::new(&data)).unwrap();
        let t = app.create_thread(Some("t")).unwrap();
        app.set_thread_mounts(
            &t.id,
            &[MountSpec {
                name: Some("docs".into()),
                host: docs.clone(),
                read_only: true,
            }],
        )
        .unwrap();
        t.id
    };
    let out = Command::new(env!("CARGO_BIN_EXE_workbench"))
        .env("WORKBENCH_DATA_DIR", &data)
        .args(["thread", "path", &id])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let thread_dir = data.join("threads").join(&id);
    let want = format!(
        "workspace        rw  {ws}\n\
         uploads          rw  {up}\n\
         outputs          rw  {outp}\n\
         mounts/docs      ro  {docs}  (mounted)\n",
        ws = thread_dir.join("workspace").display(),
        up = thread_dir.join("uploads").display(),
        outp = thread_dir.join("outputs").display(),
        docs = docs.canonicalize().unwrap().display(),
    );
    assert_eq!(text, want);

    let out = Command::new(env!("CARGO_BIN_EXE_workbench"))
        .env("WORKBENCH_DATA_DIR", &data)
        .args(["thread", "path", &id, "--json"])
        .output()
        .unwrap();
    let lines: Vec<serde_json::Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 4);
    assert_eq!(lines[3]["virtual_path"], "/mnt/user-data/mounts/docs");
    assert_eq!(lines[3]["writable"], false);

    let out = Command::new(env!("CARGO_BIN_EXE_workbench"))
        .env("WORKBENCH_DATA_DIR", &data)
        .args(["thread", "path", "no-such-thread"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no-such-thread"));
}
