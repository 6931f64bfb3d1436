//! Reading fixture files: SSE recordings split into events, and fault scripts.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::wire::Api;

/// A fault script (`<model>.script.json`): steps consumed one per request for that model; once
/// they run out, the last step repeats.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Script {
    /// The steps, in the order requests consume them.
    pub steps: Vec<Step>,
}

/// One scripted answer: either an HTTP error status, or a replayed fixture with optional delay
/// and cut. Unknown fields are refused so a typo in a script fails loudly.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Step {
    /// Answer with this HTTP status and the provider's error body.
    pub status: Option<u16>,
    /// With `status`: send `Retry-After: N`.
    pub retry_after_secs: Option<u64>,
    /// With `status`: the error message instead of the provider's usual one.
    pub message: Option<String>,
    /// Replay the fixture of this name.
    pub replay: Option<String>,
    /// Wait this long before each event.
    pub delay_ms: Option<u64>,
    /// Close the connection abruptly after this many events.
    pub cut_after_events: Option<usize>,
}

impl Step {
    /// Replays `name` as is.
    pub fn replay(name: &str) -> Self {
        Self {
            replay: Some(name.to_string()),
            ..Self::default()
        }
    }
}

/// Whether `name` can be used in a file name without leaving the fixtures folder.
pub(crate) fn is_safe_name(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with('.')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | ':'))
}

/// The script for `model`, if it has one.
pub(crate) async fn load_script(dir: &Path, model: &str) -> Result<Option<Script>, String> {
    let path = dir.join(format!("{model}.script.json"));
    let text = match tokio::fs::read_to_string(&path).await {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("{}: {e}", path.display())),
    };
    let script: Script =
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    if script.steps.is_empty() {
        return Err(format!("{}: `steps` is empty", path.display()));
    }
    for (i, s) in script.steps.iter().enumerate() {
        if s.status.is_some() == s.replay.is_some() {
            return Err(format!(
                "{}: step {i} needs exactly one of `status` or `replay`",
                path.display()
            ));
        }
    }
    Ok(Some(script))
}

/// The events of fixture `name` for `api`, each the raw text of one SSE event without the
/// blank line that ends it; `None` if there is no such fixture.
pub(crate) async fn load_events(
    dir: &Path,
    name: &str,
    api: Api,
) -> Result<Option<Vec<String>>, String> {
    if !is_safe_name(name) {
        return Ok(None);
    }
    let path = dir.join(format!("{name}.{}.sse", api.suffix()));
    match tokio::fs::read_to_string(&path).await {
        Ok(text) => Ok(Some(split_events(&text))),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(format!("{}: {e}", path.display())),
    }
}

/// Splits SSE text into events at blank lines.
pub(crate) fn split_events(text: &str) -> Vec<String> {
    text.replace("\r\n", "\n")
        .split("\n\n")
        .map(|e| e.trim_matches('\n'))
        .filter(|e| !e.trim().is_empty())
        .map(str::to_string)
        .collect()
}

/// Names of all fixtures in `dir` (either API, or only a script), sorted.
pub(crate) async fn model_names(dir: &Path) -> std::io::Result<Vec<String>> {
    let mut names = std::collections::BTreeSet::new();
    let mut entries = tokio::fs::read_dir(dir).await?;
    while let Some(entry) = entries.next_entry().await? {
        let file = entry.file_name();
        let Some(file) = file.to_str() else { continue };
        for suffix in [".openai.sse", ".anthropic.sse", ".script.json"] {
            if let Some(name) = file.strip_suffix(suffix) {
                names.insert(name.to_string());
            }
        }
    }
    Ok(names.into_iter().collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_events_splits_at_blank_lines_and_keeps_event_lines() {
        let text = "event: ping\ndata: {}\n\ndata: a\r\n\r\n\n\ndata: [DONE]\n";
        assert_eq!(
            split_events(text),
            vec!["event: ping\ndata: {}", "data: a", "data: [DONE]"]
        );
    }

    #[test]
    fn unsafe_names_are_refused() {
        assert!(is_safe_name("hello"));
        assert!(is_safe_name("llama3.1:8b"));
        assert!(!is_safe_name("../secret"));
        assert!(!is_safe_name("a/b"));
        assert!(!is_safe_name(""));
    }
}
