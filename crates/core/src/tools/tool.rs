use serde::{Deserialize, Serialize};
use tokio_util::sync::CancellationToken;

use crate::model::ToolSpec;

/// Where a tool comes from.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ToolSource {
    /// Shipped with Workbench (present_files, ask_clarification, task, tool_search, ...).
    Builtin,
    /// Declared in the user's config (`tools:`), implemented by the built-in with id `impl_id`.
    Config { impl_id: String },
    /// The sandbox's file, search and shell tools.
    Sandbox,
    /// web_search, web_fetch, image_search.
    Web,
    /// An MCP server's tool.
    Mcp { server: String },
}

impl ToolSource {
    /// A short label for reports: `built-in`, `config`, `sandbox`, `web`, `mcp:<server>`.
    pub fn label(&self) -> String {
        match self {
            Self::Builtin => "built-in".into(),
            Self::Config { .. } => "config".into(),
            Self::Sandbox => "sandbox".into(),
            Self::Web => "web".into(),
            Self::Mcp { server } => format!("mcp:{server}"),
        }
    }
}

/// What assembly needs to know about a tool besides its schema.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToolMeta {
    pub source: ToolSource,
    /// The group agents and approvals select by (`file`, `bash`, `web`, `mcp`, `builtin`, ...).
    pub group: String,
    /// The name the tool has at its origin when it differs from the exposed name (an MCP
    /// tool's own name before `<server>__` qualification).
    pub original_name: Option<String>,
    /// Shell tools need OS confinement or the user's explicit consent (the host-shell gate).
    pub is_shell: bool,
    /// Tools that only make sense for vision models (view_image).
    pub needs_vision: bool,
    /// Tools only the lead agent may have (task: no recursion).
    pub lead_only: bool,
}

impl ToolMeta {
    /// Metadata for a tool of `source` in `group`, with every flag off.
    pub fn new(source: ToolSource, group: impl Into<String>) -> Self {
        Self {
            source,
            group: group.into(),
            original_name: None,
            is_shell: false,
            needs_vision: false,
            lead_only: false,
        }
    }
}

/// A change a tool asks to make to its thread's state; reducers merge it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum StateUpdate {
    /// tool_search found these deferred tools in the catalog with this hash.
    Promoted {
        catalog_hash: String,
        names: Vec<String>,
    },
    /// present_files: these virtual paths are the run's artifacts.
    Artifacts { paths: Vec<String> },
    /// ask_clarification: stop the run and put this question to the user; the answer becomes
    /// the call's result. The loop handles it; it changes no state by itself.
    AskUser(crate::thread::Clarification),
    /// write_todos: the whole plan, replacing the previous one.
    Todos { items: Vec<crate::thread::TodoItem> },
    /// view_image: an image prepared for the model, attached to the next requests. Boxed:
    /// every `ToolOutput` carries room for the largest variant.
    ViewedImage(Box<crate::thread::ViewedImage>),
}

/// What a tool call produced.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolOutput {
    /// The text the model reads.
    pub content: String,
    /// The call failed; the model reads `content` as the reason.
    pub is_error: bool,
    /// A state change for the thread, if any.
    pub update: Option<StateUpdate>,
    /// Facts for the UI and logs, stored with the result message, never sent to the model.
    /// Boxed: it is rare, and every error path passes a `ToolOutput` around by value.
    pub metadata: Option<Box<crate::thread::ResultMetadata>>,
}

impl ToolOutput {
    /// A successful result.
    pub fn text(content: impl Into<String>) -> Self {
        Self {
            content: content.into(),
            is_error: false,
            update: None,
            metadata: None,
        }
    }

    /// A failed result the model can act on.
    pub fn error(content: impl Into<String>) -> Self {
        Self {
            content: content.into(),
            is_error: true,
            update: None,
            metadata: None,
        }
    }

    /// Attaches a state update.
    pub fn with_update(mut self, update: StateUpdate) -> Self {
        self.update = Some(update);
        self
    }
}

/// Why a tool call failed. Every variant becomes an error result for the model; none aborts
/// the run.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ToolError {
    /// The arguments do not fit the schema; the sentence says how to fix the call.
    #[error("invalid arguments: {0}")]
    InvalidArguments(String),
    /// The tool ran and failed.
    #[error("{0}")]
    Failed(String),
    /// The run was cancelled while the tool ran.
    #[error("cancelled")]
    Cancelled,
}

/// What a running tool may know about its call.
#[derive(Debug, Clone)]
pub struct ToolContext {
    pub thread_id: String,
    pub run_id: String,
    pub call_id: String,
    /// Cancelled when the run stops; long tools must watch it.
    pub cancel: CancellationToken,
}

/// A tool the model can call.
#[async_trait::async_trait]
pub trait Tool: Send + Sync {
    /// Name, description and JSON Schema of the arguments, as the model sees them.
    fn spec(&self) -> &ToolSpec;
    /// Source, group and flags, for assembly.
    fn meta(&self) -> &ToolMeta;
    /// Runs one call. `args` is the parsed arguments object.
    async fn call(
        &self,
        args: serde_json::Value,
        ctx: &ToolContext,
    ) -> Result<ToolOutput, ToolError>;
}
