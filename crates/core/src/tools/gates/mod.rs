//! The gates of assembly, in order. Each per-tool gate answers `None` (pass) or the sentence
//! that explains why the tool is hidden; list-level steps (dedupe, skills, deferral) work on
//! the survivors.

pub mod agent_groups;
pub mod dedupe;
pub mod deferral;
pub mod host_shell;
pub mod model_capability;
pub mod skill_allowed;
pub mod subagent;
