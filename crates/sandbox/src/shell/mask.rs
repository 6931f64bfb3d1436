//! Masks host paths of the thread's roots in shell output back to their `/mnt/user-data`
//! paths, with the same rule as the file tools ([`crate::vpath::mask_host_paths`]: longest
//! first, whole components only, configured and canonical forms).

use crate::roots::ThreadRoots;

/// Replaces host root paths by virtual ones for one thread's roots.
#[derive(Debug, Clone)]
pub struct PathMasker {
    roots: ThreadRoots,
}

impl PathMasker {
    /// A masker for every root of `roots`.
    pub fn new(roots: &ThreadRoots) -> Self {
        Self {
            roots: roots.clone(),
        }
    }

    /// `text` with every host root path replaced by its virtual path.
    pub fn mask(&self, text: &str) -> String {
        crate::vpath::mask_host_paths(text, &self.roots)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn host_paths_become_virtual_longest_first_at_boundaries() {
        let mut roots = ThreadRoots::under(Path::new("/data/t1"));
        roots.workspace = "/data/t1/ws".into();
        roots.mounts.push(crate::roots::Mount {
            name: "inner".into(),
            host: "/data/t1/ws/inner".into(),
            read_only: true,
        });
        let m = PathMasker::new(&roots);
        assert_eq!(
            m.mask("cd /data/t1/ws/inner/a; ls /data/t1/ws: /data/t1/ws2 /data/t1/outputs/x"),
            "cd /mnt/user-data/mounts/inner/a; ls /mnt/user-data/workspace: /data/t1/ws2 \
             /mnt/user-data/outputs/x"
        );
    }
}
