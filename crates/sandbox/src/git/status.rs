//! `git_status`: the branch, how far it is ahead of and behind its upstream, and the staged,
//! unstaged, untracked and conflicted files as lists, from `git status --porcelain=v2 -z`.

use serde::Serialize;
use serde_json::json;
use workbench_core::model::ToolSpec;
use workbench_core::tools::{Tool, ToolContext, ToolError, ToolMeta, ToolOutput};

use super::meta;
use super::run::{GitError, Repo};
use crate::fs::args::Args;
use crate::roots::ThreadRoots;

/// The name the model calls.
pub const GIT_STATUS_NAME: &str = "git_status";
/// Files listed at most per list; the rest are counted.
pub const MAX_FILES_PER_LIST: usize = 200;

const DESCRIPTION: &str = "\
Show a git repository's state as JSON: branch, upstream, ahead/behind, and the staged, \
unstaged, untracked and conflicted files (each with its change: modified, added, deleted, \
renamed, ...). Read-only. `path` is a folder inside the repository (default \
/mnt/user-data/workspace). Use git_diff for the changes themselves.";

/// One changed file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FileChange {
    /// Relative to the repository's top.
    pub path: String,
    /// modified, added, deleted, renamed, copied, type_changed.
    pub change: &'static str,
    /// For a rename or copy: where it came from.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
}

/// The parsed status of a repository.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Status {
    /// The branch name, or `None` when HEAD is detached.
    pub branch: Option<String>,
    /// The commit HEAD points at; `None` before the first commit.
    pub commit: Option<String>,
    pub upstream: Option<String>,
    pub ahead: Option<u32>,
    pub behind: Option<u32>,
    pub staged: Vec<FileChange>,
    pub unstaged: Vec<FileChange>,
    pub untracked: Vec<String>,
    pub conflicted: Vec<String>,
}

fn change_name(c: u8) -> Option<&'static str> {
    Some(match c {
        b'M' => "modified",
        b'T' => "type_changed",
        b'A' => "added",
        b'D' => "deleted",
        b'R' => "renamed",
        b'C' => "copied",
        _ => return None,
    })
}

/// Parses `git status --porcelain=v2 -z --branch` output. Unknown lines are skipped, so a
/// newer git adding a record type does not break the tool.
pub fn parse_status(out: &[u8]) -> Status {
    let mut s = Status::default();
    let mut records = out.split(|&b| b == 0).map(String::from_utf8_lossy);
    while let Some(rec) = records.next() {
        if let Some(h) = rec.strip_prefix("# ") {
            let (key, value) = h.split_once(' ').unwrap_or((h, ""));
            match key {
                "branch.oid" if value != "(initial)" => s.commit = Some(value.to_string()),
                "branch.head" if value != "(detached)" => s.branch = Some(value.to_string()),
                "branch.upstream" => s.upstream = Some(value.to_string()),
                "branch.ab" => {
                    let mut parts = value.split(' ');
                    s.ahead = parts
                        .next()
                        .and_then(|a| a.trim_start_matches('+').parse().ok());
                    s.behind = parts
                        .next()
                        .and_then(|b| b.trim_start_matches('-').parse().ok());
                }
                _ => {}
            }
            continue;
        }
        let Some((kind, rest)) = rec.split_once(' ') else {
            continue;
        };
        match kind {
            // 1 XY sub mH mI mW hH hI path
            "1" => {
                let f: Vec<&str> = rest.splitn(8, ' ').collect();
                if let [xy, .., path] = f[..] {
                    push_changes(&mut s, xy, path, None);
                }
            }
            // 2 XY sub mH mI mW hH hI Xscore path NUL origPath
            "2" => {
                let f: Vec<&str> = rest.splitn(9, ' ').collect();
                let from = records.next().map(|r| r.into_owned());
                if let [xy, .., path] = f[..] {
                    push_changes(&mut s, xy, path, from);
                }
            }
            // u XY sub m1 m2 m3 mW h1 h2 h3 path
            "u" => {
                if let Some(path) = rest.splitn(10, ' ').nth(9) {
                    s.conflicted.push(path.to_string());
                }
            }
            "?" => s.untracked.push(rest.to_string()),
            _ => {}
        }
    }
    s
}

fn push_changes(s: &mut Status, xy: &str, path: &str, from: Option<String>) {
    let b = xy.as_bytes();
    let (x, y) = (b.first().copied(), b.get(1).copied());
    if let Some(change) = x.and_then(change_name) {
        let from = from.clone().filter(|_| matches!(x, Some(b'R' | b'C')));
        s.staged.push(FileChange {
            path: path.to_string(),
            change,
            from,
        });
    }
    if let Some(change) = y.and_then(change_name) {
        s.unstaged.push(FileChange {
            path: path.to_string(),
            change,
            from: None,
        });
    }
}

/// `git_status` over a thread's roots.
pub struct GitStatusTool {
    roots: ThreadRoots,
    spec: ToolSpec,
    meta: ToolMeta,
}

impl GitStatusTool {
    /// `git_status` over `roots`.
    pub fn new(roots: ThreadRoots) -> Self {
        Self {
            roots,
            spec: ToolSpec {
                name: GIT_STATUS_NAME.into(),
                description: DESCRIPTION.into(),
                parameters: json!({
                    "type": "object",
                    "properties": {
                        "path": {"type": "string", "description": "A folder inside the repository (default /mnt/user-data/workspace)."}
                    },
                    "additionalProperties": false
                }),
            },
            meta: meta(),
        }
    }
}

/// Cuts a list to [`MAX_FILES_PER_LIST`], returning how many were left out.
fn cap<T>(list: &mut Vec<T>) -> usize {
    let over = list.len().saturating_sub(MAX_FILES_PER_LIST);
    list.truncate(MAX_FILES_PER_LIST);
    over
}

pub(crate) fn to_tool_error(e: GitError, repo: Option<&Repo>) -> Result<ToolOutput, ToolError> {
    match e {
        GitError::Cancelled => Err(ToolError::Cancelled),
        other => {
            let text = other.to_string();
            Ok(ToolOutput::error(match repo {
                Some(r) => r.mask(&text),
                None => text,
            }))
        }
    }
}

#[async_trait::async_trait]
impl Tool for GitStatusTool {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }

    fn meta(&self) -> &ToolMeta {
        &self.meta
    }

    async fn call(
        &self,
        args: serde_json::Value,
        ctx: &ToolContext,
    ) -> Result<ToolOutput, ToolError> {
        let a = Args::new(GIT_STATUS_NAME, &args, &["path"])?;
        let path = a.opt_string("path")?;
        let repo = match Repo::find(&self.roots, path, &ctx.cancel).await {
            Ok(r) => r,
            Err(e) => return to_tool_error(e, None).map(|o| mask_roots(o, &self.roots)),
        };
        let out = match repo
            .git(
                &[
                    "status",
                    "--porcelain=v2",
                    "-z",
                    "--branch",
                    "--untracked-files=all",
                ],
                &ctx.cancel,
            )
            .await
        {
            Ok(out) => out,
            Err(e) => return to_tool_error(e, Some(&repo)),
        };
        let mut status = parse_status(&out.stdout);
        let more = json!({
            "staged": cap(&mut status.staged),
            "unstaged": cap(&mut status.unstaged),
            "untracked": cap(&mut status.untracked),
            "conflicted": cap(&mut status.conflicted),
        });
        let clean = status.staged.is_empty()
            && status.unstaged.is_empty()
            && status.untracked.is_empty()
            && status.conflicted.is_empty();
        let mut body = json!({
            "repository": repo.virt,
            "clean": clean,
            "status": status,
        });
        if more.as_object().is_some_and(|m| m.values().any(|v| v != 0)) || out.truncated {
            body["not_listed"] = more;
        }
        let text = serde_json::to_string_pretty(&body)
            .map_err(|e| ToolError::Failed(format!("could not format the status: {e}")))?;
        Ok(ToolOutput::text(repo.mask(&text)))
    }
}

fn mask_roots(mut out: ToolOutput, roots: &ThreadRoots) -> ToolOutput {
    out.content = crate::vpath::mask_host_paths(&out.content, roots);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn porcelain_v2_records_become_lists() {
        let raw = b"# branch.oid 1234abcd\0# branch.head main\0# branch.upstream origin/main\0# branch.ab +2 -1\0\
1 M. N... 100644 100644 100644 aaa bbb staged.txt\0\
1 .M N... 100644 100644 100644 aaa aaa has space.txt\0\
1 MM N... 100644 100644 100644 aaa bbb both.txt\0\
1 A. N... 000000 100644 100644 000 bbb new.txt\0\
2 R. N... 100644 100644 100644 aaa aaa R100 renamed.txt\0old name.txt\0\
u UU N... 100644 100644 100644 100644 a b c conflict.txt\0\
? untracked dir/file.txt\0";
        let s = parse_status(raw);
        assert_eq!(s.branch.as_deref(), Some("main"));
        assert_eq!(s.commit.as_deref(), Some("1234abcd"));
        assert_eq!(s.upstream.as_deref(), Some("origin/main"));
        assert_eq!((s.ahead, s.behind), (Some(2), Some(1)));
        let staged: Vec<(&str, &str)> = s
            .staged
            .iter()
            .map(|f| (f.path.as_str(), f.change))
            .collect();
        assert_eq!(
            staged,
            [
                ("staged.txt", "modified"),
                ("both.txt", "modified"),
                ("new.txt", "added"),
                ("renamed.txt", "renamed")
            ]
        );
        assert_eq!(s.staged[3].from.as_deref(), Some("old name.txt"));
        let unstaged: Vec<&str> = s.unstaged.iter().map(|f| f.path.as_str()).collect();
        assert_eq!(unstaged, ["has space.txt", "both.txt"]);
        assert_eq!(s.untracked, ["untracked dir/file.txt"]);
        assert_eq!(s.conflicted, ["conflict.txt"]);
    }

    #[test]
    fn a_fresh_repository_has_no_commit_and_a_detached_head_no_branch() {
        let s = parse_status(b"# branch.oid (initial)\0# branch.head main\0");
        assert_eq!((s.commit, s.branch.as_deref()), (None, Some("main")));
        let s = parse_status(b"# branch.oid abc\0# branch.head (detached)\0");
        assert_eq!(s.branch, None);
    }
}
