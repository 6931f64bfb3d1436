//! `present_files`: the agent shows the user files it made. Only files under the thread's
//! outputs folder can be presented; each path is resolved by capability like every other file
//! path and recorded as `/mnt/user-data/outputs/...` in the thread's artifacts.

use serde_json::{json, Value};
use workbench_core::model::ToolSpec;
use workbench_core::tools::{
    StateUpdate, Tool, ToolContext, ToolError, ToolMeta, ToolOutput, ToolSource,
};

use crate::roots::ThreadRoots;
use crate::vpath::{mask_host_paths, VirtualFs};

/// The name the model calls.
pub const PRESENT_FILES_NAME: &str = "present_files";
/// The folder presented files must be in.
pub const OUTPUTS_PREFIX: &str = "/mnt/user-data/outputs/";
/// Files presented by one call at most.
pub const MAX_PRESENTED: usize = 20;

/// The `present_files` tool over a thread's roots.
pub struct PresentFilesTool {
    roots: ThreadRoots,
    spec: ToolSpec,
    meta: ToolMeta,
}

impl PresentFilesTool {
    /// `present_files` over `roots`.
    pub fn new(roots: ThreadRoots) -> Self {
        Self {
            roots,
            spec: ToolSpec {
                name: PRESENT_FILES_NAME.into(),
                description: format!(
                    "Show the user files you made: they open in the app's artifacts panel. \
                     Only files under {OUTPUTS_PREFIX} can be presented; write them there \
                     first. At most {MAX_PRESENTED} per call."
                ),
                parameters: json!({
                    "type": "object",
                    "properties": {
                        "filepaths": {
                            "type": "array", "items": {"type": "string"}, "minItems": 1,
                            "description": "Files under /mnt/user-data/outputs/."
                        }
                    },
                    "required": ["filepaths"],
                    "additionalProperties": false
                }),
            },
            meta: ToolMeta {
                // The user sees the files; a subagent's presentation would go nowhere.
                lead_only: true,
                ..ToolMeta::new(ToolSource::Builtin, "present")
            },
        }
    }
}

/// Checks every path; all must be files under outputs, or nothing is presented.
fn check(vfs: &VirtualFs, paths: &[String]) -> Result<Vec<String>, String> {
    let mut out: Vec<String> = Vec::new();
    for p in paths {
        let vp = vfs.resolve(p).map_err(|e| e.to_string())?;
        if !vp.virt.starts_with(OUTPUTS_PREFIX) {
            return Err(format!(
                "{} is not in {OUTPUTS_PREFIX}; copy or write the file there first, then present it",
                vp.virt
            ));
        }
        let meta = vfs.metadata(&vp).map_err(|e| e.to_string())?;
        if !meta.is_file() {
            return Err(format!("{} is not a file", vp.virt));
        }
        if !out.contains(&vp.virt) {
            out.push(vp.virt);
        }
    }
    Ok(out)
}

#[async_trait::async_trait]
impl Tool for PresentFilesTool {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }

    fn meta(&self) -> &ToolMeta {
        &self.meta
    }

    async fn call(&self, args: Value, _ctx: &ToolContext) -> Result<ToolOutput, ToolError> {
        let paths: Vec<String> = match args.get("filepaths") {
            Some(Value::Array(items)) => items
                .iter()
                .map(|v| v.as_str().map(str::to_string))
                .collect::<Option<Vec<_>>>()
                .ok_or_else(|| {
                    ToolError::InvalidArguments("filepaths must be a list of strings".into())
                })?,
            _ => {
                return Err(ToolError::InvalidArguments(
                    "expected {\"filepaths\": [\"/mnt/user-data/outputs/...\"]}".into(),
                ))
            }
        };
        if paths.is_empty() || paths.len() > MAX_PRESENTED {
            return Err(ToolError::InvalidArguments(format!(
                "give between 1 and {MAX_PRESENTED} files (got {})",
                paths.len()
            )));
        }
        let roots = self.roots.clone();
        let checked = tokio::task::spawn_blocking(move || {
            let vfs = VirtualFs::open(&roots);
            check(&vfs, &paths).map_err(|e| mask_host_paths(&e, &roots))
        })
        .await
        .map_err(|e| ToolError::Failed(format!("present_files stopped: {e}")))?;
        match checked {
            Err(why) => Ok(ToolOutput::error(why)),
            Ok(virt) => Ok(
                ToolOutput::text(format!("presented to the user: {}", virt.join(", ")))
                    .with_update(StateUpdate::Artifacts { paths: virt }),
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio_util::sync::CancellationToken;

    fn ctx() -> ToolContext {
        ToolContext {
            thread_id: "t".into(),
            run_id: "r".into(),
            call_id: "c".into(),
            cancel: CancellationToken::new(),
        }
    }

    fn setup() -> (tempfile::TempDir, ThreadRoots) {
        let dir = tempfile::tempdir().unwrap();
        let roots = ThreadRoots::under(&dir.path().join("t"));
        roots.create().unwrap();
        std::fs::write(roots.outputs.join("report.md"), "# Report\n").unwrap();
        std::fs::create_dir(roots.outputs.join("sub")).unwrap();
        std::fs::write(roots.outputs.join("sub/chart.png"), [0x89, b'P']).unwrap();
        std::fs::write(roots.workspace.join("draft.md"), "draft").unwrap();
        (dir, roots)
    }

    #[tokio::test]
    async fn files_under_outputs_become_artifacts_with_normalised_paths() {
        let (_d, roots) = setup();
        let tool = PresentFilesTool::new(roots);
        let out = tool
            .call(
                json!({"filepaths": ["/mnt/user-data/outputs/./report.md",
                                     "/mnt/user-data/outputs/sub/../sub/chart.png",
                                     "/mnt/user-data/outputs/report.md"]}),
                &ctx(),
            )
            .await
            .unwrap();
        assert!(!out.is_error, "{}", out.content);
        assert_eq!(
            out.update,
            Some(StateUpdate::Artifacts {
                paths: vec![
                    "/mnt/user-data/outputs/report.md".into(),
                    "/mnt/user-data/outputs/sub/chart.png".into()
                ]
            })
        );
    }

    #[tokio::test]
    async fn anything_else_is_an_error_and_presents_nothing() {
        let (dir, roots) = setup();
        let host = dir.path().join("t/outputs/report.md").display().to_string();
        let tool = PresentFilesTool::new(roots);
        for (path, needle) in [
            (
                "/mnt/user-data/workspace/draft.md",
                "not in /mnt/user-data/outputs/",
            ),
            ("/mnt/user-data/outputs/missing.md", "missing.md"),
            ("/mnt/user-data/outputs/sub", "not a file"),
            ("/mnt/user-data/outputs/../../../etc/passwd", ""),
            ("/etc/passwd", ""),
            (host.as_str(), ""),
        ] {
            let out = tool
                .call(
                    json!({"filepaths": ["/mnt/user-data/outputs/report.md", path]}),
                    &ctx(),
                )
                .await
                .unwrap();
            assert!(out.is_error, "{path}: {}", out.content);
            assert!(out.update.is_none(), "{path}: all or nothing");
            assert!(out.content.contains(needle), "{path}: {}", out.content);
            assert!(
                !out.content.contains(dir.path().to_str().unwrap()),
                "{}",
                out.content
            );
        }
        let bad = tool.call(json!({"filepaths": "report.md"}), &ctx()).await;
        assert!(matches!(bad, Err(ToolError::InvalidArguments(_))));
        let none = tool.call(json!({"filepaths": []}), &ctx()).await;
        assert!(matches!(none, Err(ToolError::InvalidArguments(_))));
    }
}
