//! Step 7: MCP tools wait behind tool_search when deferral is on, so many servers do not
//! flood the prompt.

use crate::tools::{ToolMeta, ToolSource};

/// Whether a surviving tool is deferred.
pub fn defers(meta: &ToolMeta, defer_mcp: bool) -> bool {
    defer_mcp && matches!(meta.source, ToolSource::Mcp { .. })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_mcp_tools_are_deferred_and_only_when_deferral_is_on() {
        let mcp = ToolMeta::new(ToolSource::Mcp { server: "s".into() }, "mcp");
        let sandbox = ToolMeta::new(ToolSource::Sandbox, "file");
        assert!(defers(&mcp, true));
        assert!(!defers(&mcp, false));
        assert!(!defers(&sandbox, true));
    }
}
