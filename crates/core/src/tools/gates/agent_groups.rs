//! Gate 1: a custom agent may restrict the tool groups it uses.

use crate::tools::assembly::AgentProfile;
use crate::tools::ToolMeta;

/// Hidden when the agent lists its groups and this tool's group is not among them.
pub fn check(meta: &ToolMeta, agent: &AgentProfile) -> Option<String> {
    let groups = agent.tool_groups.as_ref()?;
    if groups.iter().any(|g| g == &meta.group) {
        return None;
    }
    Some(format!(
        "group `{}` is not in agent `{}`'s tool_groups ({})",
        meta.group,
        agent.name,
        if groups.is_empty() {
            "none".to_string()
        } else {
            groups.join(", ")
        }
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::ToolSource;

    fn agent(groups: Option<&[&str]>) -> AgentProfile {
        AgentProfile {
            name: "researcher".into(),
            tool_groups: groups.map(|g| g.iter().map(|s| s.to_string()).collect()),
            ..Default::default()
        }
    }

    #[test]
    fn an_agent_without_groups_sees_every_group() {
        let meta = ToolMeta::new(ToolSource::Sandbox, "bash");
        assert_eq!(check(&meta, &agent(None)), None);
    }

    #[test]
    fn a_group_outside_the_agents_list_is_hidden_with_the_reason() {
        let meta = ToolMeta::new(ToolSource::Sandbox, "bash");
        let why = check(&meta, &agent(Some(&["web", "file"]))).unwrap();
        assert_eq!(
            why,
            "group `bash` is not in agent `researcher`'s tool_groups (web, file)"
        );
        assert_eq!(check(&meta, &agent(Some(&["bash"]))), None);
    }
}
