//! Host folders a user gives a thread or an agent ("open a folder"): as the workspace itself
//! or under `/mnt/user-data/mounts/<name>`, read-write or read-only.
//!
//! This module checks a list of mounts (names, folders, overlaps) and turns it into the
//! thread's [`ThreadRoots`]. Where mounts are stored and who may change them is the app's
//! business; what a mount allows is enforced by [`crate::vpath`] (file tools) and
//! [`crate::shell::confine`] (Landlock).

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::roots::{Mount, ThreadRoots};

/// Longest mount name, in characters.
pub const MAX_MOUNT_NAME_LEN: usize = 64;
/// Mounts one thread may have: enough for any real use, few enough to list in a prompt.
pub const MAX_MOUNTS: usize = 16;

/// One host folder given to a thread or an agent. Unknown keys are refused: a misspelt
/// `read_only` must not silently mount a folder read-write.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MountSpec {
    /// `None`: the folder *is* the workspace; `Some(name)`: it is seen at
    /// `/mnt/user-data/mounts/<name>` (1-64 of `a-z0-9-_`).
    #[serde(default)]
    pub name: Option<String>,
    /// The host folder (absolute).
    pub host: PathBuf,
    /// Never written by the file tools or the shell.
    #[serde(default)]
    pub read_only: bool,
}

impl MountSpec {
    /// The virtual path the model sees this mount at.
    pub fn virtual_path(&self) -> String {
        match &self.name {
            None => format!("{}/workspace", crate::VIRTUAL_ROOT),
            Some(n) => format!("{}/mounts/{n}", crate::VIRTUAL_ROOT),
        }
    }
}

/// Why a list of mounts cannot be used. Each message names the mount and what to change.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MountError {
    /// The name is not 1-64 of `a-z0-9-_`.
    #[error("the mount name `{name}` is not allowed: {why}")]
    BadName { name: String, why: String },
    /// Two mounts share a name, or two claim the workspace.
    #[error("two mounts are {0}; give each a different name")]
    Duplicate(String),
    /// Too many mounts.
    #[error("a thread may have at most {MAX_MOUNTS} mounts, {0} were given")]
    TooMany(usize),
    /// The host path is relative: it would depend on the app's working folder.
    #[error("`{0}` is not an absolute path; choose the folder with the folder picker")]
    NotAbsolute(PathBuf),
    /// The host folder is missing or not a folder.
    #[error("`{path}` cannot be mounted: {detail}")]
    NotAFolder { path: PathBuf, detail: String },
    /// A read-only mount inside a writable one could be written through the outer one, and
    /// Landlock cannot take write access away beneath a folder it grants.
    #[error("the read-only folder `{read_only}` lies inside `{writable}`, which is mounted read-write; mount the outer folder read-only too, or mount only folders that do not nest")]
    ReadOnlyInsideWritable {
        read_only: PathBuf,
        writable: PathBuf,
    },
    /// The mount would give the agent Workbench's own data (other threads, the database).
    #[error("`{path}` {why}; mount a folder outside Workbench's data folder {data}")]
    OverlapsData {
        path: PathBuf,
        why: &'static str,
        data: PathBuf,
    },
}

/// Checks a mount name: 1-64 of `a-z`, `0-9`, `-`, `_` (so it is one safe path component).
pub fn validate_mount_name(name: &str) -> Result<(), MountError> {
    let bad = |why: String| MountError::BadName {
        name: name.chars().take(MAX_MOUNT_NAME_LEN + 8).collect(),
        why,
    };
    if name.is_empty() {
        return Err(bad("it is empty".into()));
    }
    if name.chars().count() > MAX_MOUNT_NAME_LEN {
        return Err(bad(format!(
            "it is longer than {MAX_MOUNT_NAME_LEN} characters"
        )));
    }
    if let Some(c) = name
        .chars()
        .find(|c| !(c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '-' || *c == '_'))
    {
        return Err(bad(format!("it contains {c:?}; use a-z, 0-9, `-` and `_`")));
    }
    Ok(())
}

/// Checks mounts against the disk and each other and returns them with canonical host paths
/// (symlinks resolved, so what Landlock allows is what the tools open). `data_dir` is
/// Workbench's data folder: no mount may lie inside it, and no read-write mount may contain it.
pub fn check_mounts(specs: &[MountSpec], data_dir: &Path) -> Result<Vec<MountSpec>, MountError> {
    if specs.len() > MAX_MOUNTS {
        return Err(MountError::TooMany(specs.len()));
    }
    let data = data_dir
        .canonicalize()
        .unwrap_or_else(|_| data_dir.to_path_buf());
    let mut out: Vec<MountSpec> = Vec::with_capacity(specs.len());
    for spec in specs {
        if let Some(name) = &spec.name {
            validate_mount_name(name)?;
        }
        if out.iter().any(|o| o.name == spec.name) {
            return Err(MountError::Duplicate(match &spec.name {
                None => "both the workspace".into(),
                Some(n) => format!("named `{n}`"),
            }));
        }
        if !spec.host.is_absolute() {
            return Err(MountError::NotAbsolute(spec.host.clone()));
        }
        let host = spec
            .host
            .canonicalize()
            .map_err(|e| MountError::NotAFolder {
                path: spec.host.clone(),
                detail: match e.kind() {
                    std::io::ErrorKind::NotFound => "it does not exist".into(),
                    _ => e.to_string(),
                },
            })?;
        if !host.is_dir() {
            return Err(MountError::NotAFolder {
                path: spec.host.clone(),
                detail: "it is not a folder".into(),
            });
        }
        if host.starts_with(&data) {
            return Err(MountError::OverlapsData {
                path: spec.host.clone(),
                why: "lies inside Workbench's data folder",
                data,
            });
        }
        if !spec.read_only && data.starts_with(&host) {
            return Err(MountError::OverlapsData {
                path: spec.host.clone(),
                why: "contains Workbench's data folder and cannot be mounted read-write",
                data,
            });
        }
        out.push(MountSpec {
            name: spec.name.clone(),
            host,
            read_only: spec.read_only,
        });
    }
    for ro in out.iter().filter(|m| m.read_only) {
        if let Some(rw) = out
            .iter()
            .find(|w| !w.read_only && ro.host.starts_with(&w.host))
        {
            return Err(MountError::ReadOnlyInsideWritable {
                read_only: ro.host.clone(),
                writable: rw.host.clone(),
            });
        }
    }
    Ok(out)
}

/// Mounts from two sources merged: `first` wins where both mount the workspace or use the
/// same name (a thread's own mounts over its agent's).
pub fn merge_mounts(first: &[MountSpec], second: &[MountSpec]) -> Vec<MountSpec> {
    let mut out = first.to_vec();
    for m in second {
        if !out.iter().any(|o| o.name == m.name) {
            out.push(m.clone());
        }
    }
    out
}

impl ThreadRoots {
    /// The roots of a thread whose own folder is `thread_dir`, with `mounts` (already
    /// checked by [`check_mounts`]) in place: a mount without a name replaces the workspace.
    pub fn with_mounts(thread_dir: &Path, mounts: &[MountSpec]) -> Self {
        let mut roots = Self::under(thread_dir);
        for m in mounts {
            match &m.name {
                None => {
                    roots.workspace = m.host.clone();
                    roots.workspace_mounted = true;
                    roots.workspace_read_only = m.read_only;
                }
                Some(name) => roots.mounts.push(Mount {
                    name: name.clone(),
                    host: m.host.clone(),
                    read_only: m.read_only,
                }),
            }
        }
        roots
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(name: Option<&str>, host: &Path, read_only: bool) -> MountSpec {
        MountSpec {
            name: name.map(str::to_string),
            host: host.to_path_buf(),
            read_only,
        }
    }

    #[test]
    fn names_are_one_safe_component() {
        for ok in ["a", "project", "my-docs_2", &"x".repeat(64)] {
            assert_eq!(validate_mount_name(ok), Ok(()), "{ok}");
        }
        for bad in ["", "..", "a/b", "A", "with space", "é", &"x".repeat(65)] {
            assert!(validate_mount_name(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn checks_folders_and_canonicalises_them() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let data = tmp.path().join("data");
        let proj = tmp.path().join("proj");
        std::fs::create_dir_all(&data).expect("mkdir");
        std::fs::create_dir_all(proj.join("docs")).expect("mkdir");
        std::fs::write(tmp.path().join("file"), "x").expect("write");
        std::os::unix::fs::symlink(&proj, tmp.path().join("link")).expect("symlink");

        let ok = check_mounts(&[spec(Some("p"), &tmp.path().join("link"), false)], &data)
            .expect("valid");
        assert_eq!(ok[0].host, proj.canonicalize().expect("canonical"));

        let cases: Vec<(Vec<MountSpec>, &str)> = vec![
            (
                vec![spec(Some("p"), Path::new("rel/dir"), false)],
                "not an absolute path",
            ),
            (
                vec![spec(Some("p"), &tmp.path().join("nope"), false)],
                "does not exist",
            ),
            (
                vec![spec(Some("p"), &tmp.path().join("file"), false)],
                "is not a folder",
            ),
            (vec![spec(Some("P"), &proj, false)], "is not allowed"),
            (
                vec![spec(Some("a"), &proj, false), spec(Some("a"), &proj, true)],
                "named `a`",
            ),
            (
                vec![spec(None, &proj, false), spec(None, &proj, true)],
                "both the workspace",
            ),
            (
                vec![
                    spec(None, &proj, false),
                    spec(Some("d"), &proj.join("docs"), true),
                ],
                "lies inside",
            ),
            (
                vec![spec(Some("d"), &data.join("."), true)],
                "inside Workbench's data folder",
            ),
            (
                vec![spec(Some("t"), tmp.path(), false)],
                "cannot be mounted read-write",
            ),
        ];
        for (specs, want) in cases {
            let e = check_mounts(&specs, &data).expect_err(want).to_string();
            assert!(e.contains(want), "{want}: {e}");
        }
        // Read-only over the data folder is allowed: the tools and the shell cannot write it.
        check_mounts(&[spec(Some("t"), tmp.path(), true)], &data).expect("ro parent");
    }

    #[test]
    fn a_nameless_mount_becomes_the_workspace() {
        let roots = ThreadRoots::with_mounts(
            Path::new("/data/threads/t"),
            &[
                spec(None, Path::new("/home/me/proj"), true),
                spec(Some("docs"), Path::new("/home/me/docs"), false),
            ],
        );
        assert_eq!(roots.workspace, Path::new("/home/me/proj"));
        assert!(roots.workspace_mounted && roots.workspace_read_only);
        assert_eq!(roots.uploads, Path::new("/data/threads/t/uploads"));
        let all = roots.all();
        assert!(!all[0].2, "read-only workspace");
        assert_eq!(all[3].0, "/mnt/user-data/mounts/docs");
        assert!(all[3].2);
    }

    #[test]
    fn the_thread_wins_over_the_agent() {
        let thread = [spec(None, Path::new("/a"), false)];
        let agent = [
            spec(None, Path::new("/b"), true),
            spec(Some("ref"), Path::new("/c"), true),
        ];
        let merged = merge_mounts(&thread, &agent);
        assert_eq!(merged.len(), 2);
        assert_eq!(merged[0].host, Path::new("/a"));
        assert_eq!(merged[1].name.as_deref(), Some("ref"));
    }
}
