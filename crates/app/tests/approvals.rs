//! Approvals end to end through the app: a scripted model asks for `bash`, the run stops
//! waiting for the user, and the answer (allow, always, deny, or a new message) decides what
//! the model reads next. The shell is the real confined one.

#![allow(clippy::unwrap_used)]

mod common;

use common::{explicit, fixtures, open_app, Recorder};
use scripted_model::{ScriptedServer, ServerOptions};
use workbench_app::ModelChoice;
use workbench_core::agent::RunOutcome;
use workbench_core::config::ProviderKind;
use workbench_core::middleware::{ApprovalPolicy, Permission};
use workbench_core::thread::{ApprovalDecision, Message, Role, SUPERSEDED_RESULT};

fn shell_choice(srv: &ScriptedServer, model: &str) -> ModelChoice {
    explicit(ProviderKind::Openai, &srv.base_url(), model, None)
}

fn tool_messages(messages: &[Message]) -> Vec<&Message> {
    messages.iter().filter(|m| m.role == Role::Tool).collect()
}

/// Starts the `shell` script in a new thread and waits for the run to stop.
async fn run_shell(
    app: &std::sync::Arc<workbench_app::App>,
    srv: &ScriptedServer,
) -> (String, RunOutcome) {
    let thread = app.create_thread(None).unwrap();
    let h = app
        .start_run(
            &thread.id,
            "Run a command",
            shell_choice(srv, "shell"),
            Recorder::default().sink(),
        )
        .await
        .unwrap();
    (thread.id, h.finished().await)
}

#[tokio::test]
async fn a_shell_call_waits_for_approval_across_a_restart_and_runs_once_allowed() {
    let dir = tempfile::tempdir().unwrap();
    let srv = ScriptedServer::start(fixtures(), ServerOptions::default()).unwrap();
    let (thread_id, outcome) = {
        let app = open_app(&dir);
        run_shell(&app, &srv).await
    };
    assert_eq!(outcome, RunOutcome::WaitingForUser);
    let ran = dir
        .path()
        .join("threads")
        .join(&thread_id)
        .join("workspace/ran.txt");
    assert!(!ran.exists(), "nothing runs before the user answers");

    // A new process sees the same question.
    let app = open_app(&dir);
    let view = app.get_thread(&thread_id).unwrap();
    let pending = &view.thread.state.pending;
    assert_eq!(pending.len(), 1);
    assert_eq!(pending[0].call.name, "bash");
    assert!(pending[0].call.arguments.contains("echo approved"));
    assert!(pending[0].reason.contains("bash"), "{}", pending[0].reason);
    assert_eq!(pending[0].decision, None);
    assert!(tool_messages(&view.messages).is_empty());

    let events = Recorder::default();
    let call_id = pending[0].call.id.clone();
    let h = app
        .answer_approval(
            &thread_id,
            &call_id,
            ApprovalDecision::AllowOnce,
            shell_choice(&srv, "shell"),
            events.sink(),
        )
        .await
        .unwrap()
        .expect("the only pending call was answered, so the thread resumes");
    assert_eq!(h.finished().await, RunOutcome::Completed);

    assert_eq!(std::fs::read_to_string(&ran).unwrap(), "approved\n");
    let view = app.get_thread(&thread_id).unwrap();
    assert!(view.thread.state.pending.is_empty());
    let results = tool_messages(&view.messages);
    assert_eq!(results.len(), 1);
    assert!(!results[0].is_error, "{}", results[0].content);
    assert!(
        results[0].content.contains("approved"),
        "{}",
        results[0].content
    );
    assert!(results[0].content.contains("[exit code: 0]"));
    // The model's next request carried the result.
    let second = &srv.requests()[1].body;
    assert!(second.to_string().contains("exit code: 0"), "{second}");
    // "Once" does not change the policy.
    assert!(app.approval_policy().unwrap().tools.is_empty());
}

#[tokio::test]
async fn a_denied_call_is_not_run_and_the_model_reads_the_refusal() {
    let dir = tempfile::tempdir().unwrap();
    let srv = ScriptedServer::start(fixtures(), ServerOptions::default()).unwrap();
    let app = open_app(&dir);
    let (thread_id, outcome) = run_shell(&app, &srv).await;
    assert_eq!(outcome, RunOutcome::WaitingForUser);
    let call_id = app.get_thread(&thread_id).unwrap().thread.state.pending[0]
        .call
        .id
        .clone();
    let h = app
        .answer_approval(
            &thread_id,
            &call_id,
            ApprovalDecision::Deny,
            shell_choice(&srv, "shell"),
            Recorder::default().sink(),
        )
        .await
        .unwrap()
        .unwrap();
    assert_eq!(h.finished().await, RunOutcome::Completed);
    let ran = dir
        .path()
        .join("threads")
        .join(&thread_id)
        .join("workspace/ran.txt");
    assert!(!ran.exists());
    let view = app.get_thread(&thread_id).unwrap();
    let results = tool_messages(&view.messages);
    assert!(results[0].is_error);
    assert!(
        results[0].content.contains("denied"),
        "{}",
        results[0].content
    );
    assert!(srv.requests()[1].body.to_string().contains("denied"));
}

#[tokio::test]
async fn always_allow_is_remembered_and_the_next_run_does_not_ask() {
    let dir = tempfile::tempdir().unwrap();
    let app = open_app(&dir);
    let srv = ScriptedServer::start(fixtures(), ServerOptions::default()).unwrap();
    let (thread_id, _) = run_shell(&app, &srv).await;
    let call_id = app.get_thread(&thread_id).unwrap().thread.state.pending[0]
        .call
        .id
        .clone();
    let h = app
        .answer_approval(
            &thread_id,
            &call_id,
            ApprovalDecision::AllowAlways,
            shell_choice(&srv, "shell"),
            Recorder::default().sink(),
        )
        .await
        .unwrap()
        .unwrap();
    assert_eq!(h.finished().await, RunOutcome::Completed);
    assert_eq!(
        app.approval_policy().unwrap().tools.get("bash"),
        Some(&Permission::Allow)
    );

    let fresh = ScriptedServer::start(fixtures(), ServerOptions::default()).unwrap();
    let (second, outcome) = run_shell(&app, &fresh).await;
    assert_eq!(outcome, RunOutcome::Completed, "bash is always allowed now");
    let ran = dir
        .path()
        .join("threads")
        .join(&second)
        .join("workspace/ran.txt");
    assert_eq!(std::fs::read_to_string(ran).unwrap(), "approved\n");
}

#[tokio::test]
async fn never_refuses_without_asking() {
    let dir = tempfile::tempdir().unwrap();
    let app = open_app(&dir);
    let mut policy = ApprovalPolicy::default();
    policy.groups.insert("bash".into(), Permission::Never);
    app.set_approval_policy(&policy).unwrap();
    let srv = ScriptedServer::start(fixtures(), ServerOptions::default()).unwrap();
    let (thread_id, outcome) = run_shell(&app, &srv).await;
    assert_eq!(outcome, RunOutcome::Completed);
    let view = app.get_thread(&thread_id).unwrap();
    assert!(view.thread.state.pending.is_empty());
    let results = tool_messages(&view.messages);
    assert!(results[0].is_error);
    assert!(
        results[0].content.contains("does not allow"),
        "{}",
        results[0].content
    );
}

#[tokio::test]
async fn a_new_message_settles_the_waiting_call_and_the_thread_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let app = open_app(&dir);
    let srv = ScriptedServer::start(fixtures(), ServerOptions::default()).unwrap();
    let (thread_id, outcome) = run_shell(&app, &srv).await;
    assert_eq!(outcome, RunOutcome::WaitingForUser);
    let h = app
        .start_run(
            &thread_id,
            "Never mind, just say hello",
            explicit(ProviderKind::Openai, &srv.base_url(), "hello", None),
            Recorder::default().sink(),
        )
        .await
        .unwrap();
    assert_eq!(h.finished().await, RunOutcome::Completed);
    let view = app.get_thread(&thread_id).unwrap();
    assert!(view.thread.state.pending.is_empty());
    let roles: Vec<Role> = view.messages.iter().map(|m| m.role).collect();
    assert_eq!(
        roles,
        [
            Role::User,
            Role::Assistant,
            Role::Tool,
            Role::User,
            Role::Assistant
        ],
        "the call got its result before the new message"
    );
    assert_eq!(view.messages[2].content, SUPERSEDED_RESULT);
}

#[tokio::test]
async fn answering_a_call_that_is_not_waiting_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let app = open_app(&dir);
    let srv = ScriptedServer::start(fixtures(), ServerOptions::default()).unwrap();
    let thread = app.create_thread(None).unwrap();
    let err = app
        .answer_approval(
            &thread.id,
            "call_nope",
            ApprovalDecision::AllowOnce,
            shell_choice(&srv, "shell"),
            Recorder::default().sink(),
        )
        .await
        .err()
        .unwrap();
    assert!(err.to_string().contains("call_nope"), "{err}");
}
