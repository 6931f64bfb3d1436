//! Skills: instructions the user can make active in a run, which may also narrow the tools the
//! run sees. The format follows Anthropic's Agent Skills.
//!
//! # Format
//!
//! ```text
//! <data_dir>/skills/<name>/SKILL.md
//! ```
//!
//! ```markdown
//! ---
//! name: pdf-tools
//! description: Read and fill PDF forms
//! allowed_tools: [read_file, "group:web", "github__*"]
//! ---
//! The instructions (the body), given to the model when the skill is active.
//! ```
//!
//! - The skill's name is its folder name (the same rule as agent names: 1-64 of `a-z`, `0-9`,
//!   `-`, `_`). `name:` may be left out; if it differs from the folder, that is reported and the
//!   folder name is used.
//! - `description:` says when to use the skill; missing is reported, but the skill loads.
//! - `allowed_tools:` (or Anthropic's spelling `allowed-tools:`) is a YAML list or a string of
//!   names separated by commas or spaces. Entries are tool names, `group:<group>` or a
//!   `prefix*` pattern; matching is done by tool assembly in `workbench-core`. Absent or empty
//!   (`allowed_tools:`) = the skill does not restrict tools; `[]` or `""` = it allows none.
//! - Other keys (`license`, `metadata`, ...) are accepted and ignored, except ones that look like
//!   a misspelt `allowed_tools`, which are reported: that typo would silently lift the
//!   restriction.
//!
//! A SKILL.md without frontmatter, with invalid YAML or a malformed `allowed_tools` is not
//! loaded (a skill whose restriction cannot be read must not run unrestricted); the problem
//! names the file, the line where the parser can tell, and what to fix.
//!
//! Not here: splitting the frontmatter off (`frontmatter.rs`), applying `allowed_tools` (core).

use std::path::{Path, PathBuf};

use serde::Serialize;
use serde_norway::{Mapping, Value};

use crate::agents::{folder_name, list_folders, read_text, LoadProblem, MAX_PROMPT_FILE_BYTES};
use crate::frontmatter::{self, SplitError};

/// Folder of the data folder holding one folder per skill.
pub const SKILLS_DIR: &str = "skills";
/// The file in a skill folder.
pub const SKILL_FILE: &str = "SKILL.md";
/// The two spellings of the tool list: ours and Anthropic's.
const ALLOWED_TOOLS_KEYS: [&str; 2] = ["allowed_tools", "allowed-tools"];

/// A skill read from `<data_dir>/skills/<name>/SKILL.md`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Skill {
    /// The folder name.
    pub name: String,
    /// When to use the skill; empty when the frontmatter gives none.
    pub description: String,
    /// The tools the skill allows; `None` = it does not restrict tools.
    pub allowed_tools: Option<Vec<String>>,
    /// The instructions after the frontmatter, trimmed.
    pub body: String,
    /// The skill's folder.
    pub dir: PathBuf,
}

impl Skill {
    /// The fields of core's `ActiveSkill`: `(name, allowed_tools)`.
    pub fn to_active_skill_parts(&self) -> (String, Option<Vec<String>>) {
        (self.name.clone(), self.allowed_tools.clone())
    }
}

/// Every skill under `<data_dir>/skills/`, sorted by name, and the problems found: folders that
/// could not be loaded and caveats of those that did. A missing `skills` folder is no problem.
pub fn load_skills(data_dir: &Path) -> (Vec<Skill>, Vec<LoadProblem>) {
    let mut problems = Vec::new();
    let mut skills = Vec::new();
    for dir in list_folders(&data_dir.join(SKILLS_DIR), "skill", &mut problems) {
        match load_skill(&dir) {
            Ok((skill, caveats)) => {
                skills.push(skill);
                problems.extend(caveats);
            }
            Err(problem) => problems.push(problem),
        }
    }
    skills.sort_by(|a, b| a.name.cmp(&b.name));
    problems.sort_by(|a, b| a.path.cmp(&b.path));
    (skills, problems)
}

/// One skill from its folder, with caveats that did not stop it loading (a `name:` that
/// differs from the folder, a missing description, a misspelt key).
pub fn load_skill(dir: &Path) -> Result<(Skill, Vec<LoadProblem>), LoadProblem> {
    let name = folder_name(dir, "skill")?;
    let path = dir.join(SKILL_FILE);
    let text = read_text(&path, MAX_PROMPT_FILE_BYTES)?.ok_or_else(|| {
        LoadProblem::new(
            &path,
            format!(
                "skill folder `{name}` has no {SKILL_FILE}; add one (the file name is \
                 case-sensitive) or remove the folder"
            ),
        )
    })?;
    let (parsed, caveats) = parse_skill(&name, &path, &text)?;
    Ok((
        Skill {
            name,
            description: parsed.description,
            allowed_tools: parsed.allowed_tools,
            body: parsed.body,
            dir: dir.to_path_buf(),
        },
        caveats,
    ))
}

/// What a SKILL.md says, before it is tied to a folder.
struct Parsed {
    description: String,
    allowed_tools: Option<Vec<String>>,
    body: String,
}

/// Parses the text of a SKILL.md for the skill `name`; `path` is only for messages.
fn parse_skill(
    name: &str,
    path: &Path,
    text: &str,
) -> Result<(Parsed, Vec<LoadProblem>), LoadProblem> {
    let problem = |message: String| LoadProblem::new(path, message);
    let split = frontmatter::split(text).map_err(|e| match e {
        SplitError::Missing => problem(format!(
            "{e}; start the file with a `---` line, then `name: {name}`, \
             `description: ...`, optionally `allowed_tools: [...]`, then a `---` line"
        )),
        SplitError::Unclosed { .. } => problem(format!("{e}; add `---` after the last key")),
    })?;
    // The YAML is padded so the parser's line numbers are the file's (see frontmatter::split).
    let value: Value = serde_norway::from_str(&split.yaml)
        .map_err(|e| problem(format!("the frontmatter is not valid YAML: {e}")))?;
    let map = match value {
        // `---\n---` is empty frontmatter, not an error.
        Value::Null => Mapping::new(),
        Value::Mapping(map) => map,
        _ => {
            return Err(problem(
                "the frontmatter must be `key: value` lines (name, description, allowed_tools)"
                    .to_string(),
            ))
        }
    };

    let mut caveats = Vec::new();
    let mut description = String::new();
    let mut allowed_tools = None;
    let mut seen_allowed_key: Option<&str> = None;
    for (key, value) in &map {
        let Some(key) = key.as_str() else {
            return Err(problem(format!(
                "frontmatter key {} is not text; write keys as plain words",
                show(key)
            )));
        };
        match key {
            "name" => {
                let declared = text_value(key, value).map_err(problem)?;
                if declared.trim() != name {
                    caveats.push(problem(format!(
                        "`name: {declared}` differs from the folder name `{name}`; the folder \
                         name is used, so set `name: {name}` or rename the folder"
                    )));
                }
            }
            "description" => description = text_value(key, value).map_err(problem)?,
            _ if ALLOWED_TOOLS_KEYS.contains(&key) => {
                if let Some(first) = seen_allowed_key {
                    return Err(problem(format!(
                        "both `{first}` and `{key}` are set; keep only one"
                    )));
                }
                seen_allowed_key = Some(key);
                allowed_tools = tool_list(key, value).map_err(problem)?;
            }
            _ if looks_like_allowed_tools(key) => caveats.push(problem(format!(
                "unknown key `{key}` is ignored, so this skill does not restrict tools; \
                 did you mean `allowed_tools`?"
            ))),
            // Anthropic's format has more keys (license, metadata, ...); none matter here.
            _ => {}
        }
    }
    let description = description.trim().to_string();
    if description.is_empty() {
        caveats.push(problem(
            "no `description:`; the skill loads, but add one saying when to use it, so it \
             can be chosen"
                .to_string(),
        ));
    }
    Ok((
        Parsed {
            description,
            allowed_tools,
            body: split.body.trim().to_string(),
        },
        caveats,
    ))
}

/// A scalar frontmatter value as text (`name: 2024` is read as "2024").
fn text_value(key: &str, value: &Value) -> Result<String, String> {
    match value {
        Value::String(s) => Ok(s.clone()),
        Value::Number(n) => Ok(n.to_string()),
        Value::Bool(b) => Ok(b.to_string()),
        Value::Null => Ok(String::new()),
        other => Err(format!("`{key}` must be text, not {}", show(other))),
    }
}

/// `allowed_tools` as a list; `None` when the key has no value.
fn tool_list(key: &str, value: &Value) -> Result<Option<Vec<String>>, String> {
    let names: Vec<String> = match value {
        Value::Null => return Ok(None),
        // "read_file, write_file" and Anthropic's "Read Grep" both occur; tool names never
        // contain commas or spaces, so either separates.
        Value::String(s) => s
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|n| !n.is_empty())
            .map(str::to_string)
            .collect(),
        Value::Sequence(items) => {
            let mut names = Vec::with_capacity(items.len());
            for (i, item) in items.iter().enumerate() {
                let Some(name) = item.as_str().map(str::trim) else {
                    return Err(format!(
                        "`{key}` item {} is {}, not a tool name; quote it or remove it",
                        i + 1,
                        show(item)
                    ));
                };
                if name.is_empty() || name.contains(char::is_whitespace) {
                    return Err(format!(
                        "`{key}` item {} is {name:?}; a tool name is one word with no spaces",
                        i + 1
                    ));
                }
                names.push(name.to_string());
            }
            names
        }
        other => {
            return Err(format!(
                "`{key}` must be a list like [read_file, \"group:web\"] or a comma-separated \
                 string, not {}",
                show(other)
            ))
        }
    };
    let mut unique: Vec<String> = Vec::with_capacity(names.len());
    for name in names {
        if !unique.contains(&name) {
            unique.push(name);
        }
    }
    Ok(Some(unique))
}

/// A key that is probably a misspelt `allowed_tools` (`allowed_tool`, `allowedTools`, `tools`).
fn looks_like_allowed_tools(key: &str) -> bool {
    let key = key.to_ascii_lowercase();
    key.contains("allow") || key.contains("tool")
}

/// A YAML value's kind, for messages.
fn show(value: &Value) -> String {
    match value {
        Value::Null => "empty".into(),
        Value::Bool(b) => format!("`{b}`"),
        Value::Number(n) => format!("the number {n}"),
        Value::String(s) => format!("{s:?}"),
        Value::Sequence(_) => "a list".into(),
        Value::Mapping(_) => "a mapping".into(),
        Value::Tagged(t) => format!("a value tagged {}", t.tag),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<(Parsed, Vec<LoadProblem>), LoadProblem> {
        parse_skill("pdf-tools", Path::new("SKILL.md"), text)
    }

    fn tools(text: &str) -> Option<Vec<String>> {
        parse(text).expect("parses").0.allowed_tools
    }

    #[test]
    fn tool_lists_in_every_spelling() {
        let want = Some(vec!["read_file".to_string(), "group:web".to_string()]);
        assert_eq!(
            tools("---\ndescription: d\nallowed_tools: [read_file, \"group:web\"]\n---\n"),
            want
        );
        assert_eq!(
            tools("---\ndescription: d\nallowed-tools:\n  - read_file\n  - group:web\n---\n"),
            want
        );
        assert_eq!(
            tools("---\ndescription: d\nallowed_tools: read_file, group:web,\n---\n"),
            want
        );
        assert_eq!(
            tools("---\ndescription: d\nallowed-tools: read_file group:web read_file\n---\n"),
            want
        );
    }

    #[test]
    fn no_value_does_not_restrict_but_an_empty_list_allows_nothing() {
        assert_eq!(tools("---\ndescription: d\nallowed_tools:\n---\n"), None);
        assert_eq!(tools("---\ndescription: d\n---\n"), None);
        assert_eq!(
            tools("---\ndescription: d\nallowed_tools: []\n---\n"),
            Some(vec![])
        );
    }

    #[test]
    fn malformed_tool_lists_are_refused() {
        for (text, needle) in [
            (
                "---\nallowed_tools: [read_file, 3]\n---\n",
                "item 2 is the number 3",
            ),
            ("---\nallowed_tools: {a: b}\n---\n", "not a mapping"),
            ("---\nallowed_tools: [\"read file\"]\n---\n", "no spaces"),
            (
                "---\nallowed_tools: [a]\nallowed-tools: [b]\n---\n",
                "keep only one",
            ),
        ] {
            let err = parse(text).err().expect(text);
            assert!(err.message.contains(needle), "{text}: {err}");
        }
    }

    #[test]
    fn yaml_errors_give_the_file_line() {
        // Line 3 of the file is the broken one.
        let err = parse("---\ndescription: d\nallowed_tools: [a, b\n---\nbody\n")
            .err()
            .expect("invalid");
        assert!(err.message.contains("line 3"), "{err}");
    }

    #[test]
    fn a_misspelt_key_and_a_missing_description_are_caveats() {
        let (parsed, caveats) = parse("---\nallowed_tool: [a]\n---\nbody\n").expect("loads");
        assert_eq!(parsed.allowed_tools, None);
        assert_eq!(caveats.len(), 2, "{caveats:?}");
        assert!(caveats[0].message.contains("did you mean `allowed_tools`"));
        assert!(caveats[1].message.contains("no `description:`"));
    }

    #[test]
    fn other_anthropic_keys_are_ignored() {
        let (parsed, caveats) = parse(
            "---\nname: pdf-tools\ndescription: d\nlicense: MIT\nmetadata:\n  v: 1\n---\nDo it.\n",
        )
        .expect("loads");
        assert!(caveats.is_empty(), "{caveats:?}");
        assert_eq!(parsed.body, "Do it.");
    }

    #[test]
    fn frontmatter_that_is_not_a_mapping_is_refused() {
        let err = parse("---\n- a\n---\n").err().expect("refused");
        assert!(err.message.contains("key: value"), "{err}");
    }
}
