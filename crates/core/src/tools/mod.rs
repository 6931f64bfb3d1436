//! Tools: the trait every tool implements, the per-run visibility calculation (gates, dedupe,
//! deferral) and its report, the deferred catalog and its ranked search.

pub mod report;
mod tool;

pub use report::{Gate, ToolVerdict, Visibility, VisibilityReport};
pub use tool::{StateUpdate, Tool, ToolContext, ToolError, ToolMeta, ToolOutput, ToolSource};
