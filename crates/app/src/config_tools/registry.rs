//! The stable ids a config `tools:` entry may `use`: each names one built-in implementation.
//! Ids stay the same when a built-in is renamed, so users' configs keep working; to offer a
//! new built-in, add a row here (the app's tests check every row against a real run).

/// Where an implementation's tool comes from in a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// The always-offered built-ins (`BuiltinSource`).
    Builtin,
    /// The sandbox's file, search, git and shell tools (`SandboxSource`).
    Sandbox,
}

/// One built-in implementation a config entry can point at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Implementation {
    /// The stable id written in `use`.
    pub id: &'static str,
    /// The source that builds the tool for a run.
    pub origin: Origin,
    /// The tool's own name in that source today.
    pub tool: &'static str,
    /// The tool's own group; an entry may move a tool only out of a group that does not ask
    /// before running (see [`super::parse`]).
    pub group: &'static str,
}

const fn sandbox(id: &'static str, tool: &'static str, group: &'static str) -> Implementation {
    Implementation {
        id,
        origin: Origin::Sandbox,
        tool,
        group,
    }
}

/// Every implementation a config tool may use, by id.
pub const IMPLEMENTATIONS: &[Implementation] = &[
    sandbox("sandbox.ls", "ls", "file"),
    sandbox("sandbox.read_file", "read_file", "file"),
    sandbox("sandbox.write_file", "write_file", "file"),
    sandbox("sandbox.str_replace", "str_replace", "file"),
    sandbox("sandbox.apply_patch", "apply_patch", "file"),
    sandbox("sandbox.glob", "glob", "search"),
    sandbox("sandbox.grep", "grep", "search"),
    sandbox("sandbox.file_search", "file_search", "search"),
    sandbox("sandbox.git_status", "git_status", "git"),
    sandbox("sandbox.git_diff", "git_diff", "git"),
    sandbox("sandbox.bash", "bash", "bash"),
    Implementation {
        id: "builtin.write_todos",
        origin: Origin::Builtin,
        tool: "write_todos",
        group: "builtin",
    },
];

/// The implementation with this id.
pub fn find(id: &str) -> Option<&'static Implementation> {
    IMPLEMENTATIONS.iter().find(|i| i.id == id)
}

/// The ids, comma-separated, for error messages.
pub fn known_ids() -> String {
    IMPLEMENTATIONS
        .iter()
        .map(|i| i.id)
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_unique_and_namespaced_by_origin() {
        for (n, i) in IMPLEMENTATIONS.iter().enumerate() {
            assert!(
                IMPLEMENTATIONS[n + 1..].iter().all(|j| j.id != i.id),
                "{} twice",
                i.id
            );
            let prefix = match i.origin {
                Origin::Builtin => "builtin.",
                Origin::Sandbox => "sandbox.",
            };
            assert!(i.id.starts_with(prefix), "{}", i.id);
        }
        assert_eq!(find("sandbox.grep").map(|i| i.tool), Some("grep"));
        assert_eq!(find("grep"), None, "a tool's name is not an id");
    }
}
