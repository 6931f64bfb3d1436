//! Reading `tools.json`: each entry checked on its own, so one bad entry is reported with its
//! number and name and the others still load.

use std::collections::HashMap;
use std::path::Path;

use serde::Deserialize;
use serde_json::Value;
use workbench_core::middleware::ASK_BY_DEFAULT;

use super::registry::{self, Implementation};
use crate::agents::LoadProblem;

/// Longest tool name: the limit OpenAI and Anthropic put on function names.
pub const MAX_TOOL_NAME_LEN: usize = 64;
/// Longest group name; groups are short words like `file` or `file:read`.
pub const MAX_GROUP_LEN: usize = 64;

/// One usable `tools:` entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolDecl {
    /// The name the model sees and calls.
    pub name: String,
    /// The group agents, skills and approvals select it by.
    pub group: String,
    /// The implementation it runs.
    pub implementation: &'static Implementation,
    /// Replaces the implementation's description when given.
    pub description: Option<String>,
}

/// An entry as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    name: String,
    group: String,
    #[serde(rename = "use")]
    use_id: String,
    #[serde(default)]
    description: Option<String>,
}

/// The usable entries of a `tools.json` text, and a problem for each entry (or the file) that
/// could not be used. `path` only names the file in the problems.
pub fn parse(text: &str, path: &Path) -> (Vec<ToolDecl>, Vec<LoadProblem>) {
    let problem = |message: String| LoadProblem::new(path, message);
    let root: Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) => {
            return (
                Vec::new(),
                vec![problem(format!(
                    "not valid JSON ({e}); no config tools are loaded until it is fixed"
                ))],
            )
        }
    };
    let Value::Object(root) = root else {
        return (
            Vec::new(),
            vec![problem(
                r#"the file must be an object like {"tools": [...]}"#.into(),
            )],
        );
    };
    let mut problems = Vec::new();
    for key in root.keys().filter(|k| k.as_str() != "tools") {
        problems.push(problem(format!(
            "unknown key `{key}` is ignored; the file has one key, `tools`"
        )));
    }
    let entries = match root.get("tools") {
        None | Some(Value::Null) => return (Vec::new(), problems),
        Some(Value::Array(entries)) => entries,
        Some(_) => {
            problems.push(problem("`tools` must be a list of entries".into()));
            return (Vec::new(), problems);
        }
    };
    let mut decls: Vec<ToolDecl> = Vec::new();
    let mut first_entry: HashMap<String, usize> = HashMap::new();
    for (i, raw) in entries.iter().enumerate() {
        let number = i + 1;
        let label = match raw.get("name").and_then(Value::as_str) {
            Some(name) => format!("entry {number} (`{name}`)"),
            None => format!("entry {number}"),
        };
        match check_entry(raw) {
            Err(why) => problems.push(problem(format!("{label}: {why}; the entry is skipped"))),
            Ok(decl) => {
                if let Some(first) = first_entry.get(&decl.name) {
                    problems.push(problem(format!(
                        "{label}: the name `{}` is already declared by entry {first}; \
                         names must be unique, so this entry is skipped",
                        decl.name
                    )));
                    continue;
                }
                first_entry.insert(decl.name.clone(), number);
                decls.push(decl);
            }
        }
    }
    (decls, problems)
}

fn check_entry(raw: &Value) -> Result<ToolDecl, String> {
    if !raw.is_object() {
        return Err(
            r#"an entry must be an object like {"name": ..., "group": ..., "use": ...}"#.into(),
        );
    }
    let entry = Entry::deserialize(raw).map_err(|e| e.to_string())?;
    check_name(&entry.name)?;
    check_group(&entry.group)?;
    let implementation = registry::find(&entry.use_id).ok_or_else(|| {
        format!(
            "`use` names `{}`, which is not a built-in implementation; the ids are: {}",
            entry.use_id,
            registry::known_ids()
        )
    })?;
    if ASK_BY_DEFAULT.contains(&implementation.group) && entry.group != implementation.group {
        return Err(format!(
            "`{}` asks before running because its group is `{}`, and approvals go by group; \
             a config tool using it must keep group `{}`",
            implementation.id, implementation.group, implementation.group
        ));
    }
    let description = match entry.description {
        Some(d) if d.trim().is_empty() => {
            return Err("`description` is empty; remove it to keep the built-in's".into())
        }
        d => d.map(|d| d.trim().to_string()),
    };
    Ok(ToolDecl {
        name: entry.name,
        group: entry.group,
        implementation,
        description,
    })
}

/// Names the providers accept for functions; `__` is kept for MCP tools (`server__tool`).
fn check_name(name: &str) -> Result<(), String> {
    if name.is_empty() || name.len() > MAX_TOOL_NAME_LEN {
        return Err(format!(
            "`name` must be 1-{MAX_TOOL_NAME_LEN} characters long"
        ));
    }
    if let Some(c) = name
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || *c == '_' || *c == '-'))
    {
        return Err(format!(
            "`name` `{name}` has `{c}`; use letters, digits, `_` and `-` only"
        ));
    }
    if name.contains("__") {
        return Err(format!(
            "`name` `{name}` has `__`, which marks MCP tools (`server__tool`); use a single `_`"
        ));
    }
    Ok(())
}

/// Groups are lowercase words, optionally with `:`, `.`, `-` or `_` (`file:read`).
fn check_group(group: &str) -> Result<(), String> {
    let starts_with_letter = group.chars().next().is_some_and(|c| c.is_ascii_lowercase());
    let bad = group.chars().find(|c| {
        !(c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, ':' | '.' | '-' | '_'))
    });
    if !starts_with_letter || group.len() > MAX_GROUP_LEN || bad.is_some() {
        return Err(format!(
            "`group` `{group}` is not a group name: 1-{MAX_GROUP_LEN} lowercase letters, digits, \
             `:`, `.`, `-` or `_`, starting with a letter (like `file` or `file:read`)"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(text: &str) -> (Vec<ToolDecl>, Vec<String>) {
        let (decls, problems) = parse(text, Path::new("/data/tools.json"));
        (decls, problems.into_iter().map(|p| p.to_string()).collect())
    }

    #[test]
    fn a_good_entry_is_read_with_its_implementation() {
        let (decls, problems) = run(r#"{"tools": [
            {"name": "search_files", "group": "file:read", "use": "sandbox.grep",
             "description": "  Search the files  "}
        ]}"#);
        assert_eq!(problems, Vec::<String>::new());
        assert_eq!(decls.len(), 1);
        assert_eq!(decls[0].name, "search_files");
        assert_eq!(decls[0].group, "file:read");
        assert_eq!(decls[0].implementation.tool, "grep");
        assert_eq!(decls[0].description.as_deref(), Some("Search the files"));
    }

    #[test]
    fn each_bad_entry_is_named_and_skipped_and_the_others_load() {
        let (decls, problems) = run(r#"{"tools": [
            {"name": "a", "group": "file", "use": "sandbox.grepp"},
            {"name": "b", "group": "File Read", "use": "sandbox.grep"},
            {"name": "c", "group": "file", "use": "sandbox.ls"},
            {"name": "c", "group": "search", "use": "sandbox.glob"},
            {"name": "d", "grop": "file", "use": "sandbox.ls"},
            {"group": "file", "use": "sandbox.ls"},
            "e",
            {"name": "bad name", "group": "file", "use": "sandbox.ls"},
            {"name": "x__y", "group": "file", "use": "sandbox.ls"},
            {"name": "sh", "group": "file", "use": "sandbox.bash"},
            {"name": "sh2", "group": "bash", "use": "sandbox.bash"}
        ]}"#);
        let names: Vec<&str> = decls.iter().map(|d| d.name.as_str()).collect();
        assert_eq!(names, ["c", "sh2"]);
        let want = [
            "entry 1 (`a`): `use` names `sandbox.grepp`, which is not a built-in implementation",
            "entry 2 (`b`): `group` `File Read` is not a group name",
            "entry 4 (`c`): the name `c` is already declared by entry 3",
            "entry 5 (`d`): unknown field `grop`",
            "entry 6: missing field `name`",
            "entry 7: an entry must be an object",
            "entry 8 (`bad name`): `name` `bad name` has ` `",
            "entry 9 (`x__y`): `name` `x__y` has `__`",
            "entry 10 (`sh`): `sandbox.bash` asks before running because its group is `bash`",
        ];
        assert_eq!(problems.len(), want.len(), "{problems:#?}");
        for (p, w) in problems.iter().zip(want) {
            assert!(p.starts_with("/data/tools.json: "), "{p}");
            assert!(p.contains(w), "{p}\n  should contain: {w}");
        }
        assert!(
            problems[0].contains("sandbox.grep,"),
            "the known ids are listed: {}",
            problems[0]
        );
    }

    #[test]
    fn a_broken_file_loads_nothing_and_says_where() {
        let (decls, problems) = run("{\"tools\": [\n  {\"name\": \"a\",}\n]}");
        assert!(decls.is_empty());
        assert_eq!(problems.len(), 1);
        assert!(problems[0].contains("line 2"), "{}", problems[0]);
        let (_, problems) = run(r#"[{"name": "a"}]"#);
        assert!(
            problems[0].contains(r#"{"tools": [...]}"#),
            "{}",
            problems[0]
        );
        let (_, problems) = run(r#"{"tools": {"name": "a"}}"#);
        assert!(problems[0].contains("must be a list"), "{}", problems[0]);
    }

    #[test]
    fn an_unknown_top_level_key_is_reported_but_the_tools_load() {
        let (decls, problems) =
            run(r#"{"tool": 1, "tools": [{"name": "a", "group": "file", "use": "sandbox.ls"}]}"#);
        assert_eq!(decls.len(), 1);
        assert!(problems[0].contains("unknown key `tool`"), "{problems:?}");
        assert_eq!(run(r#"{"tools": null}"#), (Vec::new(), Vec::new()));
        assert_eq!(run(r#"{}"#), (Vec::new(), Vec::new()));
    }

    #[test]
    fn an_empty_description_is_refused() {
        let (decls, problems) = run(
            r#"{"tools": [{"name": "a", "group": "file", "use": "sandbox.ls", "description": " "}]}"#,
        );
        assert!(decls.is_empty());
        assert!(
            problems[0].contains("`description` is empty"),
            "{problems:?}"
        );
    }
}
