//! `write_file`: create, replace or append to a file inside a writable root, creating its
//! parent folders; the content is capped.

use serde_json::{json, Value};
use workbench_core::model::ToolSpec;
use workbench_core::tools::{Tool, ToolContext, ToolError, ToolMeta, ToolOutput};

use super::args::Args;
use super::{human_size, meta, plural, run_blocking, FsError, FILE_GROUP};
use crate::roots::ThreadRoots;
use crate::vpath::{VirtualFs, WriteMode};

/// The name the model calls.
pub const WRITE_FILE_NAME: &str = "write_file";
/// The most one call may write: larger files come from the shell or a program, not a tool
/// argument the model had to generate token by token.
pub const MAX_WRITE_BYTES: usize = 10 << 20;

const DESCRIPTION: &str = "\
Write a text file, replacing its content, or add to its end with `append: true`. Missing \
parent folders are created. Paths start with /mnt/user-data/workspace or /mnt/user-data/outputs \
(files for the user go to outputs); relative paths are taken from the workspace. At most 10 MB \
per call. To change part of a file, use str_replace.";

/// The `write_file` tool over a thread's roots.
pub struct WriteFileTool {
    roots: ThreadRoots,
    spec: ToolSpec,
    meta: ToolMeta,
}

impl WriteFileTool {
    /// `write_file` over `roots`.
    pub fn new(roots: ThreadRoots) -> Self {
        let spec = ToolSpec {
            name: WRITE_FILE_NAME.into(),
            description: DESCRIPTION.into(),
            parameters: json!({
                "type": "object",
                "properties": {
                    "path": {"type": "string", "description": "The file to write, e.g. /mnt/user-data/outputs/report.md."},
                    "content": {"type": "string", "description": "The text to write."},
                    "append": {"type": "boolean", "description": "Add to the end instead of replacing (default false)."}
                },
                "required": ["path", "content"],
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

fn write(vfs: &VirtualFs, path: &str, content: &str, append: bool) -> Result<String, FsError> {
    let vp = vfs.resolve(path)?;
    let mode = if append {
        WriteMode::Append
    } else {
        WriteMode::Replace
    };
    let out = vfs.write(&vp, content.as_bytes(), mode)?;
    let lines = content.lines().count();
    let what = match (out.created, append) {
        (true, _) => "created",
        (false, true) => "appended",
        (false, false) => "replaced",
    };
    Ok(format!(
        "Wrote {} ({lines} line{}) to {} ({what}; the file is now {}).",
        human_size(content.len() as u64),
        plural(lines),
        vp.virt,
        human_size(out.size)
    ))
}

#[async_trait::async_trait]
impl Tool for WriteFileTool {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }

    fn meta(&self) -> &ToolMeta {
        &self.meta
    }

    async fn call(&self, args: Value, ctx: &ToolContext) -> Result<ToolOutput, ToolError> {
        if ctx.cancel.is_cancelled() {
            return Err(ToolError::Cancelled);
        }
        let a = Args::new(WRITE_FILE_NAME, &args, &["path", "content", "append"])?;
        let path = a
            .string("path", "\"/mnt/user-data/outputs/notes.md\"")?
            .to_string();
        let content = a.string("content", "\"# Notes\\n\"")?;
        if content.len() > MAX_WRITE_BYTES {
            return Err(ToolError::InvalidArguments(format!(
                "`content` is {}, more than the {} one call may write; write it in parts with \
                 `append: true`, or generate it with a script",
                human_size(content.len() as u64),
                human_size(MAX_WRITE_BYTES as u64)
            )));
        }
        let content = content.to_string();
        let append = a.bool("append", false)?;
        run_blocking(&self.roots, move |vfs| write(vfs, &path, &content, append)).await
    }
}
