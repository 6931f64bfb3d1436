use std::fs::OpenOptions;
use std::path::Path;
use std::sync::Mutex;

use tracing_subscriber::EnvFilter;

/// Sends logs to `<logs>/workbench.log` (and stderr), at `info` unless `WORKBENCH_LOG` says
/// otherwise. Returns nothing to hold: the file handle lives in the subscriber.
pub fn init(logs: &Path) -> Option<()> {
    let filter = EnvFilter::try_from_env("WORKBENCH_LOG").unwrap_or_else(|_| "info".into());
    let file = std::fs::create_dir_all(logs).ok().and_then(|_| {
        OpenOptions::new()
            .create(true)
            .append(true)
            .open(logs.join("workbench.log"))
            .ok()
    });
    match file {
        Some(file) => tracing_subscriber::fmt()
            .with_env_filter(filter)
            .with_ansi(false)
            .with_writer(Mutex::new(file))
            .init(),
        None => tracing_subscriber::fmt()
            .with_env_filter(filter)
            .with_writer(std::io::stderr)
            .init(),
    }
    Some(())
}
