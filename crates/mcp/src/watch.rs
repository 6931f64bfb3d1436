//! Hand edits of `mcp.json` apply at once: the folder is watched (editors often replace the
//! file rather than write into it), and a quiet moment after a change triggers a reload. Our
//! own writes come back through here too; reloading an unchanged config changes nothing.

use std::time::Duration;

use notify::{RecursiveMode, Watcher};

use crate::manager::{McpError, McpManager};

/// How long the file must stay quiet before it is read (editors write in several steps).
const SETTLE: Duration = Duration::from_millis(250);

impl McpManager {
    /// Starts watching `mcp.json`; the watch lasts as long as the manager.
    pub fn watch_file(&self) -> Result<(), McpError> {
        let path = self.file().path().to_path_buf();
        let dir = path
            .parent()
            .map(std::path::Path::to_path_buf)
            .unwrap_or_else(|| ".".into());
        std::fs::create_dir_all(&dir)
            .map_err(|e| McpError::Invalid(format!("could not create {}: {e}", dir.display())))?;
        let file_name = path.file_name().map(|n| n.to_os_string());
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<()>();
        let mut watcher = notify::recommended_watcher(move |res: notify::Result<notify::Event>| {
            if let Ok(event) = res {
                let ours = event
                    .paths
                    .iter()
                    .any(|p| p.file_name().map(|n| n.to_os_string()) == file_name);
                if ours && !event.kind.is_access() {
                    let _ = tx.send(());
                }
            }
        })
        .map_err(|e| McpError::Invalid(format!("could not watch {}: {e}", path.display())))?;
        watcher
            .watch(&dir, RecursiveMode::NonRecursive)
            .map_err(|e| McpError::Invalid(format!("could not watch {}: {e}", dir.display())))?;
        if let Ok(mut slot) = self.inner.watcher.lock() {
            *slot = Some(watcher);
        }
        let weak = std::sync::Arc::downgrade(&self.inner);
        tokio::spawn(async move {
            while rx.recv().await.is_some() {
                // Let the burst of events of one save pass.
                loop {
                    match tokio::time::timeout(SETTLE, rx.recv()).await {
                        Ok(Some(())) => continue,
                        Ok(None) => return,
                        Err(_) => break,
                    }
                }
                let Some(inner) = weak.upgrade() else {
                    return;
                };
                let manager = McpManager { inner };
                tracing::info!("mcp.json changed on disk; reloading");
                // An invalid file is reported in the overview and logged by reload.
                let _ = manager.reload().await;
            }
        });
        Ok(())
    }
}
