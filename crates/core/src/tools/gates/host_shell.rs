//! Gate 2: shell tools run only where the OS can confine them, or where the user explicitly
//! allowed an unconfined shell.

use crate::tools::assembly::ShellPolicy;
use crate::tools::ToolMeta;

/// Hidden for shell tools when no confinement is available and the user did not opt in.
pub fn check(meta: &ToolMeta, shell: &ShellPolicy) -> Option<String> {
    if !meta.is_shell || shell.confinement.is_some() || shell.allow_unconfined {
        return None;
    }
    Some(
        "no OS confinement (Landlock, bubblewrap) is available on this machine for the shell, \
         and running it unconfined is not enabled in Settings"
            .into(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::ToolSource;

    fn shell_tool() -> ToolMeta {
        ToolMeta {
            is_shell: true,
            ..ToolMeta::new(ToolSource::Sandbox, "bash")
        }
    }

    #[test]
    fn a_confined_shell_passes() {
        let policy = ShellPolicy {
            confinement: Some("landlock".into()),
            allow_unconfined: false,
        };
        assert_eq!(check(&shell_tool(), &policy), None);
    }

    #[test]
    fn an_unconfined_shell_is_hidden_unless_the_user_allowed_it() {
        let mut policy = ShellPolicy::default();
        assert!(check(&shell_tool(), &policy)
            .unwrap()
            .contains("confinement"));
        policy.allow_unconfined = true;
        assert_eq!(check(&shell_tool(), &policy), None);
    }

    #[test]
    fn other_tools_ignore_the_shell_policy() {
        let meta = ToolMeta::new(ToolSource::Sandbox, "file");
        assert_eq!(check(&meta, &ShellPolicy::default()), None);
    }
}
