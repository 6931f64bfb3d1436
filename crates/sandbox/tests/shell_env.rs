//! The shell's environment is scrubbed of secrets the parent process holds.
//!
//! Alone in its own test binary: it sets variables in the process environment, which must not
//! race with other tests reading it.

use std::sync::Arc;

use tokio_util::sync::CancellationToken;
use workbench_core::tools::{Tool, ToolContext};
use workbench_sandbox::shell::{BashTool, JobTable, Shell, ShellConfig};
use workbench_sandbox::ThreadRoots;

#[test]
fn the_environment_is_scrubbed_of_secrets() {
    // Set before any other thread (the runtime's) exists.
    std::env::set_var("FAKE_API_KEY", "sk-should-not-leak");
    std::env::set_var("MY_DB_PASSWORD", "hunter2");
    std::env::set_var("gh_token", "ghp-should-not-leak");
    std::env::set_var("WORKBENCH_HARMLESS", "visible");
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    runtime.block_on(async {
        let dir = tempfile::tempdir().expect("tempdir");
        let roots = ThreadRoots::under(&dir.path().join("thread"));
        roots.create().expect("roots");
        let shell = Arc::new(
            Shell::new(ShellConfig {
                roots,
                allow_network: false,
                allow_unconfined: true,
            })
            .expect("shell"),
        );
        let bash = BashTool::new(shell, Arc::new(JobTable::new()));
        let ctx = ToolContext {
            thread_id: "t".into(),
            run_id: "r".into(),
            call_id: "c".into(),
            cancel: CancellationToken::new(),
        };
        let out = bash
            .call(serde_json::json!({"command": "env"}), &ctx)
            .await
            .expect("env")
            .content;
        for leaked in [
            "FAKE_API_KEY",
            "sk-should-not-leak",
            "hunter2",
            "gh_token",
            "ghp-",
        ] {
            assert!(!out.contains(leaked), "{leaked} leaked:\n{out}");
        }
        assert!(out.contains("WORKBENCH_HARMLESS=visible"), "{out}");
        assert!(out.contains("PATH="));
        assert!(out.contains("TERM=dumb"));
        assert!(out.contains("HOME=/mnt/user-data/workspace"));
        assert!(out.contains("TMPDIR="));
    });
}
