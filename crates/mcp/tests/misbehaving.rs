//! Servers that crash, hang, print garbage or change their tools, next to good ones: the good
//! ones stay connected, errors arrive within the configured timeouts, tool lists refresh.
#![allow(clippy::unwrap_used)]

mod common;

use std::time::{Duration, Instant};

use common::*;
use serde_json::json;
use tokio_util::sync::CancellationToken;
use workbench_core::tools::sources::{CandidateSource, SourceContext};
use workbench_core::tools::ToolSource;
use workbench_mcp::adapter::McpSource;
use workbench_mcp::view::ServerStatus;

const SETTLE: Duration = Duration::from_secs(20);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_bad_server_never_blocks_or_breaks_the_others() {
    let (m, _dir, _) = manager(json!({
        "good": misbehaving_entry("ok"),
        "hangs": misbehaving_entry("hang"),
        "garbage-only": misbehaving_entry("garbage-only"),
        "missing": {"command": "no-such-mcp-command-xyz"},
        "invalid": {"args": ["no command"]},
        "off": {"command": "python3", "enabled": false},
    }));
    m.start().await.unwrap();
    // The good server is up while the hanging ones are still inside their 3 s startup.
    let good = wait_for(&m, "good", Duration::from_secs(10), is_connected).await;
    assert_eq!(good.tools.len(), 4);
    assert_eq!(m.server("hangs").unwrap().status, ServerStatus::Connecting);

    m.wait_settled(SETTLE).await;
    let hangs = m.server("hangs").unwrap();
    assert!(
        error_of(&hangs).contains("within 3 s"),
        "{:?}",
        hangs.status
    );
    match &hangs.status {
        ServerStatus::Failed { stderr, .. } => {
            assert!(stderr.iter().any(|l| l.contains("mode hang")), "{stderr:?}")
        }
        other => panic!("{other:?}"),
    }
    assert!(error_of(&m.server("garbage-only").unwrap()).contains("within 3 s"));
    let missing = error_of(&m.server("missing").unwrap());
    assert!(
        missing.contains("`no-such-mcp-command-xyz` was not found"),
        "{missing}"
    );
    assert!(error_of(&m.server("invalid").unwrap()).contains("needs `command`"));
    assert_eq!(m.server("off").unwrap().status, ServerStatus::Disabled);

    // The good one still answers.
    let out = m
        .call_tool(
            "good",
            "ping",
            Default::default(),
            &CancellationToken::new(),
        )
        .await;
    assert!(!out.is_error, "{}", out.content);
    assert_eq!(out.content, "pong");
    // Only connected servers' tools are offered.
    let servers: Vec<String> = m.offered_tools().into_iter().map(|(s, _)| s).collect();
    assert!(servers.iter().all(|s| s == "good"), "{servers:?}");
    m.shutdown();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_that_crashes_mid_call_answers_at_once_and_is_restarted() {
    let (m, _dir, _) = manager(json!({
        "crashy": misbehaving_entry("crash"),
        "good": misbehaving_entry("ok"),
    }));
    m.start().await.unwrap();
    m.wait_settled(SETTLE).await;
    assert!(is_connected(&m.server("crashy").unwrap()));

    let started = Instant::now();
    let out = m
        .call_tool(
            "crashy",
            "crash",
            Default::default(),
            &CancellationToken::new(),
        )
        .await;
    let took = started.elapsed();
    assert!(out.is_error);
    assert!(
        out.content.contains("stopped during the call"),
        "{}",
        out.content
    );
    assert!(
        out.content.contains("about to crash on purpose"),
        "{}",
        out.content
    );
    assert!(
        took < Duration::from_secs(20),
        "the error waited for the call timeout: {took:?}"
    );

    // It shows as reconnecting, then comes back by itself (first retry after 1 s).
    let v = wait_for(&m, "crashy", Duration::from_secs(5), |v| {
        matches!(v.status, ServerStatus::Reconnecting { .. })
    })
    .await;
    match v.status {
        ServerStatus::Reconnecting {
            attempt,
            retry_in_ms,
            ..
        } => {
            assert_eq!(attempt, 1);
            assert_eq!(retry_in_ms, 1000);
        }
        other => panic!("{other:?}"),
    }
    wait_for(&m, "crashy", Duration::from_secs(10), is_connected).await;
    let out = m
        .call_tool(
            "crashy",
            "ping",
            Default::default(),
            &CancellationToken::new(),
        )
        .await;
    assert_eq!(out.content, "pong");
    // The neighbour never noticed.
    assert!(is_connected(&m.server("good").unwrap()));
    m.shutdown();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hanging_call_ends_at_the_configured_call_timeout() {
    let mut entry = misbehaving_entry("hang-call");
    entry["callTimeoutSecs"] = json!(1);
    let (m, _dir, _) = manager(json!({"slow": entry}));
    m.start().await.unwrap();
    m.wait_settled(SETTLE).await;
    let started = Instant::now();
    let out = m
        .call_tool(
            "slow",
            "ping",
            Default::default(),
            &CancellationToken::new(),
        )
        .await;
    let took = started.elapsed();
    assert!(out.is_error);
    assert!(
        out.content.contains("did not answer `ping` within 1 s"),
        "{}",
        out.content
    );
    assert!(
        took >= Duration::from_secs(1) && took < Duration::from_secs(10),
        "{took:?}"
    );
    // A cancelled run does not wait for the timeout either.
    let cancel = CancellationToken::new();
    cancel.cancel();
    let out = m
        .call_tool("slow", "ping", Default::default(), &cancel)
        .await;
    assert_eq!(out.content, "cancelled");
    m.shutdown();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tool_errors_and_json_rpc_errors_come_back_as_error_results_at_once() {
    let (m, _dir, _) = manager(json!({"good": misbehaving_entry("ok")}));
    m.start().await.unwrap();
    m.wait_settled(SETTLE).await;
    let started = Instant::now();
    let out = m
        .call_tool(
            "good",
            "fail",
            Default::default(),
            &CancellationToken::new(),
        )
        .await;
    assert!(out.is_error);
    assert_eq!(out.content, "the tool failed on purpose");
    let out = m
        .call_tool(
            "good",
            "rpc_error",
            Default::default(),
            &CancellationToken::new(),
        )
        .await;
    assert!(out.is_error);
    assert!(
        out.content.contains("-32000") && out.content.contains("rpc failure on purpose"),
        "{}",
        out.content
    );
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "errors waited for a timeout"
    );
    // An unknown server and a switched-off tool are errors too, not panics.
    let out = m
        .call_tool("nope", "x", Default::default(), &CancellationToken::new())
        .await;
    assert!(out.is_error && out.content.contains("no MCP server named `nope`"));
    m.set_tool_enabled("good", "ping", false).await.unwrap();
    let out = m
        .call_tool(
            "good",
            "ping",
            Default::default(),
            &CancellationToken::new(),
        )
        .await;
    assert!(
        out.is_error && out.content.contains("switched off"),
        "{}",
        out.content
    );
    m.shutdown();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn garbage_on_stdout_is_skipped() {
    let (m, _dir, _) = manager(json!({"noisy": misbehaving_entry("garbage")}));
    m.start().await.unwrap();
    m.wait_settled(SETTLE).await;
    let v = m.server("noisy").unwrap();
    assert!(is_connected(&v), "{:?}", v.status);
    let out = m
        .call_tool(
            "noisy",
            "ping",
            Default::default(),
            &CancellationToken::new(),
        )
        .await;
    assert_eq!(out.content, "pong");
    m.shutdown();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_tool_list_refreshes_when_the_server_says_it_changed() {
    let (m, _dir, _) = manager(json!({"shifty": misbehaving_entry("changing")}));
    m.start().await.unwrap();
    m.wait_settled(SETTLE).await;
    let source = McpSource::new(m.clone());
    let ctx = SourceContext {
        thread_id: "t".into(),
        thread_dir: std::env::temp_dir(),
    };
    let names = |s: &McpSource| -> Vec<String> {
        s.candidates(&ctx)
            .iter()
            .map(|c| c.tool.spec().name.clone())
            .collect()
    };
    assert_eq!(names(&source), vec!["shifty__alpha", "shifty__add_tool"]);
    let out = m
        .call_tool(
            "shifty",
            "add_tool",
            Default::default(),
            &CancellationToken::new(),
        )
        .await;
    assert_eq!(out.content, "added beta");
    wait_for(&m, "shifty", Duration::from_secs(5), |v| v.tools.len() == 3).await;
    let now = names(&source);
    assert!(now.contains(&"shifty__beta".to_string()), "{now:?}");
    let beta = source
        .candidates(&ctx)
        .into_iter()
        .find(|c| c.tool.spec().name == "shifty__beta")
        .unwrap();
    assert_eq!(
        beta.tool.meta().source,
        ToolSource::Mcp {
            server: "shifty".into()
        }
    );
    assert_eq!(beta.tool.meta().original_name.as_deref(), Some("beta"));
    m.shutdown();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hand_edits_of_the_file_apply_without_a_restart() {
    let (m, dir, _) = manager(json!({"first": misbehaving_entry("ok")}));
    m.start().await.unwrap();
    m.watch_file().unwrap();
    wait_for(&m, "first", Duration::from_secs(10), is_connected).await;
    let path = dir.path().join("mcp.json");

    // Add a server and switch a tool off by hand.
    let mut first = misbehaving_entry("ok");
    first["disabledTools"] = json!(["fail"]);
    let text = json!({"mcpServers": {"first": first, "second": misbehaving_entry("ok")}});
    std::fs::write(&path, text.to_string()).unwrap();
    wait_for(&m, "second", Duration::from_secs(10), is_connected).await;
    let v = wait_for(&m, "first", Duration::from_secs(5), |v| {
        v.disabled_tools == vec!["fail".to_string()]
    })
    .await;
    assert!(is_connected(&v), "a tool switch keeps the connection");
    assert!(!m
        .offered_tools()
        .iter()
        .any(|(s, t)| s == "first" && t.name == "fail"));

    // A broken edit is reported and changes nothing.
    std::fs::write(&path, "{ half written").unwrap();
    let mut rx = m.subscribe();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
    while m.overview().config_error.is_none() {
        tokio::time::timeout_at(deadline, rx.changed())
            .await
            .expect("the bad file is reported")
            .unwrap();
    }
    assert!(is_connected(&m.server("second").unwrap()));

    // Removing the server stops it.
    std::fs::write(&path, json!({"mcpServers": {"first": first}}).to_string()).unwrap();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
    while m.server("second").is_ok() {
        tokio::time::timeout_at(deadline, rx.changed())
            .await
            .expect("the removed server goes away")
            .unwrap();
    }
    assert!(m.overview().config_error.is_none());
    m.shutdown();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reconnect_restarts_a_failed_server_after_it_is_fixed() {
    let (m, dir, _) = manager(
        json!({"late": {"command": "python3", "args": ["/nonexistent/server.py"], "startupTimeoutSecs": 3}}),
    );
    m.start().await.unwrap();
    let v = wait_for(&m, "late", Duration::from_secs(10), is_failed).await;
    match v.status {
        ServerStatus::Failed { stderr, .. } => {
            assert!(
                stderr.iter().any(|l| l.contains("No such file")),
                "{stderr:?}"
            )
        }
        other => panic!("{other:?}"),
    }
    // Editing the entry through the manager applies it at once.
    let text = json!({"mcpServers": {"late": misbehaving_entry("ok")}});
    std::fs::write(dir.path().join("mcp.json"), text.to_string()).unwrap();
    m.reload().await.unwrap();
    wait_for(&m, "late", Duration::from_secs(10), is_connected).await;
    m.reconnect("late").unwrap();
    wait_for(&m, "late", Duration::from_secs(10), is_connected).await;
    assert!(m.reconnect("nope").is_err());
    m.shutdown();
}
