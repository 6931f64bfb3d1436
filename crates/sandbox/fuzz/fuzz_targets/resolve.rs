//! Fuzzes the path resolver: any byte string, taken as a model path, either fails or names
//! something inside the root it resolved to, however it is then opened.
//!
//! The fixture (made once per process) is a thread's roots with a read-only mount, plus an
//! `outside/` folder beside them, and symbolic links in the workspace pointing inside, outside
//! (absolute, relative, through `..`, through `/proc/self/root`), into the mount, and in loops.
//! For every input the target resolves the path, then opens it through the capability as a
//! file and as a folder, and asks the kernel (`/proc/self/fd`) where the opened descriptor
//! really is: that place must lie beneath the root's real folder.
#![no_main]

use std::os::fd::AsRawFd;
use std::os::unix::fs::symlink;
use std::path::{Component, Path, PathBuf};
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use workbench_sandbox::{Mount, ThreadRoots, VirtualFs, VIRTUAL_ROOT};

struct Fixture {
    _tmp: tempfile::TempDir,
    vfs: VirtualFs,
    /// The real (canonical) host folder of each root, in `ThreadRoots::all` order.
    real_roots: Vec<PathBuf>,
}

fn fixture() -> &'static Fixture {
    static FIXTURE: OnceLock<Fixture> = OnceLock::new();
    FIXTURE.get_or_init(|| {
        let tmp = tempfile::tempdir().expect("tempdir");
        let base = tmp.path();
        let mut roots = ThreadRoots::under(&base.join("thread"));
        roots.create().expect("roots");
        let outside = base.join("outside");
        std::fs::create_dir_all(outside.join("deep")).expect("outside");
        std::fs::write(outside.join("secret.txt"), "secret").expect("secret");
        let data = base.join("data");
        std::fs::create_dir_all(data.join("sub")).expect("data");
        std::fs::write(data.join("ref.txt"), "ref").expect("ref");
        symlink("../outside", data.join("escape")).expect("link");
        roots.mounts.push(Mount {
            name: "data".into(),
            host: data.clone(),
            read_only: true,
        });
        let ws = &roots.workspace;
        std::fs::create_dir_all(ws.join("src/nested")).expect("src");
        std::fs::write(ws.join("a.txt"), "a").expect("a");
        std::fs::write(ws.join("src/main.rs"), "fn main() {}").expect("main");
        let links: [(&str, PathBuf); 13] = [
            ("in_file", "a.txt".into()),
            ("in_dir", "src".into()),
            ("in_up", "src/../a.txt".into()),
            ("out_abs", outside.join("secret.txt")),
            ("out_dir", outside.clone()),
            ("out_rel", "../../outside/secret.txt".into()),
            ("up", "..".into()),
            ("root", "/".into()),
            (
                "proc",
                PathBuf::from(format!("/proc/self/root{}", outside.display())),
            ),
            ("to_mount", data.clone()),
            ("loop_a", "loop_b".into()),
            ("loop_b", "loop_a".into()),
            ("dangling", outside.join("missing")),
        ];
        for (name, target) in links {
            symlink(target, ws.join(name)).expect("symlink");
        }
        symlink("../../../outside", ws.join("src/nested/deep_out")).expect("symlink");
        symlink("../..", ws.join("src/nested/to_ws")).expect("symlink");
        let vfs = VirtualFs::open(&roots);
        let real_roots = roots
            .all()
            .iter()
            .map(|(_, host, _)| host.canonicalize().expect("canonical root"))
            .collect();
        Fixture {
            _tmp: tmp,
            vfs,
            real_roots,
        }
    })
}

/// Where an open descriptor really is, as the kernel says.
fn fd_path(fd: i32) -> PathBuf {
    std::fs::read_link(format!("/proc/self/fd/{fd}")).expect("readlink of an open fd")
}

fn assert_inside(f: &Fixture, root: usize, opened: &Path, input: &str) {
    let real_root = &f.real_roots[root];
    assert!(
        opened.starts_with(real_root),
        "{input:?} opened {} outside its root {}",
        opened.display(),
        real_root.display()
    );
}

fuzz_target!(|data: &[u8]| {
    let f = fixture();
    let input = String::from_utf8_lossy(data);
    let Ok(vp) = f.vfs.resolve(&input) else {
        return;
    };
    // The lexical result: a known root, a clean relative path, a virtual path under it.
    assert!(vp.root < f.real_roots.len(), "{input:?}: root {}", vp.root);
    assert!(
        vp.rel
            .components()
            .all(|c| matches!(c, Component::Normal(_))),
        "{input:?}: relative part {:?} is not clean",
        vp.rel
    );
    let root_virt = f.vfs.root_virt(vp.root);
    assert!(
        root_virt.starts_with(VIRTUAL_ROOT) && vp.virt.starts_with(root_virt),
        "{input:?}: virtual path {} not under {root_virt}",
        vp.virt
    );
    // Through the capability: whatever opens must really be inside the root.
    if let Ok((file, _)) = f.vfs.open_file(&vp) {
        assert_inside(f, vp.root, &fd_path(file.as_raw_fd()), &input);
    }
    if let Ok(dir) = f.vfs.open_dir(&vp) {
        assert_inside(f, vp.root, &fd_path(dir.as_raw_fd()), &input);
    }
    if f.vfs.metadata(&vp).is_ok() {
        // Metadata that succeeds names something the open calls could reach too (or a
        // special file); it may never succeed for the outside-only names.
        let name = vp.rel.file_name().and_then(|n| n.to_str()).unwrap_or("");
        assert!(
            !matches!(name, "secret.txt" | "missing"),
            "{input:?}: metadata reached an outside file"
        );
    }
});
