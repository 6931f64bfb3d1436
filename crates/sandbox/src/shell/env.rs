//! The shell's environment: the parent's, minus anything that looks like a secret, with
//! `HOME`, `TMPDIR` and `TERM` pointing where the sandbox wants.

use std::ffi::{OsStr, OsString};
use std::path::Path;

/// A variable whose name contains one of these (any case) is dropped: API keys, tokens,
/// passwords and credentials must not reach a command the model wrote. `AUTH` also drops
/// `SSH_AUTH_SOCK` (the ssh agent) and `*_AUTH` headers; `PRIVATE` catches private-key paths.
pub const SECRET_NAME_PARTS: &[&str] = &[
    "KEY",
    "SECRET",
    "TOKEN",
    "PASS",
    "CREDENTIAL",
    "AUTH",
    "PRIVATE",
];

/// Set by the sandbox; the parent's values are never passed on.
const OVERRIDDEN: &[&str] = &["HOME", "TMPDIR", "TERM", "PWD", "OLDPWD"];

/// Whether a variable of this name is dropped from the shell's environment.
pub fn is_secret_name(name: &OsStr) -> bool {
    let upper = name.to_string_lossy().to_ascii_uppercase();
    SECRET_NAME_PARTS.iter().any(|part| upper.contains(part))
}

/// The shell's environment from the parent's `vars`.
pub fn scrubbed_env(
    vars: impl IntoIterator<Item = (OsString, OsString)>,
    workspace: &Path,
    temp: &Path,
) -> Vec<(OsString, OsString)> {
    let mut env: Vec<(OsString, OsString)> = vars
        .into_iter()
        .filter(|(name, _)| !is_secret_name(name))
        .filter(|(name, _)| !OVERRIDDEN.iter().any(|o| name.as_os_str() == *o))
        .collect();
    if !env.iter().any(|(n, _)| n == "PATH") {
        env.push(("PATH".into(), "/usr/local/bin:/usr/bin:/bin".into()));
    }
    env.push(("HOME".into(), workspace.into()));
    env.push(("TMPDIR".into(), temp.into()));
    env.push(("TERM".into(), "dumb".into()));
    env
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(env: &[(OsString, OsString)]) -> Vec<String> {
        env.iter()
            .map(|(n, _)| n.to_string_lossy().into_owned())
            .collect()
    }

    #[test]
    fn secrets_are_dropped_in_any_case_and_the_rest_kept() {
        let parent = [
            ("OPENAI_API_KEY", "x"),
            ("github_token", "x"),
            ("MyPassword", "x"),
            ("AWS_SECRET_ACCESS_KEY", "x"),
            ("GOOGLE_APPLICATION_CREDENTIALS", "x"),
            ("SSH_AUTH_SOCK", "x"),
            ("PATH", "/usr/bin"),
            ("LANG", "C.UTF-8"),
            ("HOME", "/root"),
        ]
        .map(|(n, v)| (OsString::from(n), OsString::from(v)));
        let env = scrubbed_env(parent, Path::new("/ws"), Path::new("/tmp/x"));
        let got = names(&env);
        assert_eq!(got, ["PATH", "LANG", "HOME", "TMPDIR", "TERM"]);
        assert_eq!(env[2].1, OsString::from("/ws"));
    }
}
