//! Reading and writing `mcp.json`. Writes go to a temporary file that is renamed over the old
//! one, so a crash mid-write never leaves half a file, and the file is private to the user.

use std::path::{Path, PathBuf};

use crate::config::McpConfig;

/// The file's name inside the data folder.
pub const FILE_NAME: &str = "mcp.json";

/// Why `mcp.json` could not be read or written; carries the path and what failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FileError {
    /// Reading or writing failed.
    #[error("could not {op} {path}: {detail}")]
    Io {
        /// `read`, `write`...
        op: &'static str,
        /// The file.
        path: String,
        /// What the OS said.
        detail: String,
    },
    /// The text is not a valid `mcp.json`; nothing was changed.
    #[error("{path} is not valid MCP config JSON ({detail}); fix it or move it aside")]
    Invalid {
        /// The file.
        path: String,
        /// Where and how the text is wrong.
        detail: String,
    },
}

/// `mcp.json` at a path.
#[derive(Debug, Clone)]
pub struct ConfigFile {
    path: PathBuf,
}

impl ConfigFile {
    /// The file at `path` (it need not exist yet).
    pub fn new(path: impl Into<PathBuf>) -> Self {
        Self { path: path.into() }
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The config; a missing file is an empty config.
    pub fn load(&self) -> Result<McpConfig, FileError> {
        let text = match std::fs::read_to_string(&self.path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(McpConfig::default()),
            Err(e) => return Err(self.io("read", e)),
        };
        McpConfig::parse(&text).map_err(|detail| FileError::Invalid {
            path: self.path.display().to_string(),
            detail,
        })
    }

    /// Writes the config atomically, readable by the user only.
    pub fn save(&self, cfg: &McpConfig) -> Result<(), FileError> {
        let dir = self
            .path
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_else(|| PathBuf::from("."));
        std::fs::create_dir_all(&dir).map_err(|e| self.io("create the folder of", e))?;
        let tmp = dir.join(format!(".{FILE_NAME}.tmp-{}", std::process::id()));
        std::fs::write(&tmp, cfg.to_text()).map_err(|e| self.io("write", e))?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let _ = std::fs::set_permissions(&tmp, std::fs::Permissions::from_mode(0o600));
        }
        std::fs::rename(&tmp, &self.path).map_err(|e| {
            let _ = std::fs::remove_file(&tmp);
            self.io("replace", e)
        })
    }

    fn io(&self, op: &'static str, e: std::io::Error) -> FileError {
        FileError::Io {
            op,
            path: self.path.display().to_string(),
            detail: e.to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::ServerConfig;

    #[test]
    fn a_missing_file_is_no_servers_and_a_save_reads_back() {
        let dir = tempfile::tempdir().unwrap();
        let file = ConfigFile::new(dir.path().join("sub").join(FILE_NAME));
        assert!(file.load().unwrap().servers.is_empty());
        let mut cfg = McpConfig::default();
        cfg.servers
            .insert("a".into(), ServerConfig::stdio("node", vec!["x.js".into()]));
        file.save(&cfg).unwrap();
        assert_eq!(file.load().unwrap(), cfg);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(file.path()).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
    }

    #[test]
    fn an_invalid_file_is_reported_with_its_path_and_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(FILE_NAME);
        std::fs::write(&path, "{ oops").unwrap();
        let err = ConfigFile::new(&path).load().unwrap_err();
        assert!(err.to_string().contains(FILE_NAME), "{err}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "{ oops");
    }
}
