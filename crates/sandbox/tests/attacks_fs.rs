//! Attempts to read or write outside the thread's roots through the file and search tools.
//!
//! Layout inside one temporary folder:
//! `thread/{workspace,uploads,outputs}` (the roots), `data/` (a read-only mount) and
//! `outside/` (files the model must never read or change). Every attempt must end in a result
//! the model can read (no panic, no ToolError other than invalid arguments) that never shows
//! outside content, and the outside tree and the read-only mount must stay byte-for-byte the
//! same.
//!
//! Hard links are the one case a directory capability cannot see: a hard link made inside the
//! workspace *is* a name inside the workspace. What we guarantee (see `vpath`): reading it is
//! allowed; writing through it (replace, append, str_replace) never modifies the shared inode,
//! so the outside name keeps its bytes.

use std::collections::BTreeMap;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use serde_json::{json, Value};
use tokio_util::sync::CancellationToken;
use workbench_core::tools::{Tool, ToolContext, ToolError};
use workbench_sandbox::{file_tools, Mount, ThreadRoots};

const SECRET: &str = "TOP-SECRET-CONTENT";

struct Env {
    tmp: tempfile::TempDir,
    roots: ThreadRoots,
    tools: Vec<Arc<dyn Tool>>,
}

impl Env {
    fn new() -> Self {
        let tmp = tempfile::tempdir().expect("tempdir");
        let mut roots = ThreadRoots::under(&tmp.path().join("thread"));
        roots.create().expect("roots");
        let out = tmp.path().join("outside");
        std::fs::create_dir_all(out.join("dir")).expect("mkdir");
        std::fs::write(out.join("secret.txt"), SECRET).expect("write");
        std::fs::write(out.join("dir/inner.txt"), SECRET).expect("write");
        std::fs::write(out.join("hard.txt"), SECRET).expect("write");
        let data = tmp.path().join("data");
        std::fs::create_dir_all(&data).expect("mkdir");
        std::fs::write(data.join("ref.txt"), "read-only data").expect("write");
        symlink("../outside", data.join("escape")).expect("symlink");
        roots.mounts.push(Mount {
            name: "data".into(),
            host: data,
            read_only: true,
        });
        let ws = roots.workspace.clone();
        std::fs::write(ws.join("a.txt"), "inside").expect("write");
        // Symlinks planted before the tools run, as a shell could.
        symlink(out.join("secret.txt"), ws.join("link_abs")).expect("symlink");
        symlink("../../outside/secret.txt", ws.join("link_rel")).expect("symlink");
        symlink(&out, ws.join("sub")).expect("symlink");
        symlink("../../outside", ws.join("sub_rel")).expect("symlink");
        symlink(out.join("new.txt"), ws.join("dangling")).expect("symlink");
        symlink("l2", ws.join("l1")).expect("symlink");
        symlink(out.join("secret.txt"), ws.join("l2")).expect("symlink");
        symlink("..", ws.join("up")).expect("symlink");
        symlink(tmp.path().join("data"), ws.join("to_mount")).expect("symlink");
        let proc_link = format!("/proc/self/root{}", out.join("secret.txt").display());
        symlink(proc_link, ws.join("proc_link")).expect("symlink");
        let tools = file_tools(&roots);
        Self { tmp, roots, tools }
    }

    fn outside(&self) -> PathBuf {
        self.tmp.path().join("outside")
    }

    /// Every file under `outside/` and the read-only mount, with its bytes.
    fn snapshot(&self) -> BTreeMap<PathBuf, Vec<u8>> {
        let mut map = BTreeMap::new();
        for base in [self.outside(), self.tmp.path().join("data")] {
            collect(&base, &mut map);
        }
        map
    }

    async fn call(&self, name: &str, args: Value) -> Result<String, String> {
        let tool = self
            .tools
            .iter()
            .find(|t| t.spec().name == name)
            .expect("tool exists");
        let ctx = ToolContext {
            thread_id: "t".into(),
            run_id: "r".into(),
            call_id: "c".into(),
            cancel: CancellationToken::new(),
        };
        match tool.call(args, &ctx).await {
            Ok(out) if out.is_error => Err(out.content),
            Ok(out) => Ok(out.content),
            Err(ToolError::InvalidArguments(m)) => Err(m),
            Err(e) => panic!("{name}: a ToolError the model cannot act on: {e:?}"),
        }
    }
}

fn collect(dir: &Path, map: &mut BTreeMap<PathBuf, Vec<u8>>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        let Ok(t) = e.file_type() else { continue };
        if t.is_dir() {
            map.insert(p.clone(), b"<dir>".to_vec());
            collect(&p, map);
        } else {
            map.insert(p.clone(), std::fs::read(&p).unwrap_or_default());
        }
    }
}

/// What an attempt must produce.
enum Expect {
    /// An error result containing this text.
    Error(&'static str),
    /// A normal result that shows no outside content (searches that skip what they cannot
    /// reach).
    NoLeak,
}

struct Attack {
    what: String,
    tool: &'static str,
    args: Value,
    expect: Expect,
}

fn attack(what: &str, tool: &'static str, args: Value, expect: Expect) -> Attack {
    Attack {
        what: what.into(),
        tool,
        args,
        expect,
    }
}

/// The arguments of an `apply_patch` call whose body is `ops`.
fn patch(ops: &str) -> Value {
    json!({"patch": format!("*** Begin Patch\n{ops}\n*** End Patch")})
}

fn attacks(env: &Env) -> Vec<Attack> {
    use Expect::{Error, NoLeak};
    let secret = env.outside().join("secret.txt");
    let secret = secret.to_string_lossy().to_string();
    let parent = env
        .tmp
        .path()
        .parent()
        .expect("tempdir parent")
        .to_string_lossy()
        .to_string();
    let host_ws_file = env
        .roots
        .workspace
        .join("a.txt")
        .to_string_lossy()
        .to_string();
    let outside_glob = format!("{}/*", env.outside().display());
    vec![
        attack(
            "../ chain to a sibling",
            "read_file",
            json!({"path": "../../outside/secret.txt"}),
            Error("`..` leaves the root"),
        ),
        attack(
            "deep ../ chain to /etc",
            "read_file",
            json!({"path": "../../../../../../../../etc/passwd"}),
            Error("`..` leaves the root"),
        ),
        attack(
            "encoded %2e%2e is literal",
            "read_file",
            json!({"path": "%2e%2e/%2e%2e/outside/secret.txt"}),
            Error("was not found"),
        ),
        attack(
            "encoded slash is literal",
            "read_file",
            json!({"path": "..%2f..%2foutside%2fsecret.txt"}),
            Error("was not found"),
        ),
        attack(
            "absolute /etc/passwd",
            "read_file",
            json!({"path": "/etc/passwd"}),
            Error("is outside the sandbox"),
        ),
        attack(
            "absolute host path of an outside file",
            "read_file",
            json!({"path": secret}),
            Error("is outside the sandbox"),
        ),
        attack(
            "the tempdir's own parent",
            "ls",
            json!({"path": parent}),
            Error("is outside the sandbox"),
        ),
        attack(
            "host path of a workspace file",
            "read_file",
            json!({"path": host_ws_file}),
            Error("is outside the sandbox"),
        ),
        attack(
            "/mnt/user-data/../..",
            "read_file",
            json!({"path": "/mnt/user-data/../../etc/passwd"}),
            Error("`..` leaves the root /mnt/user-data"),
        ),
        attack(
            "root then ../ out",
            "read_file",
            json!({"path": "/mnt/user-data/workspace/../../../outside/secret.txt"}),
            Error("`..` leaves the root"),
        ),
        attack(
            "/proc/self/root",
            "read_file",
            json!({"path": format!("/proc/self/root{secret}")}),
            Error("is outside the sandbox"),
        ),
        attack(
            "symlink with an absolute target",
            "read_file",
            json!({"path": "link_abs"}),
            Error("leads outside the sandbox"),
        ),
        attack(
            "symlink with a relative target",
            "read_file",
            json!({"path": "link_rel"}),
            Error("leads outside the sandbox"),
        ),
        attack(
            "symlink chain ending outside",
            "read_file",
            json!({"path": "l1"}),
            Error("leads outside the sandbox"),
        ),
        attack(
            "symlink through /proc/self/root",
            "read_file",
            json!({"path": "proc_link"}),
            Error("leads outside the sandbox"),
        ),
        attack(
            "symlinked dir in the middle (absolute)",
            "read_file",
            json!({"path": "sub/secret.txt"}),
            Error("leads outside the sandbox"),
        ),
        attack(
            "symlinked dir in the middle (relative)",
            "read_file",
            json!({"path": "sub_rel/dir/inner.txt"}),
            Error("leads outside the sandbox"),
        ),
        attack(
            "symlink to the thread folder",
            "read_file",
            json!({"path": "up/workspace/a.txt"}),
            Error("leads outside the sandbox"),
        ),
        // `..` is applied to the virtual path before any lookup, so it never climbs out of a
        // symlink's target: this names workspace/outside/secret.txt, which does not exist.
        attack(
            "`..` after a symlink is lexical",
            "read_file",
            json!({"path": "up/../../outside/secret.txt"}),
            Error("`..` leaves the root"),
        ),
        attack(
            "`..` after a symlink stays in the root",
            "read_file",
            json!({"path": "up/../outside/secret.txt"}),
            Error("was not found"),
        ),
        attack(
            "write through an absolute symlink",
            "write_file",
            json!({"path": "link_abs", "content": "PWNED"}),
            Error("leads outside the sandbox"),
        ),
        attack(
            "append through a relative symlink",
            "write_file",
            json!({"path": "link_rel", "content": "PWNED", "append": true}),
            Error("leads outside the sandbox"),
        ),
        attack(
            "create through a dangling symlink",
            "write_file",
            json!({"path": "dangling", "content": "PWNED"}),
            Error("leads outside the sandbox"),
        ),
        attack(
            "create in a symlinked dir",
            "write_file",
            json!({"path": "sub/new.txt", "content": "PWNED"}),
            Error("leads outside the sandbox"),
        ),
        attack(
            "create parents in a symlinked dir",
            "write_file",
            json!({"path": "sub/x/y/z.txt", "content": "PWNED"}),
            Error("leads outside the sandbox"),
        ),
        attack(
            "str_replace through a symlink",
            "str_replace",
            json!({"path": "link_abs", "old_str": SECRET, "new_str": "PWNED"}),
            Error("leads outside the sandbox"),
        ),
        attack(
            "str_replace in a symlinked dir",
            "str_replace",
            json!({"path": "sub_rel/secret.txt", "old_str": SECRET, "new_str": "PWNED"}),
            Error("leads outside the sandbox"),
        ),
        attack(
            "NUL byte",
            "read_file",
            json!({"path": "a.txt\u{0}../../outside/secret.txt"}),
            Error("NUL byte"),
        ),
        attack(
            "NUL byte in a write",
            "write_file",
            json!({"path": "x\u{0}/../../outside/secret.txt", "content": "PWNED"}),
            Error("NUL byte"),
        ),
        attack(
            "very long path",
            "read_file",
            json!({"path": "a/".repeat(5000)}),
            Error("bytes long"),
        ),
        attack(
            "very long name",
            "write_file",
            json!({"path": "n".repeat(300), "content": "x"}),
            Error("too long"),
        ),
        attack(
            "write into the read-only mount",
            "write_file",
            json!({"path": "/mnt/user-data/mounts/data/ref.txt", "content": "PWNED"}),
            Error("read-only mount"),
        ),
        attack(
            "append into the read-only mount",
            "write_file",
            json!({"path": "/mnt/user-data/mounts/data/new.txt", "content": "PWNED", "append": true}),
            Error("read-only mount"),
        ),
        attack(
            "edit in the read-only mount",
            "str_replace",
            json!({"path": "/mnt/user-data/mounts/data/ref.txt", "old_str": "data", "new_str": "PWNED"}),
            Error("read-only mount"),
        ),
        attack(
            "read-only mount via a workspace symlink",
            "write_file",
            json!({"path": "to_mount/ref.txt", "content": "PWNED"}),
            Error("leads outside the sandbox"),
        ),
        attack(
            "read-only mount via ..",
            "write_file",
            json!({"path": "/mnt/user-data/mounts/data/../../../outside/x", "content": "PWNED"}),
            Error("`..` leaves the root"),
        ),
        attack(
            "apply_patch: add through ../",
            "apply_patch",
            patch("*** Add File: ../../outside/new.txt\n+PWNED"),
            Error("`..` leaves the root"),
        ),
        attack(
            "apply_patch: add at an absolute host path",
            "apply_patch",
            patch(&format!(
                "*** Add File: {}/new.txt\n+PWNED",
                env.outside().display()
            )),
            Error("is outside the sandbox"),
        ),
        attack(
            "apply_patch: add in a symlinked dir",
            "apply_patch",
            patch("*** Add File: sub/new.txt\n+PWNED"),
            Error("leads outside the sandbox"),
        ),
        attack(
            "apply_patch: add through a dangling symlink",
            "apply_patch",
            patch("*** Add File: dangling\n+PWNED"),
            Error("leads outside the sandbox"),
        ),
        attack(
            "apply_patch: add via /proc/self/root",
            "apply_patch",
            patch(&format!(
                "*** Add File: /proc/self/root{}/x\n+PWNED",
                env.outside().display()
            )),
            Error("is outside the sandbox"),
        ),
        attack(
            "apply_patch: add in the read-only mount",
            "apply_patch",
            patch("*** Add File: /mnt/user-data/mounts/data/new.txt\n+PWNED"),
            Error("read-only mount"),
        ),
        attack(
            "apply_patch: delete through an absolute symlink",
            "apply_patch",
            patch("*** Delete File: link_abs"),
            Error("leads outside the sandbox"),
        ),
        attack(
            "apply_patch: delete in a symlinked dir",
            "apply_patch",
            patch("*** Delete File: sub_rel/secret.txt"),
            Error("leads outside the sandbox"),
        ),
        attack(
            "apply_patch: delete in the read-only mount",
            "apply_patch",
            patch("*** Delete File: /mnt/user-data/mounts/data/ref.txt"),
            Error("read-only mount"),
        ),
        attack(
            "apply_patch: update through a relative symlink",
            "apply_patch",
            patch(&format!("*** Update File: link_rel\n@@\n-{SECRET}\n+PWNED")),
            Error("leads outside the sandbox"),
        ),
        attack(
            "apply_patch: update the read-only mount via a workspace symlink",
            "apply_patch",
            patch("*** Update File: to_mount/ref.txt\n@@\n-read-only data\n+PWNED"),
            Error("leads outside the sandbox"),
        ),
        attack(
            "apply_patch: move out through ../",
            "apply_patch",
            patch("*** Update File: a.txt\n*** Move to: ../../outside/moved.txt"),
            Error("`..` leaves the root"),
        ),
        attack(
            "apply_patch: move into a symlinked dir",
            "apply_patch",
            patch("*** Update File: a.txt\n*** Move to: sub/moved.txt"),
            Error("leads outside the sandbox"),
        ),
        attack(
            "apply_patch: move into the read-only mount",
            "apply_patch",
            patch("*** Update File: a.txt\n*** Move to: /mnt/user-data/mounts/data/moved.txt"),
            Error("read-only mount"),
        ),
        attack(
            "apply_patch: move out of the read-only mount",
            "apply_patch",
            patch("*** Update File: /mnt/user-data/mounts/data/ref.txt\n*** Move to: moved.txt"),
            Error("read-only mount"),
        ),
        attack(
            "apply_patch: move onto an outside file via a symlink",
            "apply_patch",
            patch("*** Update File: a.txt\n*** Move to: link_abs"),
            Error("leads outside the sandbox"),
        ),
        attack(
            "read-only mount: `..` out of the mount",
            "read_file",
            json!({"path": "/mnt/user-data/mounts/data/../../../outside/secret.txt"}),
            Error("`..` leaves the root"),
        ),
        attack(
            "read-only mount: a symlink inside it pointing out",
            "read_file",
            json!({"path": "/mnt/user-data/mounts/data/escape/secret.txt"}),
            Error("leads outside the sandbox"),
        ),
        attack(
            "read-only mount: `..` into the workspace",
            "write_file",
            json!({"path": "/mnt/user-data/mounts/data/../../workspace/x", "content": "x"}),
            Error("`..` leaves the root"),
        ),
        attack(
            "glob ../**",
            "glob",
            json!({"pattern": "../**"}),
            Error("contains `..`"),
        ),
        attack(
            "glob with an absolute pattern outside",
            "glob",
            json!({"pattern": "/etc/*"}),
            Error("is outside the sandbox"),
        ),
        attack(
            "glob with a host pattern",
            "glob",
            json!({"pattern": outside_glob}),
            Error("is outside the sandbox"),
        ),
        attack(
            "glob with path ..",
            "glob",
            json!({"pattern": "*", "path": ".."}),
            Error("`..` leaves the root"),
        ),
        attack(
            "glob into a symlinked dir",
            "glob",
            json!({"pattern": "*", "path": "sub"}),
            Error("leads outside the sandbox"),
        ),
        attack(
            "glob walking past symlinks",
            "glob",
            json!({"pattern": "**/*.txt"}),
            NoLeak,
        ),
        attack(
            "grep in /etc",
            "grep",
            json!({"pattern": "root", "path": "/etc"}),
            Error("is outside the sandbox"),
        ),
        attack(
            "grep with include ../**",
            "grep",
            json!({"pattern": "x", "include": "../**"}),
            Error("contains `..`"),
        ),
        attack(
            "grep in a symlinked dir",
            "grep",
            json!({"pattern": "SECRET", "path": "sub"}),
            Error("leads outside the sandbox"),
        ),
        attack(
            "grep a symlinked file",
            "grep",
            json!({"pattern": "SECRET", "path": "link_abs"}),
            Error("leads outside the sandbox"),
        ),
        attack(
            "grep walking past symlinks",
            "grep",
            json!({"pattern": "SECRET"}),
            NoLeak,
        ),
        attack(
            "ls a symlinked dir",
            "ls",
            json!({"path": "sub_rel"}),
            Error("leads outside the sandbox"),
        ),
        attack(
            "ls /",
            "ls",
            json!({"path": "/"}),
            Error("is outside the sandbox"),
        ),
        attack(
            "file_search in /etc",
            "file_search",
            json!({"query": "passwd", "path": "/etc"}),
            Error("is outside the sandbox"),
        ),
        attack(
            "file_search walking past symlinks",
            "file_search",
            json!({"query": "secret"}),
            NoLeak,
        ),
    ]
}

#[tokio::test]
async fn no_attempt_reads_or_writes_outside() {
    let env = Env::new();
    let before = env.snapshot();
    let list = attacks(&env);
    assert!(list.len() >= 25, "only {} attempts", list.len());
    let host_roots: Vec<String> = env
        .roots
        .all()
        .iter()
        .map(|(_, h, _)| h.to_string_lossy().to_string())
        .collect();
    for a in list {
        let res = env.call(a.tool, a.args.clone()).await;
        let text = match (&a.expect, &res) {
            (Expect::Error(want), Err(msg)) => {
                assert!(msg.contains(want), "{}: want `{want}`, got: {msg}", a.what);
                msg
            }
            (Expect::NoLeak, Ok(out)) => out,
            (_, other) => panic!("{}: unexpected {other:?}", a.what),
        };
        assert!(!text.contains(SECRET), "{}: leaked content: {text}", a.what);
        // Names under outside/ appear only when the model itself typed them.
        if !a.args.to_string().contains("inner.txt") {
            assert!(
                !text.contains("inner.txt"),
                "{}: leaked a name: {text}",
                a.what
            );
        }
        for h in &host_roots {
            assert!(!text.contains(h.as_str()), "{}: host path: {text}", a.what);
        }
        assert_eq!(env.snapshot(), before, "{}: outside changed", a.what);
    }
    assert!(!env.outside().join("new.txt").exists());
    // The sources of refused moves are still in place.
    assert_eq!(
        std::fs::read_to_string(env.roots.workspace.join("a.txt")).expect("a.txt"),
        "inside"
    );
}

#[tokio::test]
async fn hard_link_reads_but_writes_never_reach_the_shared_inode() {
    let env = Env::new();
    std::fs::hard_link(
        env.outside().join("hard.txt"),
        env.roots.workspace.join("hard.txt"),
    )
    .expect("hard link");
    let before = env.snapshot();
    // Reading: the link is a name inside the workspace, so it reads (documented guarantee).
    let out = env
        .call("read_file", json!({"path": "hard.txt"}))
        .await
        .expect("read");
    assert!(out.contains(SECRET), "{out}");
    // Writing in every way succeeds inside the workspace and leaves the outside name alone.
    env.call("write_file", json!({"path": "hard.txt", "content": "mine"}))
        .await
        .expect("replace");
    assert_eq!(env.snapshot(), before, "replace changed the outside file");
    std::fs::remove_file(env.roots.workspace.join("hard.txt")).expect("rm");
    std::fs::hard_link(
        env.outside().join("hard.txt"),
        env.roots.workspace.join("hard.txt"),
    )
    .expect("relink");
    env.call(
        "write_file",
        json!({"path": "hard.txt", "content": "+more", "append": true}),
    )
    .await
    .expect("append");
    assert_eq!(env.snapshot(), before, "append changed the outside file");
    let got = std::fs::read_to_string(env.roots.workspace.join("hard.txt")).expect("read");
    assert_eq!(got, format!("{SECRET}+more"));
    std::fs::remove_file(env.roots.workspace.join("hard.txt")).expect("rm");
    std::fs::hard_link(
        env.outside().join("hard.txt"),
        env.roots.workspace.join("hard.txt"),
    )
    .expect("relink");
    env.call(
        "str_replace",
        json!({"path": "hard.txt", "old_str": "SECRET", "new_str": "public"}),
    )
    .await
    .expect("edit");
    assert_eq!(
        env.snapshot(),
        before,
        "str_replace changed the outside file"
    );
}

#[tokio::test]
async fn a_fifo_is_refused_without_hanging() {
    let env = Env::new();
    let fifo = env.roots.workspace.join("pipe");
    let status = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo");
    assert!(status.success());
    let e = env
        .call("read_file", json!({"path": "pipe"}))
        .await
        .expect_err("refused");
    assert!(e.contains("not a regular file"), "{e}");
    let e = env
        .call("write_file", json!({"path": "pipe", "content": "x"}))
        .await
        .expect_err("refused");
    assert!(e.contains("not a regular file"), "{e}");
}

/// A thread keeps swapping `race` between a real folder and a symlink to `outside/` while
/// the tools write and read through `race/`. No write may land outside and no read may
/// return outside content, whatever the timing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_symlink_swapped_in_during_writes_never_escapes() {
    let env = Env::new();
    let before = env.snapshot();
    let ws = env.roots.workspace.clone();
    let outside = env.outside();
    let stop = Arc::new(AtomicBool::new(false));
    let swapper = {
        let stop = Arc::clone(&stop);
        let ws = ws.clone();
        std::thread::spawn(move || {
            let race = ws.join("race");
            let real = ws.join("race_real");
            let link = ws.join("race_link");
            std::fs::create_dir_all(&real).expect("mkdir");
            let mut swaps = 0u64;
            while !stop.load(Ordering::Relaxed) {
                // Atomic swaps via rename: `race` is always either the folder or the symlink.
                let _ = std::fs::remove_file(&link);
                let _ = symlink(&outside, &link);
                let _ = std::fs::rename(&link, &race);
                std::thread::yield_now();
                let _ = std::fs::remove_file(&race);
                let _ = std::fs::rename(&real, &race);
                std::thread::yield_now();
                let _ = std::fs::rename(&race, &real);
                swaps += 1;
            }
            swaps
        })
    };
    let mut written = 0;
    for i in 0..400 {
        let res = env
            .call(
                "write_file",
                json!({"path": "race/secret.txt", "content": format!("PWNED {i}")}),
            )
            .await;
        if res.is_ok() {
            written += 1;
        }
        let _ = env
            .call(
                "write_file",
                json!({"path": "race/dir/inner.txt", "content": "PWNED", "append": true}),
            )
            .await;
        if let Ok(out) = env
            .call("read_file", json!({"path": "race/secret.txt"}))
            .await
        {
            assert!(!out.contains(SECRET), "read outside content: {out}");
        }
        if let Ok(out) = env
            .call("grep", json!({"pattern": "SECRET", "path": "race"}))
            .await
        {
            assert!(!out.contains(SECRET), "grep read outside content: {out}");
        }
    }
    stop.store(true, Ordering::Relaxed);
    let swaps = swapper.join().expect("swapper");
    assert!(swaps > 0);
    assert_eq!(env.snapshot(), before, "a racing write reached outside");
    // Some writes landed in the real folder: the race was live, not always refused.
    eprintln!("race: {swaps} swaps, {written} of 400 writes landed inside");
}
