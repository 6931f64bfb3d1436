//! A tool declared in the user's config: a built-in implementation under the name, group and
//! (optionally) description the config gave it. The model sees and calls the declared name;
//! the call runs the implementation unchanged.

use std::sync::Arc;

use super::{Tool, ToolContext, ToolError, ToolMeta, ToolOutput, ToolSource};
use crate::model::ToolSpec;

/// A built-in tool renamed and regrouped by a config `tools:` entry.
pub struct ConfiguredTool {
    inner: Arc<dyn Tool>,
    spec: ToolSpec,
    meta: ToolMeta,
}

impl ConfiguredTool {
    /// Wraps `inner` (the implementation with stable id `impl_id`) as `name` in `group`.
    /// The shell, vision and lead-only flags stay the implementation's, so the gates treat a
    /// renamed shell as a shell.
    pub fn new(
        inner: Arc<dyn Tool>,
        impl_id: &str,
        name: &str,
        group: &str,
        description: Option<&str>,
    ) -> Self {
        let own = inner.spec();
        let spec = ToolSpec {
            name: name.to_string(),
            description: description
                .map(str::to_string)
                .unwrap_or_else(|| own.description.clone()),
            parameters: own.parameters.clone(),
        };
        let meta = ToolMeta {
            source: ToolSource::Config {
                impl_id: impl_id.to_string(),
            },
            group: group.to_string(),
            original_name: Some(own.name.clone()),
            ..inner.meta().clone()
        };
        Self { inner, spec, meta }
    }
}

#[async_trait::async_trait]
impl Tool for ConfiguredTool {
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
        self.inner.call(args, ctx).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Grep(ToolSpec, ToolMeta);

    #[async_trait::async_trait]
    impl Tool for Grep {
        fn spec(&self) -> &ToolSpec {
            &self.0
        }
        fn meta(&self) -> &ToolMeta {
            &self.1
        }
        async fn call(
            &self,
            args: serde_json::Value,
            _: &ToolContext,
        ) -> Result<ToolOutput, ToolError> {
            Ok(ToolOutput::text(format!("grep ran with {args}")))
        }
    }

    fn grep(is_shell: bool) -> Arc<dyn Tool> {
        let meta = ToolMeta {
            is_shell,
            ..ToolMeta::new(ToolSource::Sandbox, "search")
        };
        Arc::new(Grep(
            ToolSpec {
                name: "grep".into(),
                description: "Search file contents".into(),
                parameters: serde_json::json!({"type": "object", "properties": {"pattern": {}}}),
            },
            meta,
        ))
    }

    #[tokio::test]
    async fn the_declared_name_and_group_are_shown_and_the_implementation_runs() {
        let t = ConfiguredTool::new(
            grep(true),
            "sandbox.grep",
            "search_files",
            "file:read",
            None,
        );
        assert_eq!(t.spec().name, "search_files");
        assert_eq!(t.spec().description, "Search file contents");
        assert_eq!(
            t.spec().parameters["properties"]["pattern"],
            serde_json::json!({})
        );
        assert_eq!(t.meta().group, "file:read");
        assert_eq!(t.meta().original_name.as_deref(), Some("grep"));
        assert!(t.meta().is_shell, "flags stay the implementation's");
        assert_eq!(
            t.meta().source,
            ToolSource::Config {
                impl_id: "sandbox.grep".into()
            }
        );
        let ctx = ToolContext {
            thread_id: "t".into(),
            run_id: "r".into(),
            call_id: "c".into(),
            cancel: Default::default(),
        };
        let out = t
            .call(serde_json::json!({"pattern": "x"}), &ctx)
            .await
            .unwrap();
        assert_eq!(out.content, r#"grep ran with {"pattern":"x"}"#);
    }

    #[test]
    fn a_description_in_the_config_replaces_the_implementations() {
        let t = ConfiguredTool::new(
            grep(false),
            "sandbox.grep",
            "find",
            "search",
            Some("Find text"),
        );
        assert_eq!(t.spec().description, "Find text");
    }
}
