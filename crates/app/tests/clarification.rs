//! ask_clarification end to end: the scripted model asks a question, the run ends waiting for
//! the user, the question survives a restart, and the answer becomes the call's result.

#![allow(clippy::unwrap_used)]

mod common;

use common::{explicit, fixtures, open_app, Recorder};
use scripted_model::{ScriptedServer, ServerOptions};
use workbench_core::agent::RunOutcome;
use workbench_core::config::ProviderKind;
use workbench_core::thread::{ApprovalDecision, ClarificationType, Role};

#[tokio::test]
async fn a_question_waits_across_a_restart_and_the_answer_resumes_the_thread() {
    let dir = tempfile::tempdir().unwrap();
    let srv = ScriptedServer::start(fixtures(), ServerOptions::default()).unwrap();
    let choice = || explicit(ProviderKind::Openai, &srv.base_url(), "ask", None);
    let thread_id = {
        let app = open_app(&dir);
        let thread = app.create_thread(None).unwrap();
        let h = app
            .start_run(
                &thread.id,
                "Make me a report",
                choice(),
                Recorder::default().sink(),
            )
            .await
            .unwrap();
        assert_eq!(h.finished().await, RunOutcome::WaitingForUser);
        thread.id
    };

    let app = open_app(&dir);
    let view = app.get_thread(&thread_id).unwrap();
    let pending = &view.thread.state.pending;
    assert_eq!(pending.len(), 1);
    let q = pending[0].question.as_ref().unwrap();
    assert_eq!(q.question, "Which format should the report use?");
    assert_eq!(q.clarification_type, ClarificationType::ApproachChoice);
    assert_eq!(q.options, ["Markdown", "CSV"]);
    assert_eq!(q.context.as_deref(), Some("Both are easy to produce."));
    let call_id = pending[0].call.id.clone();

    // An approval answer does not answer a question, and an empty answer is refused.
    let wrong = app
        .answer_approval(
            &thread_id,
            &call_id,
            ApprovalDecision::AllowOnce,
            choice(),
            Recorder::default().sink(),
        )
        .await;
    assert!(wrong.is_err());
    let empty = app
        .answer_clarification(
            &thread_id,
            &call_id,
            "  ",
            choice(),
            Recorder::default().sink(),
        )
        .await;
    assert!(empty.err().unwrap().to_string().contains("empty"));

    let h = app
        .answer_clarification(
            &thread_id,
            &call_id,
            "CSV",
            choice(),
            Recorder::default().sink(),
        )
        .await
        .unwrap()
        .unwrap();
    assert_eq!(h.finished().await, RunOutcome::Completed);
    let view = app.get_thread(&thread_id).unwrap();
    assert!(view.thread.state.pending.is_empty());
    let result = view.messages.iter().find(|m| m.role == Role::Tool).unwrap();
    assert_eq!(result.content, "The user answered: CSV");
    assert!(!result.is_error);
    assert!(srv.requests()[1]
        .body
        .to_string()
        .contains("The user answered: CSV"));
}
