//! Tool aliases: a renamed tool keeps answering to its old name until `removed_in`. Aliases are
//! never sent to the model; a call by an alias runs the canonical tool, logs a warning, and its
//! result carries a [`Deprecation`] in its metadata plus a one-line note the model reads, so it
//! switches to the new name.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::{Tool, ToolContext, ToolError, ToolMeta, ToolOutput, Visibility};
use crate::model::ToolSpec;
use crate::thread::Deprecation;

/// An old tool name and the tool it now means.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct ToolAlias {
    /// The old name.
    pub alias: String,
    /// The tool's current name.
    pub canonical: String,
    /// The version that drops the alias.
    pub removed_in: String,
    /// Why it changed, for the model and the user.
    pub message: String,
}

/// An alias as the visibility report shows it: where calls by that name go.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct AliasVerdict {
    pub alias: String,
    pub canonical: String,
    pub removed_in: String,
    /// The canonical tool's fate in this run; `None` when no candidate has that name (calls by
    /// the alias then fail like calls to an unknown tool).
    pub target: Option<Visibility>,
    /// One sentence a user can read.
    pub reason: String,
}

impl ToolAlias {
    /// The metadata block a call by this alias carries.
    pub fn deprecation(&self) -> Deprecation {
        Deprecation {
            this_tool: self.alias.clone(),
            use_instead: self.canonical.clone(),
            removed_in: self.removed_in.clone(),
            message: self.message.clone(),
        }
    }
}

/// The canonical tool, answering a call made by its alias.
pub(crate) struct AliasedTool {
    pub inner: Arc<dyn Tool>,
    pub alias: ToolAlias,
}

#[async_trait::async_trait]
impl Tool for AliasedTool {
    fn spec(&self) -> &ToolSpec {
        self.inner.spec()
    }

    fn meta(&self) -> &ToolMeta {
        self.inner.meta()
    }

    async fn call(
        &self,
        args: serde_json::Value,
        ctx: &ToolContext,
    ) -> Result<ToolOutput, ToolError> {
        let a = &self.alias;
        tracing::warn!(
            alias = %a.alias,
            canonical = %a.canonical,
            removed_in = %a.removed_in,
            call_id = %ctx.call_id,
            "a tool was called by a deprecated alias"
        );
        let note = format!(
            "\n\n[`{}` is deprecated and will be removed in {}: use `{}` instead. {}]",
            a.alias, a.removed_in, a.canonical, a.message
        );
        // An error keeps its kind (the loop and the normaliser treat it as before); only a
        // returned output can carry metadata, so errors are turned into error outputs here.
        let mut out = match self.inner.call(args, ctx).await {
            Ok(out) => out,
            Err(ToolError::Cancelled) => return Err(ToolError::Cancelled),
            Err(e) => ToolOutput::error(e.to_string()),
        };
        out.content.push_str(&note);
        out.metadata
            .get_or_insert_with(Default::default)
            .deprecation = Some(a.deprecation());
        Ok(out)
    }
}
