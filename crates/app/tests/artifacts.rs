//! The artifacts panel's backend: listing outputs (presented first), reading a file for its
//! preview through the sandbox, and the watch that reports changes.

#![allow(clippy::unwrap_used)]

mod common;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use base64::Engine;
use common::open_app;
use workbench_core::thread::ThreadStore;
use workbench_core::tools::StateUpdate;

#[test]
fn outputs_are_listed_presented_first_and_read_for_preview() {
    let dir = tempfile::tempdir().unwrap();
    let app = open_app(&dir);
    let t = app.create_thread(None).unwrap();
    let outputs = dir.path().join("threads").join(&t.id).join("outputs");
    std::fs::create_dir_all(outputs.join("charts")).unwrap();
    std::fs::write(outputs.join("a.csv"), "x,y\n1,2\n").unwrap();
    std::fs::write(outputs.join("report.md"), "# Report\n\nDone.\n").unwrap();
    std::fs::write(outputs.join("charts/c.png"), [0x89, b'P', b'N', b'G', 0, 1]).unwrap();
    let mut state = t.state.clone();
    state.apply(&StateUpdate::Artifacts {
        paths: vec!["/mnt/user-data/outputs/report.md".into()],
    });
    app.store().save_thread_state(&t.id, &state).unwrap();

    let list = app.list_outputs(&t.id).unwrap();
    let paths: Vec<&str> = list.iter().map(|f| f.path.as_str()).collect();
    assert_eq!(
        paths,
        [
            "/mnt/user-data/outputs/report.md",
            "/mnt/user-data/outputs/a.csv",
            "/mnt/user-data/outputs/charts/c.png"
        ]
    );
    assert!(list[0].presented && !list[1].presented);
    assert_eq!(list[1].size, 8);

    let md = app
        .read_artifact(&t.id, "/mnt/user-data/outputs/report.md")
        .unwrap();
    assert_eq!(md.mime, "text/markdown");
    assert_eq!(md.text.as_deref(), Some("# Report\n\nDone.\n"));
    let csv = app
        .read_artifact(&t.id, "/mnt/user-data/outputs/a.csv")
        .unwrap();
    assert_eq!(csv.mime, "text/csv");
    let png = app
        .read_artifact(&t.id, "/mnt/user-data/outputs/charts/c.png")
        .unwrap();
    assert_eq!(png.mime, "image/png");
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(png.base64.unwrap())
        .unwrap();
    assert_eq!(bytes, [0x89, b'P', b'N', b'G', 0, 1]);

    for bad in [
        "/etc/passwd",
        "/mnt/user-data/outputs/../../../../etc/passwd",
        "/mnt/user-data/outputs/nope.md",
    ] {
        let err = app.read_artifact(&t.id, bad).err().unwrap().to_string();
        assert!(!err.contains("root:"), "{err}");
        assert!(
            !err.contains(dir.path().to_str().unwrap()),
            "host path leaked: {err}"
        );
    }
}

#[test]
fn the_watch_reports_a_new_file_and_stops_when_dropped() {
    let dir = tempfile::tempdir().unwrap();
    let app = open_app(&dir);
    let t = app.create_thread(None).unwrap();
    let hits = Arc::new(AtomicUsize::new(0));
    let h = hits.clone();
    let watch = app
        .watch_outputs(
            &t.id,
            Arc::new(move || {
                h.fetch_add(1, Ordering::SeqCst);
            }),
        )
        .unwrap();
    let outputs = dir.path().join("threads").join(&t.id).join("outputs");
    std::fs::write(outputs.join("new.txt"), "hi").unwrap();
    let deadline = std::time::Instant::now() + Duration::from_secs(5);
    while hits.load(Ordering::SeqCst) == 0 && std::time::Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(hits.load(Ordering::SeqCst) >= 1, "no change reported");
    drop(watch);
    std::thread::sleep(Duration::from_millis(400));
    let before = hits.load(Ordering::SeqCst);
    std::fs::write(outputs.join("later.txt"), "x").unwrap();
    std::thread::sleep(Duration::from_millis(600));
    assert_eq!(
        hits.load(Ordering::SeqCst),
        before,
        "a dropped watch stays quiet"
    );
}

#[test]
fn save_as_copies_the_file_and_refuses_what_it_cannot_do_without_touching_the_target() {
    let dir = tempfile::tempdir().unwrap();
    let app = open_app(&dir);
    let t = app.create_thread(None).unwrap();
    let outputs = dir.path().join("threads").join(&t.id).join("outputs");
    std::fs::create_dir_all(&outputs).unwrap();
    let body: Vec<u8> = (0..200_000u32).map(|i| (i % 251) as u8).collect();
    std::fs::write(outputs.join("data.bin"), &body).unwrap();
    let elsewhere = tempfile::tempdir().unwrap();

    // A new file, then over an existing one: the copy is whole and nothing partial is left.
    let dest = elsewhere.path().join("copy.bin");
    let n = app
        .save_artifact_as(&t.id, "/mnt/user-data/outputs/data.bin", &dest)
        .unwrap();
    assert_eq!(n, body.len() as u64);
    assert_eq!(std::fs::read(&dest).unwrap(), body);
    std::fs::write(&dest, "older").unwrap();
    app.save_artifact_as(&t.id, "/mnt/user-data/outputs/data.bin", &dest)
        .unwrap();
    assert_eq!(std::fs::read(&dest).unwrap(), body);
    let names: Vec<String> = std::fs::read_dir(elsewhere.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["copy.bin"]);

    // A missing source, a path outside the thread, a folder as the target: a sentence each,
    // and the existing target is untouched.
    std::fs::write(&dest, "keep me").unwrap();
    let missing = app
        .save_artifact_as(&t.id, "/mnt/user-data/outputs/nope.md", &dest)
        .unwrap_err()
        .to_string();
    assert!(missing.contains("nope.md"), "{missing}");
    let outside = app
        .save_artifact_as(&t.id, "/etc/passwd", &dest)
        .unwrap_err()
        .to_string();
    assert!(outside.contains("/etc/passwd"), "{outside}");
    let folder = app
        .save_artifact_as(&t.id, "/mnt/user-data/outputs/data.bin", elsewhere.path())
        .unwrap_err()
        .to_string();
    assert!(folder.contains("is a folder"), "{folder}");
    assert_eq!(std::fs::read_to_string(&dest).unwrap(), "keep me");

    // A target folder that does not exist: the error names it, nothing is created.
    let gone = elsewhere.path().join("no-such-dir").join("x.bin");
    let err = app
        .save_artifact_as(&t.id, "/mnt/user-data/outputs/data.bin", &gone)
        .unwrap_err()
        .to_string();
    assert!(err.contains("could not save"), "{err}");
    assert!(!elsewhere.path().join("no-such-dir").exists());
}
