//! The working tools through the whole app with the production OpenAI client against scripted
//! replies: a plan written, ticked and finished (with the reminder when the model tried to stop
//! early), memory saved in one thread and injected into the next (then deleted, then turned
//! off), a call by a deprecated alias, and the git tools on a repository in the workspace.

#![allow(clippy::unwrap_used)] // test helpers panic to report failures

mod common;

use std::path::Path;
use std::process::Command;
use std::sync::Arc;
use std::time::Duration;

use common::{explicit, fixtures, open_app, Recorder};
use scripted_model::{ScriptedServer, ServerOptions};
use serde_json::Value;
use workbench_app::App;
use workbench_core::agent::{RunEvent, RunOutcome};
use workbench_core::config::ProviderKind;
use workbench_core::middleware::REMINDER_PREFIX;
use workbench_core::thread::{Message, Role, TodoStatus};

struct Run {
    outcome: RunOutcome,
    rec: Recorder,
    messages: Vec<Message>,
}

async fn run_in(app: &Arc<App>, srv: &ScriptedServer, thread_id: &str, model: &str) -> Run {
    let rec = Recorder::default();
    let choice = explicit(ProviderKind::Openai, &srv.base_url(), model, None);
    let h = app
        .start_run(thread_id, "Please get this done", choice, rec.sink())
        .await
        .unwrap();
    let outcome = tokio::time::timeout(Duration::from_secs(30), h.finished())
        .await
        .expect("the run ended");
    let messages = app.get_thread(thread_id).unwrap().messages;
    Run {
        outcome,
        rec,
        messages,
    }
}

fn server() -> ScriptedServer {
    ScriptedServer::start(fixtures(), ServerOptions::default()).unwrap()
}

fn system_of(body: &Value) -> String {
    body["messages"][0]["content"].as_str().unwrap().to_string()
}

fn tool_names(body: &Value) -> Vec<String> {
    body["tools"]
        .as_array()
        .map(|t| {
            t.iter()
                .map(|t| t["function"]["name"].as_str().unwrap().to_string())
                .collect()
        })
        .unwrap_or_default()
}

fn results(messages: &[Message]) -> Vec<&Message> {
    messages.iter().filter(|m| m.role == Role::Tool).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_plan_is_written_ticked_reminded_and_finished() {
    let srv = server();
    let dir = tempfile::tempdir().unwrap();
    let app = open_app(&dir);
    let thread = app.create_thread(None).unwrap();
    let run = run_in(&app, &srv, &thread.id, "todos").await;
    assert_eq!(run.outcome, RunOutcome::Completed);

    // Every plan change was announced live, in order.
    let plans: Vec<Vec<TodoStatus>> = run
        .rec
        .events()
        .iter()
        .filter_map(|e| match e {
            RunEvent::StateUpdated { state, .. } => {
                Some(state.todos.iter().map(|t| t.status).collect())
            }
            _ => None,
        })
        .collect();
    use TodoStatus::*;
    assert_eq!(
        plans,
        [
            vec![InProgress, Pending, Pending],
            vec![Done, Done, InProgress],
            vec![Done, Done, Done]
        ]
    );

    // The early answer got one hidden reminder naming the open item, in the next request only.
    let requests = srv.requests();
    assert_eq!(requests.len(), 5, "five model turns");
    let last_user = |i: usize| {
        let msgs = requests[i].body["messages"].as_array().unwrap();
        msgs.iter().rev().find(|m| m["role"] == "user").unwrap()["content"]
            .as_str()
            .unwrap()
            .to_string()
    };
    let reminder = last_user(3);
    assert!(reminder.starts_with(REMINDER_PREFIX), "{reminder}");
    assert!(reminder.contains("- Run the test suite"), "{reminder}");
    assert!(
        !reminder.contains("Fix the parser"),
        "done items are not listed"
    );
    assert!(!last_user(4).starts_with(REMINDER_PREFIX), "given once");
    assert!(
        !run.messages
            .iter()
            .any(|m| m.content.starts_with(REMINDER_PREFIX)),
        "the reminder is not stored in the thread"
    );
    assert_eq!(
        run.messages.last().unwrap().content,
        "All three steps are done: the test passes."
    );

    // The plan persists with the thread (a restart reads it from the store).
    drop(app);
    let app = open_app(&dir);
    let todos = app.get_thread(&thread.id).unwrap().thread.state.todos;
    assert_eq!(todos.len(), 3);
    assert!(todos.iter().all(|t| t.status == Done));
    assert_eq!(todos[1].content, "Fix the parser");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_remembered_fact_reaches_the_next_thread_until_it_is_deleted() {
    let srv = server();
    let dir = tempfile::tempdir().unwrap();
    let app = open_app(&dir);
    let first = app.create_thread(None).unwrap();
    let run = run_in(&app, &srv, &first.id, "remember").await;
    assert_eq!(run.outcome, RunOutcome::Completed);
    let r = results(&run.messages);
    let by_call = |id: &str| {
        *r.iter()
            .find(|m| m.tool_call_id.as_deref() == Some(id))
            .unwrap()
    };
    assert!(!by_call("call_mem01").is_error);
    let refused = by_call("call_mem02");
    assert!(refused.is_error);
    assert!(
        refused.content.contains("GitHub token"),
        "{}",
        refused.content
    );

    let memories = app.list_memories().unwrap();
    assert_eq!(memories.len(), 1, "the token was not stored");
    assert_eq!(
        memories[0].fact,
        "The user's project indents with tabs, never spaces."
    );
    assert!(
        !system_of(&srv.requests()[0].body).contains("indents with tabs"),
        "not known before it was saved"
    );

    // A second thread gets the fact in its system prompt, and the use is counted.
    let second = app.create_thread(None).unwrap();
    run_in(&app, &srv, &second.id, "hello").await;
    let asked = srv.requests();
    let system = system_of(&asked.last().unwrap().body);
    assert!(system.contains("## Memory"), "{system}");
    assert!(
        system.contains("- The user's project indents with tabs, never spaces."),
        "{system}"
    );
    assert_eq!(app.list_memories().unwrap()[0].uses, 1);

    // Edited: the new text is injected. Deleted: nothing is.
    let id = memories[0].id.clone();
    let err = app
        .update_memory(&id, "Deploy with key AKIAIOSFODNN7EXAMPLE")
        .unwrap_err();
    assert!(err.to_string().contains("AWS access key"), "{err}");
    app.update_memory(&id, "The project indents with two spaces now.")
        .unwrap();
    let third = app.create_thread(None).unwrap();
    run_in(&app, &srv, &third.id, "hello").await;
    let system = system_of(&srv.requests().last().unwrap().body);
    assert!(system.contains("two spaces now"), "{system}");
    assert!(!system.contains("tabs"), "{system}");

    app.delete_memory(&id).unwrap();
    let fourth = app.create_thread(None).unwrap();
    run_in(&app, &srv, &fourth.id, "hello").await;
    let system = system_of(&srv.requests().last().unwrap().body);
    assert!(!system.contains("## Memory"), "{system}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn memory_turned_off_injects_nothing_and_offers_no_remember() {
    let srv = server();
    let dir = tempfile::tempdir().unwrap();
    let app = open_app(&dir);
    let t = app.create_thread(None).unwrap();
    run_in(&app, &srv, &t.id, "remember").await;
    assert_eq!(app.list_memories().unwrap().len(), 1);
    assert!(tool_names(&srv.requests()[0].body).contains(&"remember".to_string()));

    app.set_memory_enabled(false).unwrap();
    assert!(!app.memory_enabled().unwrap());
    let t2 = app.create_thread(None).unwrap();
    run_in(&app, &srv, &t2.id, "hello").await;
    let body = &srv.requests().last().unwrap().body.clone();
    assert!(!system_of(body).contains("## Memory"));
    assert!(!tool_names(body).contains(&"remember".to_string()));
    assert_eq!(
        app.list_memories().unwrap().len(),
        1,
        "facts are kept while off"
    );
    let report = app.explain_tools(None, &Default::default()).unwrap();
    assert!(report.verdict("remember").is_none());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_by_a_deprecated_alias_runs_the_tool_and_carries_the_deprecation() {
    let srv = server();
    let dir = tempfile::tempdir().unwrap();
    let app = open_app(&dir);
    let thread = app.create_thread(None).unwrap();
    let ws = app.data_dir().thread_dir(&thread.id).join("workspace");
    std::fs::create_dir_all(&ws).unwrap();
    std::fs::write(ws.join("notes.txt"), "hi\n").unwrap();
    let run = run_in(&app, &srv, &thread.id, "alias").await;
    assert_eq!(run.outcome, RunOutcome::Completed);

    assert!(
        !tool_names(&srv.requests()[0].body).contains(&"list_dir".to_string()),
        "aliases are never sent to the model"
    );
    let result = results(&run.messages)[0];
    assert!(!result.is_error, "{}", result.content);
    assert!(
        result.content.contains("notes.txt"),
        "ls ran: {}",
        result.content
    );
    assert!(
        result.content.contains("use `ls` instead"),
        "{}",
        result.content
    );
    let d = result
        .metadata
        .as_ref()
        .and_then(|m| m.deprecation.as_ref())
        .expect("deprecation block");
    assert_eq!(
        (
            d.this_tool.as_str(),
            d.use_instead.as_str(),
            d.removed_in.as_str()
        ),
        ("list_dir", "ls", "0.3.0")
    );
    // As stored and as the UI reads it: `_deprecation` in the metadata.
    let stored = serde_json::to_value(result).unwrap();
    assert_eq!(stored["metadata"]["_deprecation"]["use_instead"], "ls");

    let report = app
        .explain_tools(Some(&thread.id), &Default::default())
        .unwrap();
    let alias = report
        .aliases
        .iter()
        .find(|a| a.alias == "list_dir")
        .unwrap();
    assert_eq!(alias.canonical, "ls");
    assert_eq!(
        alias.target,
        Some(workbench_core::tools::Visibility::Visible)
    );
}

fn git(dir: &Path, args: &[&str]) {
    let out = Command::new("git")
        .args([
            "-c",
            "user.name=T",
            "-c",
            "user.email=t@example.com",
            "-c",
            "init.defaultBranch=main",
        ])
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_git_tools_answer_about_the_workspace_repository() {
    let srv = server();
    let dir = tempfile::tempdir().unwrap();
    let app = open_app(&dir);
    let thread = app.create_thread(None).unwrap();
    let ws = app.data_dir().thread_dir(&thread.id).join("workspace");
    std::fs::create_dir_all(&ws).unwrap();
    git(&ws, &["init", "-q"]);
    std::fs::write(ws.join("a.txt"), "one\n").unwrap();
    git(&ws, &["add", "-A"]);
    git(&ws, &["commit", "-q", "-m", "first"]);
    std::fs::write(ws.join("a.txt"), "one\ntwo\n").unwrap();
    git(&ws, &["add", "a.txt"]);
    std::fs::write(ws.join("b.txt"), "untracked\n").unwrap();

    let run = run_in(&app, &srv, &thread.id, "git").await;
    assert_eq!(run.outcome, RunOutcome::Completed);
    let names = tool_names(&srv.requests()[0].body);
    assert!(names.contains(&"git_status".to_string()), "{names:?}");
    let r = results(&run.messages);
    let by_call = |id: &str| {
        *r.iter()
            .find(|m| m.tool_call_id.as_deref() == Some(id))
            .unwrap()
    };
    let status: Value = serde_json::from_str(&by_call("call_git01").content).unwrap();
    assert_eq!(status["status"]["staged"][0]["path"], "a.txt");
    assert_eq!(status["status"]["untracked"][0], "b.txt");
    let diff = &by_call("call_git02").content;
    assert!(diff.contains("=== a.txt (+1 -0)"), "{diff}");
    assert!(diff.contains("+two"), "{diff}");
    let host = dir.path().to_str().unwrap();
    assert!(!diff.contains(host) && !by_call("call_git01").content.contains(host));

    let report = app
        .explain_tools(Some(&thread.id), &Default::default())
        .unwrap();
    assert_eq!(report.verdict("git_diff").unwrap().group, "git");
}
