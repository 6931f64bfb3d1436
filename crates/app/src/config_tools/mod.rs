//! Config-declared tools: `<data_dir>/tools.json` gives built-in implementations new names,
//! groups and descriptions, so a user can, say, offer `grep` as `search_files` in a
//! `file:read` group that a read-only agent selects.
//!
//! # Format
//!
//! ```json
//! {"tools": [
//!   {"name": "search_files", "group": "file:read", "use": "sandbox.grep",
//!    "description": "Search the project's files (optional; default: the built-in's)"}
//! ]}
//! ```
//!
//! `use` is a stable implementation id from [`registry::IMPLEMENTATIONS`]. A config tool is a
//! candidate like any other, listed first, so the gates (agent tool_groups, host shell,
//! dedupe, skill allowed_tools) apply to it by its declared name and group, and a config tool
//! named like a built-in wins the name. A broken entry is reported and skipped; a broken file
//! loads no config tools; neither stops a run.
//!
//! Not here: the renaming wrapper (`workbench_core::tools::ConfiguredTool`).

pub mod parse;
pub mod registry;

use std::path::Path;
use std::sync::Arc;

use workbench_core::tools::assembly::Candidate;
use workbench_core::tools::{ConfiguredTool, ToolSource};

use crate::agents::{read_text, LoadProblem};
pub use parse::ToolDecl;
use registry::Origin;

/// The file in the data folder that declares config tools.
pub const CONFIG_TOOLS_FILE: &str = "tools.json";
/// Largest tools.json read; hundreds of entries fit in a fraction of it.
const MAX_CONFIG_TOOLS_BYTES: u64 = 256 * 1024;

/// The usable entries of `<data_dir>/tools.json` and the problems of the rest. No file means
/// no config tools and no problem.
pub fn load_config_tools(data_dir: &Path) -> (Vec<ToolDecl>, Vec<LoadProblem>) {
    let path = data_dir.join(CONFIG_TOOLS_FILE);
    match read_text(&path, MAX_CONFIG_TOOLS_BYTES) {
        Ok(None) => (Vec::new(), Vec::new()),
        Ok(Some(text)) => parse::parse(&text, &path),
        Err(problem) => (Vec::new(), vec![problem]),
    }
}

/// A candidate for each declaration, wrapping the implementation found among this run's
/// built-in and sandbox candidates, and a sentence for each declaration whose
/// implementation this run does not have.
pub fn config_candidates(
    decls: &[ToolDecl],
    available: &[Candidate],
) -> (Vec<Candidate>, Vec<String>) {
    let mut out = Vec::new();
    let mut problems = Vec::new();
    for decl in decls {
        let imp = decl.implementation;
        let found = available.iter().find(|c| {
            let source_fits = match imp.origin {
                Origin::Builtin => c.tool.meta().source == ToolSource::Builtin,
                Origin::Sandbox => c.tool.meta().source == ToolSource::Sandbox,
            };
            source_fits && c.config_name.is_none() && c.tool.spec().name == imp.tool
        });
        match found {
            Some(c) => out.push(Candidate::configured(ConfiguredTool::new(
                Arc::clone(&c.tool),
                imp.id,
                &decl.name,
                &decl.group,
                decl.description.as_deref(),
            ))),
            None => problems.push(format!(
                "{CONFIG_TOOLS_FILE}: `{}` uses `{}`, which this run does not offer, so it \
                 is left out",
                decl.name, imp.id
            )),
        }
    }
    (out, problems)
}
