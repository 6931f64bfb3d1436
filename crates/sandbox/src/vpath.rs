//! Virtual paths resolved to capabilities.
//!
//! The model names files as `/mnt/user-data/<root>/<rest>` (or relative to the workspace). A
//! [`VirtualFs`] holds one open directory handle ([`cap_std::fs::Dir`]) per root and does every
//! open, create, rename, metadata and directory read *through* that handle, so the kernel
//! (`openat2(RESOLVE_BENEATH)` on Linux, cap-std's own checked walk elsewhere) refuses `..`,
//! absolute paths, symlinks that point out and rename races. The lexical parsing here only maps
//! the virtual prefix to a root and turns `..` into a clear error early; it is not what keeps
//! the model inside.
//!
//! What is guaranteed about hard links (they cannot be told apart from the original name):
//! reading a hard link that lives inside a root is allowed, as it is a name inside the root;
//! writing never modifies an inode that has other links: such a file is replaced by a new one
//! (written beside it and renamed over the name), so the other names keep their bytes.
//!
//! Not here: what the tools print, or shell confinement.

use std::ffi::OsStr;
use std::io::{self, Read, Write};
use std::os::unix::fs::MetadataExt as _;
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use cap_std::ambient_authority;
use cap_std::fs::{Dir, OpenOptions, OpenOptionsExt as _};

use crate::roots::{ThreadRoots, VIRTUAL_ROOT};

/// The longest path the model may give, in bytes (Linux's PATH_MAX): longer is never a real file.
pub const MAX_PATH_BYTES: usize = 4096;

/// Why a virtual path could not be used. Every message names the virtual path and says what
/// to do instead, so the model can fix its next call.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum VpathError {
    /// An absolute path that is not under one of the thread's roots.
    #[error("`{path}` is outside the sandbox: paths start with {roots} (relative paths are taken from /mnt/user-data/workspace)")]
    Outside { path: String, roots: String },
    /// `..` would climb above a root (or above `/mnt/user-data`).
    #[error("`{path}`: `..` leaves the root {root}; paths must stay inside it")]
    LeavesRoot { path: String, root: String },
    /// Resolution reached outside the root, through a symlink or a path swapped while in use.
    #[error("`{path}` leads outside the sandbox (through a symbolic link); only files inside {root} can be used")]
    Escapes { path: String, root: String },
    /// A write to a read-only mount.
    #[error("`{path}` is on a read-only mount ({root}): write under /mnt/user-data/workspace or /mnt/user-data/outputs instead")]
    ReadOnly { path: String, root: String },
    /// Nothing at that path.
    #[error("`{path}` was not found; list the folder with `ls` to see what is there")]
    NotFound { path: String },
    /// A file was expected.
    #[error("`{path}` is a directory, not a file; use `ls` to list it")]
    IsADirectory { path: String },
    /// A directory was expected.
    #[error("`{path}` is not a directory")]
    NotADirectory { path: String },
    /// Neither a regular file nor a directory (a FIFO, socket or device).
    #[error("`{path}` is not a regular file (a device, pipe or socket); file tools read and write regular files only")]
    NotRegular { path: String },
    /// The path string itself is unusable.
    #[error("`{path}` is not a usable path: {reason}")]
    Invalid { path: String, reason: String },
    /// `/mnt/user-data` itself or `/mnt/user-data/mounts`: folders the tools cannot write into.
    #[error("`{path}` holds the thread's folders only: use {roots}")]
    VirtualDir { path: String, roots: String },
    /// A root's host folder is missing or unreadable.
    #[error("{root} is not available in this thread (its folder could not be opened)")]
    RootUnavailable { root: String },
    /// The host refused or failed the operation.
    #[error("could not {op} `{path}`: {message}")]
    Io {
        op: String,
        path: String,
        message: String,
    },
}

/// A model path resolved to a root and a clean relative path (no `.`, `..` or empty parts).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VPath {
    /// Index into the thread's roots ([`ThreadRoots::all`] order).
    pub root: usize,
    /// Relative to the root; empty for the root itself.
    pub rel: PathBuf,
    /// The normalised virtual path, for messages and output.
    pub virt: String,
}

/// One root: its virtual prefix, host folder (for masking only) and open handle.
#[derive(Debug)]
struct Root {
    virt: String,
    /// The name under `/mnt/user-data` (`workspace`, `mounts/data`, ...).
    name: String,
    writable: bool,
    dir: Option<Dir>,
}

/// What a write did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WriteOutcome {
    /// The file did not exist before.
    pub created: bool,
    /// The file's size after the write.
    pub size: u64,
}

/// How [`VirtualFs::write`] treats existing content.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WriteMode {
    /// Replace the content (or create the file).
    Replace,
    /// Add to the end (or create the file).
    Append,
}

/// The thread's roots, each open as a directory capability.
#[derive(Debug)]
pub struct VirtualFs {
    roots: Vec<Root>,
}

/// Makes temporary names unique within the process (several writes may run at once).
static TMP_COUNTER: AtomicU64 = AtomicU64::new(0);

impl VirtualFs {
    /// Opens every root. A root that cannot be opened is kept as unavailable, so the others
    /// still work and its paths get a clear error.
    pub fn open(roots: &ThreadRoots) -> Self {
        let roots = roots
            .all()
            .into_iter()
            .map(|(virt, host, writable)| {
                let name = virt
                    .strip_prefix(VIRTUAL_ROOT)
                    .unwrap_or(&virt)
                    .trim_start_matches('/')
                    .to_string();
                Root {
                    dir: Dir::open_ambient_dir(host, ambient_authority()).ok(),
                    virt,
                    name,
                    writable,
                }
            })
            .collect();
        Self { roots }
    }

    /// The roots' virtual paths joined for messages.
    pub fn roots_hint(&self) -> String {
        let names: Vec<&str> = self.roots.iter().map(|r| r.virt.as_str()).collect();
        match names.split_last() {
            Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
            Some((last, _)) => (*last).to_string(),
            None => VIRTUAL_ROOT.to_string(),
        }
    }

    /// Every root's virtual path and whether it is writable.
    pub fn root_list(&self) -> Vec<(&str, bool)> {
        self.roots
            .iter()
            .map(|r| (r.virt.as_str(), r.writable))
            .collect()
    }

    /// The virtual path of root `index`.
    pub fn root_virt(&self, index: usize) -> &str {
        self.roots.get(index).map_or(VIRTUAL_ROOT, |r| &r.virt)
    }

    /// Maps a model path to a root and a relative path. Purely lexical: it never touches the
    /// disk, and its result is only ever used through the root's handle.
    pub fn resolve(&self, input: &str) -> Result<VPath, VpathError> {
        let shown = shorten(input);
        let invalid = |reason: &str| VpathError::Invalid {
            path: shown.clone(),
            reason: reason.into(),
        };
        if input.contains('\0') {
            return Err(invalid("it contains a NUL byte"));
        }
        let trimmed = input.trim();
        if trimmed.is_empty() {
            return Err(invalid(
                "it is empty; give a path such as /mnt/user-data/workspace/notes.md",
            ));
        }
        if trimmed.len() > MAX_PATH_BYTES {
            return Err(invalid(&format!(
                "it is {} bytes long, more than the {MAX_PATH_BYTES} a path may have",
                trimmed.len()
            )));
        }
        let path = Path::new(trimmed);
        if !path.is_absolute() {
            return self.finish(0, path.components(), trimmed);
        }
        // Absolute: walk the virtual prefix `/mnt/user-data/<root>` component by component.
        let mut comps = path.components().peekable();
        let mut prefix: Vec<&OsStr> = Vec::new();
        while let Some(c) = comps.peek() {
            match c {
                Component::RootDir | Component::CurDir => {}
                Component::ParentDir => {
                    return Err(VpathError::LeavesRoot {
                        path: shown,
                        root: VIRTUAL_ROOT.into(),
                    })
                }
                Component::Normal(name) => {
                    prefix.push(name);
                    let joined = prefix
                        .iter()
                        .map(|s| s.to_string_lossy())
                        .collect::<Vec<_>>()
                        .join("/");
                    let want = format!("{}/", VIRTUAL_ROOT.trim_start_matches('/'));
                    if let Some(root_name) = joined.strip_prefix(&want) {
                        if let Some(i) = self.roots.iter().position(|r| r.name == root_name) {
                            comps.next();
                            return self.finish(i, comps, trimmed);
                        }
                        // `mounts` alone is a prefix of a mount's name; keep reading.
                        let is_prefix = self
                            .roots
                            .iter()
                            .any(|r| r.name.starts_with(&format!("{root_name}/")));
                        if !is_prefix {
                            return Err(self.outside(shown));
                        }
                    } else if !want.starts_with(&format!("{joined}/")) {
                        return Err(self.outside(shown));
                    }
                }
                Component::Prefix(_) => return Err(self.outside(shown)),
            }
            comps.next();
        }
        // Ran out of components inside the prefix: `/`, `/mnt`, `/mnt/user-data`, `.../mounts`.
        if prefix.len() >= 2 {
            return Err(VpathError::VirtualDir {
                path: shown,
                roots: self.roots_hint(),
            });
        }
        Err(self.outside(shown))
    }

    fn outside(&self, path: String) -> VpathError {
        VpathError::Outside {
            path,
            roots: self.roots_hint(),
        }
    }

    /// Normalises the part after the root; `..` may not climb above it.
    fn finish<'a>(
        &self,
        root: usize,
        rest: impl Iterator<Item = Component<'a>>,
        input: &str,
    ) -> Result<VPath, VpathError> {
        let mut parts: Vec<&OsStr> = Vec::new();
        for c in rest {
            match c {
                Component::Normal(p) => parts.push(p),
                Component::CurDir => {}
                Component::ParentDir => {
                    if parts.pop().is_none() {
                        return Err(VpathError::LeavesRoot {
                            path: shorten(input),
                            root: self.root_virt(root).into(),
                        });
                    }
                }
                Component::RootDir | Component::Prefix(_) => {
                    return Err(self.outside(shorten(input)))
                }
            }
        }
        let rel: PathBuf = parts.iter().collect();
        let mut virt = self.root_virt(root).to_string();
        for p in &parts {
            virt.push('/');
            virt.push_str(&p.to_string_lossy());
        }
        Ok(VPath { root, rel, virt })
    }

    /// Resolves a path relative to another virtual path (for walk results).
    pub fn child(&self, base: &VPath, rel: &Path) -> VPath {
        let mut virt = base.virt.clone();
        for c in rel.components() {
            virt.push('/');
            virt.push_str(&c.as_os_str().to_string_lossy());
        }
        VPath {
            root: base.root,
            rel: base.rel.join(rel),
            virt,
        }
    }

    /// The open handle of a root.
    pub fn root_dir(&self, root: usize) -> Result<&Dir, VpathError> {
        let r = self
            .roots
            .get(root)
            .ok_or_else(|| VpathError::RootUnavailable {
                root: VIRTUAL_ROOT.into(),
            })?;
        r.dir.as_ref().ok_or_else(|| VpathError::RootUnavailable {
            root: r.virt.clone(),
        })
    }

    /// Whether writes to this path's root are allowed.
    pub fn writable(&self, vp: &VPath) -> bool {
        self.roots.get(vp.root).is_some_and(|r| r.writable)
    }

    /// Opens a directory inside a root (the root itself for an empty relative path).
    pub fn open_dir(&self, vp: &VPath) -> Result<Dir, VpathError> {
        let root = self.root_dir(vp.root)?;
        let res = if vp.rel.as_os_str().is_empty() {
            root.try_clone()
        } else {
            root.open_dir(&vp.rel)
        };
        res.map_err(|e| self.io_error(e, vp, "open the directory"))
    }

    /// Metadata of the path, following symlinks that stay inside the root.
    pub fn metadata(&self, vp: &VPath) -> Result<cap_std::fs::Metadata, VpathError> {
        let root = self.root_dir(vp.root)?;
        let res = if vp.rel.as_os_str().is_empty() {
            root.dir_metadata()
        } else {
            root.metadata(&vp.rel)
        };
        res.map_err(|e| self.io_error(e, vp, "read the metadata of"))
    }

    /// Opens a regular file for reading. Non-blocking open so a FIFO planted in the
    /// workspace cannot hang the tool; the type is checked on the opened descriptor, so a swap
    /// after a check cannot change what is read.
    pub fn open_file(&self, vp: &VPath) -> Result<(std::fs::File, std::fs::Metadata), VpathError> {
        if vp.rel.as_os_str().is_empty() {
            return Err(VpathError::IsADirectory {
                path: vp.virt.clone(),
            });
        }
        let root = self.root_dir(vp.root)?;
        let mut opts = OpenOptions::new();
        opts.read(true)
            .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY);
        let file = root
            .open_with(&vp.rel, &opts)
            .map_err(|e| self.io_error(e, vp, "open"))?
            .into_std();
        let meta = file
            .metadata()
            .map_err(|e| self.io_error(e, vp, "read the metadata of"))?;
        if meta.is_dir() {
            return Err(VpathError::IsADirectory {
                path: vp.virt.clone(),
            });
        }
        if !meta.is_file() {
            return Err(VpathError::NotRegular {
                path: vp.virt.clone(),
            });
        }
        Ok((file, meta))
    }

    /// Reads at most `limit` bytes of a regular file; also returns the file's full size.
    pub fn read(&self, vp: &VPath, limit: u64) -> Result<(Vec<u8>, u64), VpathError> {
        let (file, meta) = self.open_file(vp)?;
        let mut buf = Vec::with_capacity(meta.len().min(limit) as usize);
        file.take(limit)
            .read_to_end(&mut buf)
            .map_err(|e| self.io_error(e, vp, "read"))?;
        Ok((buf, meta.len()))
    }

    /// Writes `content` to a file inside a writable root, creating parent directories.
    ///
    /// A final symlink is followed only while it stays inside the root. The parent directory
    /// is opened once through the root's handle and every later step (check, create, rename)
    /// is relative to that descriptor, so swapping a path component for a symlink midway
    /// cannot redirect the write. Replacing writes go to a new file renamed over the name
    /// (atomic, and never modifying an inode shared by a hard link); appends write in place
    /// only when the opened file has a single link.
    pub fn write(
        &self,
        vp: &VPath,
        content: &[u8],
        mode: WriteMode,
    ) -> Result<WriteOutcome, VpathError> {
        if !self.writable(vp) {
            return Err(VpathError::ReadOnly {
                path: vp.virt.clone(),
                root: self.root_virt(vp.root).into(),
            });
        }
        if vp.rel.as_os_str().is_empty() {
            return Err(VpathError::IsADirectory {
                path: vp.virt.clone(),
            });
        }
        let root = self.root_dir(vp.root)?;
        let mut rel = vp.rel.clone();
        if root.symlink_metadata(&rel).is_ok_and(|m| m.is_symlink()) {
            rel = root
                .canonicalize(&rel)
                .map_err(|e| self.io_error(e, vp, "follow the symbolic link"))?;
        }
        let (parent, name) = match (rel.parent(), rel.file_name()) {
            (Some(p), Some(n)) => (p.to_path_buf(), n.to_os_string()),
            _ => {
                return Err(VpathError::IsADirectory {
                    path: vp.virt.clone(),
                })
            }
        };
        let pdir = if parent.as_os_str().is_empty() {
            root.try_clone()
                .map_err(|e| self.io_error(e, vp, "open the root of"))?
        } else {
            // A symlink planted as a parent makes create_dir_all say only "exists"; opening
            // the parent then tells why (it leads outside, or is a file).
            let created = root.create_dir_all(&parent);
            let opened = root
                .open_dir(&parent)
                .map_err(|e| self.io_error(e, vp, "open the parent folder of"))?;
            created.map_err(|e| self.io_error(e, vp, "create the parent folders of"))?;
            opened
        };
        let existing = match pdir.symlink_metadata(&name) {
            Ok(m) if m.is_dir() => {
                return Err(VpathError::IsADirectory {
                    path: vp.virt.clone(),
                })
            }
            // Canonicalised above; a symlink here was swapped in since. Refuse, not follow.
            Ok(m) if m.is_symlink() => {
                return Err(VpathError::Escapes {
                    path: vp.virt.clone(),
                    root: self.root_virt(vp.root).into(),
                })
            }
            Ok(m) if !m.is_file() => {
                return Err(VpathError::NotRegular {
                    path: vp.virt.clone(),
                })
            }
            Ok(_) => true,
            Err(e) if e.kind() == io::ErrorKind::NotFound => false,
            Err(e) => return Err(self.io_error(e, vp, "check")),
        };
        if mode == WriteMode::Append && existing {
            let mut opts = OpenOptions::new();
            opts.append(true)
                .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_NOCTTY);
            let mut file = pdir
                .open_with(&name, &opts)
                .map_err(|e| self.io_error(e, vp, "open for appending"))?
                .into_std();
            let meta = file
                .metadata()
                .map_err(|e| self.io_error(e, vp, "read the metadata of"))?;
            if !meta.is_file() {
                return Err(VpathError::NotRegular {
                    path: vp.virt.clone(),
                });
            }
            if meta.nlink() == 1 {
                file.write_all(content)
                    .map_err(|e| self.io_error(e, vp, "append to"))?;
                return Ok(WriteOutcome {
                    created: false,
                    size: meta.len() + content.len() as u64,
                });
            }
            // Several names share this inode: copy it and replace this name only.
        }
        self.replace(&pdir, &name, vp, content, mode, existing)
    }

    /// Removes a file (or a symbolic link itself, never its target) inside a writable root.
    /// The parent is opened through the root's handle, so the name removed is always inside.
    pub fn remove_file(&self, vp: &VPath) -> Result<(), VpathError> {
        if !self.writable(vp) {
            return Err(VpathError::ReadOnly {
                path: vp.virt.clone(),
                root: self.root_virt(vp.root).into(),
            });
        }
        let root = self.root_dir(vp.root)?;
        let (parent, name) = match (vp.rel.parent(), vp.rel.file_name()) {
            (Some(p), Some(n)) => (p, n),
            _ => {
                return Err(VpathError::IsADirectory {
                    path: vp.virt.clone(),
                })
            }
        };
        let pdir = if parent.as_os_str().is_empty() {
            root.try_clone()
        } else {
            root.open_dir(parent)
        }
        .map_err(|e| self.io_error(e, vp, "open the parent folder of"))?;
        match pdir.symlink_metadata(name) {
            Ok(m) if m.is_dir() => Err(VpathError::IsADirectory {
                path: vp.virt.clone(),
            }),
            Ok(_) => pdir
                .remove_file(name)
                .map_err(|e| self.io_error(e, vp, "remove")),
            Err(e) => Err(self.io_error(e, vp, "check")),
        }
    }

    /// Writes a new file beside `name` (old content first when appending) and renames it over.
    fn replace(
        &self,
        pdir: &Dir,
        name: &OsStr,
        vp: &VPath,
        content: &[u8],
        mode: WriteMode,
        existing: bool,
    ) -> Result<WriteOutcome, VpathError> {
        let n = TMP_COUNTER.fetch_add(1, Ordering::Relaxed);
        let tmp = format!(
            ".{}.wb-{}-{n}.tmp",
            name.to_string_lossy().chars().take(64).collect::<String>(),
            std::process::id()
        );
        let result = (|| -> io::Result<u64> {
            let mut old_perms = None;
            let mut prefix = Vec::new();
            if existing {
                let mut opts = OpenOptions::new();
                opts.read(true)
                    .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_NOCTTY);
                let old = pdir.open_with(name, &opts)?.into_std();
                let meta = old.metadata()?;
                old_perms = Some(meta.permissions());
                if mode == WriteMode::Append {
                    (&old).read_to_end(&mut prefix)?;
                }
            }
            let mut opts = OpenOptions::new();
            opts.write(true).create_new(true);
            let mut file = pdir.open_with(&tmp, &opts)?.into_std();
            file.write_all(&prefix)?;
            file.write_all(content)?;
            if let Some(p) = old_perms {
                file.set_permissions(p)?;
            }
            pdir.rename(&tmp, pdir, name)?;
            Ok((prefix.len() + content.len()) as u64)
        })();
        match result {
            Ok(size) => Ok(WriteOutcome {
                created: !existing,
                size,
            }),
            Err(e) => {
                // Best effort: the temporary file is ours and inside the root.
                let _ = pdir.remove_file(&tmp);
                Err(self.io_error(e, vp, "write"))
            }
        }
    }

    /// Maps an I/O error to a message about the virtual path. cap-std reports an escape as
    /// `PermissionDenied` without an OS error code; a real EACCES carries one.
    pub fn io_error(&self, e: io::Error, vp: &VPath, op: &str) -> VpathError {
        let path = vp.virt.clone();
        let root = self.root_virt(vp.root).to_string();
        match (e.kind(), e.raw_os_error()) {
            (io::ErrorKind::PermissionDenied, None) => VpathError::Escapes { path, root },
            (io::ErrorKind::NotFound, _) => VpathError::NotFound { path },
            (_, Some(libc::ENOTDIR)) => VpathError::NotADirectory { path },
            (_, Some(libc::EISDIR)) => VpathError::IsADirectory { path },
            (_, Some(libc::ELOOP)) => VpathError::Escapes { path, root },
            (_, Some(libc::EXDEV)) => VpathError::Escapes { path, root },
            (_, Some(libc::ENAMETOOLONG)) => VpathError::Invalid {
                path,
                reason: "a name in it is too long".into(),
            },
            _ => VpathError::Io {
                op: op.into(),
                path,
                message: error_text(&e),
            },
        }
    }
}

/// An I/O error's text without any path the OS may have put in it.
fn error_text(e: &io::Error) -> String {
    match e.raw_os_error() {
        Some(code) => io::Error::from_raw_os_error(code).to_string(),
        None => e.kind().to_string(),
    }
}

/// Long inputs are cut in messages: a 100 KB path echoed back would waste the model's context.
fn shorten(input: &str) -> String {
    const SHOWN_CHARS: usize = 200; // enough to recognise the path
    if input.chars().count() <= SHOWN_CHARS {
        return input.replace('\0', "\\0");
    }
    let head: String = input.chars().take(SHOWN_CHARS).collect();
    format!("{}... ({} bytes)", head.replace('\0', "\\0"), input.len())
}

/// Replaces every host path of the thread's roots in `text` with its virtual path, so tool
/// output never shows where the thread lives on the host. Both the configured and the
/// canonical form of each host path are replaced, longest first, only where a whole path
/// component matches (`/data/ws` does not match inside `/data/ws2`).
pub fn mask_host_paths(text: &str, roots: &ThreadRoots) -> String {
    let mut pairs: Vec<(String, String)> = Vec::new();
    for (virt, host, _) in roots.all() {
        let mut forms = vec![host.to_path_buf()];
        if let Ok(c) = std::fs::canonicalize(host) {
            forms.push(c);
        }
        for f in forms {
            let s = f.to_string_lossy().trim_end_matches('/').to_string();
            // The filesystem root or a one-letter path would mask everything; never a root.
            if s.len() > 1 && !pairs.iter().any(|(h, _)| *h == s) {
                pairs.push((s, virt.clone()));
            }
        }
    }
    if !pairs.iter().any(|(h, _)| text.contains(h.as_str())) {
        return text.to_string();
    }
    pairs.sort_by_key(|(h, _)| std::cmp::Reverse(h.len()));
    let mut out = text.to_string();
    for (host, virt) in &pairs {
        out = replace_component(&out, host, virt);
    }
    out
}

/// Replaces `from` where it is followed by the end, `/` or a character that cannot be part
/// of a file name in prose (space, quote, colon, ...).
fn replace_component(text: &str, from: &str, to: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find(from) {
        let after = &rest[i + from.len()..];
        let boundary = after
            .chars()
            .next()
            .is_none_or(|c| !(c.is_alphanumeric() || matches!(c, '-' | '_' | '.' | '~')));
        out.push_str(&rest[..i]);
        out.push_str(if boundary { to } else { from });
        rest = after;
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::roots::Mount;

    fn vfs() -> (tempfile::TempDir, VirtualFs, ThreadRoots) {
        let tmp = tempfile::tempdir().expect("tempdir");
        let mut roots = ThreadRoots::under(tmp.path());
        roots.create().expect("create");
        let data = tmp.path().join("data");
        std::fs::create_dir_all(&data).expect("mkdir");
        roots.mounts.push(Mount {
            name: "data".into(),
            host: data,
            read_only: true,
        });
        let v = VirtualFs::open(&roots);
        (tmp, v, roots)
    }

    #[test]
    fn resolves_virtual_and_relative_paths() {
        let (_t, v, _) = vfs();
        let p = v.resolve("/mnt/user-data/workspace/a/./b.txt").expect("ok");
        assert_eq!((p.root, p.rel.as_path()), (0, Path::new("a/b.txt")));
        assert_eq!(p.virt, "/mnt/user-data/workspace/a/b.txt");
        let p = v.resolve("src/../x.rs").expect("ok");
        assert_eq!(
            (p.root, p.virt.as_str()),
            (0, "/mnt/user-data/workspace/x.rs")
        );
        let p = v.resolve("/mnt/user-data/outputs").expect("ok");
        assert_eq!((p.root, p.rel.as_os_str().is_empty()), (2, true));
        let p = v.resolve("/mnt/user-data/mounts/data/f").expect("ok");
        assert_eq!(p.root, 3);
    }

    #[test]
    fn refuses_what_is_not_inside_a_root() {
        let (_t, v, _) = vfs();
        let cases = [
            ("/etc/passwd", "outside the sandbox"),
            (
                "/mnt/user-data/../../etc",
                "`..` leaves the root /mnt/user-data",
            ),
            ("../x", "`..` leaves the root /mnt/user-data/workspace"),
            ("/mnt/user-data/workspace/../../x", "leaves the root"),
            ("/mnt/user-data/nope/x", "outside the sandbox"),
            ("/mnt/user-data/mounts/nope", "outside the sandbox"),
            ("/mnt/user-data", "holds the thread's folders"),
            ("/mnt/user-data/mounts", "holds the thread's folders"),
            ("/mnt", "outside the sandbox"),
            ("/", "outside the sandbox"),
            ("a\0b", "NUL byte"),
            ("  ", "empty"),
        ];
        for (input, want) in cases {
            let err = v.resolve(input).expect_err(input).to_string();
            assert!(err.contains(want), "{input:?}: {err}");
        }
        let long = "a/".repeat(3000);
        assert!(v
            .resolve(&long)
            .expect_err("long")
            .to_string()
            .contains("bytes long"));
    }

    #[test]
    fn outside_message_lists_the_roots() {
        let (_t, v, _) = vfs();
        let err = v.resolve("/etc/passwd").expect_err("outside").to_string();
        assert_eq!(
            err,
            "`/etc/passwd` is outside the sandbox: paths start with /mnt/user-data/workspace, \
             /mnt/user-data/uploads, /mnt/user-data/outputs or /mnt/user-data/mounts/data \
             (relative paths are taken from /mnt/user-data/workspace)"
        );
    }

    #[test]
    fn writes_and_reads_through_the_handle() {
        let (_t, v, _) = vfs();
        let p = v.resolve("deep/er/f.txt").expect("ok");
        let out = v.write(&p, b"hi", WriteMode::Replace).expect("write");
        assert!(out.created);
        v.write(&p, b"!", WriteMode::Append).expect("append");
        assert_eq!(v.read(&p, 100).expect("read").0, b"hi!");
        let ro = v.resolve("/mnt/user-data/mounts/data/x").expect("ok");
        let err = v.write(&ro, b"x", WriteMode::Replace).expect_err("ro");
        assert!(err.to_string().contains("read-only mount"), "{err}");
    }

    #[test]
    fn masks_host_paths_on_component_boundaries() {
        let (t, _v, roots) = vfs();
        let ws = t.path().join("workspace");
        let text = format!(
            "err at {}/a.rs: x; {}2/b; {}",
            ws.display(),
            ws.display(),
            t.path().join("uploads").display()
        );
        let masked = mask_host_paths(&text, &roots);
        assert!(masked.contains("/mnt/user-data/workspace/a.rs"), "{masked}");
        assert!(masked.ends_with("/mnt/user-data/uploads"), "{masked}");
        assert!(masked.contains("workspace2/b"), "{masked}");
    }
}
