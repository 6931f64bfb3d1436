//! Finding the repository behind a virtual path and running one read-only, confined `git`
//! command in it.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use tokio::io::AsyncReadExt;
use tokio_util::sync::CancellationToken;

use crate::roots::ThreadRoots;
use crate::shell::confine::{apply_to_current_thread, ConfinePolicy};
use crate::shell::Confinement;
use crate::vpath::{mask_host_paths, VirtualFs, VpathError};

/// How long one git command may take: status of a large repository takes seconds, not more.
pub const GIT_TIMEOUT: Duration = Duration::from_secs(30);
/// Bytes of git output read at most; beyond this the result is cut (and says so).
pub const MAX_GIT_OUTPUT_BYTES: usize = 4 << 20;
/// Bytes of git's error output kept for the message.
const MAX_GIT_STDERR_BYTES: usize = 8 << 10;

/// Repository config that would make git run a program, turned off for every command.
const SAFE_CONFIG: &[&str] = &[
    "core.fsmonitor=false",
    "core.untrackedCache=false",
    "core.quotePath=false",
    "core.pager=cat",
    "color.ui=false",
    "diff.external=",
    "status.showUntrackedFiles=all",
];

/// Why a git tool could not answer. Messages name virtual paths only.
#[derive(Debug, thiserror::Error)]
pub enum GitError {
    /// The path could not be used.
    #[error(transparent)]
    Path(#[from] VpathError),
    /// No repository at or above the path (within its root).
    #[error(
        "`{path}` is not in a git repository (looked up to {root}). Give the `path` of a \
         repository folder, such as a mount under /mnt/user-data/mounts"
    )]
    NoRepository { path: String, root: String },
    /// The repository reaches outside the thread's folders.
    #[error("the repository at `{path}` keeps its git data outside the thread's folders ({what}); git tools only read repositories that lie wholly inside them")]
    Outside { path: String, what: String },
    /// git is not installed.
    #[error("git is not installed on this machine")]
    NotInstalled,
    /// git ran and failed.
    #[error("git {command} failed: {message}")]
    Failed { command: String, message: String },
    /// Took longer than [`GIT_TIMEOUT`].
    #[error("git {command} took longer than {secs} s and was stopped")]
    TimedOut { command: String, secs: u64 },
    /// The run was cancelled.
    #[error("cancelled")]
    Cancelled,
    /// Starting or confining git failed.
    #[error("could not run git: {0}")]
    Spawn(String),
}

/// A repository found from a virtual path: its work tree on the host and as the model sees it.
#[derive(Debug, Clone)]
pub struct Repo {
    /// The work tree's top folder on the host (canonical).
    pub top: PathBuf,
    /// The same folder as a virtual path.
    pub virt: String,
    roots: ThreadRoots,
}

/// What one git command printed.
pub(crate) struct GitOutput {
    pub stdout: Vec<u8>,
    /// More output existed than [`MAX_GIT_OUTPUT_BYTES`].
    pub truncated: bool,
}

impl Repo {
    /// Finds the repository containing the virtual folder `path` (default: the workspace).
    pub async fn find(
        roots: &ThreadRoots,
        path: Option<&str>,
        cancel: &CancellationToken,
    ) -> Result<Self, GitError> {
        let path = path.unwrap_or("/mnt/user-data/workspace").to_string();
        let roots2 = roots.clone();
        let p = path.clone();
        // Resolution goes through the capability handles, so a symlink out of the root fails
        // here exactly as it does for the file tools.
        let (start, root_host, root_virt) = tokio::task::spawn_blocking(move || {
            let vfs = VirtualFs::open(&roots2);
            let vp = vfs.resolve(&p)?;
            vfs.open_dir(&vp)?;
            let all = roots2.all();
            let (virt, host, _) = all.get(vp.root).ok_or(VpathError::Outside {
                path: p.clone(),
                roots: vfs.roots_hint(),
            })?;
            let root_host = host
                .canonicalize()
                .map_err(|_| VpathError::RootUnavailable { root: virt.clone() })?;
            let start = root_host.join(&vp.rel);
            Ok::<_, VpathError>((start, root_host, virt.clone()))
        })
        .await
        .map_err(|e| GitError::Spawn(e.to_string()))??;

        let ceiling = root_host.parent().unwrap_or(&root_host).to_path_buf();
        let probe = Repo {
            top: start.clone(),
            virt: path.clone(),
            roots: roots.clone(),
        };
        let out = probe
            .git_in(
                &start,
                &ceiling,
                &[
                    "rev-parse",
                    "--path-format=absolute",
                    "--show-toplevel",
                    "--git-dir",
                    "--git-common-dir",
                ],
                cancel,
            )
            .await;
        let out = match out {
            Ok(out) => out,
            Err(GitError::Failed { message, .. })
                if message.contains("not a git repository")
                    || message.contains("must be run in a work tree") =>
            {
                return Err(GitError::NoRepository {
                    path,
                    root: root_virt,
                })
            }
            Err(e) => return Err(e),
        };
        let text = String::from_utf8_lossy(&out.stdout);
        let lines: Vec<&str> = text.lines().collect();
        let [top, git_dir, common_dir] = lines[..] else {
            return Err(GitError::NoRepository {
                path,
                root: root_virt,
            });
        };
        let inside = |p: &str| {
            Path::new(p)
                .canonicalize()
                .is_ok_and(|c| c.starts_with(&root_host))
        };
        let outside = |what: &str| GitError::Outside {
            path: path.clone(),
            what: what.to_string(),
        };
        if !inside(top) {
            return Err(outside("its work tree starts above the root"));
        }
        if !inside(git_dir) || !inside(common_dir) {
            return Err(outside("its .git points to another folder"));
        }
        if Path::new(common_dir)
            .join("objects/info/alternates")
            .exists()
        {
            return Err(outside("it borrows objects from another repository"));
        }
        let top = Path::new(top)
            .canonicalize()
            .map_err(|e| GitError::Spawn(e.to_string()))?;
        let rel = top.strip_prefix(&root_host).unwrap_or(Path::new(""));
        let virt = if rel.as_os_str().is_empty() {
            root_virt
        } else {
            format!("{root_virt}/{}", rel.display())
        };
        Ok(Repo {
            top,
            virt,
            roots: roots.clone(),
        })
    }

    /// Masks host paths in text about this repository.
    pub fn mask(&self, text: &str) -> String {
        mask_host_paths(text, &self.roots)
    }

    /// Runs `git <args>` at the work tree's top.
    pub(crate) async fn git(
        &self,
        args: &[&str],
        cancel: &CancellationToken,
    ) -> Result<GitOutput, GitError> {
        let ceiling = self.top.parent().unwrap_or(&self.top).to_path_buf();
        self.git_in(&self.top, &ceiling, args, cancel).await
    }

    async fn git_in(
        &self,
        dir: &Path,
        ceiling: &Path,
        args: &[&str],
        cancel: &CancellationToken,
    ) -> Result<GitOutput, GitError> {
        let command = args.first().copied().unwrap_or("").to_string();
        let mut full: Vec<String> = Vec::new();
        for c in SAFE_CONFIG {
            full.push("-c".into());
            full.push((*c).into());
        }
        full.extend(args.iter().map(|a| a.to_string()));
        let spec = Spawn {
            args: full,
            dir: dir.to_path_buf(),
            ceiling: ceiling.to_path_buf(),
        };
        let runtime = tokio::runtime::Handle::current();
        let (tx, rx) = tokio::sync::oneshot::channel();
        // A fresh thread per command: its confinement cannot be lifted and ends with it.
        std::thread::Builder::new()
            .name("workbench-git-spawn".into())
            .spawn(move || {
                let _entered = runtime.enter();
                let _ = tx.send(spec.spawn_confined());
            })
            .map_err(|e| GitError::Spawn(e.to_string()))?;
        let mut child = rx
            .await
            .map_err(|_| GitError::Spawn("the spawn thread ended without an answer".into()))??;

        let (Some(stdout), Some(stderr)) = (child.stdout.take(), child.stderr.take()) else {
            return Err(GitError::Spawn("git's output could not be read".into()));
        };
        let read = async {
            let mut out = Vec::new();
            let mut err = Vec::new();
            let mut o = stdout.take(MAX_GIT_OUTPUT_BYTES as u64 + 1);
            let mut e = stderr.take(MAX_GIT_STDERR_BYTES as u64);
            let (a, b) = tokio::join!(o.read_to_end(&mut out), e.read_to_end(&mut err));
            a.and(b).map(|_| (out, err))
        };
        let (mut stdout, stderr) = tokio::select! {
            _ = cancel.cancelled() => return Err(GitError::Cancelled),
            _ = tokio::time::sleep(GIT_TIMEOUT) => return Err(GitError::TimedOut {
                command,
                secs: GIT_TIMEOUT.as_secs(),
            }),
            read = read => read.map_err(|e| GitError::Spawn(e.to_string()))?,
        };
        let truncated = stdout.len() > MAX_GIT_OUTPUT_BYTES;
        if truncated {
            stdout.truncate(MAX_GIT_OUTPUT_BYTES);
            let _ = child.start_kill();
        }
        let status = tokio::select! {
            _ = cancel.cancelled() => return Err(GitError::Cancelled),
            status = child.wait() => status.map_err(|e| GitError::Spawn(e.to_string()))?,
        };
        if !status.success() && !truncated {
            let message = String::from_utf8_lossy(&stderr).trim().to_string();
            return Err(GitError::Failed {
                command,
                message: self.mask(&message),
            });
        }
        Ok(GitOutput { stdout, truncated })
    }
}

/// One git command to start, owned by the spawn thread.
struct Spawn {
    args: Vec<String>,
    dir: PathBuf,
    ceiling: PathBuf,
}

impl Spawn {
    fn spawn_confined(self) -> Result<tokio::process::Child, GitError> {
        if let Some(kind) = Confinement::detect() {
            // Nothing writable, no network: git only reads.
            let policy = ConfinePolicy {
                writable: Vec::new(),
                read_only: Vec::new(),
                allow_network: false,
            };
            apply_to_current_thread(&policy, kind).map_err(|e| GitError::Spawn(e.to_string()))?;
        }
        let path =
            std::env::var_os("PATH").unwrap_or_else(|| "/usr/local/bin:/usr/bin:/bin".into());
        let mut cmd = tokio::process::Command::new("git");
        cmd.args(&self.args)
            .current_dir(&self.dir)
            .env_clear()
            .env("PATH", path)
            .env("HOME", &self.dir)
            .env("LC_ALL", "C")
            .env("GIT_CEILING_DIRECTORIES", &self.ceiling)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .env("GIT_OPTIONAL_LOCKS", "0")
            .env("GIT_TERMINAL_PROMPT", "0")
            .env("GIT_PAGER", "cat")
            // `files` are paths, never patterns: `*` or `:(top)` in a name match only itself.
            .env("GIT_LITERAL_PATHSPECS", "1")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true);
        cmd.spawn().map_err(|e| {
            if e.kind() == std::io::ErrorKind::NotFound {
                GitError::NotInstalled
            } else {
                GitError::Spawn(e.to_string())
            }
        })
    }
}
