//! The file and search tools through their `Tool` interface: happy paths and the precise
//! errors a model fixes its call from. Every test works in its own temporary folder.

use std::path::Path;
use std::sync::Arc;

use serde_json::{json, Value};
use tokio_util::sync::CancellationToken;
use workbench_core::tools::{Tool, ToolContext, ToolError, ToolOutput, ToolSource};
use workbench_sandbox::{file_tools, Mount, ThreadRoots};

struct Env {
    tmp: tempfile::TempDir,
    roots: ThreadRoots,
    tools: Vec<Arc<dyn Tool>>,
}

impl Env {
    fn new() -> Self {
        let tmp = tempfile::tempdir().expect("tempdir");
        let mut roots = ThreadRoots::under(&tmp.path().join("thread"));
        roots.create().expect("create roots");
        let data = tmp.path().join("data");
        std::fs::create_dir_all(&data).expect("mkdir data");
        std::fs::write(data.join("ref.txt"), "reference\n").expect("write");
        roots.mounts.push(Mount {
            name: "data".into(),
            host: data,
            read_only: true,
        });
        let tools = file_tools(&roots);
        Self { tmp, roots, tools }
    }

    fn ws(&self) -> &Path {
        &self.roots.workspace
    }

    fn put(&self, rel: &str, content: &str) {
        let p = self.ws().join(rel);
        std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
        std::fs::write(p, content).expect("write");
    }

    async fn call(&self, name: &str, args: Value) -> Result<ToolOutput, ToolError> {
        let tool = self
            .tools
            .iter()
            .find(|t| t.spec().name == name)
            .expect("tool exists");
        let ctx = ToolContext {
            thread_id: "t".into(),
            run_id: "r".into(),
            call_id: "c".into(),
            cancel: CancellationToken::new(),
        };
        tool.call(args, &ctx).await
    }

    /// A successful, non-error result's text.
    async fn ok(&self, name: &str, args: Value) -> String {
        let out = self.call(name, args.clone()).await.expect("no ToolError");
        assert!(!out.is_error, "{name} {args}: {}", out.content);
        self.no_host_path(&out.content);
        out.content
    }

    /// An error result's text (either an error ToolOutput or InvalidArguments).
    async fn err(&self, name: &str, args: Value) -> String {
        let text = match self.call(name, args.clone()).await {
            Ok(out) => {
                assert!(out.is_error, "{name} {args} should fail: {}", out.content);
                out.content
            }
            Err(ToolError::InvalidArguments(m)) => m,
            Err(e) => panic!("{name} {args}: unexpected {e:?}"),
        };
        self.no_host_path(&text);
        text
    }

    fn no_host_path(&self, text: &str) {
        let host = self.tmp.path().to_string_lossy();
        assert!(!text.contains(host.as_ref()), "host path leaked: {text}");
    }
}

#[test]
fn every_tool_is_a_sandbox_tool_in_its_group() {
    let env = Env::new();
    let names: Vec<(String, String)> = env
        .tools
        .iter()
        .map(|t| {
            assert_eq!(t.meta().source, ToolSource::Sandbox);
            (t.spec().name.clone(), t.meta().group.clone())
        })
        .collect();
    let want = [
        ("ls", "file"),
        ("read_file", "file"),
        ("write_file", "file"),
        ("str_replace", "file"),
        ("apply_patch", "file"),
        ("glob", "search"),
        ("grep", "search"),
        ("file_search", "search"),
    ];
    for (n, g) in want {
        assert!(names.contains(&(n.into(), g.into())), "{n}: {names:?}");
    }
}

// ---- ls ----

#[tokio::test]
async fn ls_shows_a_two_level_tree_with_sizes() {
    let env = Env::new();
    env.put("src/main.rs", "fn main() {}\n");
    env.put("src/deep/inner/x.rs", "x");
    env.put("README.md", "hi");
    let out = env.ok("ls", json!({})).await;
    assert!(out.starts_with("/mnt/user-data/workspace/\n"), "{out}");
    assert!(out.contains("  README.md (2 B)"), "{out}");
    assert!(
        out.contains("  src/\n    deep/\n    main.rs (13 B)"),
        "{out}"
    );
    assert!(!out.contains("inner"), "depth 2 only: {out}");
    let out = env.ok("ls", json!({"path": "src", "depth": 3})).await;
    assert!(out.contains("inner/"), "{out}");
}

#[tokio::test]
async fn ls_caps_entries_with_a_note() {
    let env = Env::new();
    for i in 0..350 {
        env.put(&format!("f{i:03}.txt"), "");
    }
    let out = env
        .ok("ls", json!({"path": "/mnt/user-data/workspace"}))
        .await;
    assert!(out.contains("... 50 more entries not shown"), "{out}");
}

#[tokio::test]
async fn ls_of_the_virtual_root_lists_the_roots() {
    let env = Env::new();
    let out = env.ok("ls", json!({"path": "/mnt/user-data"})).await;
    assert!(out.contains("workspace/"), "{out}");
    assert!(out.contains("mounts/data/ (read-only)"), "{out}");
}

#[tokio::test]
async fn ls_errors_are_precise() {
    let env = Env::new();
    let e = env.err("ls", json!({"path": "nope"})).await;
    assert!(
        e.contains("`/mnt/user-data/workspace/nope` was not found"),
        "{e}"
    );
    let e = env.err("ls", json!({"depth": 0})).await;
    assert!(e.contains("`depth` must be an integer from 1 to 10"), "{e}");
    let e = env.err("ls", json!({"dir": "x"})).await;
    assert!(
        e.contains("ls has no argument `dir`; it takes path, depth"),
        "{e}"
    );
}

// ---- read_file ----

#[tokio::test]
async fn read_file_numbers_lines_and_honours_ranges() {
    let env = Env::new();
    let text: String = (1..=10).map(|i| format!("line {i}\n")).collect();
    env.put("a.txt", &text);
    let out = env.ok("read_file", json!({"path": "a.txt"})).await;
    assert!(out.starts_with("   1\tline 1\n"), "{out}");
    assert!(out.contains("  10\tline 10\n"), "{out}");
    let out = env
        .ok(
            "read_file",
            json!({"path": "/mnt/user-data/workspace/a.txt", "start_line": 3, "end_line": 4}),
        )
        .await;
    assert_eq!(out, "   3\tline 3\n   4\tline 4\n");
}

#[tokio::test]
async fn read_file_pages_long_files() {
    let env = Env::new();
    let text: String = (1..=2500).map(|i| format!("{i}\n")).collect();
    env.put("long.txt", &text);
    let out = env.ok("read_file", json!({"path": "long.txt"})).await;
    assert!(
        out.contains("[showing lines 1-2000 of 2500; call again with start_line=2001"),
        "{out}"
    );
}

#[tokio::test]
async fn read_file_refuses_binary_with_its_type() {
    let env = Env::new();
    std::fs::write(env.ws().join("img.png"), b"\x89PNG\r\n\x1a\n\0\0\0rest").expect("write");
    let e = env.err("read_file", json!({"path": "img.png"})).await;
    assert!(e.contains("is a PNG image"), "{e}");
    assert!(e.contains("not text"), "{e}");
}

#[tokio::test]
async fn read_file_errors_are_precise() {
    let env = Env::new();
    env.put("a.txt", "one\ntwo\n");
    std::fs::create_dir_all(env.ws().join("dir")).expect("mkdir");
    let cases = [
        (json!({"path": "dir"}), "is a directory, not a file"),
        (json!({"path": "missing.txt"}), "was not found"),
        (json!({"path": "a.txt", "start_line": 5}), "has 2 lines"),
        (
            json!({"path": "a.txt", "start_line": 2, "end_line": 1}),
            "is before `start_line`",
        ),
        (json!({"path": "a.txt", "start_line": 0}), "from 1 to"),
        (json!({}), "`path` is required"),
        (json!({"path": 3}), "`path` must be a string"),
        (json!("a.txt"), "must be a JSON object"),
    ];
    for (args, want) in cases {
        let e = env.err("read_file", args.clone()).await;
        assert!(e.contains(want), "{args}: {e}");
    }
}

#[tokio::test]
async fn read_file_reads_uploads_and_read_only_mounts() {
    let env = Env::new();
    std::fs::write(env.roots.uploads.join("u.csv"), "a,b\n").expect("write");
    let out = env
        .ok("read_file", json!({"path": "/mnt/user-data/uploads/u.csv"}))
        .await;
    assert!(out.contains("a,b"), "{out}");
    let out = env
        .ok(
            "read_file",
            json!({"path": "/mnt/user-data/mounts/data/ref.txt"}),
        )
        .await;
    assert!(out.contains("reference"), "{out}");
}

// ---- write_file ----

#[tokio::test]
async fn write_file_creates_parents_replaces_and_appends() {
    let env = Env::new();
    let out = env
        .ok(
            "write_file",
            json!({"path": "/mnt/user-data/outputs/r/report.md", "content": "# R\n"}),
        )
        .await;
    assert!(
        out.contains("to /mnt/user-data/outputs/r/report.md (created"),
        "{out}"
    );
    env.ok(
        "write_file",
        json!({"path": "/mnt/user-data/outputs/r/report.md", "content": "more\n", "append": true}),
    )
    .await;
    let got = std::fs::read_to_string(env.roots.outputs.join("r/report.md")).expect("read");
    assert_eq!(got, "# R\nmore\n");
    let out = env
        .ok(
            "write_file",
            json!({"path": "/mnt/user-data/outputs/r/report.md", "content": "new"}),
        )
        .await;
    assert!(out.contains("(replaced"), "{out}");
    let got = std::fs::read_to_string(env.roots.outputs.join("r/report.md")).expect("read");
    assert_eq!(got, "new");
}

#[tokio::test]
async fn write_file_keeps_the_mode_of_a_replaced_file() {
    use std::os::unix::fs::PermissionsExt;
    let env = Env::new();
    env.put("run.sh", "#!/bin/sh\n");
    let p = env.ws().join("run.sh");
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    env.ok(
        "write_file",
        json!({"path": "run.sh", "content": "#!/bin/sh\necho hi\n"}),
    )
    .await;
    let mode = std::fs::metadata(&p).expect("meta").permissions().mode();
    assert_eq!(mode & 0o777, 0o755);
}

#[tokio::test]
async fn write_file_errors_are_precise() {
    let env = Env::new();
    std::fs::create_dir_all(env.ws().join("dir")).expect("mkdir");
    let e = env
        .err("write_file", json!({"path": "dir", "content": "x"}))
        .await;
    assert!(
        e.contains("`/mnt/user-data/workspace/dir` is a directory"),
        "{e}"
    );
    let e = env
        .err(
            "write_file",
            json!({"path": "/mnt/user-data/mounts/data/x.txt", "content": "x"}),
        )
        .await;
    assert!(
        e.contains("is on a read-only mount (/mnt/user-data/mounts/data)"),
        "{e}"
    );
    let e = env.err("write_file", json!({"path": "a.txt"})).await;
    assert!(e.contains("`content` is required"), "{e}");
    let e = env
        .err(
            "write_file",
            json!({"path": "a.txt", "content": "x", "append": "yes"}),
        )
        .await;
    assert!(e.contains("`append` must be true or false"), "{e}");
    let big = "x".repeat(10 * 1024 * 1024 + 1);
    let e = env
        .err("write_file", json!({"path": "big.txt", "content": big}))
        .await;
    assert!(
        e.contains("more than the 10.0 MB one call may write"),
        "{e}"
    );
    assert!(!env.ws().join("big.txt").exists());
}

// ---- str_replace ----

#[tokio::test]
async fn str_replace_replaces_exactly_one_match() {
    let env = Env::new();
    env.put("a.rs", "fn a() {}\nfn b() {}\n");
    let out = env
        .ok(
            "str_replace",
            json!({"path": "a.rs", "old_str": "fn b()", "new_str": "fn c()"}),
        )
        .await;
    assert!(
        out.contains("Replaced 1 occurrence in /mnt/user-data/workspace/a.rs (line 2)"),
        "{out}"
    );
    let got = std::fs::read_to_string(env.ws().join("a.rs")).expect("read");
    assert_eq!(got, "fn a() {}\nfn c() {}\n");
}

#[tokio::test]
async fn str_replace_reports_counts_and_lines_of_several_matches() {
    let env = Env::new();
    env.put("a.py", "x = 1\ny = 2\nx = 1\n\nx = 1\n");
    let e = env
        .err(
            "str_replace",
            json!({"path": "a.py", "old_str": "x = 1", "new_str": "x = 9"}),
        )
        .await;
    assert!(
        e.contains(
            "occurs 3 times in `/mnt/user-data/workspace/a.py` (starting on lines 1, 3 and 5)"
        ),
        "{e}"
    );
    assert!(e.contains("replace_all: true"), "{e}");
    // Nothing changed.
    let got = std::fs::read_to_string(env.ws().join("a.py")).expect("read");
    assert_eq!(got, "x = 1\ny = 2\nx = 1\n\nx = 1\n");
    let out = env
        .ok(
            "str_replace",
            json!({"path": "a.py", "old_str": "x = 1", "new_str": "x = 9", "replace_all": true}),
        )
        .await;
    assert!(out.contains("Replaced 3 occurrences"), "{out}");
    let got = std::fs::read_to_string(env.ws().join("a.py")).expect("read");
    assert_eq!(got, "x = 9\ny = 2\nx = 9\n\nx = 9\n");
}

#[tokio::test]
async fn str_replace_zero_matches_and_bad_arguments() {
    let env = Env::new();
    env.put("a.py", "    indented = True\n");
    let e = env
        .err(
            "str_replace",
            json!({"path": "a.py", "old_str": "nothing", "new_str": "x"}),
        )
        .await;
    assert!(e.contains("`old_str` was not found in"), "{e}");
    let e = env
        .err(
            "str_replace",
            json!({"path": "a.py", "old_str": "indented = True  ", "new_str": "x"}),
        )
        .await;
    assert!(
        e.contains("different leading or trailing whitespace"),
        "{e}"
    );
    let e = env
        .err(
            "str_replace",
            json!({"path": "a.py", "old_str": "", "new_str": "x"}),
        )
        .await;
    assert!(e.contains("`old_str` is empty"), "{e}");
    let e = env
        .err(
            "str_replace",
            json!({"path": "a.py", "old_str": "a", "new_str": "a"}),
        )
        .await;
    assert!(e.contains("are the same"), "{e}");
    let e = env
        .err(
            "str_replace",
            json!({"path": "/mnt/user-data/mounts/data/ref.txt", "old_str": "reference", "new_str": "x"}),
        )
        .await;
    assert!(e.contains("read-only mount"), "{e}");
}

// ---- glob ----

#[tokio::test]
async fn glob_matches_names_and_paths_and_respects_gitignore() {
    let env = Env::new();
    env.put("src/a.rs", "");
    env.put("src/sub/b.rs", "");
    env.put("notes.md", "");
    env.put("target/debug/c.rs", "");
    env.put(".gitignore", "target/\n");
    env.put(".git/HEAD", "ref");
    let out = env.ok("glob", json!({"pattern": "*.rs"})).await;
    assert_eq!(
        out,
        "/mnt/user-data/workspace/src/a.rs\n/mnt/user-data/workspace/src/sub/b.rs\n(2 files)\n"
    );
    let out = env.ok("glob", json!({"pattern": "src/*.rs"})).await;
    assert!(out.contains("src/a.rs") && !out.contains("b.rs"), "{out}");
    let out = env
        .ok(
            "glob",
            json!({"pattern": "/mnt/user-data/workspace/src/**/*.rs"}),
        )
        .await;
    assert!(out.contains("src/sub/b.rs"), "{out}");
    let out = env.ok("glob", json!({"pattern": "**/HEAD"})).await;
    assert!(out.starts_with("No files match"), "{out}");
}

#[tokio::test]
async fn glob_caps_results() {
    let env = Env::new();
    for i in 0..520 {
        env.put(&format!("d/f{i:03}.txt"), "");
    }
    let out = env.ok("glob", json!({"pattern": "**/*.txt"})).await;
    assert!(
        out.contains("... 20 more (520 files match; showing the first 500)"),
        "{out}"
    );
}

#[tokio::test]
async fn glob_errors_are_precise() {
    let env = Env::new();
    let e = env.err("glob", json!({"pattern": "a[b"})).await;
    assert!(e.contains("is not a valid glob"), "{e}");
    let e = env.err("glob", json!({"pattern": ""})).await;
    assert!(e.contains("`pattern` is empty"), "{e}");
    let e = env.err("glob", json!({"pattern": "../**"})).await;
    assert!(e.contains("contains `..`"), "{e}");
}

// ---- grep ----

#[tokio::test]
async fn grep_finds_lines_with_context_and_counts() {
    let env = Env::new();
    env.put("src/a.rs", "one\ntwo\nneedle here\nfour\nfive\n");
    env.put("src/b.txt", "no\nNEEDLE upper\n");
    let out = env
        .ok("grep", json!({"pattern": "needle", "context": 1}))
        .await;
    assert!(
        out.contains("/mnt/user-data/workspace/src/a.rs\n2-two\n3:needle here\n4-four\n"),
        "{out}"
    );
    assert!(
        out.contains("1 matching line in 1 file (2 searched)"),
        "{out}"
    );
    let out = env
        .ok("grep", json!({"pattern": "needle", "ignore_case": true}))
        .await;
    assert!(out.contains("2:NEEDLE upper"), "{out}");
    assert!(out.contains("2 matching lines in 2 files"), "{out}");
    let out = env
        .ok(
            "grep",
            json!({"pattern": "needle", "ignore_case": true, "include": "*.rs"}),
        )
        .await;
    assert!(!out.contains("b.txt"), "{out}");
    let out = env
        .ok(
            "grep",
            json!({"pattern": "needle", "ignore_case": true, "files_only": true}),
        )
        .await;
    assert!(
        out.contains("/mnt/user-data/workspace/src/a.rs (1)"),
        "{out}"
    );
}

#[tokio::test]
async fn grep_literal_regex_single_file_gitignore_and_binary() {
    let env = Env::new();
    env.put("a.txt", "call f(x)\nf+x\n");
    env.put("ignored/x.txt", "f(x)\n");
    env.put(".gitignore", "ignored/\n");
    std::fs::write(env.ws().join("bin.dat"), b"f(x)\0\0").expect("write");
    let out = env
        .ok("grep", json!({"pattern": "f(x)", "literal": true}))
        .await;
    assert!(out.contains("1:call f(x)"), "{out}");
    assert!(!out.contains("ignored"), "{out}");
    assert!(!out.contains("bin.dat"), "{out}");
    let out = env
        .ok("grep", json!({"pattern": "f\\+x", "path": "a.txt"}))
        .await;
    assert!(
        out.contains("/mnt/user-data/workspace/a.txt\n2:f+x"),
        "{out}"
    );
    let out = env.ok("grep", json!({"pattern": "zzz"})).await;
    assert!(out.starts_with("No matches for `zzz`"), "{out}");
}

#[tokio::test]
async fn grep_caps_output() {
    let env = Env::new();
    let text: String = (0..300).map(|i| format!("hit {i}\n")).collect();
    env.put("many.txt", &text);
    let out = env.ok("grep", json!({"pattern": "hit"})).await;
    assert!(
        out.contains("[output capped: showing 200 of 300 matching lines"),
        "{out}"
    );
    assert!(out.contains("300 matching lines in 1 file"), "{out}");
}

#[tokio::test]
async fn grep_errors_are_precise() {
    let env = Env::new();
    let e = env.err("grep", json!({"pattern": "f(x"})).await;
    assert!(e.contains("not a valid regular expression"), "{e}");
    assert!(e.contains("literal: true"), "{e}");
    let e = env
        .err("grep", json!({"pattern": "x", "context": 11}))
        .await;
    assert!(
        e.contains("`context` must be an integer from 0 to 10"),
        "{e}"
    );
    let e = env
        .err("grep", json!({"pattern": "x", "path": "nope"}))
        .await;
    assert!(e.contains("was not found"), "{e}");
}

// ---- file_search ----

#[tokio::test]
async fn file_search_ranks_fuzzy_matches() {
    let env = Env::new();
    env.put("src/main.rs", "");
    env.put("src/tools/read_file.rs", "");
    env.put("docs/manual.md", "");
    let out = env.ok("file_search", json!({"query": "mainrs"})).await;
    assert!(
        out.starts_with("/mnt/user-data/workspace/src/main.rs\n"),
        "{out}"
    );
    let out = env.ok("file_search", json!({"query": "tool read"})).await;
    assert!(
        out.starts_with("/mnt/user-data/workspace/src/tools/read_file.rs"),
        "{out}"
    );
    let out = env.ok("file_search", json!({"query": "qqqq"})).await;
    assert!(out.starts_with("No file under"), "{out}");
    let e = env
        .err("file_search", json!({"query": "x", "limit": 0}))
        .await;
    assert!(e.contains("from 1 to 100"), "{e}");
}

#[tokio::test]
async fn cancelled_call_stops() {
    let env = Env::new();
    let tool = env
        .tools
        .iter()
        .find(|t| t.spec().name == "grep")
        .expect("grep");
    let ctx = ToolContext {
        thread_id: "t".into(),
        run_id: "r".into(),
        call_id: "c".into(),
        cancel: CancellationToken::new(),
    };
    ctx.cancel.cancel();
    let e = tool
        .call(json!({"pattern": "x"}), &ctx)
        .await
        .expect_err("cancelled");
    assert_eq!(e, ToolError::Cancelled);
}
