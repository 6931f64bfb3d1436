//! Runs end to end through the app: the production provider clients against the scripted
//! model server, the real SQLite store on disk.

#![allow(clippy::unwrap_used)] // test helpers panic to report failures

mod common;

use std::time::Duration;

use common::{explicit, fixtures, open_app, Recorder};
use scripted_model::{ScriptedServer, ServerOptions};
use workbench_app::{AppError, ModelChoice};
use workbench_core::agent::{RunEvent, RunOutcome};
use workbench_core::config::{ProviderKind, ProviderSettings};
use workbench_core::thread::{MessageStatus, Role};

const HELLO: &str = "Hello! I am a scripted model. How can I help you today?";

async fn server() -> ScriptedServer {
    ScriptedServer::start(fixtures(), ServerOptions::default()).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reply_streams_in_order_and_is_stored_as_streamed() {
    let srv = server().await;
    let dir = tempfile::tempdir().unwrap();
    let app = open_app(&dir);
    let thread = app.create_thread(None).unwrap();
    let rec = Recorder::default();
    let choice = explicit(ProviderKind::Openai, &srv.base_url(), "hello", None);

    let handle = app
        .start_run(&thread.id, "Who are you?", choice, rec.sink())
        .await
        .unwrap();
    assert_eq!(handle.finished().await, RunOutcome::Completed);

    let events = rec.events();
    assert!(
        matches!(events[0], RunEvent::RunStarted { .. }),
        "{events:?}"
    );
    assert!(matches!(&events[1], RunEvent::MessageAdded { message } if message.role == Role::User));
    assert!(
        matches!(&events[2], RunEvent::MessageAdded { message } if message.role == Role::Assistant && message.status == MessageStatus::Streaming)
    );
    assert!(
        rec.delta_count() > 3,
        "the reply should arrive in several deltas"
    );
    assert!(matches!(
        events.last(),
        Some(RunEvent::RunFinished {
            outcome: RunOutcome::Completed,
            error: None,
            ..
        })
    ));
    assert_eq!(rec.streamed_text(), HELLO);

    let view = app.get_thread(&thread.id).unwrap();
    assert_eq!(view.messages.len(), 2);
    assert_eq!(view.messages[0].content, "Who are you?");
    assert_eq!(view.messages[1].content, HELLO);
    assert_eq!(view.messages[1].status, MessageStatus::Complete);
    assert_eq!(view.thread.title, "Who are you?");
    assert!(!view.running);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_announced_delta_is_already_on_disk() {
    let srv = server().await;
    let dir = tempfile::tempdir().unwrap();
    let app = open_app(&dir);
    let thread = app.create_thread(None).unwrap();
    let checker = app.clone();
    let tid = thread.id.clone();
    let seen = std::sync::Arc::new(std::sync::Mutex::new((String::new(), 0usize)));
    let seen2 = seen.clone();
    let sink = std::sync::Arc::new(move |e: RunEvent| {
        if let RunEvent::Delta { text, .. } = e {
            let mut s = seen2.lock().unwrap();
            s.0.push_str(&text);
            let stored = checker.get_thread(&tid).unwrap();
            let streaming = stored.messages.last().unwrap();
            assert_eq!(
                streaming.content, s.0,
                "a delta was announced before it was stored"
            );
            s.1 += 1;
        }
    });
    let choice = explicit(ProviderKind::Openai, &srv.base_url(), "hello", None);
    let h = app.start_run(&thread.id, "hi", choice, sink).await.unwrap();
    assert_eq!(h.finished().await, RunOutcome::Completed);
    assert!(seen.lock().unwrap().1 > 3);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn anthropic_replies_stream_too() {
    let srv = server().await;
    let dir = tempfile::tempdir().unwrap();
    let app = open_app(&dir);
    let thread = app.create_thread(None).unwrap();
    let rec = Recorder::default();
    let choice = explicit(ProviderKind::Anthropic, &srv.base_url(), "hello", Some("k"));
    let h = app
        .start_run(&thread.id, "hi", choice, rec.sink())
        .await
        .unwrap();
    assert_eq!(h.finished().await, RunOutcome::Completed);
    assert_eq!(rec.streamed_text(), HELLO);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stopping_mid_stream_keeps_the_text_so_far() {
    let srv = server().await;
    let dir = tempfile::tempdir().unwrap();
    let app = open_app(&dir);
    let thread = app.create_thread(None).unwrap();
    let rec = Recorder::default();
    let choice = explicit(ProviderKind::Openai, &srv.base_url(), "slow", None);
    let h = app
        .start_run(&thread.id, "tell me a long story", choice, rec.sink())
        .await
        .unwrap();

    for _ in 0..200 {
        if rec.delta_count() >= 3 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(app.list_threads().unwrap()[0].running);
    assert!(app.cancel_run(&thread.id));
    assert_eq!(h.finished().await, RunOutcome::Cancelled);

    let view = app.get_thread(&thread.id).unwrap();
    let reply = &view.messages[1];
    assert_eq!(reply.status, MessageStatus::Cancelled);
    assert!(!reply.content.is_empty());
    assert_eq!(
        reply.content,
        rec.streamed_text(),
        "stored text = shown text"
    );
    assert!(!view.running);
    assert!(!app.cancel_run(&thread.id), "nothing left to cancel");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_run_on_a_busy_thread_is_refused() {
    let srv = server().await;
    let dir = tempfile::tempdir().unwrap();
    let app = open_app(&dir);
    let thread = app.create_thread(None).unwrap();
    let choice = explicit(ProviderKind::Openai, &srv.base_url(), "slow", None);
    let first = app
        .start_run(
            &thread.id,
            "one",
            choice.clone(),
            Recorder::default().sink(),
        )
        .await
        .unwrap();
    let second = app
        .start_run(&thread.id, "two", choice, Recorder::default().sink())
        .await;
    assert!(matches!(second, Err(AppError::RunInProgress)));
    app.cancel_run(&thread.id);
    first.finished().await;
}

async fn failed_run(model: &str, base_url: &str, key: Option<&str>) -> (String, String) {
    let dir = tempfile::tempdir().unwrap();
    let app = open_app(&dir);
    let thread = app.create_thread(None).unwrap();
    let rec = Recorder::default();
    let choice = explicit(ProviderKind::Openai, base_url, model, key);
    let h = app
        .start_run(&thread.id, "hi", choice, rec.sink())
        .await
        .unwrap();
    assert_eq!(h.finished().await, RunOutcome::Failed);
    let view = app.get_thread(&thread.id).unwrap();
    let reply = view.messages.last().unwrap().clone();
    assert_eq!(reply.status, MessageStatus::Error);
    let run_error = rec
        .events()
        .iter()
        .find_map(|e| match e {
            RunEvent::RunFinished { error, .. } => error.clone(),
            _ => None,
        })
        .unwrap();
    assert_eq!(reply.error.as_deref(), Some(run_error.as_str()));
    (reply.content, run_error)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wrong_key_says_the_key_was_refused() {
    let srv = ScriptedServer::start(
        fixtures(),
        ServerOptions {
            require_key: Some("right".into()),
            ..Default::default()
        },
    )
    .unwrap();
    let (_, error) = failed_run("hello", &srv.base_url(), Some("wrong")).await;
    assert!(error.contains("API key was refused"), "{error}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unknown_model_is_named_in_the_error() {
    let srv = server().await;
    let (_, error) = failed_run("no-such-model", &srv.base_url(), None).await;
    assert!(error.contains("no-such-model"), "{error}");
    assert!(error.contains("not found"), "{error}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unreachable_server_says_so() {
    let port = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let url = format!("http://127.0.0.1:{port}/v1");
    let (_, error) = failed_run("hello", &url, None).await;
    assert!(error.contains("could not reach"), "{error}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stream_that_breaks_off_keeps_what_arrived() {
    let srv = server().await;
    let (content, error) = failed_run("cut", &srv.base_url(), None).await;
    assert!(!content.is_empty(), "the text before the break is kept");
    assert!(HELLO.starts_with(&content), "{content}");
    assert!(error.contains("broke off"), "{error}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rate_limits_and_server_errors_are_retried() {
    let srv = server().await;
    let dir = tempfile::tempdir().unwrap();
    let app = open_app(&dir);
    let thread = app.create_thread(None).unwrap();
    let rec = Recorder::default();
    let choice = explicit(ProviderKind::Openai, &srv.base_url(), "flaky", None);
    let h = app
        .start_run(&thread.id, "hi", choice, rec.sink())
        .await
        .unwrap();
    assert_eq!(h.finished().await, RunOutcome::Completed);
    assert_eq!(rec.streamed_text(), HELLO);
    assert_eq!(srv.requests().len(), 3, "429, 500, then success");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_configured_provider_and_its_key_are_used() {
    let srv = ScriptedServer::start(
        fixtures(),
        ServerOptions {
            require_key: Some("sk-test".into()),
            ..Default::default()
        },
    )
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let app = open_app(&dir);
    let thread = app.create_thread(None).unwrap();
    let err = app
        .start_run(
            &thread.id,
            "hi",
            ModelChoice::Configured,
            Recorder::default().sink(),
        )
        .await
        .err()
        .unwrap();
    assert!(matches!(err, AppError::NotConfigured), "{err}");

    let settings = ProviderSettings {
        kind: ProviderKind::Openai,
        base_url: format!("{}/", srv.base_url()),
        model: " hello ".into(),
        context_window: None,
    };
    let status = app
        .save_provider(settings, Some("sk-test".into()))
        .await
        .unwrap();
    assert!(status.has_key);
    let saved = status.settings.unwrap();
    assert_eq!(saved.model, "hello", "settings are trimmed");
    assert!(!saved.base_url.ends_with('/'));

    let rec = Recorder::default();
    let h = app
        .start_run(&thread.id, "hi", ModelChoice::Configured, rec.sink())
        .await
        .unwrap();
    assert_eq!(h.finished().await, RunOutcome::Completed);
    assert_eq!(rec.streamed_text(), HELLO);

    // The key is not in the database file.
    let db = std::fs::read(dir.path().join("workbench.db")).unwrap();
    assert!(!db.windows(7).any(|w| w == b"sk-test"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_input_is_refused_with_a_sentence_and_nothing_is_stored() {
    let dir = tempfile::tempdir().unwrap();
    let app = open_app(&dir);
    let thread = app.create_thread(None).unwrap();
    let choice = explicit(ProviderKind::Openai, "http://127.0.0.1:9/v1", "m", None);
    let err = app
        .start_run(
            &thread.id,
            "   ",
            choice.clone(),
            Recorder::default().sink(),
        )
        .await
        .err()
        .unwrap();
    assert!(err.to_string().contains("empty"), "{err}");
    let err = app
        .start_run("no-such-thread", "hi", choice, Recorder::default().sink())
        .await
        .err()
        .unwrap();
    assert!(err.to_string().contains("does not exist"), "{err}");
    let bad = ProviderSettings {
        kind: ProviderKind::Openai,
        base_url: "localhost:11434".into(),
        model: "m".into(),
        context_window: None,
    };
    let err = app.save_provider(bad, None).await.err().unwrap();
    assert!(err.to_string().contains("http://"), "{err}");
    assert!(app.provider_status().await.unwrap().settings.is_none());
    assert!(app.get_thread(&thread.id).unwrap().messages.is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn threads_survive_a_restart_and_can_be_renamed_and_deleted() {
    let srv = server().await;
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = {
        let app = open_app(&dir);
        let a = app.create_thread(Some("First")).unwrap();
        let b = app.create_thread(None).unwrap();
        let choice = explicit(ProviderKind::Openai, &srv.base_url(), "hello", None);
        let h = app
            .start_run(&b.id, "hello there", choice, Recorder::default().sink())
            .await
            .unwrap();
        h.finished().await;
        (a.id, b.id)
    };
    let app = open_app(&dir);
    let threads = app.list_threads().unwrap();
    assert_eq!(threads.len(), 2);
    assert_eq!(threads[0].id, b, "most recently updated first");
    assert_eq!(app.get_thread(&b).unwrap().messages[1].content, HELLO);

    app.rename_thread(&a, "  Renamed  ").unwrap();
    assert_eq!(app.get_thread(&a).unwrap().thread.title, "Renamed");
    assert!(app.rename_thread(&a, "   ").is_err());
    app.delete_thread(&b).await.unwrap();
    assert_eq!(app.list_threads().unwrap().len(), 1);
    assert!(app.get_thread(&b).is_err());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn search_finds_threads_by_title_and_by_what_was_said() {
    let srv = server().await;
    let dir = tempfile::tempdir().unwrap();
    let app = open_app(&dir);
    let titled = app.create_thread(Some("Quarterly plan")).unwrap();
    let chat = app.create_thread(None).unwrap();
    let choice = explicit(ProviderKind::Openai, &srv.base_url(), "hello", None);
    app.start_run(
        &chat.id,
        "hello, about the PLAN",
        choice,
        Recorder::default().sink(),
    )
    .await
    .unwrap()
    .finished()
    .await;

    let hits = app.search_threads("  plan ").unwrap();
    let ids: Vec<&str> = hits.iter().map(|h| h.thread.id.as_str()).collect();
    assert_eq!(ids, [chat.id.as_str(), titled.id.as_str()]);
    assert_eq!(hits[0].snippet, "hello, about the PLAN");
    assert_eq!(hits[1].snippet, "");
    // The scripted reply is searched too; blank finds nothing; too long is refused.
    assert_eq!(app.search_threads("scripted model").unwrap().len(), 1);
    assert!(app.search_threads("   ").unwrap().is_empty());
    let err = app.search_threads(&"x".repeat(201)).unwrap_err();
    assert!(
        matches!(err, AppError::Invalid(ref m) if m.contains("200")),
        "{err}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_long_thread_is_compacted_when_the_context_window_is_known() {
    let srv = server().await;
    let dir = tempfile::tempdir().unwrap();
    let app = open_app(&dir);
    let thread = app.create_thread(None).unwrap();
    for i in 0..8 {
        let choice = explicit(ProviderKind::Openai, &srv.base_url(), "hello", None);
        let h = app
            .start_run(
                &thread.id,
                &format!("question {i}"),
                choice,
                Recorder::default().sink(),
            )
            .await
            .unwrap();
        assert_eq!(h.finished().await, RunOutcome::Completed);
    }
    let before = srv.requests().len();
    let choice = ModelChoice::Explicit {
        settings: ProviderSettings {
            kind: ProviderKind::Openai,
            base_url: srv.base_url(),
            model: "hello".into(),
            context_window: Some(64),
        },
        api_key: None,
    };
    let rec = Recorder::default();
    let h = app
        .start_run(&thread.id, "and the last one", choice, rec.sink())
        .await
        .unwrap();
    assert_eq!(h.finished().await, RunOutcome::Completed);

    let compacted = rec.events().iter().find_map(|e| match e {
        RunEvent::ContextCompacted {
            summarised_messages,
            tokens_before,
            tokens_after,
            ..
        } => Some((*summarised_messages, *tokens_before, *tokens_after)),
        _ => None,
    });
    let (summarised, before_tokens, after_tokens) = compacted.expect("compaction was announced");
    assert!(summarised > 0 && after_tokens < before_tokens);

    let requests = srv.requests();
    assert_eq!(requests.len(), before + 2, "one summary call, one turn");
    let summary_call = serde_json::to_string(&requests[before].body).unwrap();
    assert!(
        summary_call.contains("question 0"),
        "older turns were sent to summarise"
    );
    let turn = &requests[before + 1].body;
    let sent = serde_json::to_string(turn).unwrap();
    assert!(
        !sent.contains("question 0"),
        "older turns were replaced by the summary"
    );
    assert!(
        sent.contains(HELLO),
        "the summary (the scripted reply) is in the request"
    );
    assert!(sent.contains("and the last one"));
    // Nothing stored was changed: compaction only shapes what the model is sent.
    assert_eq!(app.get_thread(&thread.id).unwrap().messages.len(), 18);
}
