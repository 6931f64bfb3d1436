//! Finding a stdio server's program the way the user's login shell would.
//!
//! An app started from a desktop menu inherits a short PATH without nvm's node, `~/.local/bin`
//! (uvx) or Homebrew, so `npx` "does not exist" although it runs fine in a terminal. The search
//! path is the login shell's PATH (`$SHELL -lc`), then this process's PATH, then the usual
//! install locations; the child gets that PATH too, so `npx` finds `node`.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Duration;

/// How long the login shell may take to print its PATH (slow rc files happen).
const LOGIN_SHELL_TIMEOUT: Duration = Duration::from_secs(5);

/// A program that was found, and the PATH to give it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResolvedCommand {
    /// The program's absolute path.
    pub program: PathBuf,
    /// The search PATH, for the child's environment.
    pub path_env: OsString,
}

/// The program was not found; the sentence names it and where it was looked for.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the command `{command}` was not found (looked in {searched}); install it or give its full path")]
pub struct CommandNotFound {
    /// The command as configured.
    pub command: String,
    /// The folders searched, joined for reading.
    pub searched: String,
}

/// Finds `command` (a name or a path) on the login shell's search path.
pub fn resolve(command: &str, cwd: Option<&Path>) -> Result<ResolvedCommand, CommandNotFound> {
    let dirs = search_dirs();
    let path_env = std::env::join_paths(&dirs).unwrap_or_default();
    let cwd = cwd
        .map(Path::to_path_buf)
        .or_else(|| std::env::current_dir().ok())
        .unwrap_or_else(|| PathBuf::from("/"));
    which::which_in(command, Some(&path_env), &cwd)
        .map(|program| ResolvedCommand {
            program,
            path_env: path_env.clone(),
        })
        .map_err(|_| CommandNotFound {
            command: command.to_string(),
            searched: if command.contains('/') {
                cwd.join(command).display().to_string()
            } else {
                dirs.iter()
                    .map(|d| d.display().to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            },
        })
}

/// The folders to search, in order, without duplicates.
pub fn search_dirs() -> Vec<PathBuf> {
    static LOGIN_PATH: OnceLock<Option<OsString>> = OnceLock::new();
    let login = LOGIN_PATH.get_or_init(login_shell_path);
    let mut dirs: Vec<PathBuf> = Vec::new();
    let mut push = |d: PathBuf| {
        if !d.as_os_str().is_empty() && !dirs.contains(&d) {
            dirs.push(d);
        }
    };
    for source in [login.clone(), std::env::var_os("PATH")]
        .into_iter()
        .flatten()
    {
        for d in std::env::split_paths(&source) {
            push(d);
        }
    }
    for d in common_dirs() {
        if d.is_dir() {
            push(d);
        }
    }
    dirs
}

/// Where node, uv, cargo and Homebrew usually put programs.
fn common_dirs() -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    if let Some(home) = dirs::home_dir() {
        for sub in [
            ".local/bin",
            ".cargo/bin",
            ".bun/bin",
            ".volta/bin",
            ".deno/bin",
        ] {
            dirs.push(home.join(sub));
        }
        // nvm: every installed node, newest version first.
        if let Ok(entries) = std::fs::read_dir(home.join(".nvm/versions/node")) {
            let mut versions: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
            versions.sort_by(|a, b| b.cmp(a));
            dirs.extend(versions.into_iter().map(|v| v.join("bin")));
        }
    }
    for d in [
        "/usr/local/bin",
        "/opt/homebrew/bin",
        "/home/linuxbrew/.linuxbrew/bin",
        "/usr/bin",
        "/bin",
    ] {
        dirs.push(PathBuf::from(d));
    }
    dirs
}

/// The PATH a login shell sets up, or `None` when it cannot be asked in time.
fn login_shell_path() -> Option<OsString> {
    let shell = std::env::var_os("SHELL").filter(|s| !s.is_empty())?;
    let mut child = std::process::Command::new(shell)
        .args(["-lc", "printf '%s' \"$PATH\""])
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .ok()?;
    let deadline = std::time::Instant::now() + LOGIN_SHELL_TIMEOUT;
    loop {
        match child.try_wait() {
            Ok(Some(_)) => break,
            Ok(None) if std::time::Instant::now() < deadline => {
                std::thread::sleep(Duration::from_millis(20));
            }
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                tracing::warn!("the login shell did not print its PATH in time");
                return None;
            }
        }
    }
    let mut out = String::new();
    use std::io::Read;
    child.stdout.take()?.read_to_string(&mut out).ok()?;
    // rc files may print banners; the PATH is the last line.
    let path = out.lines().last()?.trim().to_string();
    (!path.is_empty()).then(|| OsString::from(path))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_programs_on_the_search_path() {
        let found = resolve("sh", None).unwrap();
        assert!(found.program.is_absolute());
        assert!(found.program.ends_with("sh"));
        let path = found.path_env.to_string_lossy().to_string();
        assert!(path.contains("/usr/bin") || path.contains("/bin"), "{path}");
    }

    #[test]
    fn a_missing_command_is_named_with_the_places_searched() {
        let err = resolve("definitely-not-a-command-xyz", None).unwrap_err();
        let text = err.to_string();
        assert!(
            text.contains("`definitely-not-a-command-xyz` was not found"),
            "{text}"
        );
        assert!(text.contains("/usr/bin"), "{text}");
    }

    #[test]
    fn a_relative_or_absolute_path_is_used_as_given() {
        let dir = tempfile::tempdir().unwrap();
        let err = resolve("./nope.sh", Some(dir.path())).unwrap_err();
        assert!(err.searched.contains("nope.sh"));
        assert_eq!(
            resolve("/bin/sh", None).unwrap().program,
            PathBuf::from("/bin/sh")
        );
    }
}
