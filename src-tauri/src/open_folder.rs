//! Opening a folder in the system file manager: the platform's own opener (`xdg-open`,
//! `open`, `explorer`), started and left to run. Thin on purpose; no plugin needed for this.

use std::path::Path;
use std::process::Command;

/// The program that opens a folder in the file manager on this platform.
#[cfg(target_os = "macos")]
const OPENER: &str = "open";
#[cfg(target_os = "windows")]
const OPENER: &str = "explorer";
#[cfg(not(any(target_os = "macos", target_os = "windows")))]
const OPENER: &str = "xdg-open";

/// Starts the file manager on `dir`; the error is the sentence the UI shows.
pub fn open_in_file_manager(dir: &Path) -> Result<(), String> {
    let mut child = Command::new(OPENER).arg(dir).spawn().map_err(|e| {
        format!(
            "could not open the folder {} ({OPENER}: {e}); open it from your file manager",
            dir.display()
        )
    })?;
    // Reap the opener when it exits (xdg-open returns quickly) so it leaves no zombie.
    std::thread::spawn(move || {
        let _ = child.wait();
    });
    Ok(())
}
