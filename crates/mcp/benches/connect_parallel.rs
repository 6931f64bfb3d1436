//! Connecting 8 stdio servers: the manager starts them in parallel, so the whole set should
//! take about as long as its slowest member, not the sum.
//!
//! Baseline (same run): each server connected alone, one after the other; the slowest of those
//! is the "slowest single server". Then all 8 from one `mcp.json`. Printed: total / slowest
//! (target <= 1.3). The servers are tests/mcp-servers/misbehaving.py in `slow-start` mode: they
//! wait 1.5 s before answering `initialize`, as a server does while npx fetches it, so the ratio
//! measures the manager's concurrency rather than how many cores start Python at once.
#![allow(clippy::unwrap_used)]

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::json;
use workbench_mcp::secrets::MemorySecrets;
use workbench_mcp::view::ServerStatus;

const SERVERS: usize = 8;
const TARGET_RATIO: f64 = 1.3;
/// How long each server waits before answering `initialize` (a typical npx server's start).
const SLOW_START_SECS: &str = "1.5";

fn entry() -> serde_json::Value {
    let script =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/mcp-servers/misbehaving.py");
    // -S skips site imports: less CPU per start, so the ratio is about waiting, not cores.
    json!({"command": "python3",
           "args": ["-S", script.canonicalize().unwrap().display().to_string(), "slow-start"],
           "env": {"SLOW_START_SECS": SLOW_START_SECS}})
}

/// Starts a manager over `servers` and returns how long until every one is connected.
async fn connect_all(names: &[String]) -> Duration {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mcp.json");
    let servers: serde_json::Map<String, serde_json::Value> =
        names.iter().map(|n| (n.clone(), entry())).collect();
    std::fs::write(&path, json!({"mcpServers": servers}).to_string()).unwrap();
    let m = workbench_mcp::manager_with_rmcp(&path, Arc::new(MemorySecrets::default()));
    let started = Instant::now();
    let mut rx = m.subscribe();
    m.start().await.unwrap();
    // When each server became connected, to see whether they finish together or in turn.
    let mut done: Vec<(String, Duration)> = Vec::new();
    while done.len() < names.len() {
        for v in m.overview().servers {
            if matches!(v.status, ServerStatus::Connected { .. })
                && !done.iter().any(|(n, _)| n == &v.name)
            {
                done.push((v.name, started.elapsed()));
            }
        }
        if done.len() < names.len()
            && tokio::time::timeout(Duration::from_secs(60), rx.changed())
                .await
                .is_err()
        {
            break;
        }
    }
    m.wait_settled(Duration::from_secs(60)).await;
    let took = started.elapsed();
    if names.len() > 1 {
        let times: Vec<String> = done
            .iter()
            .map(|(_, t)| format!("{:.2}", t.as_secs_f64()))
            .collect();
        println!("  connected at (s):      {}", times.join(" "));
    }
    for v in m.overview().servers {
        assert!(
            matches!(v.status, ServerStatus::Connected { .. }),
            "{}: {:?}",
            v.name,
            v.status
        );
    }
    m.shutdown();
    took
}

fn main() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let names: Vec<String> = (0..SERVERS).map(|i| format!("server-{i}")).collect();
        // Warm-up: the login-shell PATH lookup and Python's first start are one-time costs.
        connect_all(&names[..1]).await;
        let mut singles = Vec::new();
        for name in &names {
            singles.push(connect_all(std::slice::from_ref(name)).await);
        }
        let slowest = singles.iter().max().copied().unwrap();
        let serial_sum: Duration = singles.iter().sum();
        let total = connect_all(&names).await;
        let ratio = total.as_secs_f64() / slowest.as_secs_f64();
        println!("connect_parallel: {SERVERS} stdio servers (misbehaving.py slow-start {SLOW_START_SECS} s)");
        println!("  each alone, slowest:   {slowest:?} (sum of all {serial_sum:?})");
        println!("  all {SERVERS} together:       {total:?}");
        println!(
            "  ratio total/slowest:   {ratio:.2} (target <= {TARGET_RATIO}) {}",
            if ratio <= TARGET_RATIO { "ok" } else { "OVER TARGET" }
        );
    });
}
