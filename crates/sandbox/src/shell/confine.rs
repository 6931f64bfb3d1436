//! OS confinement for the shell, applied to a dedicated thread that then spawns the shell.
//!
//! Design: Landlock rulesets and seccomp filters are per *thread* on Linux and are inherited by
//! every process that thread forks, across `exec`. So the shell is spawned from a fresh,
//! short-lived thread that first confines itself ([`apply_to_current_thread`]); the app's other
//! threads stay unconfined. This needs no `pre_exec` (no `unsafe`), no helper binary to ship, and
//! no mount namespace (bubblewrap cannot run under Landlock: a Landlock domain forbids `mount`).
//!
//! What is enforced:
//! - Landlock (ABI >= 3, so `truncate` is covered): read and execute everywhere; create, write,
//!   remove, rename and truncate only beneath the writable roots and the private temp folder,
//!   plus writing to `/dev/null`-like devices. Read-only mounts are never writable.
//! - Network off: Landlock TCP bind/connect denied (ABI >= 4), and a seccomp filter refusing
//!   `socket()` for every family except `AF_UNIX` and `AF_NETLINK` (this covers UDP, raw sockets
//!   and TCP on kernels without Landlock TCP), and `io_uring_setup` (io_uring can open sockets
//!   without the `socket` syscall).
//! - Best effort on ABI >= 6: no signals to processes outside the shell's domain and no
//!   connecting to abstract UNIX sockets created outside it.
//!
//! Either everything required is enforced or the spawn fails: the Landlock status must be
//! `FullyEnforced`, never partially.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use landlock::{
    path_beneath_rules, Access, AccessFs, AccessNet, RestrictionStatus, Ruleset, RulesetAttr,
    RulesetCreatedAttr, RulesetStatus, Scope, ABI,
};
use seccompiler::{
    BpfProgram, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter,
    SeccompRule,
};

/// Landlock ABI whose filesystem rights we require: V3 adds `truncate`, without which a file
/// outside the roots could be emptied through `truncate(2)`.
const FS_ABI: ABI = ABI::V3;
/// First Landlock ABI with TCP bind/connect rules.
const NET_ABI: ABI = ABI::V4;
/// First Landlock ABI with scopes (signals, abstract UNIX sockets).
const SCOPE_ABI: ABI = ABI::V6;
/// Devices a shell legitimately writes to (`> /dev/null`); writing them cannot reach a file.
const WRITABLE_DEVICES: &[&str] = &["/dev/null", "/dev/zero", "/dev/full", "/dev/tty"];

/// Why the shell could not be confined.
#[derive(Debug, thiserror::Error)]
pub enum ConfineError {
    /// The kernel lacks Landlock or a feature the policy needs.
    #[error("Landlock is not fully enforced on this kernel ({0})")]
    NotEnforced(String),
    /// Building or applying the Landlock ruleset failed.
    #[error("applying Landlock failed: {0}")]
    Landlock(#[from] landlock::RulesetError),
    /// A root to allow could not be opened.
    #[error("cannot open {path} for the Landlock rule: {source}")]
    Root {
        path: PathBuf,
        source: std::io::Error,
    },
    /// Landlock cannot forbid a folder beneath an allowed one.
    #[error(
        "read-only mount {0} lies inside a writable folder; Landlock cannot keep it read-only"
    )]
    ReadOnlyInsideWritable(PathBuf),
    /// Building or installing the seccomp filter failed.
    #[error("applying the seccomp network filter failed: {0}")]
    Seccomp(String),
}

/// What confinement this machine gives the shell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ConfinementKind {
    /// The Landlock ABI the kernel offers (as far as the `landlock` crate knows).
    pub landlock_abi: i32,
}

impl ConfinementKind {
    /// The label the host-shell gate and the visibility report show.
    pub fn label(&self) -> String {
        if self.landlock_abi >= NET_ABI as i32 {
            "landlock+seccomp-net".into()
        } else {
            "landlock(fs)+seccomp-net".into()
        }
    }
}

/// Detection of the confinement available here.
pub struct Confinement;

impl Confinement {
    /// The confinement this machine offers the shell, or `None` when the shell would run
    /// unconfined. Probed once per process in a throwaway thread.
    pub fn detect() -> Option<ConfinementKind> {
        static DETECTED: OnceLock<Option<ConfinementKind>> = OnceLock::new();
        *DETECTED.get_or_init(|| {
            let probe = std::thread::Builder::new()
                .name("workbench-confine-probe".into())
                .spawn(probe_in_this_thread);
            match probe.map(|h| h.join()) {
                Ok(Ok(kind)) => kind,
                _ => None,
            }
        })
    }
}

/// Confines the calling (throwaway) thread with a minimal ruleset to learn the ABI, then
/// checks that the seccomp filter installs.
fn probe_in_this_thread() -> Option<ConfinementKind> {
    let status = Ruleset::default()
        .handle_access(AccessFs::from_all(ABI::V1))
        .and_then(|r| r.create())
        .and_then(|r| r.restrict_self())
        .ok()?;
    let abi = effective_abi(&status)?;
    if abi < FS_ABI as i32 || status.ruleset != RulesetStatus::FullyEnforced {
        tracing::info!(abi, "Landlock too old or not enforced; shell unconfined");
        return None;
    }
    if let Err(e) = install_network_filter() {
        tracing::info!(error = %e, "seccomp unavailable; shell unconfined");
        return None;
    }
    Some(ConfinementKind { landlock_abi: abi })
}

fn effective_abi(status: &RestrictionStatus) -> Option<i32> {
    match status.landlock {
        landlock::LandlockStatus::Available { effective_abi, .. } => Some(effective_abi as i32),
        _ => None,
    }
}

/// What the shell may touch.
#[derive(Debug, Clone)]
pub(crate) struct ConfinePolicy {
    /// Folders the shell may write beneath (the thread's writable roots and its temp folder).
    pub writable: Vec<PathBuf>,
    /// Read-only mounts: only checked not to lie beneath a writable folder.
    pub read_only: Vec<PathBuf>,
    /// Leave the network alone.
    pub allow_network: bool,
}

impl ConfinePolicy {
    /// Refuses policies Landlock cannot express (a read-only folder inside a writable one).
    fn validate(&self) -> Result<(), ConfineError> {
        for ro in &self.read_only {
            let ro_real = canonical(ro);
            if self
                .writable
                .iter()
                .any(|w| ro_real.starts_with(canonical(w)))
            {
                return Err(ConfineError::ReadOnlyInsideWritable(ro.clone()));
            }
        }
        Ok(())
    }
}

fn canonical(p: &Path) -> PathBuf {
    p.canonicalize().unwrap_or_else(|_| p.to_path_buf())
}

/// Confines the calling thread (and every process it spawns afterwards) by `policy`.
/// Call only from a dedicated thread: the confinement cannot be lifted.
pub(crate) fn apply_to_current_thread(
    policy: &ConfinePolicy,
    kind: ConfinementKind,
) -> Result<(), ConfineError> {
    policy.validate()?;
    let abi = ABI::from(kind.landlock_abi);
    let block_tcp = !policy.allow_network && kind.landlock_abi >= NET_ABI as i32;

    let mut ruleset = Ruleset::default().handle_access(AccessFs::from_all(FS_ABI))?;
    if block_tcp {
        ruleset = ruleset.handle_access(AccessNet::from_all(NET_ABI))?;
    }
    let mut created = ruleset
        .create()?
        .add_rules(path_beneath_rules(["/"], AccessFs::from_read(FS_ABI)))?;
    for dir in &policy.writable {
        let fd = landlock::PathFd::new(dir).map_err(|e| ConfineError::Root {
            path: dir.clone(),
            source: std::io::Error::other(e.to_string()),
        })?;
        created = created.add_rule(landlock::PathBeneath::new(fd, AccessFs::from_all(FS_ABI)))?;
    }
    let devices: Vec<&str> = WRITABLE_DEVICES
        .iter()
        .copied()
        .filter(|d| Path::new(d).exists())
        .collect();
    created = created.add_rules(path_beneath_rules(
        devices,
        AccessFs::ReadFile | AccessFs::WriteFile,
    ))?;
    let status = created.restrict_self()?;
    if status.ruleset != RulesetStatus::FullyEnforced {
        return Err(ConfineError::NotEnforced(format!("{:?}", status.ruleset)));
    }

    if abi >= SCOPE_ABI {
        // Best effort by design: the required ruleset above is already fully enforced.
        let scoped = Ruleset::default()
            .scope(Scope::from_all(SCOPE_ABI))
            .and_then(|r| r.create())
            .and_then(|r| r.restrict_self());
        if let Err(e) = scoped {
            tracing::debug!(error = %e, "Landlock scopes not applied");
        }
    }
    if !policy.allow_network {
        install_network_filter()?;
    }
    Ok(())
}

/// Installs, on the calling thread, the seccomp filter that refuses network sockets.
fn install_network_filter() -> Result<(), ConfineError> {
    let err = |e: seccompiler::BackendError| ConfineError::Seccomp(e.to_string());
    let arch = std::env::consts::ARCH
        .try_into()
        .map_err(|e: seccompiler::BackendError| ConfineError::Seccomp(e.to_string()))?;
    // socket(domain, ..) is refused unless domain is AF_UNIX or AF_NETLINK (conditions AND).
    let local_only = SeccompRule::new(vec![
        SeccompCondition::new(
            0,
            SeccompCmpArgLen::Dword,
            SeccompCmpOp::Ne,
            libc::AF_UNIX as u64,
        )
        .map_err(err)?,
        SeccompCondition::new(
            0,
            SeccompCmpArgLen::Dword,
            SeccompCmpOp::Ne,
            libc::AF_NETLINK as u64,
        )
        .map_err(err)?,
    ])
    .map_err(err)?;
    let mut rules = BTreeMap::new();
    rules.insert(libc::SYS_socket, vec![local_only]);
    // An empty rule list matches the syscall unconditionally.
    rules.insert(libc::SYS_io_uring_setup, vec![]);
    let filter = SeccompFilter::new(
        rules,
        SeccompAction::Allow,
        SeccompAction::Errno(libc::EACCES as u32),
        arch,
    )
    .map_err(err)?;
    let program: BpfProgram = filter.try_into().map_err(err)?;
    seccompiler::apply_filter(&program).map_err(|e| ConfineError::Seccomp(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_read_only_mount_inside_a_writable_root_is_refused() {
        let dir = tempfile::tempdir().expect("tempdir");
        let inner = dir.path().join("ro");
        std::fs::create_dir(&inner).expect("mkdir");
        let policy = ConfinePolicy {
            writable: vec![dir.path().to_path_buf()],
            read_only: vec![inner],
            allow_network: false,
        };
        assert!(matches!(
            policy.validate(),
            Err(ConfineError::ReadOnlyInsideWritable(_))
        ));
    }

    #[test]
    fn the_label_names_the_mechanisms() {
        assert_eq!(
            ConfinementKind { landlock_abi: 7 }.label(),
            "landlock+seccomp-net"
        );
    }
}
