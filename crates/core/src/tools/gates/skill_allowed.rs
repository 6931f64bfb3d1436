//! Step 6: active skills narrow the tool set to what they allow.

use crate::tools::assembly::ActiveSkill;
use crate::tools::ToolMeta;

/// Hidden when some active skill restricts tools and none of the restricting skills allows
/// this one. An entry matches the exposed name, the original name, `group:<group>`, or a
/// name prefix ending in `*`.
pub fn check(name: &str, meta: &ToolMeta, skills: &[ActiveSkill]) -> Option<String> {
    let restricting: Vec<&ActiveSkill> = skills
        .iter()
        .filter(|s| s.allowed_tools.is_some())
        .collect();
    if restricting.is_empty() {
        return None;
    }
    let allowed = restricting.iter().any(|s| {
        s.allowed_tools
            .iter()
            .flatten()
            .any(|entry| matches(entry, name, meta))
    });
    if allowed {
        return None;
    }
    let names: Vec<String> = restricting
        .iter()
        .map(|s| format!("`{}`", s.name))
        .collect();
    Some(format!(
        "not in the allowed_tools of active skill {}",
        names.join(", ")
    ))
}

fn matches(entry: &str, name: &str, meta: &ToolMeta) -> bool {
    let entry = entry.trim();
    if let Some(group) = entry.strip_prefix("group:") {
        return group == meta.group;
    }
    let original = meta.original_name.as_deref();
    if let Some(prefix) = entry.strip_suffix('*') {
        return name.starts_with(prefix) || original.is_some_and(|o| o.starts_with(prefix));
    }
    entry == name || original == Some(entry)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::ToolSource;

    fn skill(name: &str, allowed: Option<&[&str]>) -> ActiveSkill {
        ActiveSkill {
            name: name.into(),
            allowed_tools: allowed.map(|a| a.iter().map(|s| s.to_string()).collect()),
        }
    }

    fn meta() -> ToolMeta {
        ToolMeta {
            original_name: Some("create_issue".into()),
            ..ToolMeta::new(
                ToolSource::Mcp {
                    server: "github".into(),
                },
                "mcp",
            )
        }
    }

    #[test]
    fn no_restricting_skill_allows_everything() {
        assert_eq!(check("x", &meta(), &[]), None);
        assert_eq!(check("x", &meta(), &[skill("notes", None)]), None);
    }

    #[test]
    fn entries_match_names_originals_groups_and_prefixes() {
        for entry in [
            "github__create_issue",
            "create_issue",
            "group:mcp",
            "github__*",
        ] {
            let skills = [skill("triage", Some(&[entry]))];
            assert_eq!(
                check("github__create_issue", &meta(), &skills),
                None,
                "{entry}"
            );
        }
    }

    #[test]
    fn a_tool_outside_every_restricting_skill_is_hidden_and_the_skills_named() {
        let skills = [skill("pdf", Some(&["read_file"])), skill("notes", None)];
        assert_eq!(
            check("github__create_issue", &meta(), &skills).as_deref(),
            Some("not in the allowed_tools of active skill `pdf`")
        );
    }
}
