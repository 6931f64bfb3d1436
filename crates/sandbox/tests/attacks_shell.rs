//! Attempts to write outside the thread's folders, or to reach the network, through the
//! `bash` tool. Every attempt must leave the files outside byte-for-byte untouched (and the
//! loopback listeners must see nothing) while the network is off.
//!
//! These run only where `Confinement::detect()` finds confinement; elsewhere each test prints
//! why it did not run.

use std::collections::BTreeMap;
use std::io::ErrorKind;
use std::net::{TcpListener, UdpSocket};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use tokio_util::sync::CancellationToken;
use workbench_core::tools::{Tool, ToolContext};
use workbench_sandbox::shell::{BashTool, Confinement, JobTable, Shell, ShellConfig};
use workbench_sandbox::{Mount, ThreadRoots};

/// Bytes every outside file starts with.
const ORIGINAL: &[u8] = b"original content\n";

struct Arena {
    _dir: tempfile::TempDir,
    base: PathBuf,
    outside: PathBuf,
    read_only: PathBuf,
    roots: ThreadRoots,
    bash: BashTool,
}

fn confined() -> bool {
    match Confinement::detect() {
        Some(kind) => {
            println!("confinement: {}", kind.label());
            true
        }
        None => {
            println!("SKIPPED: Confinement::detect() found no OS confinement on this machine");
            false
        }
    }
}

/// base/{outside/, ro/ (a read-only mount), thread/{workspace,uploads,outputs}/}.
fn arena(allow_network: bool) -> Arena {
    let dir = tempfile::tempdir().expect("tempdir");
    let base = dir.path().canonicalize().expect("canonical");
    let outside = base.join("outside");
    let read_only = base.join("ro");
    for d in [&outside, &read_only, &outside.join("sub")] {
        std::fs::create_dir_all(d).expect("mkdir");
    }
    std::fs::write(outside.join("secret.txt"), ORIGINAL).expect("write");
    std::fs::write(outside.join("sub/deep.txt"), ORIGINAL).expect("write");
    std::fs::write(read_only.join("keep.txt"), ORIGINAL).expect("write");
    let mut roots = ThreadRoots::under(&base.join("thread"));
    roots.mounts.push(Mount {
        name: "ro".into(),
        host: read_only.clone(),
        read_only: true,
    });
    roots.create().expect("roots");
    let shell = Arc::new(
        Shell::new(ShellConfig {
            roots: roots.clone(),
            allow_network,
            allow_unconfined: false,
        })
        .expect("confined shell"),
    );
    let bash = BashTool::new(shell, Arc::new(JobTable::new()));
    Arena {
        _dir: dir,
        base,
        outside,
        read_only,
        roots,
        bash,
    }
}

/// Every file and folder under `base` except the thread's writable roots' contents, with
/// file bytes.
fn snapshot(a: &Arena) -> BTreeMap<PathBuf, Option<Vec<u8>>> {
    fn walk(dir: &Path, skip: &[&Path], out: &mut BTreeMap<PathBuf, Option<Vec<u8>>>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for e in entries.flatten() {
            let p = e.path();
            let meta = std::fs::symlink_metadata(&p).expect("meta");
            if meta.is_dir() {
                out.insert(p.clone(), None);
                if !skip.contains(&p.as_path()) {
                    walk(&p, skip, out);
                }
            } else {
                out.insert(p.clone(), std::fs::read(&p).ok());
            }
        }
    }
    let mut out = BTreeMap::new();
    let skip = [
        a.roots.workspace.as_path(),
        a.roots.uploads.as_path(),
        a.roots.outputs.as_path(),
    ];
    walk(&a.base, &skip, &mut out);
    out
}

async fn run(a: &Arena, command: &str) -> (bool, String) {
    let ctx = ToolContext {
        thread_id: "t".into(),
        run_id: "r".into(),
        call_id: "c".into(),
        cancel: CancellationToken::new(),
    };
    let args = serde_json::json!({ "command": command, "timeout_secs": 20 });
    match a.bash.call(args, &ctx).await {
        Ok(out) => (out.is_error, out.content),
        Err(e) => (true, e.to_string()),
    }
}

/// Runs `command` (with `{OUT}`, `{RO}`, `{BASE}` replaced by host paths), waits `settle` for
/// anything it left behind, and asserts nothing outside changed. `must_fail`: the command's own
/// exit code must be non-zero (it tried and was refused).
async fn attack(a: &Arena, name: &str, command: &str, must_fail: bool, settle: Duration) {
    let before = snapshot(a);
    let command = command
        .replace("{OUT}", &a.outside.to_string_lossy())
        .replace("{RO}", &a.read_only.to_string_lossy())
        .replace("{BASE}", &a.base.to_string_lossy());
    let (is_error, text) = run(a, &command).await;
    tokio::time::sleep(settle).await;
    let after = snapshot(a);
    assert_eq!(
        before, after,
        "attack {name:?} changed files outside the roots\ncommand: {command}\noutput: {text}"
    );
    if must_fail {
        assert!(
            !is_error && !text.ends_with("[exit code: 0]"),
            "attack {name:?} was not refused\ncommand: {command}\noutput: {text}"
        );
    }
    println!("blocked {name}: {}", text.lines().next().unwrap_or(""));
}

const NOW: Duration = Duration::ZERO;

#[tokio::test]
async fn writes_outside_the_roots_are_refused() {
    if !confined() {
        return;
    }
    let a = arena(false);
    let home = std::env::var("HOME").unwrap_or_else(|_| "/root".into());
    let home_marker = PathBuf::from(&home).join(".workbench-attack-marker");
    let attacks: &[(&str, &str, bool)] = &[
        ("redirect overwrite", "echo pwned > {OUT}/secret.txt", true),
        ("redirect append", "echo pwned >> {OUT}/secret.txt", true),
        ("redirect new file", "echo pwned > {OUT}/new.txt", true),
        ("cp", "echo x > w.txt && cp w.txt {OUT}/copied.txt", true),
        (
            "cp over",
            "echo x > w.txt && cp w.txt {OUT}/secret.txt",
            true,
        ),
        ("mv out", "echo x > w.txt && mv w.txt {OUT}/moved.txt", true),
        ("mv in (steal)", "mv {OUT}/secret.txt ./stolen.txt", true),
        ("rm", "rm -f {OUT}/secret.txt", true),
        ("rm -rf dir", "rm -rf {OUT}/sub", true),
        ("mkdir", "mkdir {OUT}/newdir", true),
        ("cd .. && touch", "cd .. && cd .. && touch pwned", true),
        ("write thread folder", "touch ../pwned", true),
        (
            "symlink file",
            "ln -s {OUT}/secret.txt l && echo pwned > l",
            true,
        ),
        (
            "symlink dir",
            "ln -s {OUT} d && echo pwned > d/new.txt",
            true,
        ),
        ("hardlink", "ln {OUT}/secret.txt h && echo pwned >> h", true),
        (
            "proc self root",
            "echo pwned > /proc/self/root{OUT}/secret.txt",
            true,
        ),
        (
            "proc self cwd",
            "cd {OUT} && echo pwned > /proc/self/cwd/secret.txt",
            true,
        ),
        (
            "python open",
            "python3 -c \"open('{OUT}/secret.txt','w').write('pwned')\"",
            true,
        ),
        (
            "python rename",
            "python3 -c \"import os; os.rename('{OUT}/secret.txt', 'x')\"",
            true,
        ),
        ("tee", "echo pwned | tee {OUT}/secret.txt", true),
        (
            "dd notrunc",
            "dd if=/dev/zero of={OUT}/secret.txt bs=1 count=4 conv=notrunc",
            true,
        ),
        ("truncate", "truncate -s 0 {OUT}/secret.txt", true),
        ("sed -i", "sed -i s/original/pwned/ {OUT}/secret.txt", true),
        ("mkfifo", "mkfifo {OUT}/fifo", true),
        ("read-only mount write", "echo pwned > {RO}/keep.txt", true),
        ("read-only mount rm", "rm -f {RO}/keep.txt", true),
        ("read-only mount new", "touch {RO}/new.txt", true),
        (
            "read-only mount via ..",
            "cd ../../ro && echo pwned > keep.txt",
            true,
        ),
        (
            "tmp outside private temp",
            "echo pwned > {BASE}/tmpfile",
            true,
        ),
        (
            "home-looking path",
            &format!("mkdir -p ~/x && touch {}", home_marker.display()),
            true,
        ),
        (
            "bash -p / sh",
            "sh -c 'echo pwned > {OUT}/secret.txt'",
            true,
        ),
        (
            "perl",
            "perl -e 'open(F, \">{OUT}/secret.txt\") or exit 1; print F \"pwned\"'",
            true,
        ),
    ];
    for (name, command, must_fail) in attacks {
        attack(&a, name, command, *must_fail, NOW).await;
    }
    assert!(!home_marker.exists(), "wrote {}", home_marker.display());
    assert_eq!(
        std::fs::read(a.outside.join("secret.txt")).expect("read"),
        ORIGINAL
    );
    println!("{} write attacks blocked", attacks.len());
}

#[tokio::test]
async fn processes_left_behind_stay_confined() {
    if !confined() {
        return;
    }
    let a = arena(false);
    let settle = Duration::from_millis(2500);
    attack(
        &a,
        "background subshell",
        "( sleep 1; echo pwned > {OUT}/late.txt ) & echo started",
        false,
        settle,
    )
    .await;
    attack(
        &a,
        "setsid escapes the group",
        "setsid sh -c 'sleep 1; echo pwned > {OUT}/late2.txt; echo pwned > {OUT}/secret.txt' \
         >/dev/null 2>&1 & echo started",
        false,
        settle,
    )
    .await;
    attack(
        &a,
        "nohup",
        "nohup sh -c 'sleep 1; echo pwned > {OUT}/late3.txt' >/dev/null 2>&1 & echo started",
        false,
        settle,
    )
    .await;
}

#[tokio::test]
async fn signals_to_processes_outside_are_refused() {
    if !confined() {
        return;
    }
    let Some(kind) = Confinement::detect() else {
        return;
    };
    if kind.landlock_abi < 6 {
        println!(
            "SKIPPED: Landlock signal scoping needs ABI 6, this kernel has {}",
            kind.landlock_abi
        );
        return;
    }
    let a = arena(false);
    // SIGCONT is harmless if it were delivered; the test process is outside the domain.
    let (_, text) = run(&a, &format!("kill -CONT {}", std::process::id())).await;
    assert!(!text.ends_with("[exit code: 0]"), "{text}");
}

/// Loopback listeners; `connections()` counts what reached them.
struct Listeners {
    tcp: TcpListener,
    udp: UdpSocket,
}

impl Listeners {
    fn new() -> Self {
        let tcp = TcpListener::bind("127.0.0.1:0").expect("tcp bind");
        tcp.set_nonblocking(true).expect("nonblocking");
        let udp = UdpSocket::bind("127.0.0.1:0").expect("udp bind");
        udp.set_nonblocking(true).expect("nonblocking");
        Self { tcp, udp }
    }

    fn tcp_port(&self) -> u16 {
        self.tcp.local_addr().expect("addr").port()
    }

    fn udp_port(&self) -> u16 {
        self.udp.local_addr().expect("addr").port()
    }

    fn tcp_connections(&self) -> usize {
        let mut n = 0;
        loop {
            match self.tcp.accept() {
                Ok(_) => n += 1,
                Err(e) if e.kind() == ErrorKind::WouldBlock => return n,
                Err(e) => panic!("accept: {e}"),
            }
        }
    }

    fn udp_datagrams(&self) -> usize {
        let mut buf = [0u8; 64];
        let mut n = 0;
        loop {
            match self.udp.recv_from(&mut buf) {
                Ok(_) => n += 1,
                Err(e) if e.kind() == ErrorKind::WouldBlock => return n,
                Err(e) => panic!("recv: {e}"),
            }
        }
    }
}

fn network_attacks(tcp: u16, udp: u16) -> Vec<(&'static str, String)> {
    vec![
        ("curl", format!("curl -sS -m 3 http://127.0.0.1:{tcp}/")),
        (
            "python tcp",
            format!(
                "python3 -c \"import socket; socket.create_connection(('127.0.0.1', {tcp}), \
                 timeout=3)\""
            ),
        ),
        (
            "bash /dev/tcp",
            format!("exec 3<>/dev/tcp/127.0.0.1/{tcp} && echo hi >&3"),
        ),
        (
            "python udp",
            format!(
                "python3 -c \"import socket; s=socket.socket(socket.AF_INET, \
                 socket.SOCK_DGRAM); s.sendto(b'x', ('127.0.0.1', {udp}))\""
            ),
        ),
        (
            "python ipv6 tcp",
            format!(
                "python3 -c \"import socket; socket.create_connection(('::ffff:127.0.0.1', \
                 {tcp}), timeout=3)\""
            ),
        ),
    ]
}

#[tokio::test]
async fn the_network_is_off_unless_allowed() {
    if !confined() {
        return;
    }
    let listeners = Listeners::new();
    let (tcp, udp) = (listeners.tcp_port(), listeners.udp_port());

    let off = arena(false);
    for (name, command) in network_attacks(tcp, udp) {
        let (is_error, text) = run(&off, &command).await;
        assert!(
            !is_error && !text.ends_with("[exit code: 0]"),
            "network attack {name:?} was not refused: {text}"
        );
        assert_eq!(
            listeners.tcp_connections(),
            0,
            "{name} reached the TCP listener"
        );
        assert_eq!(
            listeners.udp_datagrams(),
            0,
            "{name} reached the UDP listener"
        );
        println!("blocked {name}: {}", text.lines().next().unwrap_or(""));
    }

    // The same commands work once the user allows the network (IPv6-mapped may be off here).
    let on = arena(true);
    for (name, command) in network_attacks(tcp, udp)
        .into_iter()
        .filter(|(name, _)| *name != "python ipv6 tcp")
    {
        let (_, text) = run(&on, &command).await;
        let reached = listeners.tcp_connections() + listeners.udp_datagrams();
        assert!(
            reached >= 1,
            "{name} with network allowed did not connect: {text}"
        );
    }
}

/// A thread whose workspace is a host folder mounted read-only, with a read-write mount and a
/// read-only mount beside it: base/{outside/, proj/ (workspace, ro), rw/ (mount, rw),
/// ro/ (mount, ro), thread/{uploads,outputs}/}.
struct MountArena {
    _dir: tempfile::TempDir,
    base: PathBuf,
    proj: PathBuf,
    rw: PathBuf,
    ro: PathBuf,
    outside: PathBuf,
    roots: ThreadRoots,
    bash: BashTool,
}

fn mount_arena() -> MountArena {
    use workbench_sandbox::MountSpec;
    let dir = tempfile::tempdir().expect("tempdir");
    let base = dir.path().canonicalize().expect("canonical");
    let (proj, rw, ro, outside) = (
        base.join("proj"),
        base.join("rw"),
        base.join("ro"),
        base.join("outside"),
    );
    for d in [&proj, &rw, &ro, &outside] {
        std::fs::create_dir_all(d).expect("mkdir");
        std::fs::write(d.join("keep.txt"), ORIGINAL).expect("write");
    }
    let data = base.join("data");
    let specs = workbench_sandbox::check_mounts(
        &[
            MountSpec {
                name: None,
                host: proj.clone(),
                read_only: true,
            },
            MountSpec {
                name: Some("rw".into()),
                host: rw.clone(),
                read_only: false,
            },
            MountSpec {
                name: Some("ro".into()),
                host: ro.clone(),
                read_only: true,
            },
        ],
        &data,
    )
    .expect("valid mounts");
    let roots = ThreadRoots::with_mounts(&data.join("threads/t"), &specs);
    roots.create().expect("roots");
    let shell = Arc::new(
        Shell::new(ShellConfig {
            roots: roots.clone(),
            allow_network: false,
            allow_unconfined: false,
        })
        .expect("confined shell"),
    );
    let bash = BashTool::new(shell, Arc::new(JobTable::new()));
    MountArena {
        _dir: dir,
        base,
        proj,
        rw,
        ro,
        outside,
        roots,
        bash,
    }
}

impl MountArena {
    /// Every file under the read-only folders and outside/, with its bytes.
    fn frozen(&self) -> BTreeMap<PathBuf, Option<Vec<u8>>> {
        let mut out = BTreeMap::new();
        for d in [&self.proj, &self.ro, &self.outside] {
            collect_tree(d, &mut out);
        }
        out
    }

    async fn run(&self, command: &str, background: bool) -> (bool, String) {
        let ctx = ToolContext {
            thread_id: "t".into(),
            run_id: "r".into(),
            call_id: "c".into(),
            cancel: CancellationToken::new(),
        };
        let command = command
            .replace("{PROJ}", &self.proj.to_string_lossy())
            .replace("{RW}", &self.rw.to_string_lossy())
            .replace("{RO}", &self.ro.to_string_lossy())
            .replace("{OUT}", &self.outside.to_string_lossy())
            .replace("{BASE}", &self.base.to_string_lossy());
        let args = serde_json::json!({
            "command": command, "timeout_secs": 20, "background": background
        });
        match self.bash.call(args, &ctx).await {
            Ok(out) => (out.is_error, out.content),
            Err(e) => (true, e.to_string()),
        }
    }
}

fn collect_tree(dir: &Path, out: &mut BTreeMap<PathBuf, Option<Vec<u8>>>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        let meta = std::fs::symlink_metadata(&p).expect("meta");
        if meta.is_dir() {
            out.insert(p.clone(), None);
            collect_tree(&p, out);
        } else {
            out.insert(p.clone(), std::fs::read(&p).ok());
        }
    }
}

#[tokio::test]
async fn read_only_mounts_are_never_written_and_read_write_mounts_are() {
    if !confined() {
        return;
    }
    let a = mount_arena();
    assert_eq!(
        a.roots.workspace, a.proj,
        "the shell starts in the mounted workspace"
    );
    // The read-write mount and the thread's own folders do take writes.
    let (is_error, text) = a
        .run(
            "echo ok > {RW}/made.txt && echo ok > {RW}/../rw/made2.txt; \
             cp {RW}/made.txt {BASE}/data/threads/t/outputs/copy.txt && pwd",
            false,
        )
        .await;
    assert!(!is_error && text.ends_with("[exit code: 0]"), "{text}");
    assert!(
        text.contains("/mnt/user-data/workspace"),
        "pwd masked: {text}"
    );
    assert_eq!(std::fs::read(a.rw.join("made.txt")).expect("rw"), b"ok\n");
    assert!(a.roots.outputs.join("copy.txt").exists());

    let before = a.frozen();
    let attacks: &[(&str, &str)] = &[
        ("ro workspace: redirect in cwd", "echo pwned > keep.txt"),
        ("ro workspace: new file", "touch new.txt"),
        ("ro workspace: rm", "rm -f keep.txt"),
        ("ro workspace: mkdir", "mkdir sub"),
        ("ro mount: redirect", "echo pwned > {RO}/keep.txt"),
        ("ro mount: append", "echo pwned >> {RO}/keep.txt"),
        ("ro mount: cp over", "cp {RW}/made.txt {RO}/keep.txt"),
        ("ro mount: cp new", "cp {RW}/made.txt {RO}/new.txt"),
        ("ro mount: mv in", "mv {RW}/made.txt {RO}/moved.txt"),
        (
            "ro mount: mv out (steal)",
            "mv {RO}/keep.txt {RW}/stolen.txt",
        ),
        ("ro mount: truncate", "truncate -s 0 {RO}/keep.txt"),
        ("ro mount: sed -i", "sed -i s/original/pwned/ {RO}/keep.txt"),
        (
            "ro mount: python",
            "python3 -c \"open('{RO}/keep.txt','w').write('pwned')\"",
        ),
        (
            "ro mount: via a symlink from the rw mount",
            "ln -sfn {RO} {RW}/to_ro && echo pwned > {RW}/to_ro/keep.txt",
        ),
        (
            "ro mount: via a symlink from outputs",
            "ln -sfn {RO}/keep.txt {BASE}/data/threads/t/outputs/l && \
             echo pwned > {BASE}/data/threads/t/outputs/l",
        ),
        (
            "ro mount: hard link from the rw mount",
            "ln {RO}/keep.txt {RW}/hard && echo pwned >> {RW}/hard",
        ),
        (
            "rw mount: `..` out",
            "cd {RW} && echo pwned > ../outside/keep.txt",
        ),
        (
            "rw mount: symlink pointing out",
            "ln -sfn {OUT} {RW}/out && echo pwned > {RW}/out/keep.txt",
        ),
        (
            "rw mount: `..` into the ro mount",
            "echo pwned > {RW}/../ro/keep.txt",
        ),
    ];
    for (name, command) in attacks {
        let (_, text) = a.run(command, false).await;
        assert!(
            !text.ends_with("[exit code: 0]"),
            "{name}: the command succeeded: {text}"
        );
        assert_eq!(
            a.frozen(),
            before,
            "{name}: a read-only file changed ({text})"
        );
    }
    // A background job cannot write either, even after the call returned.
    let (is_error, text) = a
        .run(
            "sleep 1; echo pwned > {RO}/keep.txt; echo pwned > keep.txt; touch {RO}/late.txt",
            true,
        )
        .await;
    assert!(!is_error, "the job starts: {text}");
    tokio::time::sleep(Duration::from_millis(2500)).await;
    assert_eq!(a.frozen(), before, "background job wrote a read-only file");
    println!(
        "{} mount attacks and a background job blocked",
        attacks.len()
    );
}
