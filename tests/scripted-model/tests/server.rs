//! The scripted server over real HTTP: routes, fixture selection, error bodies, scripts, the key
//! check, the request log, and the binary's startup line.

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Command, Stdio};

use scripted_model::{ScriptedServer, ServerOptions, StreamOutcome};
use serde_json::{json, Value};

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../fixtures/model")
}

fn start(require_key: Option<&str>) -> ScriptedServer {
    ScriptedServer::start(
        fixtures(),
        ServerOptions {
            require_key: require_key.map(str::to_string),
            port: 0,
        },
    )
    .expect("server starts")
}

async fn post(url: &str, body: Value, headers: &[(&str, &str)]) -> (u16, Option<String>, String) {
    let mut rb = reqwest::Client::new().post(url).json(&body);
    for (k, v) in headers {
        rb = rb.header(*k, *v);
    }
    let resp = rb.send().await.expect("request");
    let status = resp.status().as_u16();
    let retry_after = resp
        .headers()
        .get("retry-after")
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    (status, retry_after, resp.text().await.expect("body"))
}

fn chat(model: &str) -> Value {
    json!({"model": model, "stream": true, "stream_options": {"include_usage": true}, "messages": [{"role": "user", "content": "hi"}]})
}

#[tokio::test]
async fn replays_the_fixture_named_by_the_model_in_each_format() {
    let s = start(None);
    let (status, _, body) = post(
        &format!("{}/chat/completions", s.base_url()),
        chat("hello"),
        &[],
    )
    .await;
    assert_eq!(status, 200);
    let expected = std::fs::read_to_string(fixtures().join("hello.openai.sse")).expect("fixture");
    assert_eq!(
        body, expected,
        "the OpenAI fixture is replayed byte for byte"
    );
    assert!(body.trim_end().ends_with("data: [DONE]"));

    let (status, _, body) = post(&format!("{}/messages", s.base_url()), chat("hello"), &[]).await;
    assert_eq!(status, 200);
    assert!(body.starts_with("event: message_start\n"), "{body}");
    assert!(
        body.trim_end()
            .ends_with(r#"data: {"type":"message_stop"}"#),
        "{body}"
    );
}

#[tokio::test]
async fn the_usage_chunk_is_sent_only_when_asked_for() {
    let s = start(None);
    let mut req = chat("hello");
    req.as_object_mut()
        .expect("object")
        .remove("stream_options");
    let (_, _, body) = post(&format!("{}/chat/completions", s.base_url()), req, &[]).await;
    assert!(!body.contains("\"choices\":[]"), "{body}");
    assert!(body.contains("data: [DONE]"));
}

#[tokio::test]
async fn unknown_models_get_each_providers_404_body() {
    let s = start(None);
    let (status, _, body) = post(
        &format!("{}/chat/completions", s.base_url()),
        chat("x"),
        &[],
    )
    .await;
    assert_eq!(status, 404);
    assert_eq!(
        serde_json::from_str::<Value>(&body).expect("json"),
        json!({"error":{"message":"The model `x` does not exist","type":"invalid_request_error","code":"model_not_found"}})
    );
    let (status, _, body) = post(&format!("{}/messages", s.base_url()), chat("x"), &[]).await;
    assert_eq!(status, 404);
    assert_eq!(
        serde_json::from_str::<Value>(&body).expect("json"),
        json!({"type":"error","error":{"type":"not_found_error","message":"model: x"}})
    );
    // A name that tries to leave the fixtures folder is just unknown.
    let (status, _, _) = post(
        &format!("{}/messages", s.base_url()),
        chat("../model/hello"),
        &[],
    )
    .await;
    assert_eq!(status, 404);
}

#[tokio::test]
async fn script_steps_are_consumed_per_request_and_the_last_repeats() {
    let s = start(None);
    let url = format!("{}/chat/completions", s.base_url());
    let (status, retry_after, body) = post(&url, chat("flaky"), &[]).await;
    assert_eq!((status, retry_after.as_deref()), (429, Some("0")));
    assert_eq!(
        serde_json::from_str::<Value>(&body).expect("json")["error"]["code"],
        "rate_limit_exceeded"
    );
    assert_eq!(post(&url, chat("flaky"), &[]).await.0, 500);
    assert_eq!(post(&url, chat("flaky"), &[]).await.0, 200);
    assert_eq!(post(&url, chat("flaky"), &[]).await.0, 200);
}

#[tokio::test]
async fn a_cut_step_breaks_the_connection_after_n_events() {
    let s = start(None);
    let resp = reqwest::Client::new()
        .post(format!("{}/chat/completions", s.base_url()))
        .json(&chat("cut"))
        .send()
        .await
        .expect("headers arrive");
    assert_eq!(resp.status(), 200);
    assert!(
        resp.text().await.is_err(),
        "the body must end in a transport error, not cleanly"
    );
    let r = &s.requests()[0];
    assert_eq!((r.events_sent, r.outcome), (3, StreamOutcome::Cut));
}

#[tokio::test]
async fn a_required_key_is_checked_in_each_providers_header() {
    let s = start(Some("k1"));
    let chat_url = format!("{}/chat/completions", s.base_url());
    let msg_url = format!("{}/messages", s.base_url());
    assert_eq!(post(&chat_url, chat("hello"), &[]).await.0, 401);
    assert_eq!(
        post(&chat_url, chat("hello"), &[("authorization", "Bearer k2")])
            .await
            .0,
        401
    );
    assert_eq!(
        post(&chat_url, chat("hello"), &[("authorization", "Bearer k1")])
            .await
            .0,
        200
    );
    let (status, _, body) = post(&msg_url, chat("hello"), &[("authorization", "Bearer k1")]).await;
    assert_eq!(status, 401, "Anthropic takes the key from x-api-key only");
    assert_eq!(
        serde_json::from_str::<Value>(&body).expect("json")["error"]["type"],
        "authentication_error"
    );
    assert_eq!(
        post(&msg_url, chat("hello"), &[("x-api-key", "k1")])
            .await
            .0,
        200
    );
}

#[tokio::test]
async fn requests_and_models_are_listed_as_json() {
    let s = start(None);
    post(
        &format!("{}/messages", s.base_url()),
        chat("hello"),
        &[("x-api-key", "abc"), ("x-other", "no")],
    )
    .await;
    let log: Value = reqwest::get(format!("http://{}/_requests", s.addr()))
        .await
        .expect("get")
        .json()
        .await
        .expect("json");
    assert_eq!(log[0]["path"], "/v1/messages");
    assert_eq!(log[0]["headers"], json!({"x-api-key": "abc"}));
    assert_eq!(log[0]["body"]["model"], "hello");
    assert_eq!(log[0]["status"], 200);

    let models: Value = reqwest::get(format!("{}/models", s.base_url()))
        .await
        .expect("get")
        .json()
        .await
        .expect("json");
    assert_eq!(models["object"], "list");
    let ids: Vec<&str> = models["data"]
        .as_array()
        .expect("data")
        .iter()
        .filter_map(|m| m["id"].as_str())
        .collect();
    for name in ["cut", "flaky", "hello", "ollama-style", "slow", "tool-call"] {
        assert!(ids.contains(&name), "{name} not in {ids:?}");
    }
    assert_eq!(models["data"][0]["object"], "model");
}

#[test]
fn the_binary_prints_its_url_once_and_serves() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_scripted-model"))
        .args(["--fixtures"])
        .arg(fixtures())
        .args(["--port", "0"])
        .stdout(Stdio::piped())
        .spawn()
        .expect("spawn scripted-model");
    let stdout = child.stdout.take().expect("piped stdout");
    let mut line = String::new();
    BufReader::new(stdout)
        .read_line(&mut line)
        .expect("read line");
    let url = line
        .trim()
        .strip_prefix("listening on ")
        .map(str::to_string);
    let result = std::panic::catch_unwind(|| {
        let url = url.expect("`listening on URL` line");
        assert!(
            url.starts_with("http://127.0.0.1:") && url.ends_with("/v1"),
            "{url}"
        );
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("runtime");
        let models: Value = rt.block_on(async {
            reqwest::get(format!("{url}/models"))
                .await
                .expect("get")
                .json()
                .await
                .expect("json")
        });
        assert!(models["data"].as_array().is_some_and(|d| !d.is_empty()));
    });
    let _ = child.kill();
    let _ = child.wait();
    if let Err(e) = result {
        std::panic::resume_unwind(e);
    }
}
