//! Where candidate tools come from. Each source (config, built-ins, sandbox, web, MCP) lists
//! its tools for one run; assembly then decides what the run sees.

use std::path::PathBuf;

use super::assembly::Candidate;

/// What a source may know about the run it lists tools for.
#[derive(Debug, Clone)]
pub struct SourceContext {
    pub thread_id: String,
    /// The thread's own folder (tool results spilled by the output budget live there).
    pub thread_dir: PathBuf,
}

/// A source of candidate tools.
pub trait CandidateSource: Send + Sync {
    /// Short name for logs (`built-in`, `mcp`, ...).
    fn name(&self) -> &str;
    /// The source's tools for one run, in the order dedupe should prefer them.
    fn candidates(&self, ctx: &SourceContext) -> Vec<Candidate>;
}
