//! A thread's folders through the app: mounts checked, saved and merged with the agent's, a
//! run's file tools seeing them (read-only enforced), the folder listing, and uploads.
#![allow(clippy::unwrap_used)]

mod common;

use std::path::{Path, PathBuf};

use common::{explicit, fixtures, open_app, Recorder};
use scripted_model::{ScriptedServer, ServerOptions};
use workbench_app::MountSpec;
use workbench_core::agent::RunOutcome;
use workbench_core::config::ProviderKind;
use workbench_core::thread::Role;

fn spec(name: Option<&str>, host: &Path, read_only: bool) -> MountSpec {
    MountSpec {
        name: name.map(str::to_string),
        host: host.to_path_buf(),
        read_only,
    }
}

/// A data folder and, beside it, a host folder `ref/` with one file.
struct Setup {
    tmp: tempfile::TempDir,
    data: PathBuf,
    host: PathBuf,
}

fn setup() -> Setup {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    let host = tmp.path().join("ref");
    std::fs::create_dir_all(&data).unwrap();
    std::fs::create_dir_all(&host).unwrap();
    std::fs::write(host.join("notes.md"), "mounted notes\n").unwrap();
    Setup { tmp, data, host }
}

fn app_at(data: &Path) -> std::sync::Arc<workbench_app::App> {
    // open_app takes a TempDir; build the same thing on a sub-folder.
    workbench_app::App::open_with_secrets(
        workbench_app::DataDir::new(data),
        std::sync::Arc::new(common::MemorySecrets::default()),
    )
    .unwrap()
}

#[test]
fn mounts_are_checked_saved_canonical_and_listed() {
    let s = setup();
    let app = app_at(&s.data);
    let t = app.create_thread(None).unwrap();
    std::os::unix::fs::symlink(&s.host, s.tmp.path().join("link")).unwrap();

    let saved = app
        .set_thread_mounts(
            &t.id,
            &[spec(Some("ref"), &s.tmp.path().join("link"), true)],
        )
        .unwrap();
    assert_eq!(saved[0].host, s.host.canonicalize().unwrap());
    assert_eq!(app.thread_mounts(&t.id).unwrap(), saved);

    let bad = [
        (spec(Some("Bad Name"), &s.host, true), "is not allowed"),
        (
            spec(Some("x"), &s.tmp.path().join("nope"), true),
            "does not exist",
        ),
        (
            spec(Some("x"), &s.data, true),
            "inside Workbench's data folder",
        ),
        (
            spec(Some("x"), s.tmp.path(), false),
            "cannot be mounted read-write",
        ),
    ];
    for (m, want) in bad {
        let e = app.set_thread_mounts(&t.id, &[m]).unwrap_err().to_string();
        assert!(e.contains(want), "{want}: {e}");
    }
    assert_eq!(
        app.thread_mounts(&t.id).unwrap(),
        saved,
        "a refused change keeps the old"
    );
    let e = app.set_thread_mounts("nope", &[]).unwrap_err().to_string();
    assert!(e.contains("nope"), "{e}");

    let folders = app.thread_folders(&t.id).unwrap();
    let shown: Vec<(&str, bool, bool)> = folders
        .iter()
        .map(|f| (f.virtual_path.as_str(), f.writable, f.mounted))
        .collect();
    assert_eq!(
        shown,
        [
            ("/mnt/user-data/workspace", true, false),
            ("/mnt/user-data/uploads", true, false),
            ("/mnt/user-data/outputs", true, false),
            ("/mnt/user-data/mounts/ref", false, true),
        ]
    );
    assert_eq!(
        folders[0].host,
        s.data.join("threads").join(&t.id).join("workspace")
    );
    assert_eq!(folders[3].host, s.host.canonicalize().unwrap());

    // The workspace itself can be a host folder.
    app.set_thread_mounts(&t.id, &[spec(None, &s.host, false)])
        .unwrap();
    let folders = app.thread_folders(&t.id).unwrap();
    assert_eq!(folders[0].host, s.host.canonicalize().unwrap());
    assert!(folders[0].mounted && folders[0].writable);
}

#[test]
fn an_agents_mounts_join_the_threads_and_the_thread_wins() {
    let s = setup();
    let other = s.tmp.path().join("other");
    std::fs::create_dir_all(&other).unwrap();
    let agent = s.data.join("agents/reader");
    std::fs::create_dir_all(&agent).unwrap();
    std::fs::write(agent.join("SOUL.md"), "You read.").unwrap();
    std::fs::write(
        agent.join("agent.json"),
        serde_json::json!({"mounts": [
            {"name": "ref", "host": other, "read_only": true},
            {"name": "lib", "host": other, "read_only": true}
        ]})
        .to_string(),
    )
    .unwrap();
    let app = app_at(&s.data);
    let t = app.create_thread(None).unwrap();
    app.set_thread_mounts(&t.id, &[spec(Some("ref"), &s.host, false)])
        .unwrap();
    let roots = app.thread_roots(&t.id, Some("reader")).unwrap();
    let mounts: Vec<(&str, PathBuf, bool)> = roots
        .mounts
        .iter()
        .map(|m| (m.name.as_str(), m.host.clone(), m.read_only))
        .collect();
    assert_eq!(
        mounts,
        [
            ("ref", s.host.canonicalize().unwrap(), false),
            ("lib", other.canonicalize().unwrap(), true),
        ]
    );
    // A misspelt key in an agent's mount is refused, never read as read-write.
    std::fs::write(
        agent.join("agent.json"),
        r#"{"mounts": [{"name": "ref", "host": "/tmp", "readonly": true}]}"#,
    )
    .unwrap();
    let (_, problems) = workbench_app::agents::load_agents(&s.data);
    assert!(problems[0].message.contains("readonly"), "{problems:?}");
    // A mounted folder removed since makes the run's roots fail with a clear message.
    std::fs::remove_dir_all(&s.host).unwrap();
    let e = app.thread_roots(&t.id, None).unwrap_err().to_string();
    assert!(
        e.contains("cannot be used") && e.contains("does not exist"),
        "{e}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_runs_file_tools_read_a_read_only_mount_but_never_write_it() {
    let srv = ScriptedServer::start(fixtures(), ServerOptions::default()).unwrap();
    let s = setup();
    let app = app_at(&s.data);
    let t = app.create_thread(None).unwrap();
    app.set_thread_mounts(&t.id, &[spec(Some("ref"), &s.host, true)])
        .unwrap();
    let choice = explicit(ProviderKind::Openai, &srv.base_url(), "loop-mount", None);
    let h = app
        .start_run(&t.id, "Read the notes", choice, Recorder::default().sink())
        .await
        .unwrap();
    assert_eq!(h.finished().await, RunOutcome::Completed);
    let messages = app.get_thread(&t.id).unwrap().messages;
    let results: Vec<_> = messages.iter().filter(|m| m.role == Role::Tool).collect();
    assert_eq!(results.len(), 2);
    let read = results.iter().find(|m| m.content.contains("mounted notes"));
    assert!(read.is_some_and(|m| !m.is_error), "{results:#?}");
    let write = results
        .iter()
        .find(|m| m.content.contains("read-only mount"))
        .unwrap();
    assert!(write.is_error);
    assert!(!s.host.join("pwned.txt").exists());
    assert_eq!(
        std::fs::read_to_string(s.host.join("notes.md")).unwrap(),
        "mounted notes\n"
    );
}

#[tokio::test]
async fn uploads_are_copied_with_suffixes_and_refused_clearly() {
    let dir = tempfile::tempdir().unwrap();
    let app = open_app(&dir);
    let t = app.create_thread(None).unwrap();
    let src = tempfile::tempdir().unwrap();
    let a = src.path().join("report.pdf");
    std::fs::write(&a, "pdf bytes").unwrap();
    let sub = src.path().join("sub");
    std::fs::create_dir(&sub).unwrap();
    let b = sub.join("report.pdf");
    std::fs::write(&b, "other pdf").unwrap();

    let got = app
        .upload_files(&t.id, vec![a.clone(), b.clone(), a.clone()])
        .await
        .unwrap();
    assert_eq!(
        got,
        [
            "/mnt/user-data/uploads/report.pdf",
            "/mnt/user-data/uploads/report (1).pdf",
            "/mnt/user-data/uploads/report (2).pdf",
        ]
    );
    let uploads = dir.path().join("threads").join(&t.id).join("uploads");
    assert_eq!(
        std::fs::read_to_string(uploads.join("report (1).pdf")).unwrap(),
        "other pdf"
    );
    assert_eq!(
        std::fs::read_to_string(uploads.join("report.pdf")).unwrap(),
        "pdf bytes"
    );

    // Any bad file refuses the whole call before anything is copied.
    let before = std::fs::read_dir(&uploads).unwrap().count();
    let cases = [
        (
            vec![a.clone(), src.path().join("missing.txt")],
            "does not exist",
        ),
        (
            vec![a.clone(), sub.clone()],
            "is a folder or a special file",
        ),
        (vec![], "no files were given"),
    ];
    for (paths, want) in cases {
        let e = app
            .upload_files(&t.id, paths)
            .await
            .unwrap_err()
            .to_string();
        assert!(e.contains(want), "{want}: {e}");
    }
    assert_eq!(std::fs::read_dir(&uploads).unwrap().count(), before);
    let e = app
        .upload_files("nope", vec![a.clone()])
        .await
        .unwrap_err()
        .to_string();
    assert!(e.contains("nope"), "{e}");
}

#[tokio::test]
async fn a_file_over_the_cap_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let app = open_app(&dir);
    let t = app.create_thread(None).unwrap();
    let src = tempfile::tempdir().unwrap();
    let big = src.path().join("big.bin");
    // Sparse: no disk space used, but the size says it is over the cap.
    let f = std::fs::File::create(&big).unwrap();
    f.set_len(workbench_app::MAX_UPLOAD_BYTES + 1).unwrap();
    let e = app
        .upload_files(&t.id, vec![big])
        .await
        .unwrap_err()
        .to_string();
    assert!(e.contains("MiB limit"), "{e}");
    assert!(!dir
        .path()
        .join("threads")
        .join(&t.id)
        .join("uploads/big.bin")
        .exists());
}

#[test]
fn the_thread_folder_is_created_for_opening() {
    let dir = tempfile::tempdir().unwrap();
    let app = open_app(&dir);
    let t = app.create_thread(None).unwrap();
    let folder = app.thread_folder(&t.id).unwrap();
    assert_eq!(folder, dir.path().join("threads").join(&t.id));
    assert!(folder.join("workspace").is_dir() && folder.join("uploads").is_dir());
    assert!(app.thread_folder("nope").is_err());
}
