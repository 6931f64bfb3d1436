//! A thread's folders: the host folders mounted into it ("open a folder"), saved per thread,
//! merged with its agent's, checked against the disk, and turned into the sandbox's roots;
//! and files the user uploads into the thread.
//!
//! Not here: what a mount allows (the sandbox enforces read-only in its file tools and in
//! Landlock) or how the UI picks folders.

use std::fs::File;
use std::io::{self, Read as _};
use std::path::{Path, PathBuf};

use serde::Serialize;
use workbench_core::thread::ThreadStore as _;
use workbench_sandbox::{check_mounts, merge_mounts, MountSpec, ThreadRoots, VIRTUAL_ROOT};
use workbench_store::ThreadMount;

use crate::agents::load_agents;
use crate::{App, AppError};

/// Largest file one upload may copy: the model reads files through capped tools anyway, and
/// copying gigabytes into the data folder by a stray drop is worse than a clear refusal.
pub const MAX_UPLOAD_BYTES: u64 = 512 << 20;
/// Files one upload call may copy.
pub const MAX_UPLOAD_FILES: usize = 100;
/// Suffixes tried for a name already taken (`report (1).pdf` ... `report (999).pdf`).
const MAX_NAME_SUFFIX: usize = 999;

/// One of a thread's folders as the host sees it, for `workbench thread path` and the UI.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ThreadFolder {
    /// What the model calls it: `/mnt/user-data/workspace`, `.../mounts/docs`, ...
    pub virtual_path: String,
    /// Where it is on the host.
    pub host: PathBuf,
    /// The agent may write it.
    pub writable: bool,
    /// A folder the user mounted (not one of the thread's own).
    pub mounted: bool,
}

impl App {
    /// The mounts the user gave a thread (not its agent's), as saved.
    pub fn thread_mounts(&self, thread_id: &str) -> Result<Vec<MountSpec>, AppError> {
        Ok(self
            .store
            .thread_mounts(thread_id)?
            .into_iter()
            .map(|m| MountSpec {
                name: m.name,
                host: m.host,
                read_only: m.read_only,
            })
            .collect())
    }

    /// Replaces a thread's mounts after checking them (each folder exists, names are safe and
    /// distinct, nothing overlaps Workbench's data folder, no read-only folder inside a
    /// read-write one). Saves canonical paths and returns them. Takes effect at the next run.
    pub fn set_thread_mounts(
        &self,
        thread_id: &str,
        mounts: &[MountSpec],
    ) -> Result<Vec<MountSpec>, AppError> {
        // The thread must exist before the disk is looked at, so the error says so.
        self.store.get_thread(thread_id)?;
        let checked = check_mounts(mounts, self.data.path()).map_err(invalid)?;
        let rows: Vec<ThreadMount> = checked
            .iter()
            .map(|m| ThreadMount {
                name: m.name.clone(),
                host: m.host.clone(),
                read_only: m.read_only,
            })
            .collect();
        self.store.set_thread_mounts(thread_id, &rows)?;
        Ok(checked)
    }

    /// The roots a run of this thread gets: its own folders, with the thread's mounts and
    /// those of `agent` (a custom agent's name) in place, checked against the disk.
    pub fn thread_roots(
        &self,
        thread_id: &str,
        agent: Option<&str>,
    ) -> Result<ThreadRoots, AppError> {
        let own = self.thread_mounts(thread_id)?;
        let agent_mounts = match agent {
            Some(name) => load_agents(self.data.path())
                .0
                .into_iter()
                .find(|a| a.name == name)
                .map(|a| a.mounts)
                .unwrap_or_default(),
            None => Vec::new(),
        };
        let merged = merge_mounts(&own, &agent_mounts);
        let checked = check_mounts(&merged, self.data.path()).map_err(|e| {
            AppError::Invalid(format!(
                "a folder mounted into this thread cannot be used: {e}; change the thread's \
                 folders (or the agent's `mounts`)"
            ))
        })?;
        Ok(ThreadRoots::with_mounts(
            &self.data.thread_dir(thread_id),
            &checked,
        ))
    }

    /// The roots for listing a run's tools: like [`Self::thread_roots`] for the agent named
    /// `agent` (`default` = no custom agent), but never failing; a thread that does not exist
    /// or a mount that no longer checks out lists over the thread's own folders (the run then
    /// reports the mount problem when it starts).
    pub(crate) fn listing_roots(&self, thread_id: &str, agent: &str) -> ThreadRoots {
        let agent = (agent != "default").then_some(agent);
        self.thread_roots(thread_id, agent)
            .unwrap_or_else(|_| ThreadRoots::under(&self.data.thread_dir(thread_id)))
    }

    /// [`Self::thread_roots`] with the thread's own folders created, for a run about to start.
    pub(crate) fn prepare_thread_roots(
        &self,
        thread_id: &str,
        agent: Option<&str>,
    ) -> Result<ThreadRoots, AppError> {
        let roots = self.thread_roots(thread_id, agent)?;
        roots.create().map_err(|e| AppError::DataDir {
            path: self.data.thread_dir(thread_id).display().to_string(),
            detail: e.to_string(),
        })?;
        Ok(roots)
    }

    /// Every folder of a thread (its own and mounted) with where it is on the host.
    pub fn thread_folders(&self, thread_id: &str) -> Result<Vec<ThreadFolder>, AppError> {
        self.store.get_thread(thread_id)?;
        let own = self.thread_mounts(thread_id)?;
        // Listing shows what was saved even when a folder has gone missing since.
        let roots = ThreadRoots::with_mounts(&self.data.thread_dir(thread_id), &own);
        let mut folders: Vec<ThreadFolder> = roots
            .all()
            .into_iter()
            .map(|(virtual_path, host, writable)| ThreadFolder {
                mounted: virtual_path.contains("/mounts/"),
                virtual_path,
                host: host.to_path_buf(),
                writable,
            })
            .collect();
        if let Some(ws) = folders.first_mut() {
            ws.mounted = roots.workspace_mounted;
        }
        Ok(folders)
    }

    /// Copies files the user chose into the thread's uploads folder and returns their paths
    /// as the model sees them. A name already taken gets a ` (n)` suffix. Every file is
    /// checked before any is copied, and a failed copy removes the files this call copied.
    pub async fn upload_files(
        &self,
        thread_id: &str,
        host_paths: Vec<PathBuf>,
    ) -> Result<Vec<String>, AppError> {
        let id = thread_id.to_string();
        self.on_store(move |s| s.get_thread(&id)).await?;
        let uploads = ThreadRoots::under(&self.data.thread_dir(thread_id)).uploads;
        tokio::task::spawn_blocking(move || copy_uploads(&uploads, &host_paths))
            .await
            .map_err(|e| AppError::Invalid(format!("internal error: {e}")))?
    }

    /// The thread's own folder on the host (created if missing), for opening in a file
    /// manager.
    pub fn thread_folder(&self, thread_id: &str) -> Result<PathBuf, AppError> {
        self.store.get_thread(thread_id)?;
        let dir = self.data.thread_dir(thread_id);
        ThreadRoots::under(&dir)
            .create()
            .map_err(|e| AppError::DataDir {
                path: dir.display().to_string(),
                detail: e.to_string(),
            })?;
        Ok(dir)
    }
}

fn invalid(e: impl std::fmt::Display) -> AppError {
    AppError::Invalid(e.to_string())
}

/// Checks every source, then copies each under a free name; undoes the copies on failure.
fn copy_uploads(uploads: &Path, sources: &[PathBuf]) -> Result<Vec<String>, AppError> {
    if sources.is_empty() {
        return Err(AppError::Invalid("no files were given to upload".into()));
    }
    if sources.len() > MAX_UPLOAD_FILES {
        return Err(AppError::Invalid(format!(
            "{} files were given; upload at most {MAX_UPLOAD_FILES} at a time",
            sources.len()
        )));
    }
    let mut names = Vec::with_capacity(sources.len());
    for src in sources {
        let meta = std::fs::metadata(src).map_err(|e| {
            AppError::Invalid(format!("cannot upload {}: {}", src.display(), io_text(&e)))
        })?;
        if !meta.is_file() {
            return Err(AppError::Invalid(format!(
                "cannot upload {}: it is a folder or a special file; upload files only (or \
                 mount the folder into the thread)",
                src.display()
            )));
        }
        if meta.len() > MAX_UPLOAD_BYTES {
            return Err(AppError::Invalid(format!(
                "cannot upload {}: it is {} MiB, more than the {} MiB limit",
                src.display(),
                meta.len() >> 20,
                MAX_UPLOAD_BYTES >> 20
            )));
        }
        let name = src
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .filter(|n| !n.is_empty() && n != "." && n != "..")
            .ok_or_else(|| {
                AppError::Invalid(format!(
                    "cannot upload {}: it has no file name",
                    src.display()
                ))
            })?;
        names.push(name);
    }
    std::fs::create_dir_all(uploads).map_err(|e| AppError::DataDir {
        path: uploads.display().to_string(),
        detail: e.to_string(),
    })?;
    let mut copied: Vec<PathBuf> = Vec::new();
    let mut out = Vec::new();
    for (src, name) in sources.iter().zip(&names) {
        match copy_one(uploads, src, name) {
            Ok((dest, final_name)) => {
                copied.push(dest);
                out.push(format!("{VIRTUAL_ROOT}/uploads/{final_name}"));
            }
            Err(e) => {
                for p in &copied {
                    // Best effort: these are the files this call just created.
                    let _ = std::fs::remove_file(p);
                }
                return Err(e);
            }
        }
    }
    Ok(out)
}

/// Copies `src` into `uploads` under `name` or the first free `name (n)`, never replacing a
/// file (the name is claimed with create-new, so two uploads at once cannot collide).
fn copy_one(uploads: &Path, src: &Path, name: &str) -> Result<(PathBuf, String), AppError> {
    let fail = |e: io::Error| {
        AppError::Invalid(format!("cannot upload {}: {}", src.display(), io_text(&e)))
    };
    let mut input = File::open(src).map_err(fail)?;
    for n in 0..=MAX_NAME_SUFFIX {
        let candidate = if n == 0 {
            name.to_string()
        } else {
            suffixed(name, n)
        };
        let dest = uploads.join(&candidate);
        let mut output = match File::options().write(true).create_new(true).open(&dest) {
            Ok(f) => f,
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(fail(e)),
        };
        // Read one byte past the cap: the file may have grown since it was checked.
        let copied = io::copy(&mut (&mut input).take(MAX_UPLOAD_BYTES + 1), &mut output);
        let result = match copied {
            Ok(n) if n > MAX_UPLOAD_BYTES => Err(AppError::Invalid(format!(
                "cannot upload {}: it grew past the {} MiB limit while being copied",
                src.display(),
                MAX_UPLOAD_BYTES >> 20
            ))),
            Ok(_) => Ok((dest.clone(), candidate)),
            Err(e) => Err(fail(e)),
        };
        if result.is_err() {
            let _ = std::fs::remove_file(&dest);
        }
        return result;
    }
    Err(AppError::Invalid(format!(
        "cannot upload {}: {MAX_NAME_SUFFIX} files named like it are already uploaded; \
         rename it",
        src.display()
    )))
}

/// `report.pdf` -> `report (2).pdf`; `.env` -> `.env (2)`; `archive.tar.gz` -> `archive (2).tar.gz`.
fn suffixed(name: &str, n: usize) -> String {
    let split = name
        .char_indices()
        .skip(1)
        .find(|(_, c)| *c == '.')
        .map(|(i, _)| i);
    match split {
        Some(i) => format!("{} ({n}){}", &name[..i], &name[i..]),
        None => format!("{name} ({n})"),
    }
}

fn io_text(e: &io::Error) -> String {
    match e.kind() {
        io::ErrorKind::NotFound => "it does not exist".into(),
        io::ErrorKind::PermissionDenied => "permission denied".into(),
        _ => e.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suffixes_go_before_the_extension() {
        assert_eq!(suffixed("report.pdf", 2), "report (2).pdf");
        assert_eq!(suffixed("archive.tar.gz", 1), "archive (1).tar.gz");
        assert_eq!(suffixed(".env", 3), ".env (3)");
        assert_eq!(suffixed("README", 1), "README (1)");
    }
}
