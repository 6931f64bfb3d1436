//! The agent and skill picker's backend: what it lists, and a thread's saved choice, which the
//! next run (and a resumed one) uses.

#![allow(clippy::unwrap_used)] // test helpers panic to report failures

mod common;

use std::path::Path;

use common::open_app;
use workbench_app::RunOptions;
use workbench_core::tools::Visibility;

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn data(dir: &Path) {
    write(&dir.join("agents/researcher/SOUL.md"), "You find sources.");
    write(
        &dir.join("agents/researcher/agent.json"),
        r#"{"description": "Finds sources", "tool_groups": ["file"], "skills": ["notes"]}"#,
    );
    write(&dir.join("agents/broken/agent.json"), "{}");
    write(
        &dir.join("skills/notes/SKILL.md"),
        "---\ndescription: Keep notes\n---\nWrite notes.",
    );
    write(
        &dir.join("skills/reader/SKILL.md"),
        "---\ndescription: Only read\nallowed_tools: [read_file]\n---\nRead.",
    );
}

#[test]
fn the_picker_lists_agents_and_skills_and_the_ones_that_did_not_load() {
    let dir = tempfile::tempdir().unwrap();
    data(dir.path());
    let app = open_app(&dir);
    let c = app.run_choices();
    let agents: Vec<&str> = c.agents.iter().map(|a| a.name.as_str()).collect();
    assert_eq!(agents, ["researcher"]);
    assert_eq!(c.agents[0].description, "Finds sources");
    assert_eq!(c.agents[0].skills, ["notes"]);
    assert_eq!(
        c.agents[0].tool_groups.as_deref(),
        Some(&["file".to_string()][..])
    );
    let skills: Vec<&str> = c.skills.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(skills, ["notes", "reader"]);
    assert_eq!(
        c.skills[1].allowed_tools.as_deref(),
        Some(&["read_file".to_string()][..])
    );
    assert_eq!(c.problems.len(), 1, "{:?}", c.problems);
    assert!(c.problems[0].contains("SOUL.md"), "{}", c.problems[0]);
}

#[test]
fn a_threads_choice_is_saved_checked_and_explained() {
    let dir = tempfile::tempdir().unwrap();
    data(dir.path());
    let app = open_app(&dir);
    let thread = app.create_thread(None).unwrap();
    assert_eq!(
        app.thread_run_options(&thread.id).unwrap(),
        RunOptions::default()
    );

    let picked = RunOptions {
        agent: Some("researcher".into()),
        skills: vec!["reader".into(), "reader".into()],
    };
    let saved = app.set_thread_run_options(&thread.id, picked).unwrap();
    assert_eq!(saved.skills, ["reader"], "a skill named twice is kept once");
    assert_eq!(app.thread_run_options(&thread.id).unwrap(), saved);

    // The report for that choice: the agent's groups and the skill's allowed_tools apply.
    let report = app.explain_tools(Some(&thread.id), &saved).unwrap();
    assert_eq!(report.names(Visibility::Visible), ["read_file"]);

    // Unknown names are refused with a sentence, and the saved choice stays.
    let err = app
        .set_thread_run_options(
            &thread.id,
            RunOptions {
                agent: Some("nobody".into()),
                skills: Vec::new(),
            },
        )
        .unwrap_err();
    assert!(err.to_string().contains("no agent named `nobody`"), "{err}");
    let err = app
        .set_thread_run_options(
            &thread.id,
            RunOptions {
                agent: None,
                skills: vec!["missing".into()],
            },
        )
        .unwrap_err();
    assert!(
        err.to_string().contains("no skill named `missing`"),
        "{err}"
    );
    assert_eq!(app.thread_run_options(&thread.id).unwrap(), saved);
    assert!(app.thread_run_options("no-such-thread").is_err());
}
