//! `git_diff`: the changes of a repository, staged (index against HEAD) or not (work tree
//! against the index), file by file, each file's patch capped, from `git diff --numstat -z` and
//! `git diff --patch`.

use serde_json::{json, Value};
use workbench_core::model::ToolSpec;
use workbench_core::tools::{Tool, ToolContext, ToolError, ToolMeta, ToolOutput};

use super::meta;
use super::run::Repo;
use super::status::to_tool_error;
use crate::fs::args::{kind, Args};
use crate::roots::ThreadRoots;

/// The name the model calls.
pub const GIT_DIFF_NAME: &str = "git_diff";
/// Characters of one file's patch shown: a few screens; a longer change is summarised by its
/// line counts and the model reads the file itself.
pub const MAX_PATCH_CHARS_PER_FILE: usize = 4_000;
/// Files whose patch is shown; the rest are listed with their counts only.
pub const MAX_FILES_WITH_PATCH: usize = 40;
/// Paths one call may name in `files`.
pub const MAX_FILES_ARG: usize = 100;

const DESCRIPTION: &str = "\
Show a git repository's changes file by file: `staged: false` (default) compares the work \
tree with the index (unstaged changes), `staged: true` compares the index with HEAD (what \
the next commit holds). `files` limits it to some paths (relative to the repository). Each \
file's patch is capped; untracked files are not included (git_status lists them). Read-only.";

/// One file of a diff, from `--numstat`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileStat {
    pub path: String,
    /// For a rename: the old path.
    pub from: Option<String>,
    /// `None` for a binary file.
    pub added: Option<u64>,
    pub deleted: Option<u64>,
}

/// Parses `git diff --numstat -z`: `added TAB deleted TAB path NUL`, or for a rename
/// `added TAB deleted TAB NUL old NUL new NUL`.
pub fn parse_numstat(out: &[u8]) -> Vec<FileStat> {
    let mut stats = Vec::new();
    let mut records = out.split(|&b| b == 0).map(String::from_utf8_lossy);
    while let Some(rec) = records.next() {
        let mut parts = rec.splitn(3, '\t');
        let (Some(a), Some(d), Some(path)) = (parts.next(), parts.next(), parts.next()) else {
            continue;
        };
        let (path, from) = if path.is_empty() {
            let old = records.next().map(|r| r.into_owned());
            let new = records.next().map(|r| r.into_owned()).unwrap_or_default();
            (new, old)
        } else {
            (path.to_string(), None)
        };
        stats.push(FileStat {
            path,
            from,
            added: a.parse().ok(),
            deleted: d.parse().ok(),
        });
    }
    stats
}

/// Splits a patch into one chunk per file (each starting at its `diff --git` line).
pub fn split_patch(patch: &str) -> Vec<&str> {
    let mut starts: Vec<usize> = Vec::new();
    let mut offset = 0;
    for line in patch.split_inclusive('\n') {
        if line.starts_with("diff --git ") {
            starts.push(offset);
        }
        offset += line.len();
    }
    starts
        .iter()
        .enumerate()
        .map(|(i, &s)| &patch[s..starts.get(i + 1).copied().unwrap_or(patch.len())])
        .collect()
}

/// A file's patch without its `diff --git` and `index` lines, cut at a line end to the cap.
pub fn capped_patch(chunk: &str, cap: usize) -> String {
    let mut out = String::new();
    let mut lines = chunk
        .split_inclusive('\n')
        .filter(|l| !l.starts_with("diff --git ") && !l.starts_with("index "));
    let mut shown = 0usize;
    let mut cut = 0usize;
    for line in lines.by_ref() {
        let n = line.chars().count();
        if shown + n > cap {
            cut = 1;
            break;
        }
        shown += n;
        out.push_str(line);
    }
    cut += lines.count();
    if cut > 0 {
        if !out.ends_with('\n') {
            out.push('\n');
        }
        out.push_str(&format!(
            "... {cut} more line{} of this file's patch not shown (read the file for the rest)\n",
            if cut == 1 { "" } else { "s" }
        ));
    }
    out
}

/// `git_diff` over a thread's roots.
pub struct GitDiffTool {
    roots: ThreadRoots,
    spec: ToolSpec,
    meta: ToolMeta,
}

impl GitDiffTool {
    /// `git_diff` over `roots`.
    pub fn new(roots: ThreadRoots) -> Self {
        Self {
            roots,
            spec: ToolSpec {
                name: GIT_DIFF_NAME.into(),
                description: DESCRIPTION.into(),
                parameters: json!({
                    "type": "object",
                    "properties": {
                        "path": {"type": "string", "description": "A folder inside the repository (default /mnt/user-data/workspace)."},
                        "staged": {"type": "boolean", "description": "true: staged changes (index vs HEAD); false (default): unstaged changes."},
                        "files": {"type": "array", "items": {"type": "string"}, "maxItems": MAX_FILES_ARG, "description": "Only these paths, relative to the repository."}
                    },
                    "additionalProperties": false
                }),
            },
            meta: meta(),
        }
    }
}

/// The `files` argument as repository-relative paths; absolute virtual paths inside the
/// repository are made relative.
fn files_arg(args: &Value, repo_virt: &str) -> Result<Vec<String>, ToolError> {
    let Some(v) = args.get("files").filter(|v| !v.is_null()) else {
        return Ok(Vec::new());
    };
    let Some(list) = v.as_array() else {
        return Err(ToolError::InvalidArguments(format!(
            "`files` must be an array of paths such as [\"src/main.rs\"], got {}",
            kind(v)
        )));
    };
    if list.len() > MAX_FILES_ARG {
        return Err(ToolError::InvalidArguments(format!(
            "`files` names {} paths; name at most {MAX_FILES_ARG}, or leave it out for all",
            list.len()
        )));
    }
    let prefix = format!("{repo_virt}/");
    list.iter()
        .map(|f| match f.as_str() {
            Some(s) if !s.trim().is_empty() => Ok(s.strip_prefix(&prefix).unwrap_or(s).to_string()),
            _ => Err(ToolError::InvalidArguments(format!(
                "every entry of `files` is a non-empty path string, got {f}"
            ))),
        })
        .collect()
}

fn counts(s: &FileStat) -> String {
    match (s.added, s.deleted) {
        (Some(a), Some(d)) => format!("+{a} -{d}"),
        _ => "binary".into(),
    }
}

#[async_trait::async_trait]
impl Tool for GitDiffTool {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }

    fn meta(&self) -> &ToolMeta {
        &self.meta
    }

    async fn call(&self, args: Value, ctx: &ToolContext) -> Result<ToolOutput, ToolError> {
        let a = Args::new(GIT_DIFF_NAME, &args, &["path", "staged", "files"])?;
        let path = a.opt_string("path")?;
        let staged = a.bool("staged", false)?;
        let repo = match Repo::find(&self.roots, path, &ctx.cancel).await {
            Ok(r) => r,
            Err(e) => {
                return to_tool_error(e, None).map(|mut o| {
                    o.content = crate::vpath::mask_host_paths(&o.content, &self.roots);
                    o
                })
            }
        };
        let files = files_arg(&args, &repo.virt)?;

        let mut common: Vec<&str> = vec!["diff"];
        if staged {
            common.push("--cached");
        }
        common.extend(["-M", "--no-color", "--no-ext-diff", "--no-textconv"]);
        let tail: Vec<&str> = std::iter::once("--")
            .chain(files.iter().map(String::as_str))
            .collect();
        let numstat_args: Vec<&str> = common
            .iter()
            .copied()
            .chain(["--numstat", "-z"])
            .chain(tail.iter().copied())
            .collect();
        let patch_args: Vec<&str> = common
            .iter()
            .copied()
            .chain(["--patch"])
            .chain(tail.iter().copied())
            .collect();
        let stats = match repo.git(&numstat_args, &ctx.cancel).await {
            Ok(out) => parse_numstat(&out.stdout),
            Err(e) => return to_tool_error(e, Some(&repo)),
        };
        let what = if staged {
            "Staged changes (index vs HEAD)"
        } else {
            "Unstaged changes (work tree vs index)"
        };
        if stats.is_empty() {
            let other = if staged { "false" } else { "true" };
            return Ok(ToolOutput::text(format!(
                "{what} in {}: none. (Try staged: {other}; untracked files are listed by \
                 git_status.)",
                repo.virt
            )));
        }
        let patch = match repo.git(&patch_args, &ctx.cancel).await {
            Ok(out) => out,
            Err(e) => return to_tool_error(e, Some(&repo)),
        };
        let patch_text = String::from_utf8_lossy(&patch.stdout);
        let chunks = split_patch(&patch_text);
        // Both commands walk the same diff queue, so chunk i is file i; if a git version ever
        // disagrees, the patches are still shown under their own headers.
        let paired = chunks.len() == stats.len();

        let (added, deleted) = stats.iter().fold((0, 0), |(a, d), s| {
            (a + s.added.unwrap_or(0), d + s.deleted.unwrap_or(0))
        });
        let mut out = format!(
            "{what} in {}: {} file{}, +{added} -{deleted}\n",
            repo.virt,
            stats.len(),
            if stats.len() == 1 { "" } else { "s" }
        );
        for (i, s) in stats.iter().enumerate() {
            let name = match &s.from {
                Some(from) => format!("{from} -> {}", s.path),
                None => s.path.clone(),
            };
            out.push_str(&format!("\n=== {name} ({})\n", counts(s)));
            if i >= MAX_FILES_WITH_PATCH {
                continue;
            }
            if paired {
                if let Some(chunk) = chunks.get(i) {
                    out.push_str(&capped_patch(chunk, MAX_PATCH_CHARS_PER_FILE));
                }
            }
        }
        if !paired {
            out.push_str("\n--- patches ---\n");
            for chunk in chunks.iter().take(MAX_FILES_WITH_PATCH) {
                out.push_str(&capped_patch(chunk, MAX_PATCH_CHARS_PER_FILE));
            }
        }
        if stats.len() > MAX_FILES_WITH_PATCH {
            out.push_str(&format!(
                "\nPatches are shown for the first {MAX_FILES_WITH_PATCH} files; name others \
                 in `files` to see theirs.\n"
            ));
        }
        if patch.truncated {
            out.push_str("\nThe diff was too large to read whole; name fewer `files`.\n");
        }
        Ok(ToolOutput::text(repo.mask(&out)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numstat_records_with_renames_and_binaries() {
        let raw = b"2\t1\ta.txt\0-\t-\timg.png\0\x30\t0\t\0old.txt\0new.txt\0";
        let s = parse_numstat(raw);
        assert_eq!(s.len(), 3);
        assert_eq!((s[0].added, s[0].deleted), (Some(2), Some(1)));
        assert_eq!(counts(&s[1]), "binary");
        assert_eq!(s[2].path, "new.txt");
        assert_eq!(s[2].from.as_deref(), Some("old.txt"));
    }

    #[test]
    fn a_patch_splits_per_file_and_each_is_capped() {
        let patch =
            "diff --git a/a b/a\nindex 1..2 100644\n--- a/a\n+++ b/a\n@@ -1 +1 @@\n-x\n+y\n\
diff --git a/b b/b\nindex 3..4 100644\n--- a/b\n+++ b/b\n@@ -1,3 +1,3 @@\n-1\n-2\n+3\n";
        let chunks = split_patch(patch);
        assert_eq!(chunks.len(), 2);
        assert!(chunks[1].starts_with("diff --git a/b"));
        let whole = capped_patch(chunks[0], 1000);
        assert_eq!(whole, "--- a/a\n+++ b/a\n@@ -1 +1 @@\n-x\n+y\n");
        let cut = capped_patch(chunks[1], 20);
        assert!(cut.starts_with("--- a/b\n+++ b/b\n"), "{cut}");
        assert!(cut.contains("4 more lines"), "{cut}");
    }
}
