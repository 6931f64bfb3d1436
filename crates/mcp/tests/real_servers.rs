//! Real MCP servers from npm (installed by `make setup` into tests/mcp-servers):
//! server-everything over stdio and over streamable HTTP, and server-filesystem.
#![allow(clippy::unwrap_used)]

mod common;

use std::time::Duration;

use common::*;
use serde_json::json;
use tokio_util::sync::CancellationToken;
use workbench_mcp::secrets::SecretStore;
use workbench_mcp::view::{ServerInput, TransportInput, ValueInput};

const SETTLE: Duration = Duration::from_secs(40);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn everything_over_stdio_lists_calls_and_gets_its_secret_env() {
    let mut entry = everything_entry();
    entry["env"] = json!({"WB_TEST_TOKEN": {"secret": "mcp/everything/env/WB_TEST_TOKEN"}, "WB_PLAIN": "visible"});
    let (m, _dir, secrets) = manager(json!({"everything": entry}));
    secrets
        .set("mcp/everything/env/WB_TEST_TOKEN", "tok-from-keychain-123")
        .unwrap();
    m.start().await.unwrap();
    m.wait_settled(SETTLE).await;
    let v = m.server("everything").unwrap();
    assert!(is_connected(&v), "{:?}", v.status);
    let names: Vec<&str> = v.tools.iter().map(|t| t.info.name.as_str()).collect();
    assert!(
        names.contains(&"echo") && names.contains(&"get-sum"),
        "{names:?}"
    );
    let echo = v.tools.iter().find(|t| t.info.name == "echo").unwrap();
    assert_eq!(echo.qualified_name, "everything__echo");
    assert_eq!(
        echo.info.input_schema["properties"]["message"]["type"],
        "string"
    );
    // Secrets show masked, plain values as they are.
    let token = v.env.iter().find(|e| e.name == "WB_TEST_TOKEN").unwrap();
    assert!(token.secret && token.value.is_none());

    let cancel = CancellationToken::new();
    let out = m
        .call_tool(
            "everything",
            "echo",
            args(json!({"message": "hi there"})),
            &cancel,
        )
        .await;
    assert!(!out.is_error, "{}", out.content);
    assert_eq!(out.content, "Echo: hi there");
    let out = m
        .call_tool(
            "everything",
            "get-sum",
            args(json!({"a": 2, "b": 40})),
            &cancel,
        )
        .await;
    assert!(out.content.contains("42"), "{}", out.content);
    // Invalid arguments come back as an error result, not a hang.
    let out = m
        .call_tool("everything", "get-sum", args(json!({"a": "two"})), &cancel)
        .await;
    assert!(out.is_error, "{}", out.content);
    // The keychain value reached the server's environment.
    let out = m
        .call_tool("everything", "get-env", Default::default(), &cancel)
        .await;
    assert!(
        out.content.contains("tok-from-keychain-123"),
        "{}",
        out.content
    );

    let resources = m.resources("everything").await.unwrap();
    assert!(!resources.is_empty());
    let prompts = m.prompts("everything").await.unwrap();
    assert!(
        prompts.iter().any(|p| !p.arguments.is_empty()),
        "{prompts:?}"
    );
    m.shutdown();
}

/// A free TCP port on localhost.
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn everything_over_streamable_http_with_a_secret_header() {
    let port = free_port();
    let mut server = tokio::process::Command::new("node")
        .arg(npm_server("server-everything"))
        .arg("streamableHttp")
        .env("PORT", port.to_string())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    while tokio::net::TcpStream::connect(("127.0.0.1", port))
        .await
        .is_err()
    {
        assert!(
            std::time::Instant::now() < deadline,
            "the HTTP server never listened"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }

    let (m, dir, secrets) = manager(json!({}));
    m.start().await.unwrap();
    m.save_server(
        ServerInput {
            name: "remote".into(),
            transport: TransportInput::Http {
                url: format!("http://127.0.0.1:{port}/mcp"),
                headers: vec![
                    ValueInput {
                        name: "Authorization".into(),
                        value: Some("Bearer hdr-secret-456".into()),
                        secret: None,
                    },
                    ValueInput {
                        name: "X-Team".into(),
                        value: Some("workbench".into()),
                        secret: None,
                    },
                ],
            },
            enabled: None,
            disabled_tools: vec![],
            startup_timeout_secs: Some(20),
            call_timeout_secs: None,
        },
        false,
    )
    .await
    .unwrap();
    let text = std::fs::read_to_string(dir.path().join("mcp.json")).unwrap();
    assert!(!text.contains("hdr-secret-456"), "{text}");
    assert!(text.contains("mcp/remote/header/Authorization") && text.contains("workbench"));
    assert_eq!(
        secrets
            .get("mcp/remote/header/Authorization")
            .unwrap()
            .unwrap(),
        "Bearer hdr-secret-456"
    );

    let v = wait_for(&m, "remote", SETTLE, |v| is_connected(v) || is_failed(v)).await;
    assert!(is_connected(&v), "{:?}", v.status);
    let out = m
        .call_tool(
            "remote",
            "echo",
            args(json!({"message": "over http"})),
            &CancellationToken::new(),
        )
        .await;
    assert_eq!(out.content, "Echo: over http");
    assert!(!m.resources("remote").await.unwrap().is_empty());

    // Validation connects without saving anything.
    let report = m
        .validate_input(ServerInput {
            name: "probe".into(),
            transport: TransportInput::Http {
                url: format!("http://127.0.0.1:{port}/mcp"),
                headers: vec![],
            },
            enabled: None,
            disabled_tools: vec![],
            startup_timeout_secs: Some(20),
            call_timeout_secs: None,
        })
        .await;
    assert!(report.ok, "{:?}", report.error);
    assert!(report.tools.iter().any(|t| t.name == "echo"));
    assert!(m.server("probe").is_err());
    m.shutdown();
    server.kill().await.unwrap();

    // A server that went away: validation says so within its timeout.
    let report = m
        .validate_input(ServerInput {
            name: "gone".into(),
            transport: TransportInput::Http {
                url: format!("http://127.0.0.1:{port}/mcp"),
                headers: vec![],
            },
            enabled: None,
            disabled_tools: vec![],
            startup_timeout_secs: Some(5),
            call_timeout_secs: None,
        })
        .await;
    assert!(!report.ok);
    assert!(report.error.unwrap().contains("127.0.0.1"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn filesystem_server_reads_inside_its_folder_and_refuses_outside() {
    let files = tempfile::tempdir().unwrap();
    std::fs::write(files.path().join("note.txt"), "hello from the note").unwrap();
    let root = files.path().canonicalize().unwrap().display().to_string();
    let (m, _dir, _) = manager(json!({"fs": {
        "command": "node",
        "args": [npm_server("server-filesystem").display().to_string(), root.clone()],
        "startupTimeoutSecs": 30
    }}));
    m.start().await.unwrap();
    m.wait_settled(SETTLE).await;
    let v = m.server("fs").unwrap();
    assert!(is_connected(&v), "{:?}", v.status);
    let cancel = CancellationToken::new();
    let out = m
        .call_tool(
            "fs",
            "read_text_file",
            args(json!({"path": format!("{root}/note.txt")})),
            &cancel,
        )
        .await;
    assert!(!out.is_error, "{}", out.content);
    assert_eq!(out.content, "hello from the note");
    let out = m
        .call_tool(
            "fs",
            "read_text_file",
            args(json!({"path": "/etc/hostname"})),
            &cancel,
        )
        .await;
    assert!(out.is_error, "{}", out.content);
    assert!(
        out.content.to_lowercase().contains("denied") || out.content.contains("outside"),
        "{}",
        out.content
    );
    m.shutdown();
}
