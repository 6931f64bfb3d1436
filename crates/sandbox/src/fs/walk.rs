//! A directory walk that never leaves its root: every directory is opened from its parent's
//! handle by a single name, and symlinks are reported, never followed. `.gitignore` and
//! `.ignore` files (read through the same handles) hide what they name, as in ripgrep.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use cap_std::fs::Dir;
use ignore::gitignore::{Gitignore, GitignoreBuilder};
use tokio_util::sync::CancellationToken;

use super::FsError;
use crate::vpath::{VPath, VirtualFs};

/// The deepest a walk goes: a guard against directory loops made by racing renames.
const MAX_WALK_DEPTH: usize = 64;
/// Ignore files larger than this are skipped: a real one is a few KB.
const MAX_IGNORE_FILE_BYTES: u64 = 1 << 20;
/// The ignore files read in each directory, lowest precedence first.
const IGNORE_FILES: [&str; 2] = [".gitignore", ".ignore"];

/// What a walk entry is, without following symlinks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    File,
    Dir,
    Symlink,
    Other,
}

/// One entry found by the walk.
pub(crate) struct Entry<'a> {
    /// Relative to the walk's start, `/`-separated.
    pub rel: &'a Path,
    /// The directory holding the entry, to open it by name.
    pub parent: &'a Arc<Dir>,
    pub name: &'a OsString,
    pub kind: Kind,
    /// 1 for the start's direct children.
    pub depth: usize,
}

/// What the visitor wants next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Flow {
    Continue,
    Stop,
}

/// How to walk.
#[derive(Debug, Clone, Copy)]
pub(crate) struct WalkOptions {
    /// Hide what `.gitignore`/`.ignore` name (and `.git` itself).
    pub gitignore: bool,
    /// Entries deeper than this are not visited.
    pub max_depth: usize,
}

/// One ignore file's rules and the directory (relative to the root) they apply under.
struct Frame {
    base: PathBuf,
    rules: Gitignore,
}

/// Walks `start` (a directory) depth-first in name order, calling `visit` for each entry.
pub(crate) fn walk(
    vfs: &VirtualFs,
    start: &VPath,
    opts: WalkOptions,
    cancel: &CancellationToken,
    visit: &mut dyn FnMut(&Entry) -> Flow,
) -> Result<(), FsError> {
    let dir = Arc::new(vfs.open_dir(start)?);
    let mut frames = Vec::new();
    if opts.gitignore {
        // Rules from the folders above the start still apply below it.
        let root = vfs.root_dir(start.root)?;
        let mut base = PathBuf::new();
        for comp in start.rel.components() {
            if let Some(f) = load_rules(root, &base) {
                frames.push(f);
            }
            base.push(comp);
        }
    }
    let mut w = Walker {
        opts,
        cancel,
        visit,
        frames,
    };
    w.dir(&dir, &start.rel, Path::new(""), 0)?;
    Ok(())
}

struct Walker<'v, 'c> {
    opts: WalkOptions,
    cancel: &'c CancellationToken,
    visit: &'v mut dyn FnMut(&Entry) -> Flow,
    frames: Vec<Frame>,
}

impl Walker<'_, '_> {
    /// Visits one directory's entries; returns false when the visitor stopped the walk.
    fn dir(
        &mut self,
        dir: &Arc<Dir>,
        from_root: &Path,
        from_start: &Path,
        depth: usize,
    ) -> Result<bool, FsError> {
        if self.cancel.is_cancelled() {
            return Err(FsError::Cancelled);
        }
        let pushed = if self.opts.gitignore {
            match load_rules(dir, Path::new("")) {
                Some(mut f) => {
                    f.base = from_root.to_path_buf();
                    self.frames.push(f);
                    true
                }
                None => false,
            }
        } else {
            false
        };
        let result = self.entries(dir, from_root, from_start, depth);
        if pushed {
            self.frames.pop();
        }
        result
    }

    fn entries(
        &mut self,
        dir: &Arc<Dir>,
        from_root: &Path,
        from_start: &Path,
        depth: usize,
    ) -> Result<bool, FsError> {
        // An unreadable directory is skipped, as ripgrep does: one bad folder must not hide
        // every other result.
        let Ok(read) = dir.entries() else {
            return Ok(true);
        };
        let mut items: Vec<(OsString, Kind)> = read
            .filter_map(Result::ok)
            .map(|e| {
                let kind = match e.file_type() {
                    Ok(t) if t.is_symlink() => Kind::Symlink,
                    Ok(t) if t.is_dir() => Kind::Dir,
                    Ok(t) if t.is_file() => Kind::File,
                    _ => Kind::Other,
                };
                (e.file_name(), kind)
            })
            .collect();
        items.sort_by(|a, b| a.0.cmp(&b.0));
        for (name, kind) in items {
            if self.opts.gitignore {
                if name == ".git" {
                    continue;
                }
                if self.ignored(&from_root.join(&name), kind == Kind::Dir) {
                    continue;
                }
            }
            let rel = from_start.join(&name);
            let entry = Entry {
                rel: &rel,
                parent: dir,
                name: &name,
                kind,
                depth: depth + 1,
            };
            let flow = (self.visit)(&entry);
            match flow {
                Flow::Stop => return Ok(false),
                Flow::Continue => {}
            }
            let descend = kind == Kind::Dir
                && depth + 1 < self.opts.max_depth.min(MAX_WALK_DEPTH)
                && name != ".git";
            if descend {
                // Opened by one name from the parent's handle: if the entry was swapped for a
                // symlink since it was listed, cap-std refuses to leave the parent.
                let Ok(sub) = dir.open_dir(&name) else {
                    continue;
                };
                if !self.dir(&Arc::new(sub), &from_root.join(&name), &rel, depth + 1)? {
                    return Ok(false);
                }
            }
        }
        Ok(true)
    }

    /// Deepest rules decide first; a `!pattern` whitelist stops the search upward.
    fn ignored(&self, from_root: &Path, is_dir: bool) -> bool {
        for f in self.frames.iter().rev() {
            let Ok(p) = from_root.strip_prefix(&f.base) else {
                continue;
            };
            let m = f.rules.matched(p, is_dir);
            if m.is_ignore() {
                return true;
            }
            if m.is_whitelist() {
                return false;
            }
        }
        false
    }
}

/// Reads the ignore files of `dir/sub` through the handle; `None` when there are none.
fn load_rules(dir: &Dir, sub: &Path) -> Option<Frame> {
    let mut builder = GitignoreBuilder::new(".");
    let mut any = false;
    for name in IGNORE_FILES {
        let path = sub.join(name);
        let small = dir
            .metadata(&path)
            .is_ok_and(|m| m.is_file() && m.len() <= MAX_IGNORE_FILE_BYTES);
        if !small {
            continue;
        }
        let Ok(text) = dir.read_to_string(&path) else {
            continue;
        };
        for line in text.lines() {
            // A malformed line is skipped, as git does.
            let _ = builder.add_line(None, line);
            any = true;
        }
    }
    if !any {
        return None;
    }
    builder.build().ok().map(|rules| Frame {
        base: sub.to_path_buf(),
        rules,
    })
}
