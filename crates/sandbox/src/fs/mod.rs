//! The sandbox's file and search tools: one file per tool, each resolving the model's paths
//! through [`crate::vpath::VirtualFs`] and masking host paths out of its output.
//!
//! Not here: path resolution itself (`vpath`), the shell, or approvals.

pub mod apply_patch;
pub mod args;
pub mod file_search;
pub mod glob;
pub mod grep;
pub mod image_prep;
pub mod ls;
pub mod patch_match;
pub mod patch_parse;
pub mod present_files;
pub mod read_file;
pub mod str_replace;
pub mod view_image;
mod walk;
pub mod write_file;

use std::sync::Arc;

use workbench_core::tools::{Tool, ToolError, ToolMeta, ToolOutput, ToolSource};

use crate::roots::ThreadRoots;
use crate::vpath::{mask_host_paths, VirtualFs, VpathError};

pub use apply_patch::ApplyPatchTool;
pub use file_search::FileSearchTool;
pub use glob::GlobTool;
pub use grep::GrepTool;
pub use ls::LsTool;
pub use present_files::PresentFilesTool;
pub use read_file::ReadFileTool;
pub use str_replace::StrReplaceTool;
pub use view_image::ViewImageTool;
pub use write_file::WriteFileTool;

/// The group of the tools that read and write files.
pub const FILE_GROUP: &str = "file";
/// The group of the tools that search.
pub const SEARCH_GROUP: &str = "search";

/// Every file and search tool for a thread's roots.
pub fn file_tools(roots: &ThreadRoots) -> Vec<Arc<dyn Tool>> {
    vec![
        Arc::new(LsTool::new(roots.clone())),
        Arc::new(ReadFileTool::new(roots.clone())),
        Arc::new(WriteFileTool::new(roots.clone())),
        Arc::new(StrReplaceTool::new(roots.clone())),
        Arc::new(ApplyPatchTool::new(roots.clone())),
        Arc::new(GlobTool::new(roots.clone())),
        Arc::new(GrepTool::new(roots.clone())),
        Arc::new(FileSearchTool::new(roots.clone())),
    ]
}

/// Metadata of a sandbox tool in `group`.
fn meta(group: &str) -> ToolMeta {
    ToolMeta::new(ToolSource::Sandbox, group)
}

/// A failure inside a tool body: a path problem, a bad argument found late, or a result.
#[derive(Debug, thiserror::Error)]
enum FsError {
    /// A path could not be used.
    #[error(transparent)]
    Path(#[from] VpathError),
    /// The call's arguments were wrong in a way found only while running.
    #[error("{0}")]
    Invalid(String),
    /// The tool ran and refused (a binary file, no match): an error result, not bad arguments.
    #[error("{0}")]
    Refused(String),
    /// The run was cancelled.
    #[error("cancelled")]
    Cancelled,
}

/// Runs a blocking body on the blocking pool with a fresh capability set, then masks host
/// paths out of whatever it says. Path errors become error results the model reads.
async fn run_blocking<F>(roots: &ThreadRoots, body: F) -> Result<ToolOutput, ToolError>
where
    F: FnOnce(&VirtualFs) -> Result<String, FsError> + Send + 'static,
{
    let roots = roots.clone();
    let joined = tokio::task::spawn_blocking(move || {
        let vfs = VirtualFs::open(&roots);
        let res = body(&vfs);
        (res, roots)
    })
    .await;
    let (res, roots) = match joined {
        Ok(v) => v,
        Err(e) => return Err(ToolError::Failed(format!("the file tool stopped: {e}"))),
    };
    match res {
        Ok(text) => Ok(ToolOutput::text(mask_host_paths(&text, &roots))),
        Err(FsError::Path(e)) => Ok(ToolOutput::error(mask_host_paths(&e.to_string(), &roots))),
        Err(FsError::Invalid(msg)) => {
            Err(ToolError::InvalidArguments(mask_host_paths(&msg, &roots)))
        }
        Err(FsError::Refused(msg)) => Ok(ToolOutput::error(mask_host_paths(&msg, &roots))),
        Err(FsError::Cancelled) => Err(ToolError::Cancelled),
    }
}

/// A byte count for people: `512 B`, `1.5 KB`, `3.2 MB`.
fn human_size(n: u64) -> String {
    const UNITS: [&str; 4] = ["B", "KB", "MB", "GB"];
    let mut v = n as f64;
    let mut unit = 0;
    while v >= 1024.0 && unit < UNITS.len() - 1 {
        v /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{n} B")
    } else {
        format!("{v:.1} {}", UNITS[unit])
    }
}

/// `s` when `n` is not 1.
fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}
