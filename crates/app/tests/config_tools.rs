//! Config-declared tools through the whole app: `tools.json` in the data folder renames and
//! regroups built-ins, the model calls the declared name and gets the built-in's real result,
//! agents and the report see the declared group, and a broken entry or file stops nothing.

#![allow(clippy::unwrap_used)] // test helpers panic to report failures

mod common;

use std::path::Path;
use std::time::Duration;

use common::{explicit, fixtures, open_app, Recorder};
use scripted_model::{ScriptedServer, ServerOptions};
use workbench_app::config_tools::registry::IMPLEMENTATIONS;
use workbench_app::RunOptions;
use workbench_core::agent::RunOutcome;
use workbench_core::config::ProviderKind;
use workbench_core::thread::Role;
use workbench_core::tools::{Gate, ToolSource, Visibility};

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

const TOOLS: &str = r#"{"tools": [
  {"name": "search_files", "group": "file:read", "use": "sandbox.grep",
   "description": "Search the text of the project's files"},
  {"name": "broken", "group": "file", "use": "sandbox.nope"}
]}"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_model_calls_a_config_tool_by_its_declared_name_and_gets_the_real_result() {
    let srv = ScriptedServer::start(fixtures(), ServerOptions::default()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    write(&dir.path().join("tools.json"), TOOLS);
    let app = open_app(&dir);
    let thread = app.create_thread(None).unwrap();
    let ws = app.data_dir().thread_dir(&thread.id).join("workspace");
    write(&ws.join("notes.txt"), "first line\na needle in the hay\n");
    write(&ws.join("other.md"), "a needle not in a txt file\n");

    let rec = Recorder::default();
    let choice = explicit(ProviderKind::Openai, &srv.base_url(), "config-tool", None);
    let h = app
        .start_run(&thread.id, "Find the needle", choice, rec.sink())
        .await
        .unwrap();
    let outcome = tokio::time::timeout(Duration::from_secs(30), h.finished())
        .await
        .unwrap();
    assert_eq!(outcome, RunOutcome::Completed);

    // The first request offers the declared name, with the declared description and the
    // built-in's parameters; the broken entry is simply absent.
    let body = &srv.requests()[0].body;
    let tools = body["tools"].as_array().unwrap();
    let declared = tools
        .iter()
        .find(|t| t["function"]["name"] == "search_files")
        .expect("search_files is offered");
    assert_eq!(
        declared["function"]["description"],
        "Search the text of the project's files"
    );
    assert_eq!(declared["function"]["parameters"]["required"][0], "pattern");
    assert!(tools.iter().all(|t| t["function"]["name"] != "broken"));

    // The call ran the sandbox's grep over the workspace.
    let messages = app.get_thread(&thread.id).unwrap().messages;
    let result = messages
        .iter()
        .find(|m| m.role == Role::Tool && m.tool_call_id.as_deref() == Some("call_cfg01"))
        .unwrap();
    assert!(!result.is_error, "{}", result.content);
    assert!(result.content.contains("notes.txt"), "{}", result.content);
    assert!(
        result.content.contains("2:a needle in the hay"),
        "{}",
        result.content
    );
    assert!(
        !result.content.contains("other.md"),
        "include *.txt was applied"
    );
    assert!(
        !result.content.contains(dir.path().to_str().unwrap()),
        "host path masked"
    );
}

#[test]
fn every_implementation_id_resolves_in_a_real_run_with_its_group() {
    let dir = tempfile::tempdir().unwrap();
    let entries: Vec<String> = IMPLEMENTATIONS
        .iter()
        .enumerate()
        .map(|(i, imp)| {
            format!(
                r#"{{"name": "cfg_{i}", "group": "{}", "use": "{}"}}"#,
                imp.group, imp.id
            )
        })
        .collect();
    write(
        &dir.path().join("tools.json"),
        &format!(r#"{{"tools": [{}]}}"#, entries.join(",")),
    );
    let app = open_app(&dir);
    let report = app.explain_tools(None, &RunOptions::default()).unwrap();
    assert_eq!(report.problems, Vec::<String>::new());
    for (i, imp) in IMPLEMENTATIONS.iter().enumerate() {
        let v = report.verdict(&format!("cfg_{i}")).unwrap();
        assert_eq!(
            v.source,
            ToolSource::Config {
                impl_id: imp.id.into()
            }
        );
        assert_eq!(v.original_name.as_deref(), Some(imp.tool));
        // The registry's group is the built-in's real group (the approval rule relies on it).
        let own = report
            .tools
            .iter()
            .find(|t| t.name == imp.tool && !matches!(t.source, ToolSource::Config { .. }))
            .unwrap_or_else(|| panic!("{} has no built-in named {}", imp.id, imp.tool));
        assert_eq!(own.group, imp.group, "{}", imp.id);
    }
}

#[test]
fn an_agent_selects_config_tools_by_their_declared_group() {
    let dir = tempfile::tempdir().unwrap();
    write(&dir.path().join("tools.json"), TOOLS);
    write(&dir.path().join("agents/reader/SOUL.md"), "You only read.");
    write(
        &dir.path().join("agents/reader/agent.json"),
        r#"{"tool_groups": ["file:read"]}"#,
    );
    let app = open_app(&dir);
    let options = RunOptions {
        agent: Some("reader".into()),
        skills: Vec::new(),
    };
    let report = app.explain_tools(None, &options).unwrap();
    assert_eq!(report.names(Visibility::Visible), ["search_files"]);
    let v = report.verdict("search_files").unwrap();
    assert_eq!(v.group, "file:read");
    assert_eq!(
        v.reason,
        "declared in config; runs `sandbox.grep` (the built-in `grep`)"
    );
    assert_eq!(
        report.verdict("grep").unwrap().gate,
        Some(Gate::AgentToolGroups)
    );
    assert_eq!(report.problems.len(), 1, "{:?}", report.problems);
    assert!(
        report.problems[0].contains("entry 2 (`broken`): `use` names `sandbox.nope`"),
        "{}",
        report.problems[0]
    );
}

#[test]
fn a_broken_tools_file_leaves_the_built_ins_and_says_why() {
    let dir = tempfile::tempdir().unwrap();
    write(&dir.path().join("tools.json"), "{\"tools\": [\n  {,}\n]}");
    let app = open_app(&dir);
    let report = app.explain_tools(None, &RunOptions::default()).unwrap();
    assert!(report.verdict("grep").is_some());
    assert!(report
        .tools
        .iter()
        .all(|t| !matches!(t.source, ToolSource::Config { .. })));
    assert_eq!(report.problems.len(), 1);
    assert!(
        report.problems[0].contains("tools.json: not valid JSON"),
        "{:?}",
        report.problems
    );
    assert!(
        report.problems[0].contains("line 2"),
        "{:?}",
        report.problems
    );
}
