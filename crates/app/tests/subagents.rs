//! `task` end to end: subagents are runs of the same loop with their own conversation, a
//! filtered tool set, live progress on the lead's event stream, limits, a timeout and cancel.

#![allow(clippy::unwrap_used)]

mod common;

use std::sync::Arc;
use std::time::Duration;

use common::{explicit, fixtures, open_app, Recorder};
use scripted_model::{ScriptedServer, ServerOptions};
use serde_json::Value;
use workbench_app::SUBAGENT_TIMEOUT_SETTING;
use workbench_core::agent::{RunEvent, RunOutcome, SubagentStatus, SubagentUpdate};
use workbench_core::config::ProviderKind;
use workbench_core::model::ToolSpec;
use workbench_core::thread::{Message, Role};
use workbench_core::tools::assembly::Candidate;
use workbench_core::tools::sources::{CandidateSource, SourceContext};
use workbench_core::tools::{Tool, ToolContext, ToolError, ToolMeta, ToolOutput, ToolSource};

/// One MCP-tagged tool, so tool sets differ by group.
struct OneMcpTool;

struct Echo(ToolSpec, ToolMeta);

#[async_trait::async_trait]
impl Tool for Echo {
    fn spec(&self) -> &ToolSpec {
        &self.0
    }
    fn meta(&self) -> &ToolMeta {
        &self.1
    }
    async fn call(&self, args: Value, _: &ToolContext) -> Result<ToolOutput, ToolError> {
        Ok(ToolOutput::text(args.to_string()))
    }
}

impl CandidateSource for OneMcpTool {
    fn name(&self) -> &str {
        "test"
    }
    fn candidates(&self, _: &SourceContext) -> Vec<Candidate> {
        let spec = ToolSpec {
            name: "notes__search".into(),
            description: "Search notes".into(),
            parameters: serde_json::json!({"type": "object", "properties": {}}),
        };
        let meta = ToolMeta::new(
            ToolSource::Mcp {
                server: "notes".into(),
            },
            "mcp",
        );
        vec![Candidate::new(Arc::new(Echo(spec, meta)))]
    }
}

fn tool_names(body: &Value) -> Vec<String> {
    body["tools"]
        .as_array()
        .map(|t| {
            t.iter()
                .filter_map(|t| t["function"]["name"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

fn updates(rec: &Recorder) -> Vec<(String, SubagentUpdate)> {
    rec.0
        .lock()
        .unwrap()
        .iter()
        .filter_map(|e| match e {
            RunEvent::Subagent {
                call_id, update, ..
            } => Some((call_id.clone(), update.clone())),
            _ => None,
        })
        .collect()
}

fn results(messages: &[Message]) -> Vec<&Message> {
    messages.iter().filter(|m| m.role == Role::Tool).collect()
}

#[tokio::test]
async fn two_subagents_work_in_parallel_with_their_own_tools_and_report_back() {
    let dir = tempfile::tempdir().unwrap();
    let app = open_app(&dir);
    app.add_tool_source(Arc::new(OneMcpTool));
    let srv = ScriptedServer::start(fixtures(), ServerOptions::default()).unwrap();
    let thread = app.create_thread(None).unwrap();
    let rec = Recorder::default();
    let h = app
        .start_run(
            &thread.id,
            "Look at my workspace",
            explicit(ProviderKind::Openai, &srv.base_url(), "subagents", None),
            rec.sink(),
        )
        .await
        .unwrap();
    assert_eq!(h.finished().await, RunOutcome::Completed);

    let messages = app.get_thread(&thread.id).unwrap().messages;
    let res = results(&messages);
    assert_eq!(res.len(), 2);
    for r in &res {
        assert!(!r.is_error, "{}", r.content);
        assert_eq!(r.content, "Subagent report: the task is done.");
    }
    // The subagents' conversations are their own: the lead thread holds only its messages.
    assert_eq!(
        messages.len(),
        5,
        "user, lead turn, two results, final answer"
    );

    let requests = srv.requests();
    assert_eq!(requests.len(), 4);
    let lead = tool_names(&requests[0].body);
    assert!(lead.contains(&"task".to_string()));
    assert!(lead.contains(&"ask_clarification".to_string()));
    for sub in &requests[1..3] {
        let names = tool_names(&sub.body);
        assert!(
            !names.contains(&"task".to_string()),
            "no recursion: {names:?}"
        );
        assert!(!names.contains(&"ask_clarification".to_string()));
        assert!(names.contains(&"read_file".to_string()), "{names:?}");
    }
    // The `bash` type gets shell, file and search tools only: the MCP tool (deferred behind
    // tool_search) is the general-purpose subagent's alone.
    let with_search = requests[1..3]
        .iter()
        .filter(|r| tool_names(&r.body).contains(&"tool_search".to_string()))
        .count();
    assert_eq!(with_search, 1);
    let prompts: Vec<String> = requests[1..3]
        .iter()
        .map(|r| r.body["messages"].to_string())
        .collect();
    assert!(prompts.iter().all(|p| p.contains("You are a subagent")));
    assert!(prompts
        .iter()
        .any(|p| p.contains("Count the files in the workspace")));

    let ups = updates(&rec);
    for status in [SubagentStatus::Started, SubagentStatus::Completed] {
        assert_eq!(
            ups.iter().filter(|(_, u)| u.status == status).count(),
            2,
            "{status:?}"
        );
    }
    let done: Vec<&SubagentUpdate> = ups
        .iter()
        .filter(|(_, u)| u.status == SubagentStatus::Completed)
        .map(|(_, u)| u)
        .collect();
    assert!(done
        .iter()
        .any(|u| u.description == "Count the files" && u.subagent_type == "bash"));
    assert!(done
        .iter()
        .all(|u| u.result.as_deref() == Some("Subagent report: the task is done.")));
}

#[tokio::test]
async fn a_fourth_subagent_at_once_is_refused_and_the_run_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let app = open_app(&dir);
    let srv = ScriptedServer::start(fixtures(), ServerOptions::default()).unwrap();
    let thread = app.create_thread(None).unwrap();
    let h = app
        .start_run(
            &thread.id,
            "Split it up",
            explicit(
                ProviderKind::Openai,
                &srv.base_url(),
                "subagents-four",
                None,
            ),
            Recorder::default().sink(),
        )
        .await
        .unwrap();
    assert_eq!(h.finished().await, RunOutcome::Completed);
    let messages = app.get_thread(&thread.id).unwrap().messages;
    let res = results(&messages);
    assert_eq!(res.len(), 4);
    let refused: Vec<&&Message> = res.iter().filter(|r| r.is_error).collect();
    assert_eq!(refused.len(), 1, "{res:#?}");
    assert!(
        refused[0].content.contains("already working"),
        "{}",
        refused[0].content
    );
}

#[tokio::test]
async fn a_slow_subagent_times_out_and_another_can_be_cancelled() {
    let dir = tempfile::tempdir().unwrap();
    let app = open_app(&dir);
    app.store()
        .set_setting(SUBAGENT_TIMEOUT_SETTING, &2u64)
        .unwrap();
    let srv = ScriptedServer::start(fixtures(), ServerOptions::default()).unwrap();
    let thread = app.create_thread(None).unwrap();
    let rec = Recorder::default();
    let h = app
        .start_run(
            &thread.id,
            "Take your time",
            explicit(
                ProviderKind::Openai,
                &srv.base_url(),
                "subagents-slow",
                None,
            ),
            rec.sink(),
        )
        .await
        .unwrap();
    // Cancel one of the two as soon as both have started.
    let cancelled_call = loop {
        let started: Vec<String> = updates(&rec)
            .into_iter()
            .filter(|(_, u)| u.status == SubagentStatus::Started)
            .map(|(c, _)| c)
            .collect();
        if started.len() == 2 {
            break started[0].clone();
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(app.cancel_subagent(&thread.id, &cancelled_call));
    assert_eq!(
        h.finished().await,
        RunOutcome::Completed,
        "the lead goes on"
    );
    assert!(
        !app.cancel_subagent(&thread.id, &cancelled_call),
        "nothing left to cancel"
    );

    let ups = updates(&rec);
    let end_of = |call: &str| {
        ups.iter()
            .filter(|(c, u)| {
                c == call && !matches!(u.status, SubagentStatus::Started | SubagentStatus::Running)
            })
            .map(|(_, u)| u.status)
            .collect::<Vec<_>>()
    };
    assert_eq!(end_of(&cancelled_call), [SubagentStatus::Cancelled]);
    let other = ups
        .iter()
        .map(|(c, _)| c.clone())
        .find(|c| *c != cancelled_call)
        .unwrap();
    assert_eq!(end_of(&other), [SubagentStatus::TimedOut]);
    let messages = app.get_thread(&thread.id).unwrap().messages;
    let res = results(&messages);
    assert!(res.iter().all(|r| r.is_error));
    assert!(res
        .iter()
        .any(|r| r.content.contains("stopped this subagent")));
    assert!(res
        .iter()
        .any(|r| r.content.contains("did not finish within 2 s")));
}
