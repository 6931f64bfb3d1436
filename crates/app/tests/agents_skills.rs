//! Custom agents and skills read from real folders: the fixtures under `tests/fixtures/` and
//! data folders built in temporary directories.

use std::fs;
use std::path::{Path, PathBuf};

use tempfile::TempDir;
use workbench_app::agents::{check_agent_skills, load_agent, load_agents, LoadProblem};
use workbench_app::skills::{load_skills, Skill};

/// The root fixtures folder, laid out like a data folder (`agents/`, `skills/`).
fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures")
}

/// Writes `files` (path relative to the data folder, contents) into a fresh data folder.
fn data_dir(files: &[(&str, &str)]) -> TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    for (rel, text) in files {
        let path = dir.path().join(rel);
        fs::create_dir_all(path.parent().expect("has a parent")).expect("mkdir");
        fs::write(&path, text).expect("write");
    }
    dir
}

/// The single problem, checked to be about `path`.
fn only_problem<'a>(problems: &'a [LoadProblem], path: &Path) -> &'a LoadProblem {
    assert_eq!(problems.len(), 1, "{problems:#?}");
    assert_eq!(problems[0].path, path, "{problems:#?}");
    &problems[0]
}

fn skill<'a>(skills: &'a [Skill], name: &str) -> &'a Skill {
    skills
        .iter()
        .find(|s| s.name == name)
        .unwrap_or_else(|| panic!("skill {name} not loaded: {skills:#?}"))
}

const SKILL_HEAD: &str = "---\ndescription: d\n";

#[test]
fn the_fixture_agent_loads() {
    let (agents, problems) = load_agents(&fixtures());
    assert!(problems.is_empty(), "{problems:#?}");
    assert_eq!(agents.len(), 1);
    let a = &agents[0];
    assert_eq!(a.name, "researcher");
    assert_eq!(a.description, "Finds, reads and cites sources");
    assert!(a.soul.starts_with("# Researcher"), "{}", a.soul);
    assert_eq!(a.model, None);
    assert_eq!(
        a.tool_groups,
        Some(vec!["web".to_string(), "file".to_string()])
    );
    assert_eq!(a.skills, vec!["notes".to_string()]);
    assert_eq!(
        a.to_profile_parts(),
        (
            "researcher".to_string(),
            Some(vec!["web".to_string(), "file".to_string()]),
            None
        )
    );
}

#[test]
fn the_fixture_skills_load_and_the_agent_skill_exists() {
    let (skills, problems) = load_skills(&fixtures());
    assert!(problems.is_empty(), "{problems:#?}");
    let names: Vec<&str> = skills.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["notes", "pdf-tools"], "sorted by name");

    let pdf = skill(&skills, "pdf-tools");
    assert_eq!(
        pdf.allowed_tools,
        Some(vec!["read_file".to_string(), "write_file".to_string()])
    );
    assert!(pdf.body.starts_with("# Working with PDFs"), "{}", pdf.body);
    assert!(pdf.description.starts_with("Read PDF files"));

    let notes = skill(&skills, "notes");
    assert_eq!(
        notes.allowed_tools, None,
        "no allowed_tools = no restriction"
    );
    assert_eq!(notes.to_active_skill_parts(), ("notes".to_string(), None));

    let (agents, _) = load_agents(&fixtures());
    assert!(check_agent_skills(&agents, &names).is_empty());
}

#[test]
fn an_agent_without_agent_json_gets_the_defaults() {
    let dir = data_dir(&[("agents/plain/SOUL.md", "\u{feff}Be brief.\n")]);
    let (agents, problems) = load_agents(dir.path());
    assert!(problems.is_empty(), "{problems:#?}");
    assert_eq!(agents.len(), 1);
    let a = &agents[0];
    assert_eq!(a.name, "plain");
    assert_eq!(a.soul, "Be brief.", "trimmed, byte-order mark dropped");
    assert_eq!(a.tool_groups, None, "every group");
    assert_eq!(a.model, None);
    assert!(a.skills.is_empty());
    assert_eq!(a.description, "");
    assert_eq!(a.dir, dir.path().join("agents/plain"));
}

#[test]
fn invalid_agent_json_names_the_file_and_line() {
    let dir = data_dir(&[
        ("agents/broken/SOUL.md", "x"),
        (
            "agents/broken/agent.json",
            "{\n  \"description\": \"d\"\n  \"model\": \"m\"\n}\n",
        ),
    ]);
    let (agents, problems) = load_agents(dir.path());
    assert!(agents.is_empty());
    let p = only_problem(&problems, &dir.path().join("agents/broken/agent.json"));
    assert!(p.message.contains("line 3"), "{p}");
    let shown = p.to_string();
    assert!(
        shown.contains("agent.json:") && shown.contains("line 3"),
        "{shown}"
    );
}

#[test]
fn a_misspelt_agent_key_is_refused_rather_than_giving_every_tool() {
    let dir = data_dir(&[
        ("agents/typo/SOUL.md", "x"),
        ("agents/typo/agent.json", r#"{"toolgroups": ["web"]}"#),
    ]);
    let (agents, problems) = load_agents(dir.path());
    assert!(agents.is_empty());
    let p = only_problem(&problems, &dir.path().join("agents/typo/agent.json"));
    assert!(p.message.contains("unknown field `toolgroups`"), "{p}");
}

#[test]
fn agent_json_values_are_cleaned() {
    let dir = data_dir(&[
        ("agents/coder/SOUL.md", "Write code."),
        (
            "agents/coder/agent.json",
            r#"{"model": "  ", "tool_groups": ["file", " bash", "file"], "skills": []}"#,
        ),
    ]);
    let agent = load_agent(&dir.path().join("agents/coder")).expect("loads");
    assert_eq!(agent.model, None, "a blank model means the configured one");
    assert_eq!(
        agent.tool_groups,
        Some(vec!["file".to_string(), "bash".to_string()])
    );
}

#[test]
fn an_empty_tool_group_list_means_no_tools() {
    let dir = data_dir(&[
        ("agents/talker/SOUL.md", "Just talk."),
        ("agents/talker/agent.json", r#"{"tool_groups": []}"#),
    ]);
    let agent = load_agent(&dir.path().join("agents/talker")).expect("loads");
    assert_eq!(agent.tool_groups, Some(vec![]));
}

#[test]
fn a_bad_folder_name_is_reported_with_a_suggestion() {
    let dir = data_dir(&[("agents/My Agent/SOUL.md", "x")]);
    let (agents, problems) = load_agents(dir.path());
    assert!(agents.is_empty());
    let p = only_problem(&problems, &dir.path().join("agents/My Agent"));
    assert!(p.message.contains("rename the folder"), "{p}");
    assert!(p.message.contains("`my-agent`"), "{p}");
}

#[test]
fn an_agent_without_soul_md_is_reported() {
    let dir = data_dir(&[("agents/ghost/agent.json", "{}")]);
    let (agents, problems) = load_agents(dir.path());
    assert!(agents.is_empty());
    let p = only_problem(&problems, &dir.path().join("agents/ghost/SOUL.md"));
    assert!(p.message.contains("add one"), "{p}");
}

#[test]
fn missing_folders_are_empty_lists_without_problems() {
    let dir = tempfile::tempdir().expect("tempdir");
    assert_eq!(load_agents(dir.path()), (vec![], vec![]));
    assert_eq!(load_skills(dir.path()), (vec![], vec![]));
}

#[test]
fn good_agents_load_beside_broken_ones() {
    let dir = data_dir(&[
        ("agents/zeta/SOUL.md", "z"),
        ("agents/alpha/SOUL.md", "a"),
        ("agents/alpha/agent.json", r#"{"model": "gpt-4.1"}"#),
        ("agents/bad json/SOUL.md", "x"),
        ("agents/broken/SOUL.md", "x"),
        ("agents/broken/agent.json", "{"),
        ("agents/badskill/SOUL.md", "x"),
        ("agents/badskill/agent.json", r#"{"skills": ["PDF Tools"]}"#),
        ("agents/notes.md", "a stray file"),
        ("agents/.hidden/SOUL.md", "ignored"),
    ]);
    let (agents, problems) = load_agents(dir.path());
    let names: Vec<&str> = agents.iter().map(|a| a.name.as_str()).collect();
    assert_eq!(names, ["alpha", "zeta"]);
    assert_eq!(agents[0].model.as_deref(), Some("gpt-4.1"));
    let paths: Vec<PathBuf> = problems.iter().map(|p| p.path.clone()).collect();
    let root = dir.path().join("agents");
    assert_eq!(
        paths,
        [
            root.join("bad json"),
            root.join("badskill/agent.json"),
            root.join("broken/agent.json"),
            root.join("notes.md"),
        ],
        "{problems:#?}"
    );
    assert!(
        problems[1].message.contains("`PDF Tools`"),
        "{}",
        problems[1]
    );
    assert!(problems[3].message.contains("is a file"), "{}", problems[3]);
}

#[test]
fn an_agent_naming_an_unknown_skill_is_reported() {
    let dir = data_dir(&[
        ("agents/a/SOUL.md", "x"),
        (
            "agents/a/agent.json",
            r#"{"skills": ["notes", "pdf-tool"]}"#,
        ),
    ]);
    let (agents, _) = load_agents(dir.path());
    let problems = check_agent_skills(&agents, &["notes", "pdf-tools"]);
    let p = only_problem(&problems, &dir.path().join("agents/a/agent.json"));
    assert!(p.message.contains("skill `pdf-tool`"), "{p}");
}

#[test]
fn allowed_tools_in_list_hyphenated_and_string_forms() {
    let dir = data_dir(&[
        (
            "skills/listed/SKILL.md",
            "---\nname: listed\ndescription: d\nallowed_tools: [read_file, \"group:web\", \"github__*\"]\n---\nbody",
        ),
        (
            "skills/hyphen/SKILL.md",
            "---\nname: hyphen\ndescription: d\nallowed-tools:\n  - read_file\n  - group:web\n---\nbody",
        ),
        (
            "skills/comma/SKILL.md",
            "---\nname: comma\ndescription: d\nallowed_tools: \"read_file, write_file\"\n---\nbody",
        ),
        (
            "skills/bare/SKILL.md",
            "---\nname: bare\ndescription: d\nallowed-tools: read_file, write_file\n---\nbody",
        ),
    ]);
    let (skills, problems) = load_skills(dir.path());
    assert!(problems.is_empty(), "{problems:#?}");
    let list = |names: &[&str]| Some(names.iter().map(|n| n.to_string()).collect::<Vec<_>>());
    assert_eq!(
        skill(&skills, "listed").allowed_tools,
        list(&["read_file", "group:web", "github__*"])
    );
    assert_eq!(
        skill(&skills, "hyphen").allowed_tools,
        list(&["read_file", "group:web"])
    );
    assert_eq!(
        skill(&skills, "comma").allowed_tools,
        list(&["read_file", "write_file"])
    );
    assert_eq!(
        skill(&skills, "bare").allowed_tools,
        list(&["read_file", "write_file"])
    );
}

#[test]
fn a_skill_without_frontmatter_is_reported_and_not_loaded() {
    let dir = data_dir(&[("skills/plain/SKILL.md", "# Plain\nJust text.\n")]);
    let (skills, problems) = load_skills(dir.path());
    assert!(skills.is_empty());
    let p = only_problem(&problems, &dir.path().join("skills/plain/SKILL.md"));
    assert!(p.message.contains("no frontmatter"), "{p}");
    assert!(
        p.message.contains("`name: plain`"),
        "says what to write: {p}"
    );
}

#[test]
fn a_skill_without_allowed_tools_does_not_restrict() {
    let dir = data_dir(&[(
        "skills/free/SKILL.md",
        "---\nname: free\ndescription: d\n---\nDo.",
    )]);
    let (skills, problems) = load_skills(dir.path());
    assert!(problems.is_empty(), "{problems:#?}");
    assert_eq!(skills[0].allowed_tools, None);
    assert_eq!(skills[0].body, "Do.");
}

#[test]
fn a_skill_name_that_differs_from_its_folder_uses_the_folder() {
    let dir = data_dir(&[(
        "skills/pdf/SKILL.md",
        "---\nname: pdf-tools\ndescription: d\n---\nbody",
    )]);
    let (skills, problems) = load_skills(dir.path());
    assert_eq!(skills.len(), 1);
    assert_eq!(skills[0].name, "pdf");
    let p = only_problem(&problems, &dir.path().join("skills/pdf/SKILL.md"));
    assert!(p.message.contains("`name: pdf-tools` differs"), "{p}");
}

#[test]
fn invalid_skill_yaml_names_the_file_line() {
    let dir = data_dir(&[(
        "skills/bad/SKILL.md",
        &format!("{SKILL_HEAD}allowed_tools: [read_file\n---\nbody"),
    )]);
    let (skills, problems) = load_skills(dir.path());
    assert!(skills.is_empty());
    let p = only_problem(&problems, &dir.path().join("skills/bad/SKILL.md"));
    assert!(p.message.contains("not valid YAML"), "{p}");
    assert!(p.message.contains("line 3"), "{p}");
}

#[test]
fn good_skills_load_beside_broken_ones() {
    let dir = data_dir(&[
        ("skills/good/SKILL.md", &format!("{SKILL_HEAD}---\nGood.")),
        (
            "skills/also-good/SKILL.md",
            &format!("{SKILL_HEAD}allowed_tools: [a]\n---\nAlso."),
        ),
        ("skills/no-front/SKILL.md", "Just text."),
        ("skills/unclosed/SKILL.md", "---\ndescription: d\n"),
        ("skills/empty-folder/.keep", ""),
        ("skills/Bad Name/SKILL.md", &format!("{SKILL_HEAD}---\nx")),
        (
            "skills/numbers/SKILL.md",
            &format!("{SKILL_HEAD}allowed_tools: [1, 2]\n---\nx"),
        ),
    ]);
    let (skills, problems) = load_skills(dir.path());
    let names: Vec<&str> = skills.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["also-good", "good"]);
    let root = dir.path().join("skills");
    let paths: Vec<PathBuf> = problems.iter().map(|p| p.path.clone()).collect();
    assert_eq!(
        paths,
        [
            root.join("Bad Name"),
            root.join("empty-folder/SKILL.md"),
            root.join("no-front/SKILL.md"),
            root.join("numbers/SKILL.md"),
            root.join("unclosed/SKILL.md"),
        ],
        "{problems:#?}"
    );
    assert!(
        problems[4].message.contains("no closing `---`"),
        "{}",
        problems[4]
    );
}
