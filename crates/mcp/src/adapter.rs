//! MCP tools as run candidates: every enabled tool of every connected server becomes a core
//! [`Tool`] named `<server>__<tool>` and tagged `ToolSource::Mcp`, so assembly defers it behind
//! tool_search. The source reads the manager's state at each run, so the next run sees a
//! changed tool set without a restart.

use std::sync::Arc;

use workbench_core::model::ToolSpec;
use workbench_core::tools::assembly::Candidate;
use workbench_core::tools::names::qualify_mcp_name;
use workbench_core::tools::sources::{CandidateSource, SourceContext};
use workbench_core::tools::{Tool, ToolContext, ToolError, ToolMeta, ToolOutput, ToolSource};

use crate::manager::McpManager;
use crate::types::ToolInfo;

/// The group MCP tools belong to (agents select by it).
pub const MCP_GROUP: &str = "mcp";

/// One MCP tool.
pub struct McpTool {
    spec: ToolSpec,
    meta: ToolMeta,
    server: String,
    tool: String,
    manager: McpManager,
}

impl McpTool {
    /// The tool `info` of `server`, called through `manager`.
    pub fn new(manager: McpManager, server: &str, info: &ToolInfo) -> Self {
        let mut meta = ToolMeta::new(
            ToolSource::Mcp {
                server: server.to_string(),
            },
            MCP_GROUP,
        );
        meta.original_name = Some(info.name.clone());
        let description = info
            .description
            .clone()
            .filter(|d| !d.trim().is_empty())
            .unwrap_or_else(|| format!("The `{}` tool of the MCP server `{server}`.", info.name));
        Self {
            spec: ToolSpec {
                name: qualify_mcp_name(server, &info.name),
                description,
                parameters: info.input_schema.clone(),
            },
            meta,
            server: server.to_string(),
            tool: info.name.clone(),
            manager,
        }
    }
}

#[async_trait::async_trait]
impl Tool for McpTool {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }

    fn meta(&self) -> &ToolMeta {
        &self.meta
    }

    async fn call(
        &self,
        args: serde_json::Value,
        ctx: &ToolContext,
    ) -> Result<ToolOutput, ToolError> {
        let args = match args {
            serde_json::Value::Object(map) => map,
            serde_json::Value::Null => serde_json::Map::new(),
            other => {
                return Err(ToolError::InvalidArguments(format!(
                    "arguments must be a JSON object, got {other}"
                )))
            }
        };
        let _span = tracing::info_span!("mcp_call", server = %self.server, tool = %self.tool);
        let out = self
            .manager
            .call_tool(&self.server, &self.tool, args, &ctx.cancel)
            .await;
        if ctx.cancel.is_cancelled() {
            return Err(ToolError::Cancelled);
        }
        Ok(out)
    }
}

/// The candidate source over a manager.
pub struct McpSource {
    manager: McpManager,
}

impl McpSource {
    /// A source listing `manager`'s tools.
    pub fn new(manager: McpManager) -> Self {
        Self { manager }
    }
}

impl CandidateSource for McpSource {
    fn name(&self) -> &str {
        "mcp"
    }

    fn candidates(&self, _ctx: &SourceContext) -> Vec<Candidate> {
        self.manager
            .offered_tools()
            .into_iter()
            .map(|(server, info)| {
                Candidate::new(
                    Arc::new(McpTool::new(self.manager.clone(), &server, &info)) as Arc<dyn Tool>
                )
            })
            .collect()
    }
}
