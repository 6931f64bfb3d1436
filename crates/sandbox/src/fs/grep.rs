//! `grep`: search file contents with ripgrep's own crates (`grep-regex`, `grep-searcher`),
//! gitignore-aware, with context lines and capped output. Files are found by the
//! capability walk and opened from their parent's handle, then searched on every core.

use std::ffi::OsString;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use cap_std::fs::{Dir, OpenOptions, OpenOptionsExt as _};
use grep_regex::{RegexMatcher, RegexMatcherBuilder};
use grep_searcher::{BinaryDetection, Searcher, SearcherBuilder, Sink, SinkContext, SinkMatch};
use serde_json::{json, Value};
use tokio_util::sync::CancellationToken;
use workbench_core::model::ToolSpec;
use workbench_core::tools::{Tool, ToolContext, ToolError, ToolMeta, ToolOutput};

use super::args::Args;
use super::glob::{base_and_pattern, PathGlob};
use super::walk::{walk, Flow, Kind, WalkOptions};
use super::{meta, plural, run_blocking, FsError, SEARCH_GROUP};
use crate::roots::ThreadRoots;
use crate::vpath::VirtualFs;

/// The name the model calls.
pub const GREP_NAME: &str = "grep";
/// Matching lines shown at most (context lines come on top): enough to act on, small enough
/// not to flood the context.
pub const MAX_MATCH_LINES: usize = 200;
/// Files listed at most in `files_only` mode.
pub const MAX_FILES_LISTED: usize = 500;
/// Context lines the model may ask for on each side.
pub const MAX_CONTEXT: u64 = 10;
/// Characters of one output line: minified code has megabyte lines.
const MAX_LINE_CHARS: usize = 300;
/// The deepest a search walks (the walker caps it too).
const SEARCH_DEPTH: usize = 64;
/// Threads searching at most; more only contend on the disk.
const MAX_THREADS: usize = 8;

const DESCRIPTION: &str = "\
Search file contents with a regular expression (Rust/ripgrep syntax) or, with `literal: true`, \
plain text. Searches `path` (a folder or one file; default /mnt/user-data/workspace), skipping \
binary files and what .gitignore names. `include` filters files by glob (`*.rs`, \
`src/**/*.ts`). Output: each file's virtual path, then `line:text` for matches and `line-text` \
for `context` lines; at most 200 matching lines. `files_only: true` lists matching files with \
their counts.";

/// The `grep` tool over a thread's roots.
pub struct GrepTool {
    roots: ThreadRoots,
    spec: ToolSpec,
    meta: ToolMeta,
}

impl GrepTool {
    /// `grep` over `roots`.
    pub fn new(roots: ThreadRoots) -> Self {
        let spec = ToolSpec {
            name: GREP_NAME.into(),
            description: DESCRIPTION.into(),
            parameters: json!({
                "type": "object",
                "properties": {
                    "pattern": {"type": "string", "description": "Regular expression (or text with literal: true)."},
                    "path": {"type": "string", "description": "Folder or file to search (default /mnt/user-data/workspace)."},
                    "literal": {"type": "boolean", "description": "Search `pattern` as plain text (default false)."},
                    "ignore_case": {"type": "boolean", "description": "Match regardless of case (default false)."},
                    "context": {"type": "integer", "minimum": 0, "maximum": MAX_CONTEXT, "description": "Lines of context before and after each match (default 0)."},
                    "include": {"type": "string", "description": "Only files matching this glob, e.g. *.py or src/**/*.rs."},
                    "files_only": {"type": "boolean", "description": "List matching files and their match counts instead of lines."}
                },
                "required": ["pattern"],
                "additionalProperties": false
            }),
        };
        Self {
            roots,
            spec,
            meta: meta(SEARCH_GROUP),
        }
    }
}

/// A search's settings, validated.
#[derive(Debug, Clone)]
struct GrepQuery {
    /// The regex or literal.
    pattern: String,
    /// The folder or file (virtual path); `None` for the workspace.
    path: Option<String>,
    /// Search the pattern as plain text.
    literal: bool,
    /// Case-insensitive matching.
    ignore_case: bool,
    /// Context lines each side.
    context: usize,
    /// File filter glob.
    include: Option<String>,
    /// List files with counts, not lines.
    files_only: bool,
}

/// One file to search: opened by name from its parent directory's handle.
struct Job {
    parent: Arc<Dir>,
    name: OsString,
    rel: PathBuf,
}

/// A line kept for output.
struct Line {
    number: u64,
    is_match: bool,
    text: String,
}

/// What one file produced.
#[derive(Default)]
struct FileHits {
    matches: usize,
    /// `None` marks a break between context groups (`--`).
    lines: Vec<Option<Line>>,
}

/// Collects lines up to the per-file cap; counts every match.
struct Collect<'a> {
    hits: &'a mut FileHits,
    keep_lines: bool,
}

impl Collect<'_> {
    fn push(&mut self, number: Option<u64>, bytes: &[u8], is_match: bool) {
        if !self.keep_lines || self.hits.lines.len() >= MAX_MATCH_LINES * 4 {
            return;
        }
        let text = String::from_utf8_lossy(bytes);
        let text = text.trim_end_matches(['\n', '\r']);
        let text = if text.chars().count() > MAX_LINE_CHARS {
            let head: String = text.chars().take(MAX_LINE_CHARS).collect();
            format!("{head} [... cut]")
        } else {
            text.to_string()
        };
        self.hits.lines.push(Some(Line {
            number: number.unwrap_or(0),
            is_match,
            text,
        }));
    }
}

impl Sink for Collect<'_> {
    type Error = std::io::Error;

    fn matched(&mut self, _: &Searcher, m: &SinkMatch<'_>) -> Result<bool, Self::Error> {
        // A match may span several lines only in multi-line mode, which is off: one line.
        self.hits.matches += 1;
        self.push(m.line_number(), m.bytes(), true);
        Ok(true)
    }

    fn context(&mut self, _: &Searcher, c: &SinkContext<'_>) -> Result<bool, Self::Error> {
        self.push(c.line_number(), c.bytes(), false);
        Ok(true)
    }

    fn context_break(&mut self, _: &Searcher) -> Result<bool, Self::Error> {
        if self.keep_lines {
            self.hits.lines.push(None);
        }
        Ok(true)
    }
}

fn build_matcher(q: &GrepQuery) -> Result<RegexMatcher, FsError> {
    RegexMatcherBuilder::new()
        .case_insensitive(q.ignore_case)
        .fixed_strings(q.literal)
        .line_terminator(Some(b'\n'))
        .build(&q.pattern)
        .map_err(|e| {
            FsError::Invalid(format!(
                "`pattern` is not a valid regular expression: {e}\nEscape special characters \
                 (`\\(`, `\\.`) or set `literal: true` to search the text as is"
            ))
        })
}

/// Searches every job on up to [`MAX_THREADS`] threads; results come back in job order.
fn search_all(
    jobs: &[Job],
    matcher: &RegexMatcher,
    context: usize,
    keep_lines: bool,
    cancel: &CancellationToken,
) -> Result<Vec<(usize, FileHits)>, FsError> {
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .clamp(1, MAX_THREADS)
        .min(jobs.len().max(1));
    let next = AtomicUsize::new(0);
    let mut results: Vec<(usize, FileHits)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                s.spawn(|| {
                    let mut searcher = SearcherBuilder::new()
                        .line_number(true)
                        .before_context(context)
                        .after_context(context)
                        .binary_detection(BinaryDetection::quit(0))
                        .build();
                    let mut opts = OpenOptions::new();
                    opts.read(true)
                        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_NOCTTY);
                    let mut out = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(job) = jobs.get(i) else { break };
                        if cancel.is_cancelled() {
                            break;
                        }
                        // A file that vanished or turned into something else since the walk
                        // is skipped, as ripgrep does.
                        let Ok(file) = job.parent.open_with(&job.name, &opts) else {
                            continue;
                        };
                        let file = file.into_std();
                        if !file.metadata().is_ok_and(|m| m.is_file()) {
                            continue;
                        }
                        let mut hits = FileHits::default();
                        let sink = Collect {
                            hits: &mut hits,
                            keep_lines,
                        };
                        if searcher.search_file(matcher, &file, sink).is_ok() && hits.matches > 0 {
                            out.push((i, hits));
                        }
                    }
                    out
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_default())
            .collect()
    });
    if cancel.is_cancelled() {
        return Err(FsError::Cancelled);
    }
    results.sort_by_key(|(i, _)| *i);
    Ok(results)
}

/// Runs one search and formats its answer.
fn search(vfs: &VirtualFs, q: &GrepQuery, cancel: &CancellationToken) -> Result<String, FsError> {
    let matcher = build_matcher(q)?;
    let (base, _) = base_and_pattern(vfs, q.path.as_deref(), "x")?;
    let include = q
        .include
        .as_deref()
        .map(|g| PathGlob::new(g, "include"))
        .transpose()?;
    let mut jobs = Vec::new();
    let is_dir = vfs.metadata(&base)?.is_dir();
    if is_dir {
        let opts = WalkOptions {
            gitignore: true,
            max_depth: SEARCH_DEPTH,
        };
        walk(vfs, &base, opts, cancel, &mut |e| {
            if e.kind == Kind::File && include.as_ref().is_none_or(|g| g.is_match(e.rel)) {
                jobs.push(Job {
                    parent: Arc::clone(e.parent),
                    name: e.name.clone(),
                    rel: e.rel.to_path_buf(),
                });
            }
            Flow::Continue
        })?;
    } else {
        let (parent, name) = match (base.rel.parent(), base.rel.file_name()) {
            (Some(p), Some(n)) => (p.to_path_buf(), n.to_os_string()),
            _ => return Err(FsError::Invalid("`path` names no file".into())),
        };
        let root = vfs.root_dir(base.root)?;
        let pdir = if parent.as_os_str().is_empty() {
            root.try_clone()
        } else {
            root.open_dir(&parent)
        }
        .map_err(|e| vfs.io_error(e, &base, "open"))?;
        jobs.push(Job {
            parent: Arc::new(pdir),
            name,
            rel: PathBuf::new(),
        });
    }
    let results = search_all(&jobs, &matcher, q.context, !q.files_only, cancel)?;
    let searched = jobs.len();
    let total: usize = results.iter().map(|(_, h)| h.matches).sum();
    if total == 0 {
        return Ok(format!(
            "No matches for `{}` in {} ({searched} file{} searched{}).",
            q.pattern,
            base.virt,
            plural(searched),
            if is_dir {
                "; binary files and what .gitignore names are skipped"
            } else {
                ""
            }
        ));
    }
    let virt = |rel: &PathBuf| {
        if rel.as_os_str().is_empty() {
            base.virt.clone()
        } else {
            vfs.child(&base, rel).virt
        }
    };
    let mut out = String::new();
    if q.files_only {
        for (i, h) in results.iter().take(MAX_FILES_LISTED) {
            out.push_str(&format!("{} ({})\n", virt(&jobs[*i].rel), h.matches));
        }
        if results.len() > MAX_FILES_LISTED {
            out.push_str(&format!(
                "... {} more files\n",
                results.len() - MAX_FILES_LISTED
            ));
        }
    } else {
        let mut shown = 0usize;
        for (i, h) in &results {
            if shown >= MAX_MATCH_LINES {
                break;
            }
            out.push_str(&virt(&jobs[*i].rel));
            out.push('\n');
            for line in &h.lines {
                match line {
                    None => out.push_str("--\n"),
                    Some(l) => {
                        if l.is_match {
                            if shown >= MAX_MATCH_LINES {
                                break;
                            }
                            shown += 1;
                        }
                        let sep = if l.is_match { ':' } else { '-' };
                        out.push_str(&format!("{}{sep}{}\n", l.number, l.text));
                    }
                }
            }
            out.push('\n');
        }
        if shown < total {
            out.push_str(&format!(
                "[output capped: showing {shown} of {total} matching lines; narrow the pattern, \
                 the path or `include`, or use files_only: true]\n"
            ));
        }
    }
    out.push_str(&format!(
        "{total} matching line{} in {} file{} ({searched} searched)\n",
        plural(total),
        results.len(),
        plural(results.len())
    ));
    Ok(out)
}

#[async_trait::async_trait]
impl Tool for GrepTool {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }

    fn meta(&self) -> &ToolMeta {
        &self.meta
    }

    async fn call(&self, args: Value, ctx: &ToolContext) -> Result<ToolOutput, ToolError> {
        let a = Args::new(
            GREP_NAME,
            &args,
            &[
                "pattern",
                "path",
                "literal",
                "ignore_case",
                "context",
                "include",
                "files_only",
            ],
        )?;
        let pattern = a.string("pattern", "\"fn main\"")?.to_string();
        if pattern.is_empty() {
            return Err(ToolError::InvalidArguments(
                "`pattern` is empty: give the text or regular expression to find".into(),
            ));
        }
        let q = GrepQuery {
            pattern,
            path: a.opt_string("path")?.map(str::to_string),
            literal: a.bool("literal", false)?,
            ignore_case: a.bool("ignore_case", false)?,
            context: a.int("context", 0, MAX_CONTEXT)?.unwrap_or(0) as usize,
            include: a.opt_string("include")?.map(str::to_string),
            files_only: a.bool("files_only", false)?,
        };
        let cancel = ctx.cancel.clone();
        run_blocking(&self.roots, move |vfs| search(vfs, &q, &cancel)).await
    }
}
