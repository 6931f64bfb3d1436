//! Tools: the trait every tool implements, the per-run visibility calculation (gates, dedupe,
//! deferral) and its report, the deferred catalog and its ranked search.

pub mod aliases;
pub mod assembly;
pub mod catalog;
pub mod configured;
pub mod gates;
pub mod names;
pub mod report;
pub mod search;
pub mod sources;
mod tool;

pub use aliases::{AliasVerdict, ToolAlias};
pub use catalog::{CatalogEntry, CatalogError, CatalogFile, DeferredCatalog};
pub use configured::ConfiguredTool;
pub use report::{Gate, ToolVerdict, Visibility, VisibilityReport};
pub use tool::{StateUpdate, Tool, ToolContext, ToolError, ToolMeta, ToolOutput, ToolSource};
