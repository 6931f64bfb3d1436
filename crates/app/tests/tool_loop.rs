//! The agent loop with tools, end to end through the app: the production OpenAI client against
//! scripted multi-turn replies, the real store, assembly with a test source of MCP-tagged tools
//! (the real MCP adapter arrives with the MCP slice), and the default middleware chain.

#![allow(clippy::unwrap_used)] // test helpers panic to report failures

mod common;

use std::sync::Arc;
use std::time::Duration;

use common::{explicit, fixtures, open_app, Recorder};
use scripted_model::{ScriptedServer, ServerOptions};
use serde_json::{json, Value};
use tokio::sync::Barrier;
use workbench_core::agent::{RunEvent, RunOutcome};
use workbench_core::config::ProviderKind;
use workbench_core::model::ToolSpec;
use workbench_core::thread::{Message, Role};
use workbench_core::tools::assembly::Candidate;
use workbench_core::tools::sources::{CandidateSource, SourceContext};
use workbench_core::tools::{
    Tool, ToolContext, ToolError, ToolMeta, ToolOutput, ToolSource, Visibility,
};

/// A tool whose behaviour the test picks.
struct TestTool {
    spec: ToolSpec,
    meta: ToolMeta,
    behaviour: Behaviour,
}

#[derive(Clone)]
enum Behaviour {
    Echo,
    Meet(Arc<Barrier>),
    Panic,
}

#[async_trait::async_trait]
impl Tool for TestTool {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }
    fn meta(&self) -> &ToolMeta {
        &self.meta
    }
    async fn call(&self, args: Value, _: &ToolContext) -> Result<ToolOutput, ToolError> {
        match &self.behaviour {
            Behaviour::Echo => Ok(ToolOutput::text(format!("{} got {args}", self.spec.name))),
            Behaviour::Meet(barrier) => {
                // Finishes only if the other call of the same turn runs at the same time.
                tokio::time::timeout(Duration::from_secs(10), barrier.wait())
                    .await
                    .map_err(|_| ToolError::Failed("the other call never ran alongside".into()))?;
                Ok(ToolOutput::text(format!("met {}", args["who"])))
            }
            Behaviour::Panic => panic!("this tool always panics"),
        }
    }
}

struct TestSource(Vec<Arc<TestTool>>);

impl CandidateSource for TestSource {
    fn name(&self) -> &str {
        "test"
    }
    fn candidates(&self, _: &SourceContext) -> Vec<Candidate> {
        self.0
            .iter()
            .map(|t| Candidate::new(t.clone() as Arc<dyn Tool>))
            .collect()
    }
}

fn test_tool(name: &str, source: ToolSource, group: &str, behaviour: Behaviour) -> Arc<TestTool> {
    let mut meta = ToolMeta::new(source, group);
    if let Some((_, original)) = name.split_once("__") {
        meta.original_name = Some(original.to_string());
    }
    Arc::new(TestTool {
        spec: ToolSpec {
            name: name.into(),
            description: format!("{name}: create an issue or echo its arguments"),
            parameters: json!({"type": "object", "properties": {"title": {"type": "string"}}}),
        },
        meta,
        behaviour,
    })
}

fn source() -> TestSource {
    let github = || ToolSource::Mcp {
        server: "github".into(),
    };
    let barrier = Arc::new(Barrier::new(2));
    TestSource(vec![
        test_tool("github__create_issue", github(), "mcp", Behaviour::Echo),
        test_tool(
            "github__merge_pull_request",
            github(),
            "mcp",
            Behaviour::Echo,
        ),
        test_tool("echo", ToolSource::Builtin, "builtin", Behaviour::Echo),
        test_tool(
            "rendezvous",
            ToolSource::Builtin,
            "builtin",
            Behaviour::Meet(barrier),
        ),
        test_tool("panicky", ToolSource::Builtin, "builtin", Behaviour::Panic),
    ])
}

/// Runs one user message with `model` (a loop-* script) and returns the outcome, the events and
/// the stored messages.
async fn run(model: &str) -> (RunOutcome, Recorder, Vec<Message>, ScriptedServer) {
    let srv = ScriptedServer::start(fixtures(), ServerOptions::default()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let app = open_app(&dir);
    app.add_tool_source(Arc::new(source()));
    let thread = app.create_thread(None).unwrap();
    let rec = Recorder::default();
    let choice = explicit(ProviderKind::Openai, &srv.base_url(), model, None);
    let h = app
        .start_run(
            &thread.id,
            "File an issue about the crash",
            choice,
            rec.sink(),
        )
        .await
        .unwrap();
    let outcome = tokio::time::timeout(Duration::from_secs(30), h.finished())
        .await
        .expect("the run ended");
    let messages = app.get_thread(&thread.id).unwrap().messages;
    (outcome, rec, messages, srv)
}

fn tool_results(messages: &[Message]) -> Vec<&Message> {
    messages.iter().filter(|m| m.role == Role::Tool).collect()
}

fn request_tool_names(body: &Value) -> Vec<String> {
    body["tools"]
        .as_array()
        .map(|tools| {
            tools
                .iter()
                .map(|t| t["function"]["name"].as_str().unwrap().to_string())
                .collect()
        })
        .unwrap_or_default()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn search_promotes_a_deferred_tool_which_is_then_called() {
    let (outcome, rec, messages, srv) = run("loop-search").await;
    assert_eq!(outcome, RunOutcome::Completed);

    let requests = srv.requests();
    assert_eq!(requests.len(), 3, "three model turns");
    // Turn 1: only tool_search and the visible tools; no deferred schema, but the names.
    let first = request_tool_names(&requests[0].body);
    assert!(first.contains(&"tool_search".to_string()), "{first:?}");
    assert!(
        !first.iter().any(|n| n.starts_with("github__")),
        "{first:?}"
    );
    let system = requests[0].body["messages"][0]["content"].as_str().unwrap();
    assert!(system.contains("create_issue"), "deferred names are listed");
    // Turn 2: the promoted tool's schema is sent; the unpromoted one is not.
    let second = request_tool_names(&requests[1].body);
    assert!(
        second.contains(&"github__create_issue".to_string()),
        "{second:?}"
    );
    assert!(!second.contains(&"github__merge_pull_request".to_string()));

    let results = tool_results(&messages);
    assert_eq!(results.len(), 2);
    assert!(!results[0].is_error);
    assert!(results[0].content.contains("github__create_issue"));
    assert!(!results[1].is_error, "{}", results[1].content);
    assert!(results[1].content.contains("Crash on start"));
    assert_eq!(
        messages.last().unwrap().content,
        "Done: I created the issue."
    );

    // The promotion is in the thread state, announced and stored.
    assert!(rec.events().iter().any(|e| matches!(e,
        RunEvent::StateUpdated { state, .. } if state.promoted.as_ref().is_some_and(|p| p.names.contains("github__create_issue")))));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_promotion_stays_for_the_next_run_of_the_thread() {
    let srv = ScriptedServer::start(fixtures(), ServerOptions::default()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let app = open_app(&dir);
    app.add_tool_source(Arc::new(source()));
    let thread = app.create_thread(None).unwrap();
    let choice = explicit(ProviderKind::Openai, &srv.base_url(), "loop-search", None);
    let h = app
        .start_run(&thread.id, "first", choice, Recorder::default().sink())
        .await
        .unwrap();
    assert_eq!(h.finished().await, RunOutcome::Completed);
    // A second run: the script repeats its last (text) step; its request carries the tool.
    let choice = explicit(ProviderKind::Openai, &srv.base_url(), "loop-search", None);
    let h = app
        .start_run(&thread.id, "again", choice, Recorder::default().sink())
        .await
        .unwrap();
    assert_eq!(h.finished().await, RunOutcome::Completed);
    let last = srv.requests().last().cloned().unwrap();
    assert!(request_tool_names(&last.body).contains(&"github__create_issue".to_string()));
    let report = app
        .explain_tools(Some(&thread.id), &Default::default())
        .unwrap();
    let v = report.verdict("github__create_issue").unwrap();
    assert_eq!(v.visibility, Visibility::Deferred);
    assert!(v.reason.contains("promoted in this thread"), "{}", v.reason);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn calling_a_deferred_tool_without_searching_gets_an_error_the_model_can_act_on() {
    let (outcome, _, messages, _) = run("loop-direct").await;
    assert_eq!(outcome, RunOutcome::Completed, "the run goes on");
    let results = tool_results(&messages);
    assert_eq!(results.len(), 1);
    assert!(results[0].is_error);
    assert!(
        results[0].content.contains("tool_search"),
        "{}",
        results[0].content
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn parallel_calls_of_one_turn_run_at_the_same_time() {
    let (outcome, _, messages, _) = run("loop-parallel").await;
    assert_eq!(outcome, RunOutcome::Completed);
    let results = tool_results(&messages);
    assert_eq!(results.len(), 2);
    for r in &results {
        assert!(!r.is_error, "{}", r.content);
    }
    let ids: Vec<&str> = results
        .iter()
        .map(|r| r.tool_call_id.as_deref().unwrap())
        .collect();
    assert!(ids.contains(&"call_meet_a") && ids.contains(&"call_meet_b"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn invalid_json_arguments_become_an_error_result_and_the_run_goes_on() {
    let (outcome, _, messages, _) = run("loop-badargs").await;
    assert_eq!(outcome, RunOutcome::Completed);
    let results = tool_results(&messages);
    assert!(results[0].is_error);
    assert!(
        results[0].content.contains("not valid JSON"),
        "{}",
        results[0].content
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_panicking_tool_becomes_an_error_result_and_the_run_goes_on() {
    let (outcome, _, messages, _) = run("loop-panic").await;
    assert_eq!(outcome, RunOutcome::Completed);
    let results = tool_results(&messages);
    assert_eq!(results.len(), 1);
    assert!(results[0].is_error);
    assert!(
        results[0].content.contains("crashed"),
        "{}",
        results[0].content
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_model_repeating_the_same_call_is_warned_then_stopped() {
    let (outcome, rec, messages, srv) = run("loop-repeat").await;
    assert_eq!(outcome, RunOutcome::Failed);
    let results = tool_results(&messages);
    assert!(
        results
            .iter()
            .any(|r| r.content.to_lowercase().contains("repeat")),
        "a warning reached the model"
    );
    assert!(
        srv.requests().len() <= 6,
        "stopped early, not at the turn limit"
    );
    let error = rec.events().iter().find_map(|e| match e {
        RunEvent::RunFinished { error, .. } => error.clone(),
        _ => None,
    });
    assert!(error.is_some());
    // Every call in the history has its result: the next run can start cleanly.
    let calls: usize = messages.iter().map(|m| m.tool_calls.len()).sum();
    assert_eq!(calls, results.len());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_agent_writes_a_file_into_the_threads_outputs_folder() {
    let srv = ScriptedServer::start(fixtures(), ServerOptions::default()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let app = open_app(&dir);
    let thread = app.create_thread(None).unwrap();
    let choice = explicit(ProviderKind::Openai, &srv.base_url(), "loop-write", None);
    let h = app
        .start_run(
            &thread.id,
            "Write me a greeting",
            choice,
            Recorder::default().sink(),
        )
        .await
        .unwrap();
    assert_eq!(h.finished().await, RunOutcome::Completed);

    let written = dir
        .path()
        .join("threads")
        .join(&thread.id)
        .join("outputs/hello.txt");
    assert_eq!(
        std::fs::read_to_string(&written).unwrap(),
        "Hello from the agent\n"
    );
    let messages = app.get_thread(&thread.id).unwrap().messages;
    let result = tool_results(&messages)[0];
    assert!(!result.is_error, "{}", result.content);
    // The model sees only virtual paths, never the host folder.
    assert!(
        !result.content.contains(dir.path().to_str().unwrap()),
        "{}",
        result.content
    );
    let first = request_tool_names(&srv.requests()[0].body);
    for name in ["ls", "read_file", "write_file", "str_replace", "grep"] {
        assert!(
            first.contains(&name.to_string()),
            "{name} missing from {first:?}"
        );
    }
}
