//! `read_file`: a text file with line numbers, a 1-based line range, a size cap and a clear
//! answer for binary files.

use serde_json::{json, Value};
use workbench_core::model::ToolSpec;
use workbench_core::tools::{Tool, ToolContext, ToolError, ToolMeta, ToolOutput};

use super::args::Args;
use super::{human_size, meta, run_blocking, FsError, FILE_GROUP};
use crate::roots::ThreadRoots;
use crate::vpath::VirtualFs;

/// The name the model calls.
pub const READ_FILE_NAME: &str = "read_file";
/// Bytes read from one file at most: beyond this a file is log-sized, and grep is the tool.
pub const MAX_READ_BYTES: u64 = 10 << 20;
/// Lines returned by one call when no `end_line` narrows it: ~2000 lines fit a context well.
pub const MAX_LINES: usize = 2000;
/// Characters of one line shown: minified files have megabyte lines.
pub const MAX_LINE_CHARS: usize = 2000;
/// Bytes inspected for a NUL to call a file binary, as git and ripgrep do.
const BINARY_SNIFF_BYTES: usize = 8192;

const DESCRIPTION: &str = "\
Read a text file. Lines are numbered from 1 (`  12\\tcode`); numbers are not part of the file. \
Give `start_line`/`end_line` (1-based, inclusive) to read part of a long file; at most 2000 \
lines are returned per call and long lines are cut. Binary files are refused with their type.";

/// The `read_file` tool over a thread's roots.
pub struct ReadFileTool {
    roots: ThreadRoots,
    spec: ToolSpec,
    meta: ToolMeta,
}

impl ReadFileTool {
    /// `read_file` over `roots`.
    pub fn new(roots: ThreadRoots) -> Self {
        let spec = ToolSpec {
            name: READ_FILE_NAME.into(),
            description: DESCRIPTION.into(),
            parameters: json!({
                "type": "object",
                "properties": {
                    "path": {"type": "string", "description": "The file, e.g. /mnt/user-data/workspace/src/main.rs."},
                    "start_line": {"type": "integer", "minimum": 1, "description": "First line to show (1-based, default 1)."},
                    "end_line": {"type": "integer", "minimum": 1, "description": "Last line to show (inclusive)."}
                },
                "required": ["path"],
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

/// A short name for common binary formats, from their first bytes.
fn binary_kind(bytes: &[u8]) -> &'static str {
    const MAGIC: [(&[u8], &str); 9] = [
        (b"\x89PNG", "a PNG image"),
        (b"\xff\xd8\xff", "a JPEG image"),
        (b"GIF8", "a GIF image"),
        (b"%PDF", "a PDF document"),
        (b"PK\x03\x04", "a zip archive (or docx/xlsx/jar)"),
        (b"\x7fELF", "an ELF executable"),
        (b"\x1f\x8b", "a gzip archive"),
        (b"SQLite format 3", "an SQLite database"),
        (b"RIFF", "a RIFF media file"),
    ];
    MAGIC
        .iter()
        .find(|(m, _)| bytes.starts_with(m))
        .map_or("a binary file", |(_, k)| k)
}

fn read(vfs: &VirtualFs, path: &str, start: usize, end: Option<usize>) -> Result<String, FsError> {
    let vp = vfs.resolve(path)?;
    let (bytes, size) = vfs.read(&vp, MAX_READ_BYTES)?;
    let sniff = &bytes[..bytes.len().min(BINARY_SNIFF_BYTES)];
    if sniff.contains(&0) || sniff.starts_with(b"%PDF") {
        return Err(FsError::Refused(format!(
            "`{}` is {} ({}), not text; read_file shows text files only",
            vp.virt,
            binary_kind(sniff),
            human_size(size)
        )));
    }
    let text = String::from_utf8_lossy(&bytes);
    if text.is_empty() {
        return Ok(format!("`{}` is empty (0 bytes).", vp.virt));
    }
    let lines: Vec<&str> = text.lines().collect();
    let total = lines.len();
    if start > total {
        return Err(FsError::Invalid(format!(
            "`start_line` is {start} but `{}` has {total} line{}; use a start_line from 1 to {total}",
            vp.virt,
            if total == 1 { "" } else { "s" }
        )));
    }
    let want_end = end.unwrap_or(total).min(total);
    let last = want_end.min(start + MAX_LINES - 1);
    let width = last.to_string().len().max(4);
    let mut out = String::new();
    let mut cut_lines = 0usize;
    for (i, line) in lines[start - 1..last].iter().enumerate() {
        let n = start + i;
        if line.chars().count() > MAX_LINE_CHARS {
            cut_lines += 1;
            let head: String = line.chars().take(MAX_LINE_CHARS).collect();
            out.push_str(&format!("{n:>width$}\t{head} [... line cut]\n"));
        } else {
            out.push_str(&format!("{n:>width$}\t{line}\n"));
        }
    }
    let mut notes = Vec::new();
    if last < want_end || (end.is_none() && last < total) {
        notes.push(format!(
            "showing lines {start}-{last} of {total}; call again with start_line={} to read on",
            last + 1
        ));
    }
    if cut_lines > 0 {
        notes.push(format!(
            "{cut_lines} line(s) longer than {MAX_LINE_CHARS} characters were cut"
        ));
    }
    if size > MAX_READ_BYTES {
        notes.push(format!(
            "the file is {}; only its first {} were read — use grep to find lines further on",
            human_size(size),
            human_size(MAX_READ_BYTES)
        ));
    }
    for n in notes {
        out.push_str(&format!("[{n}]\n"));
    }
    Ok(out)
}

#[async_trait::async_trait]
impl Tool for ReadFileTool {
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
        let a = Args::new(READ_FILE_NAME, &args, &["path", "start_line", "end_line"])?;
        let path = a
            .string("path", "\"/mnt/user-data/workspace/README.md\"")?
            .to_string();
        let start = a.int("start_line", 1, u32::MAX as u64)?.unwrap_or(1) as usize;
        let end = a.int("end_line", 1, u32::MAX as u64)?.map(|n| n as usize);
        if let Some(end) = end {
            if end < start {
                return Err(ToolError::InvalidArguments(format!(
                    "`end_line` ({end}) is before `start_line` ({start}); give end_line >= start_line"
                )));
            }
        }
        run_blocking(&self.roots, move |vfs| read(vfs, &path, start, end)).await
    }
}
