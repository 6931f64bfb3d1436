//! `apply_patch` through its `Tool` interface: every operation, all-or-nothing failures with
//! precise messages, and the read-only mount.
#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::json;
use tokio_util::sync::CancellationToken;
use workbench_core::tools::{Tool, ToolContext, ToolError, ToolSource};
use workbench_sandbox::{file_tools, Mount, ThreadRoots};

struct Env {
    _tmp: tempfile::TempDir,
    roots: ThreadRoots,
    tool: Arc<dyn Tool>,
}

impl Env {
    fn new() -> Self {
        let tmp = tempfile::tempdir().unwrap();
        let mut roots = ThreadRoots::under(&tmp.path().join("thread"));
        roots.create().unwrap();
        let data = tmp.path().join("data");
        std::fs::create_dir_all(&data).unwrap();
        std::fs::write(data.join("ref.txt"), "reference\n").unwrap();
        roots.mounts.push(Mount {
            name: "data".into(),
            host: data,
            read_only: true,
        });
        let tool = file_tools(&roots)
            .into_iter()
            .find(|t| t.spec().name == "apply_patch")
            .unwrap();
        Self {
            _tmp: tmp,
            roots,
            tool,
        }
    }

    fn ws(&self, rel: &str) -> PathBuf {
        self.roots.workspace.join(rel)
    }

    fn put(&self, rel: &str, content: &str) {
        let p = self.ws(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, content).unwrap();
    }

    fn get(&self, rel: &str) -> String {
        std::fs::read_to_string(self.ws(rel)).unwrap()
    }

    /// The result text and whether it is an error (InvalidArguments counts as one).
    async fn patch(&self, patch: &str) -> (String, bool) {
        let ctx = ToolContext {
            thread_id: "t".into(),
            run_id: "r".into(),
            call_id: "c".into(),
            cancel: CancellationToken::new(),
        };
        match self.tool.call(json!({ "patch": patch }), &ctx).await {
            Ok(out) => (out.content, out.is_error),
            Err(ToolError::InvalidArguments(m)) => (m, true),
            Err(e) => panic!("unexpected {e:?}"),
        }
    }

    /// Every file under the workspace with its content, to prove nothing changed.
    fn snapshot(&self) -> Vec<(PathBuf, String)> {
        let mut out = Vec::new();
        collect(&self.roots.workspace, &mut out);
        out.sort();
        out
    }
}

fn collect(dir: &Path, out: &mut Vec<(PathBuf, String)>) {
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            out.push((p.clone(), "<dir>".into()));
            collect(&p, out);
        } else {
            out.push((p.clone(), std::fs::read_to_string(&p).unwrap_or_default()));
        }
    }
}

#[test]
fn apply_patch_is_a_file_tool() {
    let env = Env::new();
    assert_eq!(env.tool.meta().group, "file");
    assert_eq!(env.tool.meta().source, ToolSource::Sandbox);
}

#[tokio::test]
async fn adds_updates_moves_and_deletes_in_one_patch() {
    let env = Env::new();
    env.put(
        "src/main.rs",
        "fn helper() {\n    1\n}\n\nfn main() {\n    let x = 1;\n    println!(\"{x}\");\n}\n",
    );
    env.put("old.txt", "bye\n");
    env.put("lib.rs", "pub fn a() {}\n");
    let patch = "*** Begin Patch
*** Add File: docs/notes.md
+# Notes
+
+first
*** Update File: /mnt/user-data/workspace/src/main.rs
@@ fn main() {
     let x = 1;
-    println!(\"{x}\");
+    println!(\"x = {x}\");
 }
*** Delete File: old.txt
*** Update File: lib.rs
*** Move to: src/lib.rs
@@
-pub fn a() {}
+pub fn a() -> u8 { 1 }
*** End of File
*** End Patch";
    let (out, is_error) = env.patch(patch).await;
    assert!(!is_error, "{out}");
    assert_eq!(
        out,
        "Applied the patch: 4 files changed.\n\
         A /mnt/user-data/workspace/docs/notes.md (3 lines)\n\
         M /mnt/user-data/workspace/src/main.rs (1 hunk)\n\
         D /mnt/user-data/workspace/old.txt (4 B)\n\
         R /mnt/user-data/workspace/lib.rs -> /mnt/user-data/workspace/src/lib.rs (1 hunk)"
    );
    assert_eq!(env.get("docs/notes.md"), "# Notes\n\nfirst\n");
    assert!(env
        .get("src/main.rs")
        .contains("println!(\"x = {x}\");\n}\n"));
    assert!(env
        .get("src/main.rs")
        .starts_with("fn helper() {\n    1\n}"));
    assert!(!env.ws("old.txt").exists());
    assert!(!env.ws("lib.rs").exists());
    assert_eq!(env.get("src/lib.rs"), "pub fn a() -> u8 { 1 }\n");
}

#[tokio::test]
async fn one_bad_hunk_changes_nothing_and_says_where() {
    let env = Env::new();
    env.put("a.txt", "one\ntwo\nthree\n");
    env.put("b.txt", "alpha\nbeta\ngamma\n");
    let before = env.snapshot();
    let patch = "*** Begin Patch
*** Add File: new.txt
+new
*** Update File: a.txt
@@
-one
+ONE
*** Update File: b.txt
@@
 alpha
-beta
+BETA
@@
 gamma
-delta
+DELTA
*** Delete File: a-missing.txt
*** End Patch";
    let (out, is_error) = env.patch(patch).await;
    assert!(is_error, "{out}");
    assert_eq!(env.snapshot(), before, "a failed patch changed files");
    assert!(
        out.starts_with("The patch was not applied (no file was changed): 2 problems."),
        "{out}"
    );
    assert!(
        out.contains("`/mnt/user-data/workspace/b.txt`, hunk 2 (patch line 13): these 2 lines"),
        "{out}"
    );
    assert!(out.contains("  gamma\n  delta"), "{out}");
    assert!(
        out.contains("line 4 is (end of file) where the hunk has `delta`"),
        "{out}"
    );
    assert!(
        out.contains("`/mnt/user-data/workspace/a-missing.txt` was not found"),
        "{out}"
    );
}

#[tokio::test]
async fn refusals_are_precise_and_change_nothing() {
    let env = Env::new();
    env.put("a.txt", "a\n");
    env.put("bin.dat", "");
    std::fs::write(env.ws("bin.dat"), [0xff, 0xfe, 0x00]).unwrap();
    std::fs::create_dir(env.ws("src")).unwrap();
    let before = env.snapshot();
    let cases = [
        ("not a patch", "first line must be `*** Begin Patch`"),
        (
            "*** Begin Patch\n*** Add File: a.txt\n+x\n*** End Patch",
            "`/mnt/user-data/workspace/a.txt` already exists; use `*** Update File:`",
        ),
        (
            "*** Begin Patch\n*** Update File: a.txt\n-a\n+b\n*** Update File: /mnt/user-data/workspace/a.txt\n-a\n+c\n*** End Patch",
            "appears more than once in the patch",
        ),
        (
            "*** Begin Patch\n*** Update File: a.txt\n*** Move to: src\n-a\n+b\n*** End Patch",
            "`/mnt/user-data/workspace/src` already exists",
        ),
        (
            "*** Begin Patch\n*** Update File: bin.dat\n-x\n+y\n*** End Patch",
            "is not UTF-8 text",
        ),
        (
            "*** Begin Patch\n*** Delete File: /mnt/user-data/workspace\n*** End Patch",
            "is a folder of the sandbox, not a file",
        ),
        (
            "*** Begin Patch\n*** Add File: /mnt/user-data/mounts/data/new.txt\n+x\n*** End Patch",
            "is on a read-only mount",
        ),
        (
            "*** Begin Patch\n*** Update File: /mnt/user-data/mounts/data/ref.txt\n-reference\n+changed\n*** End Patch",
            "is on a read-only mount",
        ),
    ];
    for (patch, want) in cases {
        let (out, is_error) = env.patch(patch).await;
        assert!(is_error, "{patch:?} should fail: {out}");
        assert!(out.contains(want), "{patch:?}: {out}");
    }
    assert_eq!(env.snapshot(), before);
    assert_eq!(
        std::fs::read_to_string(env.roots.mounts[0].host.join("ref.txt")).unwrap(),
        "reference\n"
    );
}

#[tokio::test]
async fn moving_onto_an_existing_file_is_refused() {
    let env = Env::new();
    env.put("a.txt", "a\n");
    env.put("b.txt", "b\n");
    let (out, is_error) = env
        .patch("*** Begin Patch\n*** Update File: a.txt\n*** Move to: b.txt\n*** End Patch")
        .await;
    assert!(is_error);
    assert!(
        out.contains("`/mnt/user-data/workspace/b.txt` already exists"),
        "{out}"
    );
    assert_eq!(
        (env.get("a.txt"), env.get("b.txt")),
        ("a\n".into(), "b\n".into())
    );
    let (out, is_error) = env
        .patch("*** Begin Patch\n*** Update File: a.txt\n*** Move to: /mnt/user-data/outputs/a.txt\n*** End Patch")
        .await;
    assert!(!is_error, "{out}");
    assert_eq!(
        std::fs::read_to_string(env.roots.outputs.join("a.txt")).unwrap(),
        "a\n"
    );
    assert!(!env.ws("a.txt").exists());
}

#[tokio::test]
async fn a_patch_over_the_size_cap_is_refused_before_parsing() {
    let env = Env::new();
    let big = format!(
        "*** Begin Patch\n*** Add File: big.txt\n{}*** End Patch",
        "+x\n".repeat(4 << 20)
    );
    let (out, is_error) = env.patch(&big).await;
    assert!(is_error);
    assert!(out.contains("split it into several patches"), "{out}");
    assert!(!env.ws("big.txt").exists());
}
