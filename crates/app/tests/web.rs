//! The web tools in a real run: the scripted model calls `web_fetch` on a page served by a
//! local server, the call waits for approval (group `web` asks by default), and once allowed
//! the model reads the page's title and text. Plus the tools' visibility and the search keys.

#![allow(clippy::unwrap_used)]

mod common;

use std::path::{Path, PathBuf};

use common::{explicit, fixtures, open_app, Recorder};
use scripted_model::{ScriptedServer, ServerOptions};
use workbench_app::ModelChoice;
use workbench_core::agent::RunOutcome;
use workbench_core::config::ProviderKind;
use workbench_core::thread::{ApprovalDecision, Role};
use workbench_core::tools::{ToolSource, Visibility};
use workbench_web::test_server::FixtureServer;

/// Where the fixture's `web_fetch` URL points until a test swaps in its page server.
const FIXTURE_ORIGIN: &str = "http://127.0.0.1:1";

fn web_pages() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/web")
}

/// A model fixture folder with `web-fetch` aimed at `pages`.
fn model_fixtures(dir: &Path, pages: &FixtureServer) {
    for name in ["web-fetch.script.json", "loop-final.openai.sse"] {
        std::fs::copy(fixtures().join(name), dir.join(name)).unwrap();
    }
    let sse = std::fs::read_to_string(fixtures().join("web-fetch-1.openai.sse")).unwrap();
    assert!(sse.contains(FIXTURE_ORIGIN));
    std::fs::write(
        dir.join("web-fetch-1.openai.sse"),
        sse.replace(FIXTURE_ORIGIN, &pages.base_url()),
    )
    .unwrap();
}

fn choice(srv: &ScriptedServer) -> ModelChoice {
    explicit(ProviderKind::Openai, &srv.base_url(), "web-fetch", None)
}

#[tokio::test]
async fn web_fetch_waits_for_approval_then_the_model_reads_the_page() {
    let dir = tempfile::tempdir().unwrap();
    let models = tempfile::tempdir().unwrap();
    let pages = FixtureServer::start(web_pages()).unwrap();
    model_fixtures(models.path(), &pages);
    let srv = ScriptedServer::start(models.path(), ServerOptions::default()).unwrap();
    let app = open_app(&dir);
    let thread = app.create_thread(None).unwrap();
    let h = app
        .start_run(
            &thread.id,
            "Read that article",
            choice(&srv),
            Recorder::default().sink(),
        )
        .await
        .unwrap();
    assert_eq!(h.finished().await, RunOutcome::WaitingForUser);
    let pending = app.get_thread(&thread.id).unwrap().thread.state.pending;
    assert_eq!(pending.len(), 1);
    assert_eq!(pending[0].call.name, "web_fetch");
    assert!(pending[0].reason.contains("`web`"), "{}", pending[0].reason);
    assert!(
        pages.seen().is_empty(),
        "nothing is fetched before the user answers"
    );

    let h = app
        .answer_approval(
            &thread.id,
            &pending[0].call.id,
            ApprovalDecision::AllowOnce,
            choice(&srv),
            Recorder::default().sink(),
        )
        .await
        .unwrap()
        .unwrap();
    assert_eq!(h.finished().await, RunOutcome::Completed);

    let seen = pages.seen();
    assert_eq!(seen.len(), 1);
    assert_eq!(seen[0].path, "/article-async-rust.html");
    let view = app.get_thread(&thread.id).unwrap();
    let result = view.messages.iter().find(|m| m.role == Role::Tool).unwrap();
    assert!(!result.is_error, "{}", result.content);
    assert!(
        result
            .content
            .starts_with("Title: Understanding async Rust: futures, executors and wakers\nURL: "),
        "{}",
        result.content
    );
    assert!(result.content.contains("## Wakers"), "{}", result.content);
    assert!(
        !result.content.contains("All rights reserved"),
        "{}",
        result.content
    );
    // The model's next request carried the page.
    let second = srv.requests()[1].body.to_string();
    assert!(
        second.contains("A future is a value that may not be ready yet"),
        "{second}"
    );
}

#[tokio::test]
async fn the_web_tools_are_visible_in_every_run_from_source_web() {
    let dir = tempfile::tempdir().unwrap();
    let app = open_app(&dir);
    let report = app.explain_tools(None, &Default::default()).unwrap();
    for name in ["web_search", "web_fetch", "image_search"] {
        let v = report
            .tools
            .iter()
            .find(|t| t.name == name)
            .unwrap_or_else(|| panic!("{name} missing from {report:#?}"));
        assert_eq!(v.source, ToolSource::Web);
        assert_eq!(v.group, "web");
        assert_eq!(v.visibility, Visibility::Visible);
    }
}

#[tokio::test]
async fn search_keys_go_to_the_keychain_and_only_their_presence_is_reported() {
    let dir = tempfile::tempdir().unwrap();
    let app = open_app(&dir);
    let stored = |s: &[workbench_app::SearchKeyStatus]| -> Vec<(String, bool)> {
        s.iter().map(|k| (k.service.clone(), k.stored)).collect()
    };
    let none = app.search_key_status().await.unwrap();
    assert_eq!(
        stored(&none),
        [("brave".into(), false), ("tavily".into(), false)]
    );
    app.set_search_key("Brave", " BSA-secret ").await.unwrap();
    let one = app.search_key_status().await.unwrap();
    assert_eq!(
        stored(&one),
        [("brave".into(), true), ("tavily".into(), false)]
    );
    assert!(!format!("{one:?}").contains("BSA-secret"));
    app.set_search_key("brave", "").await.unwrap();
    assert!(!app.search_key_status().await.unwrap()[0].stored);
    let err = app.set_search_key("google", "k").await.unwrap_err();
    assert!(err.to_string().contains("use `brave` or `tavily`"), "{err}");
}
