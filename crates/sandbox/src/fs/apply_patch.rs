//! `apply_patch`: add, delete, update and move files with one patch in the `*** Begin Patch`
//! format ([`super::patch_parse`]), all or nothing.
//!
//! Two phases. *Plan* resolves every path through the [`VirtualFs`], reads every file the
//! patch touches and applies the hunks in memory ([`super::patch_match`]); any problem (a path
//! outside the roots, a read-only mount, a hunk that does not match, a file that already
//! exists) stops the patch before anything is written, and every problem found is reported at
//! once. *Commit* then writes through the same capabilities; if a write still fails (the disk
//! changed in between), the changes already made are undone from the bytes read in the plan.

use std::collections::HashSet;

use serde_json::{json, Value};
use workbench_core::model::ToolSpec;
use workbench_core::tools::{Tool, ToolContext, ToolError, ToolMeta, ToolOutput};

use super::args::Args;
use super::patch_match::apply_hunks;
use super::patch_parse::{parse_patch, FileOp};
use super::{human_size, meta, plural, run_blocking, FsError, FILE_GROUP};
use crate::roots::ThreadRoots;
use crate::vpath::{VPath, VirtualFs, VpathError, WriteMode};

/// The name the model calls.
pub const APPLY_PATCH_NAME: &str = "apply_patch";
/// Largest patch text, and largest file a patch reads or writes: the same bound as
/// `write_file` and `str_replace`, for the same reason (the model generates it token by token).
pub const MAX_PATCH_BYTES: usize = 10 << 20;
/// Problems listed in one error at most; the rest are counted.
const PROBLEMS_LISTED: usize = 10;

const DESCRIPTION: &str = "\
Add, delete, update and move files with one patch, applied all or nothing. Format:\n\
*** Begin Patch\n\
*** Add File: <path>\n\
+<each line of the new file, prefixed with +>\n\
*** Delete File: <path>\n\
*** Update File: <path>\n\
*** Move to: <new path>   (optional)\n\
@@ <a line to find first, such as a function header; optional>\n \
<context line, prefixed with one space>\n\
-<removed line>\n\
+<added line>\n\
*** End of File   (optional: the hunk ends at the end of the file)\n\
*** End Patch\n\
Give about 3 lines of context around each change; hunks apply in file order. Paths start \
with /mnt/user-data/...; relative paths are taken from the workspace. If any part does not \
fit, nothing is changed and the error says which file and hunk.";

/// The `apply_patch` tool over a thread's roots.
pub struct ApplyPatchTool {
    roots: ThreadRoots,
    spec: ToolSpec,
    meta: ToolMeta,
}

impl ApplyPatchTool {
    /// `apply_patch` over `roots`.
    pub fn new(roots: ThreadRoots) -> Self {
        let spec = ToolSpec {
            name: APPLY_PATCH_NAME.into(),
            description: DESCRIPTION.into(),
            parameters: json!({
                "type": "object",
                "properties": {
                    "patch": {"type": "string", "description": "The whole patch, from `*** Begin Patch` to `*** End Patch`."}
                },
                "required": ["patch"],
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

/// One write or removal the patch will make, with what it takes to undo it.
#[derive(Debug)]
enum Change {
    /// Write `content` at `vp`; `original` is the previous content (`None`: created).
    Write {
        vp: VPath,
        content: Vec<u8>,
        original: Option<Vec<u8>>,
    },
    /// Remove `vp`, whose content was `original`.
    Remove { vp: VPath, original: Vec<u8> },
}

/// A patch checked against the files: the changes in order and one summary line per file.
#[derive(Debug)]
struct Plan {
    changes: Vec<Change>,
    summary: Vec<String>,
}

/// Parses and applies `patch` in full, or changes nothing.
fn apply(vfs: &VirtualFs, patch: &str) -> Result<String, FsError> {
    let ops = parse_patch(patch).map_err(|e| FsError::Invalid(e.to_string()))?;
    let plan = plan(vfs, &ops)?;
    commit(vfs, &plan)?;
    let files = plan.summary.len();
    Ok(format!(
        "Applied the patch: {files} file{} changed.\n{}",
        plural(files),
        plan.summary.join("\n")
    ))
}

/// Checks every operation against the files and computes every new content; writes nothing.
fn plan(vfs: &VirtualFs, ops: &[FileOp]) -> Result<Plan, FsError> {
    let mut problems: Vec<String> = Vec::new();
    let mut changes = Vec::new();
    let mut summary = Vec::new();
    let mut seen: HashSet<String> = HashSet::new();
    for op in ops {
        let res = plan_op(vfs, op, &mut seen);
        match res {
            Ok((mut c, line)) => {
                changes.append(&mut c);
                summary.push(line);
            }
            Err(p) => problems.push(p),
        }
    }
    if problems.is_empty() {
        return Ok(Plan { changes, summary });
    }
    let n = problems.len();
    let mut msg = format!(
        "The patch was not applied (no file was changed): {n} problem{}.",
        plural(n)
    );
    for p in problems.iter().take(PROBLEMS_LISTED) {
        msg.push_str("\n- ");
        msg.push_str(p);
    }
    if n > PROBLEMS_LISTED {
        msg.push_str(&format!("\n- ... and {} more", n - PROBLEMS_LISTED));
    }
    Err(FsError::Refused(msg))
}

/// The changes of one file operation and its summary line, or the problem as a sentence.
fn plan_op(
    vfs: &VirtualFs,
    op: &FileOp,
    seen: &mut HashSet<String>,
) -> Result<(Vec<Change>, String), String> {
    let vp = target(vfs, op.path(), seen)?;
    match op {
        FileOp::Add { lines, .. } => {
            must_not_exist(vfs, &vp)?;
            let mut content = lines.join("\n");
            if !lines.is_empty() {
                content.push('\n');
            }
            if content.len() > MAX_PATCH_BYTES {
                return Err(format!(
                    "`{}`: the new file would be larger than 10 MB",
                    vp.virt
                ));
            }
            let summary = format!(
                "A {} ({} line{})",
                vp.virt,
                lines.len(),
                plural(lines.len())
            );
            Ok((
                vec![Change::Write {
                    vp,
                    content: content.into_bytes(),
                    original: None,
                }],
                summary,
            ))
        }
        FileOp::Delete { .. } => {
            let original = read_capped(vfs, &vp)?;
            let summary = format!("D {} ({})", vp.virt, human_size(original.len() as u64));
            Ok((vec![Change::Remove { vp, original }], summary))
        }
        FileOp::Update { move_to, hunks, .. } => {
            let original = read_capped(vfs, &vp)?;
            let Ok(text) = std::str::from_utf8(&original) else {
                return Err(format!(
                    "`{}` is not UTF-8 text; apply_patch edits text files only",
                    vp.virt
                ));
            };
            let updated = apply_hunks(text, hunks).map_err(|e| format!("`{}`, {e}", vp.virt))?;
            if updated.len() > MAX_PATCH_BYTES {
                return Err(format!(
                    "`{}`: the result would be larger than 10 MB",
                    vp.virt
                ));
            }
            let hunk_note = format!("{} hunk{}", hunks.len(), plural(hunks.len()));
            match move_to {
                None => {
                    let summary = format!("M {} ({hunk_note})", vp.virt);
                    Ok((
                        vec![Change::Write {
                            vp,
                            content: updated.into_bytes(),
                            original: Some(original),
                        }],
                        summary,
                    ))
                }
                Some(dest) => {
                    let dest = target(vfs, dest, seen)?;
                    must_not_exist(vfs, &dest)?;
                    let summary = format!("R {} -> {} ({hunk_note})", vp.virt, dest.virt);
                    Ok((
                        vec![
                            Change::Write {
                                vp: dest,
                                content: updated.into_bytes(),
                                original: None,
                            },
                            Change::Remove { vp, original },
                        ],
                        summary,
                    ))
                }
            }
        }
    }
}

/// Resolves a path the patch writes, refusing read-only roots and a second mention.
fn target(vfs: &VirtualFs, path: &str, seen: &mut HashSet<String>) -> Result<VPath, String> {
    let vp = vfs.resolve(path).map_err(|e| e.to_string())?;
    if vp.rel.as_os_str().is_empty() {
        return Err(format!(
            "`{}` is a folder of the sandbox, not a file",
            vp.virt
        ));
    }
    if !vfs.writable(&vp) {
        return Err(VpathError::ReadOnly {
            path: vp.virt.clone(),
            root: vfs.root_virt(vp.root).into(),
        }
        .to_string());
    }
    if !seen.insert(vp.virt.clone()) {
        return Err(format!(
            "`{}` appears more than once in the patch; put every change to one file in one \
             `*** Update File` section",
            vp.virt
        ));
    }
    Ok(vp)
}

/// Refuses a path that names anything (a file, a folder, a link), or that cannot be checked.
fn must_not_exist(vfs: &VirtualFs, vp: &VPath) -> Result<(), String> {
    match vfs.metadata(vp) {
        Ok(_) => Err(format!(
            "`{}` already exists; use `*** Update File:` to change it, or delete it first",
            vp.virt
        )),
        Err(VpathError::NotFound { .. }) => Ok(()),
        Err(e) => Err(e.to_string()),
    }
}

/// A file's bytes, refusing files too large to keep in memory for the undo.
fn read_capped(vfs: &VirtualFs, vp: &VPath) -> Result<Vec<u8>, String> {
    let (bytes, size) = vfs
        .read(vp, MAX_PATCH_BYTES as u64 + 1)
        .map_err(|e| e.to_string())?;
    if size > MAX_PATCH_BYTES as u64 {
        return Err(format!(
            "`{}` is larger than 10 MB; change it with the shell instead",
            vp.virt
        ));
    }
    Ok(bytes)
}

/// Makes the planned changes in order; on a failure, undoes the ones made and reports both.
fn commit(vfs: &VirtualFs, plan: &Plan) -> Result<(), FsError> {
    for (done, change) in plan.changes.iter().enumerate() {
        let res = match change {
            Change::Write { vp, content, .. } => {
                vfs.write(vp, content, WriteMode::Replace).map(|_| ())
            }
            Change::Remove { vp, .. } => vfs.remove_file(vp),
        };
        let Err(e) = res else { continue };
        let not_undone: Vec<String> = plan.changes[..done]
            .iter()
            .rev()
            .filter_map(|c| undo(vfs, c).err())
            .collect();
        let outcome = if not_undone.is_empty() {
            "the changes made before it were undone, so no file was changed".to_string()
        } else {
            format!(
                "undoing the earlier changes failed too ({}); check those files",
                not_undone.join("; ")
            )
        };
        return Err(FsError::Refused(format!(
            "The patch could not be applied: {e}; {outcome}."
        )));
    }
    Ok(())
}

/// Reverts one change from the bytes read in the plan.
fn undo(vfs: &VirtualFs, change: &Change) -> Result<(), String> {
    let res = match change {
        Change::Write {
            vp, original: None, ..
        } => vfs.remove_file(vp),
        Change::Write {
            vp,
            original: Some(original),
            ..
        }
        | Change::Remove { vp, original } => {
            vfs.write(vp, original, WriteMode::Replace).map(|_| ())
        }
    };
    res.map_err(|e| e.to_string())
}

#[async_trait::async_trait]
impl Tool for ApplyPatchTool {
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
        let a = Args::new(APPLY_PATCH_NAME, &args, &["patch"])?;
        let patch = a.string(
            "patch",
            "\"*** Begin Patch\\n*** Add File: notes.md\\n+# Notes\\n*** End Patch\"",
        )?;
        if patch.len() > MAX_PATCH_BYTES {
            return Err(ToolError::InvalidArguments(format!(
                "`patch` is {}, more than the {} one call may carry; split it into several \
                 patches",
                human_size(patch.len() as u64),
                human_size(MAX_PATCH_BYTES as u64)
            )));
        }
        let patch = patch.to_string();
        run_blocking(&self.roots, move |vfs| apply(vfs, &patch)).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn setup() -> (tempfile::TempDir, ThreadRoots) {
        let tmp = tempfile::tempdir().expect("tempdir");
        let roots = ThreadRoots::under(tmp.path());
        roots.create().expect("create");
        (tmp, roots)
    }

    #[test]
    fn a_write_that_fails_after_planning_undoes_the_earlier_changes() {
        let (_t, roots) = setup();
        let ws = roots.workspace.clone();
        std::fs::write(ws.join("a.txt"), "old\n").expect("write");
        std::fs::write(ws.join("gone.txt"), "bye\n").expect("write");
        let vfs = VirtualFs::open(&roots);
        let patch = "*** Begin Patch\n*** Update File: a.txt\n-old\n+new\n\
                     *** Delete File: gone.txt\n*** Add File: b.txt\n+b\n*** End Patch";
        let ops = parse_patch(patch).expect("parses");
        let plan = plan(&vfs, &ops).expect("plans");
        // The disk changes between plan and commit: b.txt becomes a folder.
        std::fs::create_dir(ws.join("b.txt")).expect("mkdir");
        let err = commit(&vfs, &plan).expect_err("commit fails").to_string();
        assert!(err.contains("were undone"), "{err}");
        assert_eq!(
            std::fs::read_to_string(ws.join("a.txt")).expect("a"),
            "old\n"
        );
        assert_eq!(
            std::fs::read_to_string(ws.join("gone.txt")).expect("g"),
            "bye\n"
        );
        assert!(ws.join("b.txt").is_dir());
    }
}
