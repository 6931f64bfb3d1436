//! git_status and git_diff against real repositories the tests create: staged, unstaged and
//! untracked changes, a rename, a mount, no repository, a repository that reaches outside the
//! thread's folders, and a repository config that tries to run a program.
#![allow(clippy::unwrap_used)]

use std::path::Path;
use std::process::Command;

use serde_json::{json, Value};
use tokio_util::sync::CancellationToken;
use workbench_core::tools::{Tool, ToolContext, ToolError, ToolOutput};
use workbench_sandbox::git::{GitDiffTool, GitStatusTool};
use workbench_sandbox::{Mount, ThreadRoots};

fn git(dir: &Path, args: &[&str]) {
    let out = Command::new("git")
        .args([
            "-c",
            "user.name=Test",
            "-c",
            "user.email=t@example.com",
            "-c",
            "init.defaultBranch=main",
        ])
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn write(dir: &Path, rel: &str, content: &str) {
    let p = dir.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, content).unwrap();
}

struct Env {
    _tmp: tempfile::TempDir,
    roots: ThreadRoots,
}

impl Env {
    fn new() -> Self {
        let tmp = tempfile::tempdir().unwrap();
        let roots = ThreadRoots::under(&tmp.path().join("thread"));
        roots.create().unwrap();
        Self { _tmp: tmp, roots }
    }

    fn ws(&self) -> &Path {
        &self.roots.workspace
    }

    /// A repository in the workspace with one commit, then: a staged edit, an unstaged edit,
    /// a file edited in both, a staged new file, a staged rename, and untracked files.
    fn with_changes(self) -> Self {
        let ws = self.ws().to_path_buf();
        git(&ws, &["init", "-q"]);
        write(&ws, "staged.txt", "one\n");
        write(&ws, "unstaged.txt", "alpha\nbeta\n");
        write(&ws, "both.txt", "1\n");
        write(&ws, "old name.txt", "moving\nfile\nwith\nlines\n");
        git(&ws, &["add", "-A"]);
        git(&ws, &["commit", "-q", "-m", "first"]);
        write(&ws, "staged.txt", "one\ntwo\n");
        write(&ws, "both.txt", "1\n2\n");
        write(&ws, "new.txt", "brand new\n");
        git(&ws, &["add", "staged.txt", "both.txt", "new.txt"]);
        git(&ws, &["mv", "old name.txt", "new name.txt"]);
        write(&ws, "both.txt", "1\n2\n3\n");
        write(&ws, "unstaged.txt", "alpha\nBETA\n");
        write(&ws, "notes/todo.md", "untracked\n");
        write(&ws, "scratch.txt", "untracked\n");
        self
    }
}

fn ctx() -> ToolContext {
    ToolContext {
        thread_id: "t".into(),
        run_id: "r".into(),
        call_id: "c".into(),
        cancel: CancellationToken::new(),
    }
}

async fn status(env: &Env, args: Value) -> ToolOutput {
    GitStatusTool::new(env.roots.clone())
        .call(args, &ctx())
        .await
        .unwrap()
}

async fn diff(env: &Env, args: Value) -> Result<ToolOutput, ToolError> {
    GitDiffTool::new(env.roots.clone()).call(args, &ctx()).await
}

fn names(list: &Value) -> Vec<String> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|v| v.get("path").unwrap_or(v).as_str().unwrap().to_string())
        .collect()
}

#[tokio::test]
async fn status_lists_staged_unstaged_and_untracked_files() {
    let env = Env::new().with_changes();
    let out = status(&env, json!({})).await;
    assert!(!out.is_error, "{}", out.content);
    let v: Value = serde_json::from_str(&out.content).unwrap();
    assert_eq!(v["repository"], "/mnt/user-data/workspace");
    assert_eq!(v["clean"], false);
    let s = &v["status"];
    assert_eq!(s["branch"], "main");
    assert!(s["commit"].as_str().unwrap().len() >= 40);
    assert_eq!(
        names(&s["staged"]),
        ["both.txt", "new name.txt", "new.txt", "staged.txt"]
    );
    let renamed = s["staged"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["path"] == "new name.txt")
        .unwrap();
    assert_eq!(renamed["change"], "renamed");
    assert_eq!(renamed["from"], "old name.txt");
    assert_eq!(names(&s["unstaged"]), ["both.txt", "unstaged.txt"]);
    assert_eq!(names(&s["untracked"]), ["notes/todo.md", "scratch.txt"]);
    assert!(
        !out.content.contains(env.ws().to_str().unwrap()),
        "host paths are masked"
    );
    // Read-only: status did not touch the index.
    let index = std::fs::metadata(env.ws().join(".git/index"))
        .unwrap()
        .modified()
        .unwrap();
    status(&env, json!({})).await;
    assert_eq!(
        std::fs::metadata(env.ws().join(".git/index"))
            .unwrap()
            .modified()
            .unwrap(),
        index
    );
}

#[tokio::test]
async fn status_from_a_subfolder_finds_the_repository_and_a_clean_tree_says_so() {
    let env = Env::new();
    let ws = env.ws().to_path_buf();
    git(&ws, &["init", "-q"]);
    write(&ws, "src/lib.rs", "fn x() {}\n");
    git(&ws, &["add", "-A"]);
    git(&ws, &["commit", "-q", "-m", "c"]);
    let out = status(&env, json!({"path": "/mnt/user-data/workspace/src"})).await;
    let v: Value = serde_json::from_str(&out.content).unwrap();
    assert_eq!(v["clean"], true);
    assert_eq!(v["status"]["staged"], json!([]));
}

#[tokio::test]
async fn diff_shows_unstaged_and_staged_changes_per_file() {
    let env = Env::new().with_changes();
    let out = diff(&env, json!({})).await.unwrap();
    assert!(!out.is_error, "{}", out.content);
    let text = &out.content;
    assert!(
        text.starts_with(
            "Unstaged changes (work tree vs index) in /mnt/user-data/workspace: 2 files, +2 -1"
        ),
        "{text}"
    );
    assert!(text.contains("=== both.txt (+1 -0)\n"), "{text}");
    assert!(text.contains("=== unstaged.txt (+1 -1)\n"), "{text}");
    assert!(text.contains("-beta\n+BETA\n"), "{text}");
    assert!(
        !text.contains("new.txt"),
        "staged-only files are not in the unstaged diff"
    );

    let staged = diff(&env, json!({"staged": true})).await.unwrap().content;
    assert!(
        staged.starts_with("Staged changes (index vs HEAD)"),
        "{staged}"
    );
    assert!(
        staged.contains("=== old name.txt -> new name.txt (+0 -0)"),
        "{staged}"
    );
    assert!(staged.contains("=== new.txt (+1 -0)\n"), "{staged}");
    assert!(staged.contains("+brand new\n"), "{staged}");

    let only = diff(
        &env,
        json!({"staged": true, "files": ["/mnt/user-data/workspace/staged.txt"]}),
    )
    .await
    .unwrap()
    .content;
    assert!(only.contains(": 1 file, +1 -0"), "{only}");
    assert!(only.contains("+two\n"), "{only}");
}

#[tokio::test]
async fn a_large_change_is_capped_per_file() {
    let env = Env::new();
    let ws = env.ws().to_path_buf();
    git(&ws, &["init", "-q"]);
    write(&ws, "big.txt", "start\n");
    write(&ws, "small.txt", "a\n");
    git(&ws, &["add", "-A"]);
    git(&ws, &["commit", "-q", "-m", "c"]);
    let big: String = (0..2000).map(|i| format!("line number {i}\n")).collect();
    write(&ws, "big.txt", &big);
    write(&ws, "small.txt", "b\n");
    let text = diff(&env, json!({})).await.unwrap().content;
    assert!(text.contains("=== big.txt (+2000 -1)"), "{text}");
    assert!(
        text.contains("more lines of this file's patch not shown"),
        "{text}"
    );
    assert!(text.contains("=== small.txt (+1 -1)\n"), "{text}");
    assert!(
        text.contains("-a\n+b\n"),
        "the next file is shown whole after a capped one"
    );
    assert!(text.len() < 6_000, "{} chars", text.len());
}

#[tokio::test]
async fn no_repository_is_a_clear_message() {
    let env = Env::new();
    let out = status(&env, json!({})).await;
    assert!(out.is_error);
    assert!(
        out.content
            .contains("`/mnt/user-data/workspace` is not in a git repository"),
        "{}",
        out.content
    );
    let d = diff(&env, json!({})).await.unwrap();
    assert!(
        d.is_error && d.content.contains("not in a git repository"),
        "{}",
        d.content
    );
}

#[tokio::test]
async fn a_repository_above_the_thread_is_never_found() {
    // The thread's folders live inside a repository on the host: discovery must stop at the root.
    let env = Env::new();
    let outer = env.roots.workspace.parent().unwrap().parent().unwrap();
    git(outer, &["init", "-q"]);
    let out = status(&env, json!({})).await;
    assert!(out.is_error, "{}", out.content);
    assert!(
        out.content.contains("not in a git repository"),
        "{}",
        out.content
    );
}

#[tokio::test]
async fn a_git_file_pointing_outside_is_refused() {
    let env = Env::new();
    let elsewhere = env.roots.workspace.parent().unwrap().join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    git(&elsewhere, &["init", "-q"]);
    std::fs::write(
        env.ws().join(".git"),
        format!("gitdir: {}\n", elsewhere.join(".git").display()),
    )
    .unwrap();
    let out = status(&env, json!({})).await;
    assert!(out.is_error);
    assert!(
        out.content.contains("outside the thread's folders"),
        "{}",
        out.content
    );
    assert!(!out.content.contains(elsewhere.to_str().unwrap()));
}

#[tokio::test]
async fn paths_outside_and_bad_arguments_get_fixable_errors() {
    let env = Env::new().with_changes();
    let out = status(&env, json!({"path": "/etc"})).await;
    assert!(
        out.is_error && out.content.contains("outside the sandbox"),
        "{}",
        out.content
    );
    let err = diff(&env, json!({"files": "a.txt"})).await.unwrap_err();
    assert!(err.to_string().contains("must be an array"), "{err}");
    let err = diff(&env, json!({"staged": "yes"})).await.unwrap_err();
    assert!(err.to_string().contains("true or false"), "{err}");
    let err = GitStatusTool::new(env.roots.clone())
        .call(json!({"repo": "x"}), &ctx())
        .await
        .unwrap_err();
    assert!(err.to_string().contains("no argument `repo`"), "{err}");
}

#[tokio::test]
async fn a_repository_on_a_mount_is_read() {
    let mut env = Env::new();
    let project = env.roots.workspace.parent().unwrap().join("project");
    std::fs::create_dir_all(&project).unwrap();
    git(&project, &["init", "-q"]);
    write(&project, "README.md", "hi\n");
    env.roots.mounts.push(Mount {
        name: "project".into(),
        host: project,
        read_only: true,
    });
    let out = status(&env, json!({"path": "/mnt/user-data/mounts/project"})).await;
    let v: Value = serde_json::from_str(&out.content).unwrap();
    assert_eq!(v["repository"], "/mnt/user-data/mounts/project");
    assert_eq!(names(&v["status"]["untracked"]), ["README.md"]);
}

#[tokio::test]
async fn repository_config_cannot_run_a_program() {
    let env = Env::new();
    let ws = env.ws().to_path_buf();
    git(&ws, &["init", "-q"]);
    write(&ws, "a.txt", "1\n");
    git(&ws, &["add", "-A"]);
    git(&ws, &["commit", "-q", "-m", "c"]);
    let marker = env.roots.workspace.parent().unwrap().join("ran");
    let cmd = format!("touch {}", marker.display());
    // fsmonitor runs on status; an external diff and textconv on diff.
    git(&ws, &["config", "core.fsmonitor", &cmd]);
    git(&ws, &["config", "diff.external", &cmd]);
    write(&ws, ".gitattributes", "*.txt diff=evil\n");
    git(&ws, &["config", "diff.evil.textconv", &cmd]);
    write(&ws, "a.txt", "2\n");
    let s = status(&env, json!({})).await;
    assert!(!s.is_error, "{}", s.content);
    let d = diff(&env, json!({})).await.unwrap();
    assert!(d.content.contains("-1\n+2\n"), "{}", d.content);
    assert!(
        !marker.exists(),
        "a program named by the repository's config ran"
    );
}
