//! The visibility calculation end to end: candidates from several sources through every gate,
//! with the report checked line by line.
#![allow(clippy::unwrap_used)]

use std::sync::Arc;

use serde_json::json;
use workbench_core::builtins::ToolSearch;
use workbench_core::model::ToolSpec;
use workbench_core::thread::ThreadState;
use workbench_core::tools::assembly::{
    assemble, ActiveSkill, AgentProfile, Assembly, AssemblyInput, Candidate, ShellPolicy,
};
use workbench_core::tools::{
    ConfiguredTool, Gate, StateUpdate, Tool, ToolContext, ToolError, ToolMeta, ToolOutput,
    ToolSource, Visibility,
};

struct Fake {
    spec: ToolSpec,
    meta: ToolMeta,
}

#[async_trait::async_trait]
impl Tool for Fake {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }
    fn meta(&self) -> &ToolMeta {
        &self.meta
    }
    async fn call(&self, _: serde_json::Value, _: &ToolContext) -> Result<ToolOutput, ToolError> {
        Ok(ToolOutput::text(format!("ran {}", self.spec.name)))
    }
}

fn tool(name: &str, meta: ToolMeta) -> Candidate {
    Candidate::new(Arc::new(Fake {
        spec: ToolSpec {
            name: name.into(),
            description: format!("{name} does things"),
            parameters: json!({"type": "object", "properties": {}}),
        },
        meta,
    }))
}

fn mcp(server: &str, tool_name: &str) -> Candidate {
    let mut meta = ToolMeta::new(
        ToolSource::Mcp {
            server: server.into(),
        },
        "mcp",
    );
    meta.original_name = Some(tool_name.into());
    tool(&format!("{server}__{tool_name}"), meta)
}

fn candidates() -> Vec<Candidate> {
    let shell = ToolMeta {
        is_shell: true,
        ..ToolMeta::new(ToolSource::Sandbox, "bash")
    };
    let vision = ToolMeta {
        needs_vision: true,
        ..ToolMeta::new(ToolSource::Builtin, "builtin")
    };
    let task = ToolMeta {
        lead_only: true,
        ..ToolMeta::new(ToolSource::Builtin, "builtin")
    };
    vec![
        tool("read_file", ToolMeta::new(ToolSource::Sandbox, "file")),
        tool("bash", shell),
        tool("view_image", vision),
        tool("task", task),
        tool("web_search", ToolMeta::new(ToolSource::Web, "web")),
        mcp("github", "create_issue"),
        mcp("github", "merge_pull_request"),
        tool(
            "read_file",
            ToolMeta::new(
                ToolSource::Mcp {
                    server: "fs".into(),
                },
                "mcp",
            ),
        ),
    ]
}

fn make_search(c: Arc<workbench_core::tools::DeferredCatalog>) -> Arc<dyn Tool> {
    Arc::new(ToolSearch::new(c))
}

fn run(input: &AssemblyInput, state: &ThreadState) -> Assembly {
    assemble(candidates(), input, state, &make_search).unwrap()
}

fn deferring() -> AssemblyInput {
    AssemblyInput {
        defer_mcp: true,
        ..Default::default()
    }
}

#[test]
fn every_candidate_gets_a_verdict_with_the_deciding_gate() {
    let a = run(&deferring(), &ThreadState::default());
    let r = a.report();
    let v = |n: &str| r.tools.iter().find(|t| t.name == n).unwrap();
    assert_eq!(v("bash").visibility, Visibility::Hidden);
    assert_eq!(v("bash").gate, Some(Gate::HostShell));
    assert_eq!(v("view_image").gate, Some(Gate::ModelCapability));
    assert_eq!(
        v("task").visibility,
        Visibility::Visible,
        "lead agent keeps task"
    );
    assert_eq!(v("web_search").visibility, Visibility::Visible);
    assert_eq!(v("github__create_issue").visibility, Visibility::Deferred);
    assert_eq!(v("github__create_issue").gate, Some(Gate::Deferral));
    assert_eq!(
        v("github__create_issue").original_name.as_deref(),
        Some("create_issue")
    );
    // The MCP read_file loses to the sandbox's read_file, and the report says so.
    let loser = r
        .tools
        .iter()
        .filter(|t| t.name == "read_file")
        .nth(1)
        .unwrap();
    assert_eq!(loser.gate, Some(Gate::Dedupe));
    assert!(loser.reason.contains("from sandbox"), "{}", loser.reason);
    assert_eq!(r.names(Visibility::Visible).last(), Some(&"tool_search"));
    assert_eq!(r.tools.len(), candidates().len() + 1);
    assert!(r
        .tools
        .iter()
        .all(|t| !t.reason.is_empty() || t.gate.is_none()));
}

#[test]
fn the_first_request_carries_tool_search_but_no_deferred_schema() {
    let a = run(&deferring(), &ThreadState::default());
    let names: Vec<String> = a
        .request_tools(&ThreadState::default())
        .into_iter()
        .map(|s| s.name)
        .collect();
    assert!(names.contains(&"tool_search".to_string()));
    assert!(
        !names.iter().any(|n| n.starts_with("github__")),
        "{names:?}"
    );
}

#[test]
fn a_promoted_tool_is_sent_and_callable_and_an_unpromoted_one_is_refused() {
    let a = run(&deferring(), &ThreadState::default());
    let hash = a.report().catalog_hash.clone().unwrap();
    let mut state = ThreadState::default();
    state.apply(&StateUpdate::Promoted {
        catalog_hash: hash,
        names: vec!["github__create_issue".into()],
    });
    let names: Vec<String> = a
        .request_tools(&state)
        .into_iter()
        .map(|s| s.name)
        .collect();
    assert!(names.contains(&"github__create_issue".to_string()));
    assert!(!names.contains(&"github__merge_pull_request".to_string()));
    assert!(a.resolve("github__create_issue", &state).is_ok());
    let refused = a
        .resolve("github__merge_pull_request", &state)
        .err()
        .unwrap();
    assert!(refused.is_error);
    assert!(
        refused.content.contains("tool_search"),
        "{}",
        refused.content
    );
}

#[test]
fn a_promotion_from_an_old_catalog_does_not_unlock_tools() {
    let a = run(&deferring(), &ThreadState::default());
    let mut state = ThreadState::default();
    state.apply(&StateUpdate::Promoted {
        catalog_hash: "an-older-catalog".into(),
        names: vec!["github__create_issue".into()],
    });
    assert!(a.resolve("github__create_issue", &state).is_err());
    let v = a.report().verdict("github__create_issue").unwrap();
    assert!(!v.reason.contains("promoted in this thread"));
}

#[test]
fn unknown_and_hidden_tools_are_refused_with_the_reason() {
    let a = run(&deferring(), &ThreadState::default());
    let unknown = a.resolve("nope", &ThreadState::default()).err().unwrap();
    assert!(
        unknown.content.contains("no tool named `nope`"),
        "{}",
        unknown.content
    );
    let hidden = a.resolve("bash", &ThreadState::default()).err().unwrap();
    assert!(hidden.content.contains("confinement"), "{}", hidden.content);
}

#[test]
fn without_deferral_mcp_tools_are_visible_and_no_catalog_is_built() {
    let a = run(&AssemblyInput::default(), &ThreadState::default());
    assert!(a.catalog().is_none());
    assert!(a.report().verdict("tool_search").is_none());
    assert_eq!(
        a.report()
            .verdict("github__create_issue")
            .unwrap()
            .visibility,
        Visibility::Visible
    );
}

#[test]
fn agent_groups_subagents_and_skills_narrow_the_set_in_order() {
    let input = AssemblyInput {
        agent: AgentProfile {
            name: "researcher".into(),
            tool_groups: Some(vec!["web".into(), "file".into(), "builtin".into()]),
            model: None,
        },
        shell: ShellPolicy {
            confinement: Some("landlock".into()),
            allow_unconfined: false,
        },
        is_subagent: true,
        skills: vec![ActiveSkill {
            name: "reading".into(),
            allowed_tools: Some(vec!["read_file".into(), "group:web".into()]),
        }],
        defer_mcp: true,
        ..Default::default()
    };
    let a = run(&input, &ThreadState::default());
    let r = a.report();
    assert_eq!(r.verdict("bash").unwrap().gate, Some(Gate::AgentToolGroups));
    assert_eq!(
        r.verdict("bash").unwrap().reason,
        "group `bash` is not in agent `researcher`'s tool_groups (web, file, builtin)"
    );
    assert_eq!(r.verdict("task").unwrap().gate, Some(Gate::SubagentSwitch));
    assert_eq!(
        r.verdict("github__create_issue").unwrap().gate,
        Some(Gate::AgentToolGroups)
    );
    assert_eq!(r.names(Visibility::Visible), ["read_file", "web_search"]);
    assert!(
        a.catalog().is_none(),
        "no MCP tool survived, so no tool_search"
    );
}

#[test]
fn a_config_name_that_differs_from_the_tools_own_is_reported() {
    let mut c = tool("fetch_page", ToolMeta::new(ToolSource::Web, "web"));
    c.config_name = Some("fetch".into());
    let a = assemble(
        vec![c],
        &AssemblyInput::default(),
        &ThreadState::default(),
        &make_search,
    )
    .unwrap();
    let v = a.report().verdict("fetch_page").unwrap();
    assert_eq!(v.visibility, Visibility::Visible);
    assert!(v.reason.contains("config names it `fetch`"), "{}", v.reason);
    assert!(
        !v.reason.ends_with(';') && !v.reason.ends_with(' '),
        "{:?}",
        v.reason
    );
}

fn configured(impl_id: &str, inner: Candidate, name: &str, group: &str) -> Candidate {
    Candidate::configured(ConfiguredTool::new(inner.tool, impl_id, name, group, None))
}

fn agent_with(groups: &[&str]) -> AgentProfile {
    AgentProfile {
        name: "reader".into(),
        tool_groups: Some(groups.iter().map(|g| g.to_string()).collect()),
        ..Default::default()
    }
}

/// Config tools come first (the app's source order), then the built-ins they point at.
fn with_config() -> Vec<Candidate> {
    let shell = ToolMeta {
        is_shell: true,
        ..ToolMeta::new(ToolSource::Sandbox, "bash")
    };
    let grep = || tool("grep", ToolMeta::new(ToolSource::Sandbox, "search"));
    let read = || tool("read_file", ToolMeta::new(ToolSource::Sandbox, "file"));
    vec![
        configured("sandbox.grep", grep(), "search_files", "file:read"),
        configured("sandbox.read_file", read(), "read_file", "file:read"),
        configured("sandbox.bash", tool("bash", shell.clone()), "sh", "bash"),
        grep(),
        read(),
        tool("bash", shell),
    ]
}

#[tokio::test]
async fn config_tools_pass_the_gates_by_their_declared_name_and_group() {
    let input = AssemblyInput {
        agent: agent_with(&["file:read"]),
        ..Default::default()
    };
    let a = assemble(with_config(), &input, &ThreadState::default(), &make_search).unwrap();
    let r = a.report();
    let v = |n: &str, i: usize| r.tools.iter().filter(|t| t.name == n).nth(i).unwrap();

    // The agent's group admits the config tools and hides the built-ins they point at.
    assert_eq!(v("search_files", 0).visibility, Visibility::Visible);
    assert_eq!(
        v("search_files", 0).source,
        ToolSource::Config {
            impl_id: "sandbox.grep".into()
        }
    );
    assert_eq!(v("search_files", 0).group, "file:read");
    assert_eq!(
        v("search_files", 0).reason,
        "declared in config; runs `sandbox.grep` (the built-in `grep`)"
    );
    assert_eq!(v("grep", 0).gate, Some(Gate::AgentToolGroups));
    // A renamed shell is still a shell: the host-shell gate hides it without confinement.
    assert_eq!(v("sh", 0).gate, Some(Gate::AgentToolGroups));
    // Same name as the built-in: the config tool comes first and the built-in is hidden by
    // its group; with every group allowed, dedupe decides and names the winner's source.
    assert_eq!(v("read_file", 0).visibility, Visibility::Visible);
    assert_eq!(
        v("read_file", 0).reason,
        "",
        "same name as its implementation"
    );
    assert_eq!(v("read_file", 1).gate, Some(Gate::AgentToolGroups));
    let open = assemble(
        with_config(),
        &AssemblyInput::default(),
        &ThreadState::default(),
        &make_search,
    )
    .unwrap();
    let loser = open
        .report()
        .tools
        .iter()
        .filter(|t| t.name == "read_file")
        .nth(1)
        .unwrap();
    assert_eq!(loser.gate, Some(Gate::Dedupe));
    assert!(
        loser.reason.contains("from config comes first"),
        "{}",
        loser.reason
    );
    let sh = open.report().verdict("sh").unwrap();
    assert_eq!(sh.gate, Some(Gate::HostShell), "{}", sh.reason);

    // The model calls the declared name and the implementation runs.
    let called = a.resolve("search_files", &ThreadState::default()).unwrap();
    let out = called.call(json!({}), &ctx()).await.unwrap();
    assert_eq!(out.content, "ran grep");
    let names: Vec<String> = a
        .request_tools(&ThreadState::default())
        .into_iter()
        .map(|s| s.name)
        .collect();
    assert_eq!(names, ["search_files", "read_file"]);
}

#[test]
fn a_skill_narrows_config_tools_by_their_declared_name_or_group() {
    let input = AssemblyInput {
        skills: vec![ActiveSkill {
            name: "careful".into(),
            allowed_tools: Some(vec!["search_files".into()]),
        }],
        ..Default::default()
    };
    let a = assemble(with_config(), &input, &ThreadState::default(), &make_search).unwrap();
    let r = a.report();
    assert_eq!(
        r.verdict("search_files").unwrap().visibility,
        Visibility::Visible
    );
    assert_eq!(
        r.verdict("read_file").unwrap().gate,
        Some(Gate::SkillAllowedTools)
    );
    let by_group = AssemblyInput {
        skills: vec![ActiveSkill {
            name: "reading".into(),
            allowed_tools: Some(vec!["group:file:read".into()]),
        }],
        ..Default::default()
    };
    let a = assemble(
        with_config(),
        &by_group,
        &ThreadState::default(),
        &make_search,
    )
    .unwrap();
    assert_eq!(
        a.report().names(Visibility::Visible),
        ["search_files", "read_file"]
    );
}

#[test]
fn a_config_tool_of_the_mcp_group_is_not_deferred() {
    // Deferral is for MCP servers' tools; a config tool is the user's own, always listed.
    let c = configured(
        "sandbox.grep",
        tool("grep", ToolMeta::new(ToolSource::Sandbox, "search")),
        "search_mcp",
        "mcp",
    );
    let a = assemble(vec![c], &deferring(), &ThreadState::default(), &make_search).unwrap();
    assert_eq!(
        a.report().verdict("search_mcp").unwrap().visibility,
        Visibility::Visible
    );
}

fn alias(old: &str, new: &str) -> workbench_core::tools::ToolAlias {
    workbench_core::tools::ToolAlias {
        alias: old.into(),
        canonical: new.into(),
        removed_in: "0.9.0".into(),
        message: format!("{old} was renamed {new}"),
    }
}

fn ctx() -> ToolContext {
    ToolContext {
        thread_id: "t".into(),
        run_id: "r".into(),
        call_id: "c".into(),
        cancel: Default::default(),
    }
}

#[tokio::test]
async fn an_alias_runs_the_canonical_tool_with_a_deprecation_block() {
    let input = AssemblyInput {
        defer_mcp: true,
        aliases: vec![alias("open_file", "read_file")],
        ..Default::default()
    };
    let state = ThreadState::default();
    let a = run(&input, &state);
    let names: Vec<String> = a
        .request_tools(&state)
        .into_iter()
        .map(|s| s.name)
        .collect();
    assert!(
        !names.contains(&"open_file".to_string()),
        "never sent: {names:?}"
    );

    let tool = a.resolve("open_file", &state).unwrap();
    let out = tool.call(json!({}), &ctx()).await.unwrap();
    assert!(out.content.starts_with("ran read_file"), "{}", out.content);
    assert!(
        out.content.contains("use `read_file` instead"),
        "{}",
        out.content
    );
    let d = out
        .metadata
        .and_then(|m| m.deprecation)
        .expect("deprecation block");
    assert_eq!(
        (
            d.this_tool.as_str(),
            d.use_instead.as_str(),
            d.removed_in.as_str()
        ),
        ("open_file", "read_file", "0.9.0")
    );
    let v = serde_json::to_value(&workbench_core::thread::ResultMetadata {
        deprecation: Some(d),
    })
    .unwrap();
    assert_eq!(v["_deprecation"]["use_instead"], "read_file");

    // A call by the canonical name carries nothing.
    let plain = a.resolve("read_file", &state).unwrap();
    let out = plain.call(json!({}), &ctx()).await.unwrap();
    assert!(out.metadata.is_none());
}

#[test]
fn the_report_lists_aliases_their_targets_and_shadowed_ones() {
    let input = AssemblyInput {
        defer_mcp: true,
        aliases: vec![
            alias("open_file", "read_file"),
            alias("shell", "bash"),
            alias("create_issue", "github__create_issue"),
            alias("gone", "nothing_by_that_name"),
            alias("task", "read_file"),
        ],
        ..Default::default()
    };
    let state = ThreadState::default();
    let a = run(&input, &state);
    let r = a.report();
    let target = |n: &str| r.aliases.iter().find(|x| x.alias == n).unwrap();
    assert_eq!(target("open_file").target, Some(Visibility::Visible));
    assert_eq!(target("shell").target, Some(Visibility::Hidden));
    assert_eq!(target("create_issue").target, Some(Visibility::Deferred));
    assert_eq!(target("gone").target, None);
    assert!(
        target("task").reason.starts_with("unused"),
        "{}",
        target("task").reason
    );
    assert!(r.verdict("open_file").is_none(), "aliases are not tools");

    // Hidden target: refused with the gate's reason. Deferred: search first. Shadowed: the real tool.
    let refused = a.resolve("shell", &state).err().unwrap();
    assert!(
        refused.content.contains("not available"),
        "{}",
        refused.content
    );
    let deferred = a.resolve("create_issue", &state).err().unwrap();
    assert!(
        deferred.content.contains("tool_search"),
        "{}",
        deferred.content
    );
    assert_eq!(a.resolve("task", &state).unwrap().spec().name, "task");
}
