//! A thread's folders on the host and the virtual paths the model sees for them.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// Where the model sees the thread's folders.
pub const VIRTUAL_ROOT: &str = "/mnt/user-data";

/// An extra host folder given to a thread, seen at `/mnt/user-data/mounts/<name>`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Mount {
    /// The name under `mounts/`; 1-64 of `a-z0-9-_`.
    pub name: String,
    pub host: PathBuf,
    pub read_only: bool,
}

/// The host folders of one thread. `uploads` and `outputs` are always writable by the thread;
/// the workspace is too unless it is a host folder mounted read-only; mounts say for
/// themselves.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ThreadRoots {
    pub workspace: PathBuf,
    pub uploads: PathBuf,
    pub outputs: PathBuf,
    pub mounts: Vec<Mount>,
    /// The workspace is a host folder the user chose, not the thread's own: `create` never
    /// makes it (a missing folder is the user's to fix, not to recreate empty).
    #[serde(default)]
    pub workspace_mounted: bool,
    /// The workspace may be read but never written (by the file tools or the shell).
    #[serde(default)]
    pub workspace_read_only: bool,
}

impl ThreadRoots {
    /// The standard layout under a thread's folder: `workspace/`, `uploads/`, `outputs/`.
    pub fn under(thread_dir: &Path) -> Self {
        Self {
            workspace: thread_dir.join("workspace"),
            uploads: thread_dir.join("uploads"),
            outputs: thread_dir.join("outputs"),
            mounts: Vec::new(),
            workspace_mounted: false,
            workspace_read_only: false,
        }
    }

    /// Creates the thread's own folders (the workspace only when it is not a mounted folder).
    pub fn create(&self) -> std::io::Result<()> {
        if !self.workspace_mounted {
            std::fs::create_dir_all(&self.workspace)?;
        }
        for dir in [&self.uploads, &self.outputs] {
            std::fs::create_dir_all(dir)?;
        }
        Ok(())
    }

    /// Every root with its virtual path and whether it is writable, standard folders first.
    pub fn all(&self) -> Vec<(String, &Path, bool)> {
        let mut roots = vec![
            (
                format!("{VIRTUAL_ROOT}/workspace"),
                self.workspace.as_path(),
                !self.workspace_read_only,
            ),
            (
                format!("{VIRTUAL_ROOT}/uploads"),
                self.uploads.as_path(),
                true,
            ),
            (
                format!("{VIRTUAL_ROOT}/outputs"),
                self.outputs.as_path(),
                true,
            ),
        ];
        for m in &self.mounts {
            roots.push((
                format!("{VIRTUAL_ROOT}/mounts/{}", m.name),
                m.host.as_path(),
                !m.read_only,
            ));
        }
        roots
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_roots_come_first_and_mounts_keep_their_mode() {
        let mut roots = ThreadRoots::under(Path::new("/data/threads/t1"));
        roots.mounts.push(Mount {
            name: "project".into(),
            host: "/home/me/project".into(),
            read_only: true,
        });
        let all = roots.all();
        assert_eq!(all[0].0, "/mnt/user-data/workspace");
        assert_eq!(all[0].1, Path::new("/data/threads/t1/workspace"));
        assert_eq!(all[3].0, "/mnt/user-data/mounts/project");
        assert!(!all[3].2);
    }
}
