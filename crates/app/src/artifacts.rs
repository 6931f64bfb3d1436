//! What the artifacts panel shows: the files in a thread's outputs (presented ones first),
//! a file's content for its preview, and a watch that says when outputs change.
//!
//! Every path comes from the UI as a virtual path and is read through the sandbox's
//! capability-based `VirtualFs`, so the panel can never show a file outside the thread's
//! folders.

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, UNIX_EPOCH};

use base64::Engine;
use notify::{RecursiveMode, Watcher};
use serde::Serialize;
use workbench_core::thread::ThreadStore;
use workbench_sandbox::vpath::VirtualFs;
use workbench_sandbox::ThreadRoots;

use crate::{App, AppError};

/// Bytes of a file sent to a preview at most; larger files are cut (text) or refused
/// (binary) with a note, and can be opened with the system app instead.
pub const MAX_PREVIEW_BYTES: u64 = 20 << 20;
/// Files listed from outputs at most.
pub const MAX_LISTED: usize = 2_000;
/// How long the watch waits for more changes before it reports (editors write in bursts).
const WATCH_SETTLE: Duration = Duration::from_millis(200);

/// A file in the thread's outputs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct OutputFile {
    /// `/mnt/user-data/outputs/...`
    pub path: String,
    pub size: u64,
    /// Milliseconds since the epoch.
    pub modified_ms: i64,
    /// The agent presented it (present_files).
    pub presented: bool,
}

/// A file's content for its preview.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ArtifactContent {
    pub path: String,
    /// From the file name (`text/markdown`, `image/png`, `application/pdf`, ...).
    pub mime: String,
    pub size: u64,
    /// The content as UTF-8 text, for text types.
    pub text: Option<String>,
    /// The content base64-encoded, for images and PDFs.
    pub base64: Option<String>,
    /// Only the first `MAX_PREVIEW_BYTES` were read.
    pub truncated: bool,
}

/// Whether `mime` is shown as text.
fn is_text(mime: &str) -> bool {
    mime.starts_with("text/")
        || matches!(
            mime,
            "application/json"
                | "application/xml"
                | "application/javascript"
                | "application/toml"
                | "application/x-sh"
                | "application/yaml"
                | "image/svg+xml"
        )
}

/// The type of a file from its name; unknown names with text-like content count as text.
fn mime_of(path: &str, head: &[u8]) -> String {
    let guess = mime_guess::from_path(path).first_raw().map(str::to_string);
    match guess {
        Some(m) => m,
        None if std::str::from_utf8(head).is_ok() && !head.contains(&0) => "text/plain".into(),
        None => "application/octet-stream".into(),
    }
}

impl App {
    /// Every file in the thread's outputs, presented ones first (in presentation order), then
    /// the rest by path.
    pub fn list_outputs(&self, thread_id: &str) -> Result<Vec<OutputFile>, AppError> {
        let thread = self.store.get_thread(thread_id)?;
        let outputs = ThreadRoots::under(&self.data.thread_dir(thread_id)).outputs;
        let mut files = Vec::new();
        collect(&outputs, &outputs, &mut files);
        let presented = &thread.state.artifacts;
        let mut out: Vec<OutputFile> = files
            .into_iter()
            .map(|(rel, size, modified_ms)| {
                let path = format!("/mnt/user-data/outputs/{rel}");
                OutputFile {
                    presented: presented.contains(&path),
                    path,
                    size,
                    modified_ms,
                }
            })
            .collect();
        out.sort_by_key(|f| {
            (
                presented
                    .iter()
                    .position(|p| *p == f.path)
                    .unwrap_or(usize::MAX),
                f.path.clone(),
            )
        });
        Ok(out)
    }

    /// A file of the thread (any of its folders) for the preview.
    pub fn read_artifact(&self, thread_id: &str, path: &str) -> Result<ArtifactContent, AppError> {
        self.store.get_thread(thread_id)?;
        let roots = self.thread_roots(thread_id, None)?;
        let vfs = VirtualFs::open(&roots);
        let vp = vfs
            .resolve(path)
            .map_err(|e| AppError::Invalid(e.to_string()))?;
        let (bytes, size) = vfs
            .read(&vp, MAX_PREVIEW_BYTES)
            .map_err(|e| AppError::Invalid(e.to_string()))?;
        let truncated = size > bytes.len() as u64;
        let mime = mime_of(&vp.virt, &bytes[..bytes.len().min(4096)]);
        let (text, base64) = if is_text(&mime) {
            (Some(String::from_utf8_lossy(&bytes).into_owned()), None)
        } else if truncated {
            return Err(AppError::Invalid(format!(
                "{} is larger than {} MB; open it with its app instead",
                vp.virt,
                MAX_PREVIEW_BYTES >> 20
            )));
        } else {
            (
                None,
                Some(base64::engine::general_purpose::STANDARD.encode(&bytes)),
            )
        };
        Ok(ArtifactContent {
            path: vp.virt,
            mime,
            size,
            text,
            base64,
            truncated,
        })
    }

    /// Where a thread's file (a virtual path) is on the host, for opening it with its app.
    pub fn artifact_host_path(
        &self,
        thread_id: &str,
        path: &str,
    ) -> Result<std::path::PathBuf, AppError> {
        self.store.get_thread(thread_id)?;
        let roots = self.thread_roots(thread_id, None)?;
        let vfs = VirtualFs::open(&roots);
        let vp = vfs
            .resolve(path)
            .map_err(|e| AppError::Invalid(e.to_string()))?;
        vfs.metadata(&vp)
            .map_err(|e| AppError::Invalid(e.to_string()))?;
        let all = roots.all();
        let (_, host, _) = all
            .get(vp.root)
            .ok_or_else(|| AppError::Invalid(format!("{path} is not in this thread's folders")))?;
        Ok(host.join(&vp.rel))
    }

    /// Saves a copy of a thread's file (a virtual path) to `dest`, a host path the user chose
    /// in a save dialog; returns the bytes written. The copy is written beside `dest` first and
    /// renamed over it, so a failure never leaves a half-written file where `dest` was.
    pub fn save_artifact_as(
        &self,
        thread_id: &str,
        path: &str,
        dest: &Path,
    ) -> Result<u64, AppError> {
        self.store.get_thread(thread_id)?;
        let roots = self.thread_roots(thread_id, None)?;
        let vfs = VirtualFs::open(&roots);
        let vp = vfs
            .resolve(path)
            .map_err(|e| AppError::Invalid(e.to_string()))?;
        let (mut source, _) = vfs
            .open_file(&vp)
            .map_err(|e| AppError::Invalid(e.to_string()))?;
        if dest.is_dir() {
            return Err(AppError::Invalid(format!(
                "{} is a folder; choose a file name to save {} as",
                dest.display(),
                vp.virt
            )));
        }
        let (dir, name) = match (dest.parent(), dest.file_name()) {
            (Some(d), Some(n)) if !d.as_os_str().is_empty() => (d, n),
            _ => {
                return Err(AppError::Invalid(format!(
                    "{} is not a file path to save to",
                    dest.display()
                )))
            }
        };
        let save_err = |e: std::io::Error| {
            AppError::Invalid(format!(
                "could not save {} to {}: {e}",
                vp.virt,
                dest.display()
            ))
        };
        let partial = dir.join(format!(".{}.workbench-partial", name.to_string_lossy()));
        let copied = (|| {
            let mut out = std::fs::File::create(&partial)?;
            let n = std::io::copy(&mut source, &mut out)?;
            out.sync_all()?;
            std::fs::rename(&partial, dest)?;
            Ok(n)
        })();
        if copied.is_err() {
            let _ = std::fs::remove_file(&partial);
        }
        copied.map_err(save_err)
    }

    /// Calls `changed` (on a watcher thread) shortly after files in the thread's outputs
    /// change, until the returned watch is dropped.
    pub fn watch_outputs(
        &self,
        thread_id: &str,
        changed: Arc<dyn Fn() + Send + Sync>,
    ) -> Result<OutputsWatch, AppError> {
        let outputs = ThreadRoots::under(&self.data.thread_dir(thread_id)).outputs;
        std::fs::create_dir_all(&outputs).map_err(|e| AppError::DataDir {
            path: outputs.display().to_string(),
            detail: e.to_string(),
        })?;
        let (tx, rx) = std::sync::mpsc::channel::<()>();
        let mut watcher = notify::recommended_watcher(move |res: notify::Result<notify::Event>| {
            if res.is_ok() {
                let _ = tx.send(());
            }
        })
        .map_err(|e| AppError::Invalid(format!("cannot watch the outputs folder: {e}")))?;
        watcher
            .watch(&outputs, RecursiveMode::Recursive)
            .map_err(|e| AppError::Invalid(format!("cannot watch the outputs folder: {e}")))?;
        std::thread::spawn(move || {
            // Ends when the watcher (and with it the sender) is dropped.
            while rx.recv().is_ok() {
                while rx.recv_timeout(WATCH_SETTLE).is_ok() {}
                changed();
            }
        });
        Ok(OutputsWatch { _watcher: watcher })
    }
}

/// A live watch of a thread's outputs; dropping it stops the watch.
pub struct OutputsWatch {
    _watcher: notify::RecommendedWatcher,
}

/// Files under `dir` (relative to `base`, `/`-separated) with size and mtime; symlinks are
/// not followed, and the walk stops at `MAX_LISTED`.
fn collect(base: &Path, dir: &Path, out: &mut Vec<(String, u64, i64)>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.flatten().collect();
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        if out.len() >= MAX_LISTED {
            return;
        }
        let Ok(ft) = e.file_type() else { continue };
        let path = e.path();
        if ft.is_dir() {
            collect(base, &path, out);
        } else if ft.is_file() {
            let Ok(meta) = e.metadata() else { continue };
            let Ok(rel) = path.strip_prefix(base) else {
                continue;
            };
            let rel: Vec<String> = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            let modified = meta
                .modified()
                .ok()
                .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
                .map(|d| d.as_millis() as i64)
                .unwrap_or(0);
            out.push((rel.join("/"), meta.len(), modified));
        }
    }
}
