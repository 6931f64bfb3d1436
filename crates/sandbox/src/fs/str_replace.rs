//! `str_replace`: replace an exact piece of a file. Exactly one match is required unless
//! `replace_all` is set, so an edit never lands in the wrong place.

use serde_json::{json, Value};
use workbench_core::model::ToolSpec;
use workbench_core::tools::{Tool, ToolContext, ToolError, ToolMeta, ToolOutput};

use super::args::Args;
use super::{meta, plural, run_blocking, FsError, FILE_GROUP};
use crate::roots::ThreadRoots;
use crate::vpath::{VirtualFs, WriteMode};

/// The name the model calls.
pub const STR_REPLACE_NAME: &str = "str_replace";
/// Files larger than this are not edited in memory: str_replace is for source-sized files.
pub const MAX_EDIT_BYTES: u64 = 10 << 20;
/// Line numbers listed in a "several matches" error at most.
const LINES_LISTED: usize = 20;

const DESCRIPTION: &str = "\
Replace `old_str` with `new_str` in a file. `old_str` must match the file exactly (whitespace \
and indentation included) and occur exactly once; include enough surrounding lines to make it \
unique, or set `replace_all: true` to replace every occurrence. Use read_file first to see the \
current text.";

/// The `str_replace` tool over a thread's roots.
pub struct StrReplaceTool {
    roots: ThreadRoots,
    spec: ToolSpec,
    meta: ToolMeta,
}

impl StrReplaceTool {
    /// `str_replace` over `roots`.
    pub fn new(roots: ThreadRoots) -> Self {
        let spec = ToolSpec {
            name: STR_REPLACE_NAME.into(),
            description: DESCRIPTION.into(),
            parameters: json!({
                "type": "object",
                "properties": {
                    "path": {"type": "string", "description": "The file to edit."},
                    "old_str": {"type": "string", "description": "The exact text to replace."},
                    "new_str": {"type": "string", "description": "The text to put in its place (may be empty)."},
                    "replace_all": {"type": "boolean", "description": "Replace every occurrence (default false)."}
                },
                "required": ["path", "old_str", "new_str"],
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

/// 1-based line numbers where each match starts.
fn match_lines(text: &str, needle: &str) -> Vec<usize> {
    let mut lines = Vec::new();
    let mut line = 1;
    let mut last = 0;
    for (i, _) in text.match_indices(needle) {
        line += text[last..i].bytes().filter(|b| *b == b'\n').count();
        last = i;
        lines.push(line);
    }
    lines
}

/// Lines listed for a message: `4, 10 and 22`, capped.
fn list_lines(lines: &[usize]) -> String {
    let shown: Vec<String> = lines
        .iter()
        .take(LINES_LISTED)
        .map(|n| n.to_string())
        .collect();
    let more = lines.len().saturating_sub(LINES_LISTED);
    let mut s = match shown.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        Some((last, _)) => last.clone(),
        None => String::new(),
    };
    if more > 0 {
        s.push_str(&format!(" (+{more} more)"));
    }
    s
}

fn edit(
    vfs: &VirtualFs,
    path: &str,
    old: &str,
    new: &str,
    replace_all: bool,
) -> Result<String, FsError> {
    let vp = vfs.resolve(path)?;
    let (bytes, size) = vfs.read(&vp, MAX_EDIT_BYTES + 1)?;
    if size > MAX_EDIT_BYTES {
        return Err(FsError::Refused(format!(
            "`{}` is larger than 10 MB; edit it with the shell instead",
            vp.virt
        )));
    }
    let Ok(text) = String::from_utf8(bytes) else {
        return Err(FsError::Refused(format!(
            "`{}` is not UTF-8 text; str_replace edits text files only",
            vp.virt
        )));
    };
    let lines = match_lines(&text, old);
    match lines.len() {
        0 => {
            let hint = if text.contains(old.trim()) && !old.trim().is_empty() {
                " It does occur with different leading or trailing whitespace: copy the exact \
                 text from read_file."
            } else {
                " Check whitespace and indentation, and read the file again: it may have changed."
            };
            return Err(FsError::Refused(format!(
                "`old_str` was not found in `{}`.{hint}",
                vp.virt
            )));
        }
        1 => {}
        n if !replace_all => {
            return Err(FsError::Refused(format!(
                "`old_str` occurs {n} times in `{}` (starting on lines {}); include more \
                 surrounding lines to make it unique, or set `replace_all: true` to replace all {n}",
                vp.virt,
                list_lines(&lines)
            )));
        }
        _ => {}
    }
    let updated = if replace_all {
        text.replace(old, new)
    } else {
        text.replacen(old, new, 1)
    };
    vfs.write(&vp, updated.as_bytes(), WriteMode::Replace)?;
    let n = lines.len();
    Ok(format!(
        "Replaced {n} occurrence{} in {} (line{} {}).",
        plural(n),
        vp.virt,
        plural(n),
        list_lines(&lines)
    ))
}

#[async_trait::async_trait]
impl Tool for StrReplaceTool {
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
        let a = Args::new(
            STR_REPLACE_NAME,
            &args,
            &["path", "old_str", "new_str", "replace_all"],
        )?;
        let path = a
            .string("path", "\"/mnt/user-data/workspace/src/main.rs\"")?
            .to_string();
        let old = a.string("old_str", "\"fn old()\"")?.to_string();
        let new = a.string("new_str", "\"fn new()\"")?.to_string();
        if old.is_empty() {
            return Err(ToolError::InvalidArguments(
                "`old_str` is empty: give the exact text to replace; to write a whole file use \
                 write_file"
                    .into(),
            ));
        }
        if old == new {
            return Err(ToolError::InvalidArguments(
                "`old_str` and `new_str` are the same: nothing would change".into(),
            ));
        }
        let all = a.bool("replace_all", false)?;
        run_blocking(&self.roots, move |vfs| edit(vfs, &path, &old, &new, all)).await
    }
}
