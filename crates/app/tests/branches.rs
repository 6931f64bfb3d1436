//! Regenerating the last reply (replaces it) and editing a past message (branches), through
//! the app against the scripted model server.

#![allow(clippy::unwrap_used)]

mod common;

use common::{explicit, fixtures, open_app, Recorder};
use scripted_model::{ScriptedServer, ServerOptions};
use workbench_app::{AppError, ModelChoice};
use workbench_core::agent::RunOutcome;
use workbench_core::config::ProviderKind;
use workbench_core::thread::Role;

const HELLO: &str = "Hello! I am a scripted model. How can I help you today?";

fn server() -> ScriptedServer {
    ScriptedServer::start(fixtures(), ServerOptions::default()).unwrap()
}

fn texts(app: &workbench_app::App, thread: &str) -> Vec<String> {
    app.get_thread(thread)
        .unwrap()
        .messages
        .into_iter()
        .map(|m| m.content)
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn regenerating_replaces_the_last_reply_with_a_new_one() {
    let srv = server();
    let dir = tempfile::tempdir().unwrap();
    let app = open_app(&dir);
    let thread = app.create_thread(None).unwrap();
    let choice = explicit(ProviderKind::Openai, &srv.base_url(), "regen", None);
    let run = app
        .start_run(
            &thread.id,
            "Say something",
            choice.clone(),
            Recorder::default().sink(),
        )
        .await
        .unwrap();
    assert_eq!(run.finished().await, RunOutcome::Completed);
    assert_eq!(texts(&app, &thread.id), ["Say something", HELLO]);
    let question = app.get_thread(&thread.id).unwrap().messages[0].id.clone();

    let rec = Recorder::default();
    let run = app
        .regenerate(&thread.id, choice, rec.sink())
        .await
        .unwrap();
    assert_eq!(run.finished().await, RunOutcome::Completed);
    assert_eq!(
        texts(&app, &thread.id),
        ["Say something", "Done: I created the issue."]
    );
    assert_eq!(
        app.get_thread(&thread.id).unwrap().messages[0].id,
        question,
        "the question is kept as it was"
    );
    // The model was asked once more with the question alone, not the old reply.
    let last = srv.requests().last().cloned().unwrap();
    let sent = last.body["messages"].to_string();
    assert_eq!(sent.matches("Say something").count(), 1, "{sent}");
    assert!(!sent.contains("scripted model"), "{sent}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn regenerating_an_empty_thread_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let app = open_app(&dir);
    let thread = app.create_thread(None).unwrap();
    let err = app
        .regenerate(
            &thread.id,
            ModelChoice::Configured,
            Recorder::default().sink(),
        )
        .await
        .err()
        .unwrap();
    assert!(matches!(err, AppError::Invalid(_)), "{err}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn editing_a_past_message_branches_and_keeps_the_original() {
    let srv = server();
    let dir = tempfile::tempdir().unwrap();
    let app = open_app(&dir);
    let thread = app.create_thread(Some("Trip")).unwrap();
    let choice = explicit(ProviderKind::Openai, &srv.base_url(), "hello", None);
    for text in ["first", "second"] {
        let run = app
            .start_run(&thread.id, text, choice.clone(), Recorder::default().sink())
            .await
            .unwrap();
        run.finished().await;
    }
    let original = app.get_thread(&thread.id).unwrap();
    let second = original.messages[2].clone();
    assert_eq!(second.content, "second");

    let (branch, run) = app
        .edit_and_resend(
            &thread.id,
            &second.id,
            "second, edited",
            choice.clone(),
            Recorder::default().sink(),
        )
        .await
        .unwrap();
    assert_eq!(run.finished().await, RunOutcome::Completed);
    assert_ne!(branch.id, thread.id);
    assert_eq!(branch.title, "Trip");
    assert_eq!(
        texts(&app, &branch.id),
        ["first", HELLO, "second, edited", HELLO]
    );
    // The original is as it was, and each side links to the other.
    assert_eq!(
        app.get_thread(&thread.id).unwrap().messages,
        original.messages
    );
    let view = app.get_thread(&branch.id).unwrap();
    let from = view.branched_from.unwrap();
    assert_eq!(
        (from.thread_id, from.message_id),
        (thread.id.clone(), second.id.clone())
    );
    let branches = app.get_thread(&thread.id).unwrap().branches;
    assert_eq!(branches.len(), 1);
    assert_eq!(branches[0].thread_id, branch.id);
    assert_eq!(branches[0].message_id, second.id);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_a_shown_user_message_can_be_edited_and_a_refusal_makes_no_thread() {
    let srv = server();
    let dir = tempfile::tempdir().unwrap();
    let app = open_app(&dir);
    let thread = app.create_thread(None).unwrap();
    let choice = explicit(ProviderKind::Openai, &srv.base_url(), "hello", None);
    let run = app
        .start_run(&thread.id, "hi", choice.clone(), Recorder::default().sink())
        .await
        .unwrap();
    run.finished().await;
    let messages = app.get_thread(&thread.id).unwrap().messages;
    let reply = messages.iter().find(|m| m.role == Role::Assistant).unwrap();
    let before = app.list_threads().unwrap().len();

    for (id, text) in [
        (reply.id.as_str(), "x"),
        ("no-such-message", "x"),
        (messages[0].id.as_str(), "  "),
    ] {
        let err = app
            .edit_and_resend(
                &thread.id,
                id,
                text,
                choice.clone(),
                Recorder::default().sink(),
            )
            .await
            .err()
            .unwrap();
        assert!(matches!(err, AppError::Invalid(_)), "{err}");
    }
    assert_eq!(app.list_threads().unwrap().len(), before);
}
