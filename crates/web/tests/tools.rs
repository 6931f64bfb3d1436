//! The web tools end to end against a local server serving the recorded pages of
//! `tests/fixtures/web/`: the real client, real sockets, no internet.

#![allow(clippy::unwrap_used)]

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use tokio_util::sync::CancellationToken;
use workbench_core::tools::{Tool, ToolContext, ToolError, ToolSource};
use workbench_web::test_server::{FixtureServer, Reply};
use workbench_web::{web_tools, Endpoints, KeyStore, NoKeys, WebConfig};

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/web")
}

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(fixtures().join(name)).unwrap()
}

struct Keys(HashMap<String, String>);

impl KeyStore for Keys {
    fn get(&self, account: &str) -> Result<Option<String>, String> {
        Ok(self.0.get(account).cloned())
    }
}

fn keys(pairs: &[(&str, &str)]) -> Arc<dyn KeyStore> {
    Arc::new(Keys(
        pairs
            .iter()
            .map(|(a, k)| (a.to_string(), k.to_string()))
            .collect(),
    ))
}

fn config(srv: &FixtureServer) -> WebConfig {
    WebConfig {
        endpoints: Endpoints {
            duckduckgo_html: srv.url("html/"),
            duckduckgo: srv.url(""),
            brave: srv.url("res/v1/"),
            tavily: srv.url(""),
        },
        ..WebConfig::default()
    }
}

/// The tool named `name` over `config` and `keys`.
fn tool(config: WebConfig, keys: Arc<dyn KeyStore>, name: &str) -> Arc<dyn Tool> {
    web_tools(config, keys)
        .unwrap()
        .into_iter()
        .find(|t| t.spec().name == name)
        .unwrap()
}

fn ctx() -> ToolContext {
    ToolContext {
        thread_id: "t".into(),
        run_id: "r".into(),
        call_id: "c".into(),
        cancel: CancellationToken::new(),
    }
}

async fn call(t: &Arc<dyn Tool>, args: serde_json::Value) -> Result<String, String> {
    match t.call(args, &ctx()).await {
        Ok(out) => {
            assert!(!out.is_error);
            Ok(out.content)
        }
        Err(e) => Err(e.to_string()),
    }
}

fn html(body: Vec<u8>) -> Reply {
    Reply::new(200, "text/html; charset=utf-8", body)
}

#[tokio::test]
async fn the_tools_are_web_tools_in_group_web() {
    let tools = web_tools(WebConfig::default(), Arc::new(NoKeys)).unwrap();
    let names: Vec<_> = tools.iter().map(|t| t.spec().name.clone()).collect();
    assert_eq!(names, ["web_search", "web_fetch", "image_search"]);
    for t in &tools {
        assert_eq!(t.meta().source, ToolSource::Web);
        assert_eq!(t.meta().group, "web");
    }
}

#[tokio::test]
async fn without_a_key_web_search_posts_to_duckduckgo_and_lists_decoded_results() {
    let srv = FixtureServer::start(fixtures()).unwrap();
    srv.set_reply("html/", html(fixture("duckduckgo-html-rust-async.html")));
    let t = tool(config(&srv), Arc::new(NoKeys), "web_search");
    let text = call(&t, serde_json::json!({"query": "  rust   async "}))
        .await
        .unwrap();
    assert!(
        text.starts_with("Web results for \"rust async\" (DuckDuckGo, 4 results):"),
        "{text}"
    );
    assert!(text.contains(
        "1. [Asynchronous Programming in Rust](https://rust-lang.github.io/async-book/)\n   This book aims"
    ), "{text}");
    assert!(!text.contains("duckduckgo.com"), "{text}");
    let seen = srv.seen();
    assert_eq!(seen.len(), 1);
    assert_eq!(seen[0].method, "POST");
    assert_eq!(seen[0].param("q").as_deref(), Some("rust async"));

    let two = call(
        &t,
        serde_json::json!({"query": "rust async", "max_results": 2}),
    )
    .await
    .unwrap();
    assert!(
        two.contains("(DuckDuckGo, 2 results)") && !two.contains("\n3. "),
        "{two}"
    );
}

#[tokio::test]
async fn duckduckgo_s_bot_check_and_an_empty_page_read_differently() {
    let srv = FixtureServer::start(fixtures()).unwrap();
    srv.set_reply(
        "html/",
        Reply::new(202, "text/html", fixture("duckduckgo-html-anomaly.html")),
    );
    let t = tool(config(&srv), Arc::new(NoKeys), "web_search");
    let err = call(&t, serde_json::json!({"query": "rust async"}))
        .await
        .unwrap_err();
    assert!(err.contains("DuckDuckGo refused the search"), "{err}");
    assert!(err.contains("Brave Search or Tavily key"), "{err}");

    srv.set_reply("html/", html(fixture("duckduckgo-html-no-results.html")));
    let text = call(&t, serde_json::json!({"query": "zxqv wplm"}))
        .await
        .unwrap();
    assert_eq!(text, "No web results for \"zxqv wplm\" (DuckDuckGo).");
}

#[tokio::test]
async fn a_brave_key_sends_the_search_to_brave_with_the_key_header() {
    let srv = FixtureServer::start(fixtures()).unwrap();
    srv.set_reply(
        "res/v1/web/search",
        Reply::new(
            200,
            "application/json",
            fixture("brave-web-rust-async.json"),
        ),
    );
    let keys = keys(&[("web/brave", "BSA-test-key"), ("web/tavily", "tvly-other")]);
    let t = tool(config(&srv), keys, "web_search");
    let text = call(&t, serde_json::json!({"query": "rust async"}))
        .await
        .unwrap();
    assert!(text.contains("(Brave Search, 3 results)"), "{text}");
    assert!(
        text.contains("2. [Tokio - An asynchronous Rust runtime](https://tokio.rs/)"),
        "{text}"
    );
    let seen = &srv.seen()[0];
    assert_eq!(seen.method, "GET");
    assert_eq!(
        seen.headers.get("x-subscription-token").map(String::as_str),
        Some("BSA-test-key")
    );
    assert_eq!(seen.param("q").as_deref(), Some("rust async"));
    assert_eq!(seen.param("count").as_deref(), Some("8"));
}

#[tokio::test]
async fn a_refused_brave_key_says_how_to_replace_it() {
    let srv = FixtureServer::start(fixtures()).unwrap();
    srv.set_reply(
        "res/v1/web/search",
        Reply::new(401, "application/json", r#"{"type":"ErrorResponse","error":{"code":"SUBSCRIPTION_TOKEN_INVALID","status":401}}"#),
    );
    let t = tool(config(&srv), keys(&[("web/brave", "bad")]), "web_search");
    let err = call(&t, serde_json::json!({"query": "x"}))
        .await
        .unwrap_err();
    assert!(
        err.contains("Brave Search refused the search: HTTP 401"),
        "{err}"
    );
    assert!(err.contains("workbench web key brave"), "{err}");
}

#[tokio::test]
async fn a_tavily_key_posts_json_with_a_bearer_token() {
    let srv = FixtureServer::start(fixtures()).unwrap();
    srv.set_reply(
        "search",
        Reply::new(200, "application/json", fixture("tavily-rust-async.json")),
    );
    let t = tool(
        config(&srv),
        keys(&[("web/tavily", "tvly-test")]),
        "web_search",
    );
    let text = call(
        &t,
        serde_json::json!({"query": "rust async", "max_results": 5}),
    )
    .await
    .unwrap();
    assert!(text.contains("(Tavily, 2 results)"), "{text}");
    assert!(
        text.contains(
            "[Tutorial | Tokio - An asynchronous Rust runtime](https://tokio.rs/tokio/tutorial)"
        ),
        "{text}"
    );
    let seen = &srv.seen()[0];
    assert_eq!(seen.method, "POST");
    assert_eq!(
        seen.headers.get("authorization").map(String::as_str),
        Some("Bearer tvly-test")
    );
    let body: serde_json::Value = serde_json::from_str(&seen.body).unwrap();
    assert_eq!(body["query"], "rust async");
    assert_eq!(body["max_results"], 5);
}

#[tokio::test]
async fn bad_search_arguments_are_refused_before_any_request() {
    let srv = FixtureServer::start(fixtures()).unwrap();
    let t = tool(config(&srv), Arc::new(NoKeys), "web_search");
    let err = call(&t, serde_json::json!({"query": "   "}))
        .await
        .unwrap_err();
    assert!(err.contains("`query` is empty"), "{err}");
    let err = call(&t, serde_json::json!({"query": "x", "max_results": 50}))
        .await
        .unwrap_err();
    assert!(err.contains("between 1 and 20"), "{err}");
    let err = call(&t, serde_json::json!({"q": "x"})).await.unwrap_err();
    assert!(err.starts_with("invalid arguments"), "{err}");
    assert!(srv.seen().is_empty());
}

#[tokio::test]
async fn web_fetch_returns_the_article_as_markdown_with_its_title_and_url() {
    let srv = FixtureServer::start(fixtures()).unwrap();
    let t = tool(config(&srv), Arc::new(NoKeys), "web_fetch");
    let url = srv.url("article-async-rust.html");
    let text = call(&t, serde_json::json!({ "url": url })).await.unwrap();
    assert!(
        text.starts_with(&format!(
            "Title: Understanding async Rust: futures, executors and wakers\nURL: {url}\n\n"
        )),
        "{text}"
    );
    assert!(text.contains("## Wakers"), "{text}");
    assert!(
        text.contains("A future is a value that may not be ready yet"),
        "{text}"
    );
    for boilerplate in [
        "Accept cookies",
        "All rights reserved",
        "Popular posts",
        "Subscribe to our newsletter",
    ] {
        assert!(
            !text.contains(boilerplate),
            "`{boilerplate}` left in {text}"
        );
    }
    assert!(!text.contains("[Cut:"), "{text}");
}

#[tokio::test]
async fn web_fetch_cuts_long_pages_and_says_so() {
    let srv = FixtureServer::start(fixtures()).unwrap();
    let cfg = WebConfig {
        max_text_chars: 500,
        ..config(&srv)
    };
    let t = tool(cfg, Arc::new(NoKeys), "web_fetch");
    let text = call(
        &t,
        serde_json::json!({ "url": srv.url("article-async-rust.html") }),
    )
    .await
    .unwrap();
    let cut_note = text.rfind("\n[Cut: showing ").expect("a cut note");
    assert!(
        text[cut_note..].contains("characters of the page's text.]"),
        "{text}"
    );
    let body = text.split_once("\n\n").unwrap().1;
    assert!(body.len() < 700, "{} chars: {text}", body.len());
}

#[tokio::test]
async fn web_fetch_refuses_what_is_not_a_web_page_by_its_type() {
    let srv = FixtureServer::start(fixtures()).unwrap();
    srv.set_reply(
        "report.pdf",
        Reply::new(200, "application/pdf", b"%PDF-1.7 ...".to_vec()),
    );
    srv.set_reply(
        "notes.txt",
        Reply::new(200, "text/plain; charset=utf-8", "plain notes\nline two"),
    );
    let t = tool(config(&srv), Arc::new(NoKeys), "web_fetch");
    let err = call(&t, serde_json::json!({ "url": srv.url("report.pdf") }))
        .await
        .unwrap_err();
    assert!(
        err.contains("is `application/pdf`, not an HTML page or text"),
        "{err}"
    );
    let text = call(&t, serde_json::json!({ "url": srv.url("notes.txt") }))
        .await
        .unwrap();
    assert!(text.ends_with("\n\nplain notes\nline two\n"), "{text}");
}

#[tokio::test]
async fn web_fetch_reports_http_errors_refused_connections_and_other_schemes() {
    let srv = FixtureServer::start(fixtures()).unwrap();
    let t = tool(config(&srv), Arc::new(NoKeys), "web_fetch");
    let missing = srv.url("missing.html");
    let err = call(&t, serde_json::json!({ "url": missing }))
        .await
        .unwrap_err();
    assert_eq!(err, format!("{missing} answered HTTP 404 Not Found"));

    // A port nobody listens on.
    let closed = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap();
    let err = call(
        &t,
        serde_json::json!({ "url": format!("http://{closed}/") }),
    )
    .await
    .unwrap_err();
    assert!(err.starts_with("could not connect to 127.0.0.1: "), "{err}");

    let err = call(&t, serde_json::json!({ "url": "file:///etc/passwd" }))
        .await
        .unwrap_err();
    assert_eq!(err, "only http and https URLs can be fetched, not `file:`");
    let err = call(&t, serde_json::json!({ "url": "not a url" }))
        .await
        .unwrap_err();
    assert!(err.contains("is not a valid URL"), "{err}");
}

#[tokio::test]
async fn web_fetch_gives_up_on_slow_and_oversized_pages() {
    let srv = FixtureServer::start(fixtures()).unwrap();
    let mut slow = html(b"<p>late</p>".to_vec());
    slow.delay = Some(Duration::from_secs(3));
    srv.set_reply("slow.html", slow);
    let big = vec![b'a'; 50_000];
    srv.set_reply("big.html", html(big.clone()));
    let mut chunked = html(big);
    chunked.chunked = true;
    srv.set_reply("chunked.html", chunked);
    let cfg = WebConfig {
        timeout: Duration::from_millis(400),
        max_fetch_bytes: 10_000,
        ..config(&srv)
    };
    let t = tool(cfg, Arc::new(NoKeys), "web_fetch");
    let err = call(&t, serde_json::json!({ "url": srv.url("slow.html") }))
        .await
        .unwrap_err();
    assert!(err.ends_with("did not answer within 1 s"), "{err}");
    for page in ["big.html", "chunked.html"] {
        let err = call(&t, serde_json::json!({ "url": srv.url(page) }))
            .await
            .unwrap_err();
        assert!(
            err.contains("is larger than the 1 MB limit"),
            "{page}: {err}"
        );
    }
}

#[tokio::test]
async fn a_cancelled_run_stops_a_fetch_at_once() {
    let srv = FixtureServer::start(fixtures()).unwrap();
    let mut slow = html(b"<p>late</p>".to_vec());
    slow.delay = Some(Duration::from_secs(10));
    srv.set_reply("slow.html", slow);
    let t = tool(config(&srv), Arc::new(NoKeys), "web_fetch");
    let ctx = ctx();
    let cancel = ctx.cancel.clone();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(100)).await;
        cancel.cancel();
    });
    let started = std::time::Instant::now();
    let r = t
        .call(serde_json::json!({ "url": srv.url("slow.html") }), &ctx)
        .await;
    assert_eq!(r.unwrap_err(), ToolError::Cancelled);
    assert!(started.elapsed() < Duration::from_secs(5));
}

#[tokio::test]
async fn keyless_image_search_uses_the_duckduckgo_token_and_says_it_is_unofficial() {
    let srv = FixtureServer::start(fixtures()).unwrap();
    srv.set_reply("", html(fixture("duckduckgo-images-token.html")));
    srv.set_reply(
        "i.js",
        Reply::new(
            200,
            "application/json",
            fixture("duckduckgo-images-ferris.json"),
        ),
    );
    let t = tool(config(&srv), Arc::new(NoKeys), "image_search");
    let text = call(
        &t,
        serde_json::json!({"query": "ferris the crab", "max_results": 2}),
    )
    .await
    .unwrap();
    assert!(
        text.starts_with("Image results for \"ferris the crab\" (DuckDuckGo, 2 results):"),
        "{text}"
    );
    assert!(
        text.contains("   image: https://rustacean.net/assets/rustacean-orig-noshadow.png\n"),
        "{text}"
    );
    assert!(
        text.contains("   source: https://rustacean.net/\n"),
        "{text}"
    );
    assert!(text.contains("unofficial keyless image endpoint"), "{text}");
    let seen = srv.seen();
    assert_eq!(seen.len(), 2);
    assert_eq!(seen[0].param("q").as_deref(), Some("ferris the crab"));
    assert_eq!(seen[1].path, "/i.js");
    assert_eq!(
        seen[1].param("vqd").as_deref(),
        Some("4-211907441806286633395386049563398461373")
    );
}

#[tokio::test]
async fn keyless_image_search_refused_says_a_key_makes_it_reliable() {
    let srv = FixtureServer::start(fixtures()).unwrap();
    srv.set_reply("", html(b"<html><body>no token</body></html>".to_vec()));
    let t = tool(config(&srv), Arc::new(NoKeys), "image_search");
    let err = call(&t, serde_json::json!({"query": "ferris"}))
        .await
        .unwrap_err();
    assert!(err.contains("no search token"), "{err}");
    assert!(err.contains("unofficial keyless endpoint"), "{err}");
    assert!(err.contains("Brave Search or Tavily key"), "{err}");

    srv.set_reply("", html(fixture("duckduckgo-images-token.html")));
    srv.set_reply(
        "i.js",
        Reply::new(403, "text/html", "<html>Forbidden</html>"),
    );
    let err = call(&t, serde_json::json!({"query": "ferris"}))
        .await
        .unwrap_err();
    assert!(err.contains("HTTP 403 Forbidden"), "{err}");
}

#[tokio::test]
async fn image_search_with_a_brave_key_uses_brave_images() {
    let srv = FixtureServer::start(fixtures()).unwrap();
    srv.set_reply(
        "res/v1/images/search",
        Reply::new(200, "application/json", fixture("brave-images-ferris.json")),
    );
    let t = tool(
        config(&srv),
        keys(&[("web/brave", "BSA-k")]),
        "image_search",
    );
    let text = call(&t, serde_json::json!({"query": "ferris"}))
        .await
        .unwrap();
    assert!(text.contains("(Brave Search, 2 results)"), "{text}");
    assert!(
        text.contains("   thumbnail: https://imgs.search.brave.com/"),
        "{text}"
    );
    assert!(text.contains("   size: 1200x800\n"), "{text}");
    assert!(!text.contains("unofficial"), "{text}");
    assert_eq!(
        srv.seen()[0]
            .headers
            .get("x-subscription-token")
            .map(String::as_str),
        Some("BSA-k")
    );
}
