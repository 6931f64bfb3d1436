//! `file_search`: files whose paths fuzzily match a query (nucleo, the matcher behind the
//! Helix editor's picker), best first, gitignore-aware, capped.

use nucleo_matcher::pattern::{CaseMatching, Normalization, Pattern};
use nucleo_matcher::{Config, Matcher, Utf32Str};
use serde_json::{json, Value};
use tokio_util::sync::CancellationToken;
use workbench_core::model::ToolSpec;
use workbench_core::tools::{Tool, ToolContext, ToolError, ToolMeta, ToolOutput};

use super::args::Args;
use super::walk::{walk, Flow, Kind, WalkOptions};
use super::{meta, plural, run_blocking, FsError, SEARCH_GROUP};
use crate::roots::ThreadRoots;
use crate::vpath::VirtualFs;

/// The name the model calls.
pub const FILE_SEARCH_NAME: &str = "file_search";
/// Results when the model does not say.
pub const DEFAULT_LIMIT: u64 = 20;
/// Results at most.
pub const MAX_LIMIT: u64 = 100;
/// Files scored at most: a bound on time and memory for huge trees.
const MAX_SCANNED: usize = 200_000;
/// The deepest a search walks (the walker caps it too).
const SEARCH_DEPTH: usize = 64;

const DESCRIPTION: &str = "\
Find files by a fuzzy name, e.g. `mainrs` finds src/main.rs, `tool read` finds \
tools/read_file.rs (space-separated words must all match). Best matches first; searches `path` \
(default /mnt/user-data/workspace), skipping what .gitignore names.";

/// The `file_search` tool over a thread's roots.
pub struct FileSearchTool {
    roots: ThreadRoots,
    spec: ToolSpec,
    meta: ToolMeta,
}

impl FileSearchTool {
    /// `file_search` over `roots`.
    pub fn new(roots: ThreadRoots) -> Self {
        let spec = ToolSpec {
            name: FILE_SEARCH_NAME.into(),
            description: DESCRIPTION.into(),
            parameters: json!({
                "type": "object",
                "properties": {
                    "query": {"type": "string", "description": "Fuzzy file name or path fragments."},
                    "path": {"type": "string", "description": "Folder to search (default /mnt/user-data/workspace)."},
                    "limit": {"type": "integer", "minimum": 1, "maximum": MAX_LIMIT, "description": "How many results (default 20)."}
                },
                "required": ["query"],
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

fn find(
    vfs: &VirtualFs,
    path: Option<&str>,
    query: &str,
    limit: usize,
    cancel: &CancellationToken,
) -> Result<String, FsError> {
    let base = vfs.resolve(path.unwrap_or("/mnt/user-data/workspace"))?;
    if !vfs.metadata(&base)?.is_dir() {
        return Err(FsError::Refused(format!(
            "`{}` is a file; `path` must be a folder to search in",
            base.virt
        )));
    }
    let pattern = Pattern::parse(query, CaseMatching::Smart, Normalization::Smart);
    let mut matcher = Matcher::new(Config::DEFAULT.match_paths());
    let mut buf = Vec::new();
    let mut scored: Vec<(u32, String)> = Vec::new();
    let mut scanned = 0usize;
    let opts = WalkOptions {
        gitignore: true,
        max_depth: SEARCH_DEPTH,
    };
    walk(vfs, &base, opts, cancel, &mut |e| {
        if e.kind != Kind::File {
            return Flow::Continue;
        }
        scanned += 1;
        if scanned > MAX_SCANNED {
            return Flow::Stop;
        }
        let rel = e.rel.to_string_lossy();
        if let Some(score) = pattern.score(Utf32Str::new(&rel, &mut buf), &mut matcher) {
            scored.push((score, rel.into_owned()));
        }
        Flow::Continue
    })?;
    if scored.is_empty() {
        return Ok(format!(
            "No file under {} matches `{query}` ({scanned} files looked at).",
            base.virt
        ));
    }
    // Best score first; shorter paths break ties (closer to what was typed).
    scored.sort_by(|a, b| {
        b.0.cmp(&a.0)
            .then(a.1.len().cmp(&b.1.len()))
            .then(a.1.cmp(&b.1))
    });
    let total = scored.len();
    let mut out = String::new();
    for (_, rel) in scored.iter().take(limit) {
        out.push_str(&vfs.child(&base, std::path::Path::new(rel)).virt);
        out.push('\n');
    }
    out.push_str(&format!(
        "({} of {total} matching file{} shown",
        total.min(limit),
        plural(total)
    ));
    if scanned > MAX_SCANNED {
        out.push_str(&format!(
            "; stopped after {MAX_SCANNED} files, give a narrower path"
        ));
    }
    out.push_str(")\n");
    Ok(out)
}

#[async_trait::async_trait]
impl Tool for FileSearchTool {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }

    fn meta(&self) -> &ToolMeta {
        &self.meta
    }

    async fn call(&self, args: Value, ctx: &ToolContext) -> Result<ToolOutput, ToolError> {
        let a = Args::new(FILE_SEARCH_NAME, &args, &["query", "path", "limit"])?;
        let query = a.string("query", "\"main.rs\"")?.to_string();
        if query.trim().is_empty() {
            return Err(ToolError::InvalidArguments(
                "`query` is empty: give part of a file name, e.g. \"readme\"".into(),
            ));
        }
        let path = a.opt_string("path")?.map(str::to_string);
        let limit = a.int("limit", 1, MAX_LIMIT)?.unwrap_or(DEFAULT_LIMIT) as usize;
        let cancel = ctx.cancel.clone();
        run_blocking(&self.roots, move |vfs| {
            find(vfs, path.as_deref(), &query, limit, &cancel)
        })
        .await
    }
}
