//! Gate 4: lead-only tools (task) are hidden inside subagents, so subagents cannot recurse.

use crate::tools::ToolMeta;

/// Hidden for lead-only tools when the run is a subagent's.
pub fn check(meta: &ToolMeta, is_subagent: bool) -> Option<String> {
    if meta.lead_only && is_subagent {
        return Some("only the lead agent may use it; subagents cannot start subagents".into());
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::ToolSource;

    #[test]
    fn lead_only_tools_are_hidden_in_subagents_only() {
        let meta = ToolMeta {
            lead_only: true,
            ..ToolMeta::new(ToolSource::Builtin, "builtin")
        };
        assert_eq!(check(&meta, false), None);
        assert!(check(&meta, true).is_some());
        assert_eq!(
            check(&ToolMeta::new(ToolSource::Builtin, "builtin"), true),
            None
        );
    }
}
