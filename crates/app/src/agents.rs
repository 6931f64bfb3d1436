//! Custom agents: user-defined personas with their own model and tool groups, read from
//! folders in the data folder.
//!
//! # Format
//!
//! ```text
//! <data_dir>/agents/<name>/SOUL.md     the persona, appended to the system prompt (required)
//! <data_dir>/agents/<name>/agent.json  settings (optional; absent = every default)
//! ```
//!
//! `agent.json`, every key optional, unknown keys rejected (a misspelt `tool_groups` must not
//! silently give the agent every tool):
//!
//! ```json
//! {
//!   "description": "Finds and summarises sources",
//!   "model": "gpt-4.1",
//!   "tool_groups": ["web", "file"],
//!   "skills": ["pdf-tools"],
//!   "mounts": [{"name": "docs", "host": "/home/me/docs", "read_only": true}]
//! }
//! ```
//!
//! - `tool_groups` absent or `null` = every group; `[]` = no tools at all.
//! - `model` absent or empty = the run's configured model.
//! - `skills` = skills active by default when this agent runs.
//! - `mounts` = host folders every thread of this agent gets: at `/mnt/user-data/mounts/<name>`,
//!   or as the workspace itself when `name` is absent; `read_only` defaults to false. A
//!   thread's own mounts win over the agent's for the same name (or the workspace).
//!
//! The agent's name is its folder name: 1-64 of `a-z`, `0-9`, `-`, `_` (so names are unique
//! and safe in paths and CLI flags). The same rule names skills.
//!
//! Loading never fails as a whole: each broken folder becomes a [`LoadProblem`] that names the
//! file and what to fix, and the other agents still load. Folders starting with `.` are ignored.
//!
//! Not here: how a run uses the agent (tool assembly in `workbench-core`).

use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// Folder of the data folder holding one folder per custom agent.
pub const AGENTS_DIR: &str = "agents";
/// The persona file in an agent folder.
pub const SOUL_FILE: &str = "SOUL.md";
/// The settings file in an agent folder.
pub const AGENT_CONFIG_FILE: &str = "agent.json";
/// Longest agent or skill name, in characters (Anthropic's limit for skill names too).
pub const MAX_NAME_LEN: usize = 64;
/// Largest SOUL.md or SKILL.md read. Both go into the prompt, so anything bigger is surely the
/// wrong file, and it would crowd the conversation out of the model's context window.
pub const MAX_PROMPT_FILE_BYTES: u64 = 256 * 1024;
/// Largest agent.json read; a few settings never come near it.
const MAX_CONFIG_BYTES: u64 = 64 * 1024;

/// A folder that could not be loaded (or loaded with a caveat): the file and what to fix.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, thiserror::Error)]
#[error("{}: {message}", path.display())]
pub struct LoadProblem {
    /// The file or folder at fault.
    pub path: PathBuf,
    /// What is wrong and how to fix it, as a sentence for the user.
    pub message: String,
}

impl LoadProblem {
    /// A problem with `path`.
    pub fn new(path: impl Into<PathBuf>, message: impl Into<String>) -> Self {
        Self {
            path: path.into(),
            message: message.into(),
        }
    }
}

/// A custom agent read from `<data_dir>/agents/<name>/`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CustomAgent {
    /// The folder name.
    pub name: String,
    /// One line for pickers; empty when agent.json gives none.
    pub description: String,
    /// The persona from SOUL.md, trimmed; appended to the system prompt.
    pub soul: String,
    /// The model this agent asks for; `None` = the configured one.
    pub model: Option<String>,
    /// The tool groups this agent may use; `None` = every group.
    pub tool_groups: Option<Vec<String>>,
    /// Skills active by default for this agent.
    pub skills: Vec<String>,
    /// Host folders every thread of this agent gets (checked against the disk at run time).
    pub mounts: Vec<workbench_sandbox::MountSpec>,
    /// The agent's folder.
    pub dir: PathBuf,
}

impl CustomAgent {
    /// The fields of core's `AgentProfile`: `(name, tool_groups, model)`.
    pub fn to_profile_parts(&self) -> (String, Option<Vec<String>>, Option<String>) {
        (
            self.name.clone(),
            self.tool_groups.clone(),
            self.model.clone(),
        )
    }
}

/// agent.json as written; every key optional.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct AgentConfig {
    #[serde(default)]
    description: Option<String>,
    #[serde(default)]
    model: Option<String>,
    #[serde(default)]
    tool_groups: Option<Vec<String>>,
    #[serde(default)]
    skills: Vec<String>,
    #[serde(default)]
    mounts: Vec<workbench_sandbox::MountSpec>,
}

/// Every custom agent under `<data_dir>/agents/`, sorted by name, and the problems of the
/// folders that could not be loaded. A missing `agents` folder is no problem.
pub fn load_agents(data_dir: &Path) -> (Vec<CustomAgent>, Vec<LoadProblem>) {
    let mut problems = Vec::new();
    let mut agents = Vec::new();
    for dir in list_folders(&data_dir.join(AGENTS_DIR), "agent", &mut problems) {
        match load_agent(&dir) {
            Ok(agent) => agents.push(agent),
            Err(problem) => problems.push(problem),
        }
    }
    agents.sort_by(|a, b| a.name.cmp(&b.name));
    problems.sort_by(|a, b| a.path.cmp(&b.path));
    (agents, problems)
}

/// One agent from its folder; the folder name is the agent's name.
pub fn load_agent(dir: &Path) -> Result<CustomAgent, LoadProblem> {
    let name = folder_name(dir, "agent")?;
    let soul_path = dir.join(SOUL_FILE);
    let soul = read_text(&soul_path, MAX_PROMPT_FILE_BYTES)?.ok_or_else(|| {
        LoadProblem::new(
            &soul_path,
            format!(
                "agent `{name}` has no {SOUL_FILE}; add one with the agent's persona \
                 (the file name is case-sensitive)"
            ),
        )
    })?;

    let config_path = dir.join(AGENT_CONFIG_FILE);
    let config = match read_text(&config_path, MAX_CONFIG_BYTES)? {
        // No agent.json is a valid agent: every default, every tool group.
        None => AgentConfig::default(),
        Some(text) => serde_json::from_str::<AgentConfig>(&text).map_err(|e| {
            LoadProblem::new(
                &config_path,
                format!(
                    "{AGENT_CONFIG_FILE} is not valid: {e}; fix it, or delete it to use the \
                     defaults (every tool group)"
                ),
            )
        })?,
    };

    let tool_groups = match config.tool_groups {
        None => None,
        Some(groups) => Some(clean_list(groups, &config_path, "tool_groups")?),
    };
    let skills = clean_list(config.skills, &config_path, "skills")?;
    for skill in &skills {
        // A skill narrows the agent's tools, so a misspelt one is refused rather than dropped.
        validate_name(skill).map_err(|why| {
            LoadProblem::new(
                &config_path,
                format!("`skills` names `{skill}`, which is not a valid skill name: {why}"),
            )
        })?;
    }

    for m in &config.mounts {
        // The folder itself is checked when a run starts (it may be on a drive plugged in
        // later); a bad name or a relative path is wrong in the file and reported now.
        let bad = match &m.name {
            Some(n) => workbench_sandbox::validate_mount_name(n)
                .err()
                .map(|e| e.to_string()),
            None => None,
        }
        .or_else(|| {
            (!m.host.is_absolute())
                .then(|| format!("`{}` is not an absolute path", m.host.display()))
        });
        if let Some(why) = bad {
            return Err(LoadProblem::new(
                &config_path,
                format!("`mounts` has a mount that cannot be used: {why}"),
            ));
        }
    }

    Ok(CustomAgent {
        name,
        description: config.description.unwrap_or_default().trim().to_string(),
        soul: soul.trim().to_string(),
        model: config
            .model
            .map(|m| m.trim().to_string())
            .filter(|m| !m.is_empty()),
        tool_groups,
        skills,
        mounts: config.mounts,
        dir: dir.to_path_buf(),
    })
}

/// Problems for agents whose `skills` name a skill that did not load, so the user learns of a
/// typo before a run starts without the skill's tool restriction.
pub fn check_agent_skills(agents: &[CustomAgent], skill_names: &[&str]) -> Vec<LoadProblem> {
    let mut problems = Vec::new();
    for agent in agents {
        for skill in &agent.skills {
            if !skill_names.contains(&skill.as_str()) {
                problems.push(LoadProblem::new(
                    agent.dir.join(AGENT_CONFIG_FILE),
                    format!(
                        "agent `{}` names skill `{skill}`, but no skill of that name loaded; \
                         add skills/{skill}/SKILL.md or fix the name",
                        agent.name
                    ),
                ));
            }
        }
    }
    problems
}

/// Checks an agent or skill name: 1-64 of `a-z`, `0-9`, `-`, `_`. The error says why and,
/// when it can, which name would do.
pub fn validate_name(name: &str) -> Result<(), String> {
    const RULE: &str = "use 1-64 of a-z, 0-9, `-` and `_`";
    if name.is_empty() {
        return Err(format!("it is empty; {RULE}"));
    }
    let len = name.chars().count();
    let bad = name
        .chars()
        .find(|c| !(c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '-' || *c == '_'));
    let why = match bad {
        Some(c) => format!("it contains {c:?}"),
        None if len > MAX_NAME_LEN => format!("it is {len} characters long"),
        None => return Ok(()),
    };
    let suggestion = suggest_name(name);
    if suggestion.is_empty() {
        Err(format!("{why}; {RULE}"))
    } else {
        Err(format!("{why}; {RULE}, e.g. `{suggestion}`"))
    }
}

/// A valid name close to `name`: lowercased, other characters turned into `-`, cut to length.
fn suggest_name(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars().flat_map(char::to_lowercase) {
        let keep = c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_';
        if keep {
            out.push(c);
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    let out: String = out.chars().take(MAX_NAME_LEN).collect();
    out.trim_end_matches('-').to_string()
}

/// Trims each entry of a list from a settings file, drops repeats and refuses empty entries.
fn clean_list(items: Vec<String>, path: &Path, key: &str) -> Result<Vec<String>, LoadProblem> {
    let mut out: Vec<String> = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let item = item.trim();
        if item.is_empty() {
            return Err(LoadProblem::new(
                path,
                format!("`{key}` item {} is empty; remove it or name one", i + 1),
            ));
        }
        if !out.iter().any(|o| o == item) {
            out.push(item.to_string());
        }
    }
    Ok(out)
}

/// The folder's name, checked as an agent or skill name (`what`).
pub(crate) fn folder_name(dir: &Path, what: &str) -> Result<String, LoadProblem> {
    let name = dir.file_name().and_then(|n| n.to_str()).ok_or_else(|| {
        LoadProblem::new(
            dir,
            format!("the folder name is not valid UTF-8; rename it to a valid {what} name"),
        )
    })?;
    validate_name(name).map_err(|why| {
        LoadProblem::new(
            dir,
            format!(
                "the folder name `{name}` is not a valid {what} name: {why}; rename the folder"
            ),
        )
    })?;
    Ok(name.to_string())
}

/// The folders in `root` (one per agent or skill, `what`), skipping hidden entries. A missing
/// `root` gives none; anything else unreadable, or a stray file, is reported.
pub(crate) fn list_folders(
    root: &Path,
    what: &str,
    problems: &mut Vec<LoadProblem>,
) -> Vec<PathBuf> {
    let entries = match std::fs::read_dir(root) {
        Ok(entries) => entries,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Vec::new(),
        Err(e) => {
            problems.push(LoadProblem::new(
                root,
                format!("could not list this folder: {e}; check that it is a readable folder"),
            ));
            return Vec::new();
        }
    };
    let mut dirs = Vec::new();
    for entry in entries {
        let entry = match entry {
            Ok(entry) => entry,
            Err(e) => {
                problems.push(LoadProblem::new(
                    root,
                    format!("could not list this folder: {e}"),
                ));
                continue;
            }
        };
        let path = entry.path();
        // Editors and OSes leave dotfiles (.DS_Store, .git) here; they are never agents.
        if entry.file_name().to_string_lossy().starts_with('.') {
            continue;
        }
        // fs::metadata follows symlinks, so a linked folder counts as a folder.
        match std::fs::metadata(&path) {
            Ok(meta) if meta.is_dir() => dirs.push(path),
            Ok(_) => problems.push(LoadProblem::new(
                &path,
                format!(
                    "this is a file, but each {what} is a folder; move it into a folder of \
                     its own or remove it"
                ),
            )),
            Err(e) => problems.push(LoadProblem::new(&path, format!("could not read: {e}"))),
        }
    }
    dirs
}

/// A UTF-8 text file of at most `limit` bytes, without a byte-order mark; `None` if missing.
pub(crate) fn read_text(path: &Path, limit: u64) -> Result<Option<String>, LoadProblem> {
    let file = match File::open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(LoadProblem::new(path, format!("could not open: {e}"))),
    };
    // Read one byte past the limit rather than trusting the size from metadata, which can
    // change between the two calls.
    let mut bytes = Vec::new();
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| LoadProblem::new(path, format!("could not read: {e}")))?;
    if bytes.len() as u64 > limit {
        return Err(LoadProblem::new(
            path,
            format!("the file is larger than {} KiB; shorten it", limit / 1024),
        ));
    }
    let text = String::from_utf8(bytes).map_err(|e| {
        LoadProblem::new(
            path,
            format!(
                "the file is not UTF-8 text (bad byte at offset {}); save it as UTF-8",
                e.utf8_error().valid_up_to()
            ),
        )
    })?;
    Ok(Some(match text.strip_prefix('\u{feff}') {
        Some(rest) => rest.to_string(),
        None => text,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_follow_the_rule() {
        for ok in [
            "a",
            "researcher",
            "pdf-tools",
            "my_agent-2",
            &"a".repeat(64),
        ] {
            assert_eq!(validate_name(ok), Ok(()), "{ok}");
        }
        for bad in ["", "My Agent", "a/b", "..", "é", &"a".repeat(65)] {
            assert!(validate_name(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_bad_name_comes_with_a_suggestion() {
        let why = validate_name("My Agent!").expect_err("invalid");
        assert!(why.contains("`my-agent`"), "{why}");
        assert!(why.contains("'M'"), "{why}");
    }

    #[test]
    fn lists_are_trimmed_and_deduplicated() {
        let path = Path::new("agent.json");
        let items = vec![" web".to_string(), "file".into(), "web".into()];
        assert_eq!(
            clean_list(items, path, "tool_groups"),
            Ok(vec!["web".to_string(), "file".to_string()])
        );
        let err = clean_list(vec!["web".into(), " ".into()], path, "tool_groups")
            .expect_err("empty item");
        assert!(err.message.contains("item 2 is empty"), "{err}");
    }
}
