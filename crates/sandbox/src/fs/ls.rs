//! `ls`: a folder as a tree, two levels deep by default, with a cap on the entries shown.

use serde_json::{json, Value};
use tokio_util::sync::CancellationToken;
use workbench_core::model::ToolSpec;
use workbench_core::tools::{Tool, ToolContext, ToolError, ToolMeta, ToolOutput};

use super::args::Args;
use super::walk::{walk, Flow, Kind, WalkOptions};
use super::{human_size, meta, run_blocking, FsError, FILE_GROUP};
use crate::roots::{ThreadRoots, VIRTUAL_ROOT};
use crate::vpath::{VirtualFs, VpathError};

/// The name the model calls.
pub const LS_NAME: &str = "ls";
/// Levels shown when the model does not say.
pub const DEFAULT_DEPTH: u64 = 2;
/// The deepest tree the model may ask for: deeper trees are what `glob` is for.
pub const MAX_DEPTH: u64 = 10;
/// Entries shown at most: a few thousand tokens, enough to orient.
pub const MAX_ENTRIES: usize = 300;

const DESCRIPTION: &str = "\
List a folder as a tree (two levels by default). Folders end with `/`, files show their size, \
symbolic links show `@`. Paths start with /mnt/user-data/workspace, /mnt/user-data/uploads or \
/mnt/user-data/outputs; relative paths are taken from the workspace. `.git` is shown but not \
listed.";

/// The `ls` tool over a thread's roots.
pub struct LsTool {
    roots: ThreadRoots,
    spec: ToolSpec,
    meta: ToolMeta,
}

impl LsTool {
    /// `ls` over `roots`.
    pub fn new(roots: ThreadRoots) -> Self {
        let spec = ToolSpec {
            name: LS_NAME.into(),
            description: DESCRIPTION.into(),
            parameters: json!({
                "type": "object",
                "properties": {
                    "path": {"type": "string", "description": "The folder to list (default /mnt/user-data/workspace)."},
                    "depth": {"type": "integer", "minimum": 1, "maximum": MAX_DEPTH, "description": "How many levels to show (default 2)."}
                },
                "additionalProperties": false
            }),
        };
        Self {
            roots,
            spec,
            meta: meta(FILE_GROUP),
        }
    }
}

/// Lists the thread's roots: the answer for `/mnt/user-data` itself.
fn list_roots(vfs: &VirtualFs) -> String {
    let mut out = format!("{VIRTUAL_ROOT}/\n");
    for (virt, writable) in vfs.root_list() {
        let name = virt.strip_prefix(VIRTUAL_ROOT).unwrap_or(virt);
        let mode = if writable { "" } else { " (read-only)" };
        out.push_str(&format!("  {}/{mode}\n", name.trim_start_matches('/')));
    }
    out
}

fn list(
    vfs: &VirtualFs,
    path: &str,
    depth: usize,
    cancel: &CancellationToken,
) -> Result<String, FsError> {
    let vp = match vfs.resolve(path) {
        Ok(vp) => vp,
        Err(VpathError::VirtualDir { .. }) => return Ok(list_roots(vfs)),
        Err(e) => return Err(e.into()),
    };
    let m = vfs.metadata(&vp)?;
    if !m.is_dir() {
        return Ok(format!("{} ({})\n", vp.virt, human_size(m.len())));
    }
    let mut out = format!("{}/\n", vp.virt);
    let mut shown = 0usize;
    let mut more = 0usize;
    let opts = WalkOptions {
        gitignore: false,
        max_depth: depth,
    };
    walk(vfs, &vp, opts, cancel, &mut |e| {
        if shown >= MAX_ENTRIES {
            more += 1;
            // Counting what is not shown still walks, but only to the requested depth.
            return Flow::Continue;
        }
        shown += 1;
        let indent = "  ".repeat(e.depth);
        let name = e.name.to_string_lossy();
        let line = match e.kind {
            Kind::Dir => format!("{indent}{name}/"),
            Kind::Symlink => format!("{indent}{name}@"),
            Kind::Other => format!("{indent}{name} (special file)"),
            Kind::File => {
                let size = e.parent.metadata(e.name).map(|m| m.len()).unwrap_or(0);
                format!("{indent}{name} ({})", human_size(size))
            }
        };
        out.push_str(&line);
        out.push('\n');
        Flow::Continue
    })?;
    if shown == 0 {
        out.push_str("  (empty)\n");
    }
    if more > 0 {
        out.push_str(&format!(
            "... {more} more entr{} not shown; list a subfolder or use glob\n",
            if more == 1 { "y" } else { "ies" }
        ));
    }
    Ok(out)
}

#[async_trait::async_trait]
impl Tool for LsTool {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }

    fn meta(&self) -> &ToolMeta {
        &self.meta
    }

    async fn call(&self, args: Value, ctx: &ToolContext) -> Result<ToolOutput, ToolError> {
        let a = Args::new(LS_NAME, &args, &["path", "depth"])?;
        let path = a
            .opt_string("path")?
            .unwrap_or("/mnt/user-data/workspace")
            .to_string();
        let depth = a.int("depth", 1, MAX_DEPTH)?.unwrap_or(DEFAULT_DEPTH) as usize;
        let cancel = ctx.cancel.clone();
        run_blocking(&self.roots, move |vfs| list(vfs, &path, depth, &cancel)).await
    }
}
