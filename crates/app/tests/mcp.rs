//! MCP servers through the app: a scripted-model run finds a real server's tool with
//! tool_search and calls it; switching tools applies to the next run; no secret reaches the
//! config file, the SQLite store or the logs.
#![allow(clippy::unwrap_used)]

mod common;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use common::{explicit, fixtures, MemorySecrets, Recorder};
use scripted_model::{ScriptedServer, ServerOptions};
use serde_json::Value;
use workbench_app::{App, DataDir};
use workbench_core::agent::RunOutcome;
use workbench_core::config::ProviderKind;
use workbench_core::thread::Role;
use workbench_core::tools::Visibility;
use workbench_mcp::view::{ServerInput, ServerStatus, TransportInput, ValueInput};

const SECRET: &str = "sk-live-SECRET-value-7f3a9c";

fn everything() -> PathBuf {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/mcp-servers/node_modules/@modelcontextprotocol/server-everything/dist/index.js");
    assert!(
        path.exists(),
        "{} is missing: run `make setup` (it installs tests/mcp-servers with npm ci)",
        path.display()
    );
    path
}

/// Writes every log line of this test process to `<data>/logs/test.log`, debug level and up.
fn log_to(dir: &Path) {
    let logs = dir.join("logs");
    std::fs::create_dir_all(&logs).unwrap();
    let file = std::fs::File::create(logs.join("test.log")).unwrap();
    let _ = tracing_subscriber::fmt()
        .with_env_filter("debug")
        .with_writer(std::sync::Mutex::new(file))
        .with_ansi(false)
        .try_init();
}

async fn app_with_everything(dir: &tempfile::TempDir) -> Arc<App> {
    let app = App::open_with_secrets(DataDir::new(dir.path()), Arc::new(MemorySecrets::default()))
        .unwrap();
    app.mcp()
        .save_server(
            ServerInput {
                name: "everything".into(),
                transport: TransportInput::Stdio {
                    command: "node".into(),
                    args: vec![everything().display().to_string(), "stdio".into()],
                    env: vec![ValueInput {
                        name: "SERVICE_API_KEY".into(),
                        value: Some(SECRET.into()),
                        secret: None,
                    }],
                    cwd: None,
                },
                enabled: None,
                disabled_tools: vec![],
                startup_timeout_secs: None,
                call_timeout_secs: Some(30),
            },
            false,
        )
        .await
        .unwrap();
    app.start_mcp_and_wait(Duration::from_secs(40)).await;
    let v = app.mcp().server("everything").unwrap();
    assert!(
        matches!(v.status, ServerStatus::Connected { .. }),
        "{:?}",
        v.status
    );
    app
}

fn tool_names(body: &Value) -> Vec<String> {
    body["tools"]
        .as_array()
        .map(|t| {
            t.iter()
                .map(|t| t["function"]["name"].as_str().unwrap().to_string())
                .collect()
        })
        .unwrap_or_default()
}

/// Every file under `dir` whose bytes contain `needle`.
fn files_containing(dir: &Path, needle: &str) -> Vec<PathBuf> {
    let mut hits = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if let Ok(bytes) = std::fs::read(&path) {
                if bytes.windows(needle.len()).any(|w| w == needle.as_bytes()) {
                    hits.push(path);
                }
            }
        }
    }
    hits
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_scripted_run_finds_an_mcp_tool_with_tool_search_and_calls_it_and_no_secret_is_kept() {
    let dir = tempfile::tempdir().unwrap();
    log_to(dir.path());
    let app = app_with_everything(&dir).await;
    let srv = ScriptedServer::start(fixtures(), ServerOptions::default()).unwrap();

    // Before the run: the server's tools are deferred, with their original names.
    let report = app.explain_tools(None, &Default::default()).unwrap();
    let echo = report.verdict("everything__echo").unwrap();
    assert_eq!(echo.visibility, Visibility::Deferred);
    assert_eq!(echo.original_name.as_deref(), Some("echo"));

    let thread = app.create_thread(None).unwrap();
    let choice = explicit(ProviderKind::Openai, &srv.base_url(), "mcp-echo", None);
    let h = app
        .start_run(
            &thread.id,
            "Echo something",
            choice,
            Recorder::default().sink(),
        )
        .await
        .unwrap();
    let outcome = tokio::time::timeout(Duration::from_secs(60), h.finished())
        .await
        .unwrap();
    assert_eq!(outcome, RunOutcome::Completed);

    let requests = srv.requests();
    assert_eq!(requests.len(), 3);
    assert!(!tool_names(&requests[0].body).contains(&"everything__echo".to_string()));
    assert!(tool_names(&requests[1].body).contains(&"everything__echo".to_string()));
    let messages = app.get_thread(&thread.id).unwrap().messages;
    let results: Vec<_> = messages.iter().filter(|m| m.role == Role::Tool).collect();
    assert_eq!(results.len(), 2);
    assert!(!results[1].is_error, "{}", results[1].content);
    assert_eq!(results[1].content, "Echo: hello from the scripted model");

    // The secret is in the keychain stand-in and nowhere in the data folder.
    let cfg = std::fs::read_to_string(dir.path().join("mcp.json")).unwrap();
    assert!(cfg.contains("mcp/everything/env/SERVICE_API_KEY"), "{cfg}");
    let log = std::fs::read_to_string(dir.path().join("logs/test.log")).unwrap();
    assert!(
        log.contains("starting MCP server"),
        "the log captured the MCP work"
    );
    app.mcp().shutdown();
    // The search itself works: it finds the reference that is meant to be there.
    assert_eq!(
        files_containing(dir.path(), "mcp/everything/env/SERVICE_API_KEY"),
        vec![dir.path().join("mcp.json")]
    );
    let hits = files_containing(dir.path(), SECRET);
    assert!(hits.is_empty(), "the secret leaked into {hits:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn switching_a_tool_off_applies_to_the_next_run_without_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let app = app_with_everything(&dir).await;
    let has_echo = |app: &App| {
        app.explain_tools(None, &Default::default())
            .unwrap()
            .verdict("everything__echo")
            .is_some()
    };
    assert!(has_echo(&app));
    app.mcp()
        .set_tool_enabled("everything", "echo", false)
        .await
        .unwrap();
    assert!(!has_echo(&app));
    app.mcp().set_enabled("everything", false).await.unwrap();
    let report = app.explain_tools(None, &Default::default()).unwrap();
    assert!(report.verdict("everything__get-sum").is_none());
    app.mcp().set_enabled("everything", true).await.unwrap();
    app.mcp()
        .set_tool_enabled("everything", "echo", true)
        .await
        .unwrap();
    app.mcp().wait_settled(Duration::from_secs(40)).await;
    assert!(has_echo(&app));
    app.mcp().shutdown();
}
