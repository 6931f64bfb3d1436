//! Spawning `bash -c` confined, in its own process group, and running it to the end, a
//! timeout or a cancellation.

use std::os::fd::OwnedFd;
use std::path::{Path, PathBuf};
use std::process::{ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use nix::fcntl::OFlag;
use nix::sys::signal::{killpg, Signal};
use nix::unistd::Pid;
use tokio::io::AsyncReadExt;
use tokio::net::unix::pipe;
use tokio_util::sync::CancellationToken;

use super::confine::{self, ConfineError, ConfinePolicy, Confinement, ConfinementKind};
use super::env::scrubbed_env;
use super::mask::PathMasker;
use super::output::HeadTail;
use crate::roots::ThreadRoots;

/// After the shell ends and its group is killed, how long to keep reading output: the pipe
/// stays open only if a process escaped the group (`setsid`) and still holds it.
const DRAIN_GRACE: Duration = Duration::from_millis(300);
/// Read size for the output pipe.
const READ_CHUNK: usize = 16 * 1024;

/// Why a command could not be run.
#[derive(Debug, thiserror::Error)]
pub enum ShellError {
    /// No OS confinement here and the user did not allow an unconfined shell.
    #[error("no OS confinement is available for the shell and an unconfined shell is not allowed")]
    Unconfined,
    /// Confinement was expected but could not be applied; the command did not run.
    #[error("the shell could not be confined, so the command was not run: {0}")]
    Confine(#[from] ConfineError),
    /// Creating the pipe, the temp folder or the process failed.
    #[error("{op}: {source}")]
    Io {
        op: &'static str,
        source: std::io::Error,
    },
}

fn io(op: &'static str) -> impl FnOnce(std::io::Error) -> ShellError {
    move |source| ShellError::Io { op, source }
}

/// How the shell for one thread is set up.
#[derive(Debug, Clone)]
pub struct ShellConfig {
    /// The thread's folders; the workspace is the working directory.
    pub roots: ThreadRoots,
    /// Leave the network open (the user allowed it).
    pub allow_network: bool,
    /// Run unconfined when this machine offers no confinement (the user opted in).
    pub allow_unconfined: bool,
}

/// The shell of one thread: its roots, private temp folder, confinement and path masking.
#[derive(Debug)]
pub struct Shell {
    roots: ThreadRoots,
    temp: tempfile::TempDir,
    confinement: Option<ConfinementKind>,
    allow_network: bool,
    masker: PathMasker,
}

/// How a command ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShellOutcome {
    /// The exit code, when the shell exited normally.
    pub exit_code: Option<i32>,
    /// The signal that killed the shell, if one did.
    pub signal: Option<i32>,
    /// stdout and stderr interleaved, capped head+tail, host paths masked.
    pub output: String,
    /// Bytes of output left out of `output`.
    pub omitted: u64,
    /// The timeout fired; the process group was killed.
    pub timed_out: bool,
    /// The cancel token fired; the process group was killed.
    pub cancelled: bool,
    /// Wall time until the shell ended.
    pub elapsed: Duration,
}

/// A process group killed (SIGKILL) when this is dropped or [`ProcessGroup::kill`] is called.
#[derive(Debug)]
pub(crate) struct ProcessGroup {
    pgid: Option<i32>,
}

impl ProcessGroup {
    /// Kills every process still in the group.
    pub(crate) fn kill(&self) {
        if let Some(pgid) = self.pgid {
            // ESRCH (nobody left) is the normal case after a clean exit.
            kill_group(pgid);
        }
    }

    /// The group id, while armed.
    pub(crate) fn id(&self) -> Option<i32> {
        self.pgid
    }

    /// Stops killing on drop (the group was killed and its leader reaped).
    pub(crate) fn disarm(&mut self) {
        self.pgid = None;
    }
}

impl Drop for ProcessGroup {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Kills process group `pgid` (SIGKILL), ignoring a group that is already gone.
pub(crate) fn kill_group(pgid: i32) {
    let _ = killpg(Pid::from_raw(pgid), Signal::SIGKILL);
}

/// A started shell: its process, its group and the read end of its output.
pub(crate) struct Spawned {
    pub(crate) child: tokio::process::Child,
    pub(crate) group: ProcessGroup,
    pub(crate) output: pipe::Receiver,
}

impl Shell {
    /// A shell for `config.roots`, with a fresh private temp folder. Fails when no confinement
    /// is available and `allow_unconfined` is off.
    pub fn new(config: ShellConfig) -> Result<Self, ShellError> {
        let confinement = Confinement::detect();
        if confinement.is_none() && !config.allow_unconfined {
            return Err(ShellError::Unconfined);
        }
        let temp = tempfile::Builder::new()
            .prefix("workbench-shell-")
            .tempdir()
            .map_err(io("creating the shell's temp folder"))?;
        Ok(Self {
            masker: PathMasker::new(&config.roots),
            roots: config.roots,
            temp,
            confinement,
            allow_network: config.allow_network,
        })
    }

    /// The confinement applied to every command, `None` when running unconfined.
    pub fn confinement(&self) -> Option<ConfinementKind> {
        self.confinement
    }

    /// The masker for this shell's roots.
    pub(crate) fn masker(&self) -> &PathMasker {
        &self.masker
    }

    /// Whether commands may use the network.
    pub fn allows_network(&self) -> bool {
        self.allow_network
    }

    /// The private temp folder (`TMPDIR`), writable by the shell.
    pub fn temp_dir(&self) -> &Path {
        self.temp.path()
    }

    /// Masks host root paths in `text` to virtual ones.
    pub fn mask(&self, text: &str) -> String {
        self.masker.mask(text)
    }

    fn policy(&self) -> ConfinePolicy {
        let mut writable: Vec<PathBuf> = Vec::new();
        let mut read_only = Vec::new();
        for (_, host, rw) in self.roots.all() {
            if rw {
                writable.push(host.to_path_buf());
            } else {
                read_only.push(host.to_path_buf());
            }
        }
        writable.push(self.temp.path().to_path_buf());
        ConfinePolicy {
            writable,
            read_only,
            allow_network: self.allow_network,
        }
    }

    /// Starts `bash -c command`, confined, in its own process group.
    pub(crate) async fn spawn(&self, command: &str) -> Result<Spawned, ShellError> {
        let (read, write) = nix::unistd::pipe2(OFlag::O_CLOEXEC).map_err(|e| ShellError::Io {
            op: "creating the output pipe",
            source: e.into(),
        })?;
        let spec = SpawnSpec {
            command: command.to_string(),
            cwd: self.roots.workspace.clone(),
            env: scrubbed_env(std::env::vars_os(), &self.roots.workspace, self.temp.path()),
            output: write,
            policy: self.policy(),
            confinement: self.confinement,
        };
        let runtime = tokio::runtime::Handle::current();
        let (tx, rx) = tokio::sync::oneshot::channel();
        // A fresh thread per command: confinement applied to it cannot be lifted, and it ends
        // right after the spawn.
        std::thread::Builder::new()
            .name("workbench-shell-spawn".into())
            .spawn(move || {
                let _entered = runtime.enter();
                let _ = tx.send(spec.spawn_in_this_thread());
            })
            .map_err(io("starting the spawn thread"))?;
        let child = rx.await.map_err(|_| ShellError::Io {
            op: "spawning the shell",
            source: std::io::Error::other("the spawn thread ended without an answer"),
        })??;
        let group = ProcessGroup {
            pgid: child.id().and_then(|id| i32::try_from(id).ok()),
        };
        let output = pipe::Receiver::from_owned_fd(read).map_err(io("reading the output pipe"))?;
        Ok(Spawned {
            child,
            group,
            output,
        })
    }

    /// Runs `command` to its end, `timeout`, or `cancel`, killing its whole process group in
    /// the last two cases (and any process it left behind in the first).
    pub async fn run(
        &self,
        command: &str,
        timeout: Duration,
        cancel: &CancellationToken,
    ) -> Result<ShellOutcome, ShellError> {
        let started = Instant::now();
        let Spawned {
            mut child,
            mut group,
            output,
        } = self.spawn(command).await?;
        let capture = Arc::new(Mutex::new(HeadTail::default()));
        let sink = capture.clone();
        let mut reader = tokio::spawn(pump(output, move |bytes| {
            if let Ok(mut c) = sink.lock() {
                c.push(bytes);
            }
        }));

        let mut timed_out = false;
        let mut cancelled = false;
        let waited = tokio::select! {
            status = child.wait() => Some(status),
            _ = tokio::time::sleep(timeout) => { timed_out = true; None }
            _ = cancel.cancelled() => { cancelled = true; None }
        };
        let elapsed = started.elapsed();
        group.kill();
        let status = match waited {
            Some(status) => status,
            None => child.wait().await,
        }
        .map_err(io("waiting for the shell"))?;
        group.disarm();
        if tokio::time::timeout(DRAIN_GRACE, &mut reader)
            .await
            .is_err()
        {
            reader.abort();
        }

        let (text, omitted) = match capture.lock() {
            Ok(c) => (c.render(), c.omitted()),
            Err(_) => (String::new(), 0),
        };
        let (exit_code, signal) = exit_parts(status);
        Ok(ShellOutcome {
            exit_code,
            signal,
            output: self.mask(&text),
            omitted,
            timed_out,
            cancelled,
            elapsed,
        })
    }
}

/// The exit code and the killing signal of a finished process.
pub(crate) fn exit_parts(status: ExitStatus) -> (Option<i32>, Option<i32>) {
    use std::os::unix::process::ExitStatusExt;
    (status.code(), status.signal())
}

/// Reads `output` to its end, handing each chunk to `sink`.
pub(crate) async fn pump(mut output: pipe::Receiver, mut sink: impl FnMut(&[u8]) + Send) {
    let mut buf = vec![0u8; READ_CHUNK];
    loop {
        match output.read(&mut buf).await {
            Ok(0) | Err(_) => break,
            Ok(n) => sink(&buf[..n]),
        }
    }
}

/// Everything the spawn thread needs, owned.
struct SpawnSpec {
    command: String,
    cwd: PathBuf,
    env: Vec<(std::ffi::OsString, std::ffi::OsString)>,
    output: OwnedFd,
    policy: ConfinePolicy,
    confinement: Option<ConfinementKind>,
}

impl SpawnSpec {
    /// Confines this thread (when confinement is available) and spawns the shell from it, so
    /// the shell inherits the confinement.
    fn spawn_in_this_thread(self) -> Result<tokio::process::Child, ShellError> {
        if let Some(kind) = self.confinement {
            confine::apply_to_current_thread(&self.policy, kind)?;
        }
        let stderr = self
            .output
            .try_clone()
            .map_err(io("duplicating the output pipe"))?;
        let mut cmd = tokio::process::Command::new("bash");
        cmd.arg("-c")
            .arg(&self.command)
            .current_dir(&self.cwd)
            .env_clear()
            .envs(self.env)
            .stdin(Stdio::null())
            .stdout(Stdio::from(self.output))
            .stderr(Stdio::from(stderr))
            .process_group(0)
            .kill_on_drop(true);
        cmd.spawn().map_err(io("starting bash"))
    }
}
