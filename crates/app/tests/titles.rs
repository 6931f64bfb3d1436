//! Thread titles from the model after the first exchange, against the scripted model server.

#![allow(clippy::unwrap_used)]

mod common;

use common::{explicit, fixtures, open_app, Recorder};
use scripted_model::{ScriptedServer, ServerOptions};
use workbench_core::agent::{RunEvent, RunOutcome};
use workbench_core::config::ProviderKind;

fn server() -> ScriptedServer {
    ScriptedServer::start(fixtures(), ServerOptions::default()).unwrap()
}

fn titled_events(rec: &Recorder) -> Vec<String> {
    rec.events()
        .into_iter()
        .filter_map(|e| match e {
            RunEvent::ThreadTitled { title, .. } => Some(title),
            _ => None,
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_first_exchange_gets_a_short_title_from_the_model() {
    let srv = server();
    let dir = tempfile::tempdir().unwrap();
    let app = open_app(&dir);
    app.set_model_titles(true);
    let thread = app.create_thread(None).unwrap();
    let choice = explicit(ProviderKind::Openai, &srv.base_url(), "titled", None);
    let rec = Recorder::default();
    let run = app
        .start_run(
            &thread.id,
            "Who are you, really?",
            choice.clone(),
            rec.sink(),
        )
        .await
        .unwrap();
    assert_eq!(run.finished().await, RunOutcome::Completed);

    let title = "Meeting the Scripted Model";
    assert_eq!(app.get_thread(&thread.id).unwrap().thread.title, title);
    assert_eq!(titled_events(&rec), [title]);
    // Announced after the run ended, so the UI has the final list to patch.
    let events = rec.events();
    let n = events.len();
    assert!(
        matches!(events[n - 2], RunEvent::RunFinished { .. }),
        "{events:?}"
    );

    // The title request: the exchange, no tools, a small token cap.
    let requests = srv.requests();
    assert_eq!(requests.len(), 2);
    let body = &requests[1].body;
    let sent = body["messages"].to_string();
    assert!(
        sent.contains("Who are you, really?") && sent.contains("scripted model"),
        "{sent}"
    );
    assert!(body
        .get("tools")
        .is_none_or(|t| t.as_array().is_none_or(|a| a.is_empty())));

    // A second run keeps the model's title and asks for no other.
    let rec2 = Recorder::default();
    let run = app
        .start_run(&thread.id, "And now?", choice, rec2.sink())
        .await
        .unwrap();
    run.finished().await;
    assert_eq!(srv.requests().len(), 3);
    assert!(titled_events(&rec2).is_empty());
    assert_eq!(app.get_thread(&thread.id).unwrap().thread.title, title);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failed_title_request_keeps_the_provisional_title_and_the_run_completes() {
    let srv = server();
    let dir = tempfile::tempdir().unwrap();
    let app = open_app(&dir);
    app.set_model_titles(true);
    let thread = app.create_thread(None).unwrap();
    let choice = explicit(ProviderKind::Openai, &srv.base_url(), "titled-fail", None);
    let rec = Recorder::default();
    let run = app
        .start_run(&thread.id, "Who are you, really?", choice, rec.sink())
        .await
        .unwrap();
    assert_eq!(run.finished().await, RunOutcome::Completed);
    assert_eq!(srv.requests().len(), 2);
    assert_eq!(
        app.get_thread(&thread.id).unwrap().thread.title,
        "Who are you, really?"
    );
    assert!(titled_events(&rec).is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_title_the_user_typed_is_never_replaced() {
    let srv = server();
    let dir = tempfile::tempdir().unwrap();
    let app = open_app(&dir);
    app.set_model_titles(true);
    let choice = explicit(ProviderKind::Openai, &srv.base_url(), "titled-slow", None);

    // Renamed while the first run streams.
    let thread = app.create_thread(None).unwrap();
    let rec = Recorder::default();
    let run = app
        .start_run(&thread.id, "Who are you?", choice.clone(), rec.sink())
        .await
        .unwrap();
    app.rename_thread(&thread.id, "My own name").unwrap();
    run.finished().await;
    assert_eq!(
        app.get_thread(&thread.id).unwrap().thread.title,
        "My own name"
    );
    assert!(titled_events(&rec).is_empty());

    // Named at creation.
    let named = app.create_thread(Some("Given at creation")).unwrap();
    let run = app
        .start_run(&named.id, "Hi there", choice, rec.sink())
        .await
        .unwrap();
    run.finished().await;
    assert_eq!(
        app.get_thread(&named.id).unwrap().thread.title,
        "Given at creation"
    );
    // Neither thread asked the model for a title.
    assert_eq!(srv.requests().len(), 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_model_titles_the_provisional_title_stays() {
    let srv = server();
    let dir = tempfile::tempdir().unwrap();
    let app = open_app(&dir);
    let thread = app.create_thread(None).unwrap();
    let choice = explicit(ProviderKind::Openai, &srv.base_url(), "titled", None);
    let run = app
        .start_run(
            &thread.id,
            "Who are you?",
            choice,
            Recorder::default().sink(),
        )
        .await
        .unwrap();
    run.finished().await;
    assert_eq!(srv.requests().len(), 1);
    assert_eq!(
        app.get_thread(&thread.id).unwrap().thread.title,
        "Who are you?"
    );
}
