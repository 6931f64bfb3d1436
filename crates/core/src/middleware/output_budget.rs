//! Tool-output budget: a result too long for the context is saved whole to a file in the
//! thread and replaced by its head, its tail and a note telling the model how to read the
//! rest with the `retrieve_tool_result` tool.
//!
//! Files go to `<thread_dir>/tool-results/<id>.txt`. The id is the call's id when that is a
//! safe file name ([`valid_result_id`]), otherwise a fresh one; the note names it either way.
//! Without a thread folder the result is only shortened, and the note says the rest is gone.
//!
//! All counts are in characters, never bytes, so a cut never splits a UTF-8 character.
//!
//! `after_tool` is synchronous (the chain's contract), so the file is written on the calling
//! thread. That is one sequential write of an output already in memory (tens to hundreds of
//! kilobytes, capped upstream by the tools) to the thread's local folder: well under a
//! millisecond of blocking in practice, accepted rather than spawning an unowned task that
//! `retrieve_tool_result` could race.

use std::io::Write;
use std::path::{Path, PathBuf};

use tracing::{debug, warn};

use super::text::{first_chars, last_chars, thousands};
use super::{Middleware, RunInfo};
use crate::thread::ToolCall;
use crate::tools::ToolOutput;

/// Longest tool result, in characters, that reaches the model whole. About 3,000 tokens:
/// enough for a source file or a page of search results, small enough that a dozen calls do
/// not crowd out the conversation.
pub const TOOL_OUTPUT_BUDGET_CHARS: usize = 12_000;
/// Characters kept from the start of an over-budget result: where commands print what they
/// did and files start (imports, headings).
pub const BUDGET_HEAD_CHARS: usize = 4_000;
/// Characters kept from the end: where errors, totals and summaries usually are.
pub const BUDGET_TAIL_CHARS: usize = 2_000;
/// The folder inside the thread's folder where whole results are kept.
pub const TOOL_RESULTS_DIR: &str = "tool-results";
/// Longest id accepted as a file name; provider call ids are 20-60 characters.
pub const MAX_RESULT_ID_CHARS: usize = 128;
/// The tool that reads saved results back. Its own output is already within the budget and
/// is never spilled again.
pub const RETRIEVE_TOOL_NAME: &str = "retrieve_tool_result";

/// Whether `id` can name a saved result: 1 to [`MAX_RESULT_ID_CHARS`] ASCII letters, digits,
/// `-` or `_`. No separators, dots or drive letters, so it can never leave the results folder,
/// and no characters some file systems refuse (`:` appears in some providers' call ids).
pub fn valid_result_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= MAX_RESULT_ID_CHARS
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// Where the result saved as `id` lives in `thread_dir`, or `None` when `id` is not valid.
pub fn saved_result_path(thread_dir: &Path, id: &str) -> Option<PathBuf> {
    valid_result_id(id).then(|| thread_dir.join(TOOL_RESULTS_DIR).join(format!("{id}.txt")))
}

/// Spills over-budget tool results to a file and shows the model head, tail and a note.
#[derive(Debug, Clone, Copy)]
pub struct ToolOutputBudget {
    budget: usize,
}

impl ToolOutputBudget {
    /// The default budget, [`TOOL_OUTPUT_BUDGET_CHARS`].
    pub fn new() -> Self {
        Self::default()
    }

    /// A budget of `chars` characters, raised if needed to hold the head and tail kept.
    pub fn with_budget(chars: usize) -> Self {
        Self {
            budget: chars.max(BUDGET_HEAD_CHARS + BUDGET_TAIL_CHARS),
        }
    }
}

impl Default for ToolOutputBudget {
    fn default() -> Self {
        Self {
            budget: TOOL_OUTPUT_BUDGET_CHARS,
        }
    }
}

#[async_trait::async_trait]
impl Middleware for ToolOutputBudget {
    fn name(&self) -> &'static str {
        "tool_output_budget"
    }

    fn after_tool(&self, call: &ToolCall, output: &mut ToolOutput, run: &RunInfo) {
        if call.name == RETRIEVE_TOOL_NAME {
            return;
        }
        let total = output.content.chars().count();
        if total <= self.budget {
            return;
        }
        let saved =
            run.thread_dir
                .as_deref()
                .and_then(|dir| match save(dir, &call.id, &output.content) {
                    Ok(id) => Some(id),
                    Err(e) => {
                        warn!(error = %e, call_id = %call.id, "could not save a long tool result");
                        None
                    }
                });
        debug!(call_id = %call.id, total, saved = saved.is_some(), "shortened a long tool result");
        output.content = shortened(&output.content, total, saved.as_deref());
    }
}

/// Head, note and tail of `content` (which has `total` characters).
fn shortened(content: &str, total: usize, saved_as: Option<&str>) -> String {
    let omitted = total - BUDGET_HEAD_CHARS - BUDGET_TAIL_CHARS;
    let rest = match saved_as {
        Some(id) => format!(
            "The whole output is saved: call `{RETRIEVE_TOOL_NAME}` with id \"{id}\" and mode \
             \"head\", \"tail\", \"lines\" (start, end; 1-based) or \"query\" (text to find) \
             to read the part you need."
        ),
        None => "The omitted part was not kept; run a narrower command if you need it.".into(),
    };
    format!(
        "{}\n\n[... output too long: {} characters in all; showing the first {} and the last \
         {}, {} characters omitted. {rest} ...]\n\n{}",
        first_chars(content, BUDGET_HEAD_CHARS),
        thousands(total),
        thousands(BUDGET_HEAD_CHARS),
        thousands(BUDGET_TAIL_CHARS),
        thousands(omitted),
        last_chars(content, BUDGET_TAIL_CHARS),
    )
}

/// Saves `content` under the call's id (or a fresh id when that one is unsafe or taken: some
/// providers reuse ids across turns) and returns the id used.
fn save(thread_dir: &Path, call_id: &str, content: &str) -> std::io::Result<String> {
    std::fs::create_dir_all(thread_dir.join(TOOL_RESULTS_DIR))?;
    let preferred = valid_result_id(call_id).then(|| call_id.to_string());
    for id in preferred.into_iter().chain([crate::new_id()]) {
        let Some(path) = saved_result_path(thread_dir, &id) else {
            continue;
        };
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&path)
        {
            Ok(mut file) => {
                file.write_all(content.as_bytes())?;
                return Ok(id);
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
    Err(std::io::Error::new(
        std::io::ErrorKind::AlreadyExists,
        "no free file name for the result",
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::middleware::testkit::{call, run};

    /// A fresh folder under the system's temp dir, removed on drop.
    struct TempDir(PathBuf);

    impl TempDir {
        fn new() -> Self {
            let dir = std::env::temp_dir().join(format!("workbench-test-{}", crate::new_id()));
            std::fs::create_dir_all(&dir).unwrap();
            Self(dir)
        }
    }

    impl Drop for TempDir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    fn apply(call_id: &str, content: &str, dir: Option<&Path>) -> ToolOutput {
        let mut out = ToolOutput::text(content);
        let info = RunInfo {
            thread_dir: dir.map(Path::to_path_buf),
            ..run()
        };
        ToolOutputBudget::new().after_tool(&call(call_id, "sh", "{}"), &mut out, &info);
        out
    }

    #[test]
    fn a_result_within_the_budget_is_untouched() {
        let dir = TempDir::new();
        let text = "x".repeat(TOOL_OUTPUT_BUDGET_CHARS);
        assert_eq!(apply("c1", &text, Some(&dir.0)).content, text);
        assert!(!dir.0.join(TOOL_RESULTS_DIR).exists(), "nothing saved");
    }

    #[test]
    fn a_long_result_is_saved_whole_and_replaced_by_head_tail_and_note() {
        let dir = TempDir::new();
        let text = format!("START{}END", "0123456789".repeat(2_000));
        let out = apply("call_1", &text, Some(&dir.0));
        assert!(out.content.starts_with("START"));
        assert!(out.content.ends_with("END"));
        assert!(
            out.content.contains("20,008 characters in all"),
            "{}",
            out.content
        );
        assert!(out.content.contains("14,008 characters omitted"));
        assert!(out
            .content
            .contains(r#"`retrieve_tool_result` with id "call_1""#));
        assert!(out.content.chars().count() < TOOL_OUTPUT_BUDGET_CHARS);
        let saved = std::fs::read_to_string(dir.0.join("tool-results/call_1.txt")).unwrap();
        assert_eq!(saved, text);
    }

    #[test]
    fn non_ascii_output_is_cut_on_character_boundaries() {
        let dir = TempDir::new();
        // 3 and 4 byte characters throughout: a byte-based cut would panic or garble.
        let text = "日本語のテキスト🙂".repeat(2_000);
        let out = apply("c_utf8", &text, Some(&dir.0));
        let head: String = text.chars().take(BUDGET_HEAD_CHARS).collect();
        let tail: String = text
            .chars()
            .skip(text.chars().count() - BUDGET_TAIL_CHARS)
            .collect();
        assert!(out.content.starts_with(&head));
        assert!(out.content.ends_with(&tail));
        let saved = std::fs::read_to_string(dir.0.join("tool-results/c_utf8.txt")).unwrap();
        assert_eq!(saved, text);
    }

    #[test]
    fn without_a_thread_folder_it_only_shortens() {
        let out = apply("c1", &"y".repeat(30_000), None);
        assert!(out.content.contains("was not kept"));
        assert!(!out.content.contains("retrieve_tool_result"));
        assert!(out.content.chars().count() < TOOL_OUTPUT_BUDGET_CHARS);
    }

    #[test]
    fn an_unsafe_or_reused_call_id_is_saved_under_a_fresh_id() {
        let dir = TempDir::new();
        let long = "z".repeat(20_000);
        let out = apply("../../etc/passwd", &long, Some(&dir.0));
        assert!(!out.content.contains("passwd"));
        let first = apply("call_0", &long, Some(&dir.0));
        let second = apply("call_0", &long, Some(&dir.0));
        assert!(first.content.contains(r#"id "call_0""#));
        assert!(
            !second.content.contains(r#"id "call_0""#),
            "the first file is kept"
        );
        let files = std::fs::read_dir(dir.0.join(TOOL_RESULTS_DIR))
            .unwrap()
            .count();
        assert_eq!(files, 3);
        assert!(!dir.0.parent().unwrap().join("etc").exists());
    }

    #[test]
    fn retrieve_tool_results_are_never_spilled_again() {
        let mut out = ToolOutput::text("r".repeat(20_000));
        let c = call("c", RETRIEVE_TOOL_NAME, "{}");
        ToolOutputBudget::new().after_tool(&c, &mut out, &run());
        assert_eq!(out.content.len(), 20_000);
    }

    #[test]
    fn result_ids_are_validated() {
        for good in ["call_abc123", "toolu_01A-b", "0"] {
            assert!(valid_result_id(good), "{good}");
        }
        let too_long = "a".repeat(MAX_RESULT_ID_CHARS + 1);
        for bad in [
            "",
            "..",
            "a/b",
            "a\\b",
            "../x",
            "a.txt",
            "functions.read:0",
            &too_long,
        ] {
            assert!(!valid_result_id(bad), "{bad}");
            assert_eq!(saved_result_path(Path::new("/t"), bad), None);
        }
    }
}
