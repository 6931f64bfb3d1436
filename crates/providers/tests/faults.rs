//! Failures a user meets: wrong key, unknown model, nothing listening, rate limits and server
//! errors (retried before the first event), and streams that break or are dropped mid-way.

mod common;

use std::time::{Duration, Instant};

use common::*;
use futures::StreamExt;
use scripted_model::StreamOutcome;
use workbench_core::config::ProviderKind;
use workbench_core::model::{ModelError, StreamEvent};

async fn call_error(
    client: &std::sync::Arc<dyn workbench_core::model::ModelClient>,
    model: &str,
) -> ModelError {
    match client.stream(request(model, "hi")).await {
        Ok(_) => panic!("the call to `{model}` was expected to fail"),
        Err(e) => e,
    }
}

#[tokio::test]
async fn a_wrong_key_is_an_auth_error_that_mentions_the_key() {
    let server = server();
    for kind in [ProviderKind::Openai, ProviderKind::Anthropic] {
        let client = client(kind, &server.base_url(), Some("sk-wrong"));
        let err = call_error(&client, "hello").await;
        assert!(
            matches!(err, ModelError::Auth { status: 401, .. }),
            "{kind:?}: {err:?}"
        );
        let text = err.to_string();
        assert!(text.contains("API key"), "{text}");
        assert!(text.contains(&server.base_url()), "{text}");
        assert!(
            !text.contains("sk-wrong"),
            "the key itself is never shown: {text}"
        );
    }
    // Auth failures are not retried: one request per provider.
    assert_eq!(server.requests().len(), 2);
}

#[tokio::test]
async fn a_missing_key_is_an_auth_error_too() {
    let server = server();
    let client = client(ProviderKind::Openai, &server.base_url(), None);
    let err = call_error(&client, "hello").await;
    assert!(matches!(err, ModelError::Auth { .. }), "{err:?}");
    assert!(!server.requests()[0].headers.contains_key("authorization"));
}

#[tokio::test]
async fn an_unknown_model_is_model_not_found_naming_model_and_url() {
    let server = server();
    for kind in [ProviderKind::Openai, ProviderKind::Anthropic] {
        let client = client(kind, &server.base_url(), Some(KEY));
        let err = call_error(&client, "gpt-9-imaginary").await;
        assert_eq!(
            err,
            ModelError::ModelNotFound {
                model: "gpt-9-imaginary".into(),
                url: server.base_url()
            },
            "{kind:?}"
        );
        assert_eq!(
            err.to_string(),
            format!(
                "model `gpt-9-imaginary` was not found at {}",
                server.base_url()
            )
        );
    }
}

#[tokio::test]
async fn nothing_listening_is_unreachable_with_a_plain_reason() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let url = format!("http://{}/v1", listener.local_addr().expect("addr"));
    drop(listener);
    for kind in [ProviderKind::Openai, ProviderKind::Anthropic] {
        let client = client_with(kind, &url, Some(KEY), fast_retry(2));
        let err = call_error(&client, "hello").await;
        assert_eq!(
            err,
            ModelError::Unreachable {
                url: url.clone(),
                detail: "connection refused".into()
            },
            "{kind:?}"
        );
        assert_eq!(
            err.to_string(),
            format!("could not reach {url}: connection refused")
        );
    }
}

#[tokio::test]
async fn rate_limit_then_server_error_then_success_is_retried_to_success() {
    let server = server();
    let client = client(ProviderKind::Openai, &server.base_url(), Some(KEY));
    let got = run(&client, request("flaky", "hi")).await;
    assert_eq!(got.error, None);
    assert_eq!(got.text, HELLO);
    let statuses: Vec<u16> = server.requests().iter().map(|r| r.status).collect();
    assert_eq!(statuses, [429, 500, 200]);
}

#[tokio::test]
async fn anthropic_retries_the_same_way() {
    let server = server();
    let client = client(ProviderKind::Anthropic, &server.base_url(), Some(KEY));
    let got = run(&client, request("flaky", "hi")).await;
    assert_eq!(got.text, HELLO);
    assert_eq!(server.requests().len(), 3);
}

fn scripted_dir(script: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::copy(
        fixtures_dir().join("hello.openai.sse"),
        dir.path().join("hello.openai.sse"),
    )
    .expect("copy");
    std::fs::write(dir.path().join("m.script.json"), script).expect("write script");
    dir
}

#[tokio::test]
async fn a_rate_limit_that_persists_fails_after_max_attempts_and_says_how_many() {
    let dir = scripted_dir(r#"{"steps":[{"status":429,"retry_after_secs":0}]}"#);
    let server = server_in(dir.path());
    let client = client_with(
        ProviderKind::Openai,
        &server.base_url(),
        Some(KEY),
        fast_retry(3),
    );
    let err = call_error(&client, "m").await;
    assert!(
        matches!(err, ModelError::RateLimited { attempts: 3, .. }),
        "{err:?}"
    );
    assert!(err.to_string().contains("tried 3 times"), "{err}");
    assert_eq!(server.requests().len(), 3);
}

#[tokio::test]
async fn a_long_retry_after_is_not_waited_for() {
    let dir = scripted_dir(r#"{"steps":[{"status":429,"retry_after_secs":3600}]}"#);
    let server = server_in(dir.path());
    let client = client(ProviderKind::Openai, &server.base_url(), Some(KEY));
    let started = Instant::now();
    let err = call_error(&client, "m").await;
    assert!(started.elapsed() < Duration::from_secs(5));
    assert!(
        matches!(err, ModelError::RateLimited { attempts: 1, retry_after: Some(d), .. } if d == Duration::from_secs(3600)),
        "{err:?}"
    );
    assert_eq!(server.requests().len(), 1);
}

#[tokio::test]
async fn a_bad_request_carries_the_server_message_and_is_not_retried() {
    let dir = scripted_dir(
        r#"{"steps":[{"status":400,"message":"messages[0].content must be a string"}]}"#,
    );
    let server = server_in(dir.path());
    let client = client(ProviderKind::Openai, &server.base_url(), Some(KEY));
    let err = call_error(&client, "m").await;
    assert_eq!(
        err,
        ModelError::BadRequest {
            url: server.base_url(),
            status: 400,
            detail: "messages[0].content must be a string".into()
        }
    );
    assert_eq!(server.requests().len(), 1);
}

#[tokio::test]
async fn a_stream_cut_mid_way_keeps_the_text_and_ends_with_stream_broken() {
    let server = server();
    let client = client(ProviderKind::Openai, &server.base_url(), Some(KEY));
    let got = run(&client, request("cut", "hi")).await;
    // Events 1-3: the role chunk, "Hello", "!" — then the connection is cut.
    assert_eq!(got.text, "Hello!");
    match &got.error {
        Some(e @ ModelError::StreamBroken { .. }) => {
            let text = e.to_string();
            assert!(
                text.starts_with(&format!(
                    "the reply stream from {} broke off: ",
                    server.base_url()
                )),
                "{text}"
            );
            eprintln!("cut reads: {text}");
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(got.finish, None);
    // Text had reached the caller, so nothing was retried.
    assert_eq!(server.requests().len(), 1);
    assert_eq!(server.requests()[0].outcome, StreamOutcome::Cut);
}

#[tokio::test]
async fn a_stream_cut_before_its_first_event_is_retried() {
    // Anthropic's first 3 events (message_start, content_block_start, ping) carry no text, so
    // the cut happens before anything reached the caller and each attempt is retried.
    let server = server();
    let client = client_with(
        ProviderKind::Anthropic,
        &server.base_url(),
        Some(KEY),
        fast_retry(3),
    );
    let err = call_error(&client, "cut").await;
    assert!(matches!(err, ModelError::StreamBroken { .. }), "{err:?}");
    assert_eq!(server.requests().len(), 3);
}

#[tokio::test]
async fn an_error_event_mid_stream_ends_it_after_the_text_so_far() {
    let server = server();
    let client = client(ProviderKind::Anthropic, &server.base_url(), Some(KEY));
    let got = run(&client, request("overloaded-midstream", "hi")).await;
    assert_eq!(got.text, "Hello!");
    match got.error {
        Some(ModelError::StreamBroken { detail, .. }) => {
            assert!(detail.contains("Overloaded"), "{detail}")
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(server.requests().len(), 1);
}

#[tokio::test]
async fn dropping_the_stream_closes_the_connection() {
    let server = server();
    let client = client(ProviderKind::Openai, &server.base_url(), Some(KEY));
    let mut stream = client
        .stream(request("slow", "talk"))
        .await
        .expect("starts");
    for _ in 0..3 {
        match stream.next().await {
            Some(Ok(StreamEvent::TextDelta(_))) => {}
            other => panic!("expected text, got {other:?}"),
        }
    }
    drop(stream);
    let closed = eventually(Duration::from_secs(3), || {
        server.requests()[0].outcome == StreamOutcome::ClientClosed
    })
    .await;
    let r = &server.requests()[0];
    assert!(
        closed,
        "the server still streams after the client dropped: {r:?}"
    );
    assert!(r.events_sent < 20, "sent {} of 72 events", r.events_sent);
}

#[tokio::test]
async fn reading_a_stream_to_the_end_completes_it_on_the_server() {
    // The counterpart of the drop test: a fully read stream is not reported as closed early.
    let server = server();
    let client = client(ProviderKind::Openai, &server.base_url(), Some(KEY));
    let got = run(&client, request("hello", "hi")).await;
    assert_eq!(got.text, HELLO);
    assert!(
        eventually(Duration::from_secs(2), || server.requests()[0].outcome
            == StreamOutcome::Completed)
        .await,
        "{:?}",
        server.requests()[0]
    );
}
