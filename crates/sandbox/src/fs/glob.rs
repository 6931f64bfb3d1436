//! `glob`: files whose paths match a glob pattern, gitignore-aware, capped.

use globset::{GlobBuilder, GlobMatcher};
use serde_json::{json, Value};
use tokio_util::sync::CancellationToken;
use workbench_core::model::ToolSpec;
use workbench_core::tools::{Tool, ToolContext, ToolError, ToolMeta, ToolOutput};

use super::args::Args;
use super::walk::{walk, Flow, Kind, WalkOptions};
use super::{meta, plural, run_blocking, FsError, SEARCH_GROUP};
use crate::roots::ThreadRoots;
use crate::vpath::{VPath, VirtualFs};

/// The name the model calls.
pub const GLOB_NAME: &str = "glob";
/// Paths listed at most: past this the pattern is too broad to be useful.
pub const MAX_GLOB_RESULTS: usize = 500;
/// The deepest a search walks (the walker caps it too).
const SEARCH_DEPTH: usize = 64;

const DESCRIPTION: &str = "\
Find files by glob pattern, e.g. `**/*.rs`, `src/**/test_*.py`, `*.md` (a pattern without `/` \
matches file names at any depth). `*` stays within a folder, `**` crosses folders, `{a,b}` \
alternates. Searches `path` (default /mnt/user-data/workspace); files named by .gitignore and \
.git are skipped. Returns at most 500 paths, sorted.";

/// The `glob` tool over a thread's roots.
pub struct GlobTool {
    roots: ThreadRoots,
    spec: ToolSpec,
    meta: ToolMeta,
}

impl GlobTool {
    /// `glob` over `roots`.
    pub fn new(roots: ThreadRoots) -> Self {
        let spec = ToolSpec {
            name: GLOB_NAME.into(),
            description: DESCRIPTION.into(),
            parameters: json!({
                "type": "object",
                "properties": {
                    "pattern": {"type": "string", "description": "The glob, relative to `path`, e.g. **/*.rs."},
                    "path": {"type": "string", "description": "The folder to search (default /mnt/user-data/workspace)."}
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

/// A compiled file-name filter: whole relative path when the pattern has a `/`, else the name.
pub(super) struct PathGlob {
    matcher: GlobMatcher,
    by_name: bool,
}

impl PathGlob {
    /// Compiles `pattern`; `..` components and absolute patterns are refused (an absolute
    /// pattern is split into `path` + pattern by [`split_absolute`] first).
    pub(super) fn new(pattern: &str, arg: &str) -> Result<Self, FsError> {
        if pattern.contains('\0') {
            return Err(FsError::Invalid(format!("`{arg}` contains a NUL byte")));
        }
        if pattern.starts_with('/') {
            return Err(FsError::Invalid(format!(
                "`{arg}` must be relative to `path` (like `**/*.rs`), not absolute"
            )));
        }
        if pattern.split('/').any(|c| c == "..") {
            return Err(FsError::Invalid(format!(
                "`{arg}` contains `..`, which would leave the folder searched; set `path` to the \
                 folder you want instead (inside /mnt/user-data)"
            )));
        }
        let pattern = pattern.trim_start_matches("./");
        let glob = GlobBuilder::new(pattern)
            .literal_separator(true)
            .backslash_escape(true)
            .build()
            .map_err(|e| {
                FsError::Invalid(format!(
                    "`{arg}` is not a valid glob: {}; e.g. `**/*.rs` or `src/*.{{ts,tsx}}`",
                    e.kind()
                ))
            })?;
        Ok(Self {
            matcher: glob.compile_matcher(),
            by_name: !pattern.contains('/'),
        })
    }

    /// Whether a path relative to the searched folder matches.
    pub(super) fn is_match(&self, rel: &std::path::Path) -> bool {
        if self.by_name {
            rel.file_name().is_some_and(|n| self.matcher.is_match(n))
        } else {
            self.matcher.is_match(rel)
        }
    }
}

/// An absolute pattern (`/mnt/user-data/workspace/src/**/*.rs`) becomes its literal leading
/// folders (resolved like any path, so `/etc/*` is refused as outside) and the rest.
pub(super) fn split_absolute(pattern: &str) -> Option<(String, String)> {
    if !pattern.starts_with('/') {
        return None;
    }
    let parts: Vec<&str> = pattern.split('/').collect();
    let first_glob = parts
        .iter()
        .position(|p| p.contains(['*', '?', '[', '{']))
        .unwrap_or(parts.len().saturating_sub(1));
    let base = parts[..first_glob].join("/");
    let rest = parts[first_glob..].join("/");
    Some((if base.is_empty() { "/".into() } else { base }, rest))
}

/// The folder searched and the pattern, from the arguments.
pub(super) fn base_and_pattern(
    vfs: &VirtualFs,
    path: Option<&str>,
    pattern: &str,
) -> Result<(VPath, String), FsError> {
    let (path, pattern) = match split_absolute(pattern) {
        Some((base, rest)) if path.is_none() => (base, rest),
        Some(_) => {
            return Err(FsError::Invalid(
                "`pattern` is absolute and `path` is set: give the folder in `path` and a \
                 relative pattern such as `**/*.rs`"
                    .into(),
            ))
        }
        None => (
            path.unwrap_or("/mnt/user-data/workspace").to_string(),
            pattern.to_string(),
        ),
    };
    Ok((vfs.resolve(&path)?, pattern))
}

fn find(
    vfs: &VirtualFs,
    path: Option<&str>,
    pattern: &str,
    cancel: &CancellationToken,
) -> Result<String, FsError> {
    let (base, pattern) = base_and_pattern(vfs, path, pattern)?;
    let glob = PathGlob::new(&pattern, "pattern")?;
    if !vfs.metadata(&base)?.is_dir() {
        return Err(FsError::Refused(format!(
            "`{}` is a file; `path` must be a folder to search in",
            base.virt
        )));
    }
    let mut hits = Vec::new();
    let mut total = 0usize;
    let opts = WalkOptions {
        gitignore: true,
        max_depth: SEARCH_DEPTH,
    };
    walk(vfs, &base, opts, cancel, &mut |e| {
        if e.kind == Kind::File && glob.is_match(e.rel) {
            total += 1;
            if hits.len() < MAX_GLOB_RESULTS {
                hits.push(vfs.child(&base, e.rel).virt);
            }
        }
        Flow::Continue
    })?;
    if total == 0 {
        return Ok(format!(
            "No files match `{pattern}` under {} (files named by .gitignore are skipped).",
            base.virt
        ));
    }
    let mut out = hits.join("\n");
    out.push('\n');
    if total > hits.len() {
        out.push_str(&format!(
            "... {} more ({total} files match; showing the first {}); narrow the pattern or the path\n",
            total - hits.len(),
            hits.len()
        ));
    } else {
        out.push_str(&format!("({total} file{})\n", plural(total)));
    }
    Ok(out)
}

#[async_trait::async_trait]
impl Tool for GlobTool {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }

    fn meta(&self) -> &ToolMeta {
        &self.meta
    }

    async fn call(&self, args: Value, ctx: &ToolContext) -> Result<ToolOutput, ToolError> {
        let a = Args::new(GLOB_NAME, &args, &["pattern", "path"])?;
        let pattern = a.string("pattern", "\"**/*.rs\"")?.to_string();
        if pattern.trim().is_empty() {
            return Err(ToolError::InvalidArguments(
                "`pattern` is empty: give a glob such as `**/*.rs`".into(),
            ));
        }
        let path = a.opt_string("path")?.map(str::to_string);
        let cancel = ctx.cancel.clone();
        run_blocking(&self.roots, move |vfs| {
            find(vfs, path.as_deref(), &pattern, &cancel)
        })
        .await
    }
}
