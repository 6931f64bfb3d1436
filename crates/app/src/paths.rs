use std::path::{Path, PathBuf};

use crate::AppError;

/// Environment variable that points the app and the CLI at another data folder.
pub const DATA_DIR_ENV: &str = "WORKBENCH_DATA_DIR";

/// The folder holding the database and logs.
#[derive(Debug, Clone)]
pub struct DataDir(PathBuf);

impl DataDir {
    /// A data folder at `path`.
    pub fn new(path: impl Into<PathBuf>) -> Self {
        Self(path.into())
    }

    /// The folder itself.
    pub fn path(&self) -> &Path {
        &self.0
    }

    /// The SQLite database file.
    pub fn database(&self) -> PathBuf {
        self.0.join("workbench.db")
    }

    /// A thread's own folder (spilled tool results now; the sandbox's folders later).
    pub fn thread_dir(&self, thread_id: &str) -> PathBuf {
        self.0.join("threads").join(thread_id)
    }

    /// Where front-ends write their log files.
    pub fn logs(&self) -> PathBuf {
        self.0.join("logs")
    }

    pub(crate) fn create(&self) -> Result<(), AppError> {
        for dir in [self.0.clone(), self.logs()] {
            std::fs::create_dir_all(&dir).map_err(|e| AppError::DataDir {
                path: dir.display().to_string(),
                detail: e.to_string(),
            })?;
        }
        Ok(())
    }
}

/// `WORKBENCH_DATA_DIR` if set, else the platform's data folder (`~/.local/share/workbench`
/// on Linux).
pub fn default_data_dir() -> DataDir {
    if let Some(dir) = std::env::var_os(DATA_DIR_ENV).filter(|d| !d.is_empty()) {
        return DataDir::new(dir);
    }
    let base = dirs::data_dir()
        .or_else(|| dirs::home_dir().map(|h| h.join(".local/share")))
        .unwrap_or_else(std::env::temp_dir);
    DataDir::new(base.join("workbench"))
}
