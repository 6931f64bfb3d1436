use serde::{Deserialize, Serialize};

use super::ToolSource;

/// The gates of assembly, in the order they run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "snake_case")]
pub enum Gate {
    AgentToolGroups,
    HostShell,
    ModelCapability,
    SubagentSwitch,
    Dedupe,
    SkillAllowedTools,
    Deferral,
}

/// A tool's fate in one run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "snake_case")]
pub enum Visibility {
    /// In the model's tool list.
    Visible,
    /// Behind tool_search until promoted.
    Deferred,
    /// Not available to this run.
    Hidden,
}

/// One line of the report: a candidate tool and why it is where it is.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct ToolVerdict {
    /// The name the model sees (or would see).
    pub name: String,
    /// The tool's own name at its origin, when different.
    pub original_name: Option<String>,
    pub source: ToolSource,
    pub group: String,
    pub visibility: Visibility,
    /// The gate that decided; `None` for tools every gate let through.
    pub gate: Option<Gate>,
    /// One sentence a user can read.
    pub reason: String,
}

/// Every candidate tool of a run with its verdict, in candidate order.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct VisibilityReport {
    pub tools: Vec<ToolVerdict>,
    /// Content hash of the deferred catalog, when one was built.
    pub catalog_hash: Option<String>,
    /// Old tool names that still work, and where they lead. Never sent to the model.
    #[serde(default)]
    pub aliases: Vec<super::AliasVerdict>,
    /// Problems with the user's tool configuration (a `tools.json` entry that could not be
    /// used), one sentence each. The entries they name are not candidates; the rest are.
    #[serde(default)]
    pub problems: Vec<String>,
}

impl VisibilityReport {
    /// The verdict for a tool name, if it was a candidate.
    pub fn verdict(&self, name: &str) -> Option<&ToolVerdict> {
        self.tools.iter().find(|t| t.name == name)
    }

    /// Names with the given visibility, in order.
    pub fn names(&self, visibility: Visibility) -> Vec<&str> {
        self.tools
            .iter()
            .filter(|t| t.visibility == visibility)
            .map(|t| t.name.as_str())
            .collect()
    }
}
