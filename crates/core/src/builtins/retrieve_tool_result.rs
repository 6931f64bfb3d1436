//! `retrieve_tool_result`: reads back a tool result that the output budget shortened and saved
//! to `<thread_dir>/tool-results/<id>.txt` (see `middleware::output_budget`).
//!
//! Modes: `head` and `tail` (the first or last characters), `lines` (a 1-based, inclusive line
//! range, numbered) and `query` (the numbered lines containing a text, ASCII case-insensitive).
//! Every answer stays within the output budget, so reading never floods the context either.

use std::path::PathBuf;

use serde::Deserialize;
use serde_json::json;

use crate::middleware::{saved_result_path, RETRIEVE_TOOL_NAME, TOOL_OUTPUT_BUDGET_CHARS};
use crate::model::ToolSpec;
use crate::tools::{Tool, ToolContext, ToolError, ToolMeta, ToolOutput, ToolSource};

/// Characters of saved text one answer may carry: the output budget less room for the header
/// line and the "what next" note, so an answer is never itself over budget.
pub const RETRIEVE_MAX_CHARS: usize = TOOL_OUTPUT_BUDGET_CHARS - 500;
/// Lines `lines` mode returns when the call gives no `end`: a screenful a model can scan.
pub const DEFAULT_LINE_SPAN: usize = 200;
/// Matching lines `query` mode returns at most; more means the query is too broad to help.
pub const QUERY_MAX_MATCHES: usize = 100;
/// Characters shown of one matching line: minified JSON or logs can be a single huge line,
/// and a window around the match is what the model needs.
pub const QUERY_LINE_MAX_CHARS: usize = 400;
/// Of that window, the characters shown before the match.
pub const QUERY_CONTEXT_BEFORE: usize = 100;

/// Reads back results saved by the output budget in one thread's folder.
pub struct RetrieveToolResult {
    thread_dir: PathBuf,
    spec: ToolSpec,
    meta: ToolMeta,
}

impl RetrieveToolResult {
    /// The tool for the thread whose folder is `thread_dir` (the run's `RunInfo::thread_dir`).
    pub fn new(thread_dir: impl Into<PathBuf>) -> Self {
        Self {
            thread_dir: thread_dir.into(),
            spec: ToolSpec {
                name: RETRIEVE_TOOL_NAME.to_string(),
                description: "Read a tool result that was too long and was shortened. Use the \
                    id from the note in the shortened result. Modes: \"head\" (the start), \
                    \"tail\" (the end), \"lines\" (lines start..end, 1-based, inclusive) and \
                    \"query\" (the lines containing a text, case-insensitive)."
                    .to_string(),
                parameters: json!({
                    "type": "object",
                    "properties": {
                        "id": {"type": "string", "description": "The id named in the note."},
                        "mode": {
                            "type": "string",
                            "enum": ["head", "tail", "lines", "query"],
                            "description": "What to read; default \"head\"."
                        },
                        "start": {"type": "integer", "minimum": 1, "description": "lines: first line (default 1)."},
                        "end": {"type": "integer", "minimum": 1, "description": "lines: last line, inclusive."},
                        "query": {"type": "string", "description": "query: the text to find."}
                    },
                    "required": ["id"]
                }),
            },
            meta: ToolMeta::new(ToolSource::Builtin, "builtin"),
        }
    }
}

#[derive(Debug, Deserialize)]
struct Args {
    id: String,
    #[serde(default)]
    mode: Mode,
    start: Option<usize>,
    end: Option<usize>,
    query: Option<String>,
}

#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Mode {
    #[default]
    Head,
    Tail,
    Lines,
    Query,
}

#[async_trait::async_trait]
impl Tool for RetrieveToolResult {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }

    fn meta(&self) -> &ToolMeta {
        &self.meta
    }

    async fn call(
        &self,
        args: serde_json::Value,
        _ctx: &ToolContext,
    ) -> Result<ToolOutput, ToolError> {
        let args: Args =
            serde_json::from_value(args).map_err(|e| ToolError::InvalidArguments(e.to_string()))?;
        let path = saved_result_path(&self.thread_dir, &args.id).ok_or_else(|| {
            ToolError::InvalidArguments(format!(
                "`{}` is not a result id; copy the id exactly as the note gives it (letters, \
                 digits, - and _ only)",
                args.id
            ))
        })?;
        let read = tokio::task::spawn_blocking(move || std::fs::read(path))
            .await
            .map_err(|e| ToolError::Failed(format!("could not read the saved result: {e}")))?;
        let bytes = match read {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(ToolError::Failed(format!(
                    "no saved result with id `{}` in this thread; use the id from the note of \
                     a shortened result",
                    args.id
                )))
            }
            Err(e) => {
                return Err(ToolError::Failed(format!(
                    "could not read the saved result `{}`: {e}",
                    args.id
                )))
            }
        };
        let text = String::from_utf8_lossy(&bytes);
        let answer = match args.mode {
            Mode::Head => head(&text),
            Mode::Tail => tail(&text),
            Mode::Lines => lines(&text, args.start, args.end)?,
            Mode::Query => query(&text, args.query.as_deref())?,
        };
        Ok(ToolOutput::text(answer))
    }
}

fn head(text: &str) -> String {
    let total = text.chars().count();
    let shown: String = text.chars().take(RETRIEVE_MAX_CHARS).collect();
    format!(
        "[characters 1-{} of {total}]\n{shown}",
        total.min(RETRIEVE_MAX_CHARS)
    )
}

fn tail(text: &str) -> String {
    let total = text.chars().count();
    let skip = total.saturating_sub(RETRIEVE_MAX_CHARS);
    let shown: String = text.chars().skip(skip).collect();
    format!("[characters {}-{total} of {total}]\n{shown}", skip + 1)
}

fn lines(text: &str, start: Option<usize>, end: Option<usize>) -> Result<String, ToolError> {
    let all: Vec<&str> = text.lines().collect();
    let start = start.unwrap_or(1);
    if start == 0 {
        return Err(ToolError::InvalidArguments(
            "`start` is 1-based: the first line is 1".into(),
        ));
    }
    let end = end.unwrap_or(start.saturating_add(DEFAULT_LINE_SPAN - 1));
    if end < start {
        return Err(ToolError::InvalidArguments(format!(
            "`end` ({end}) is before `start` ({start})"
        )));
    }
    if start > all.len() {
        return Err(ToolError::InvalidArguments(format!(
            "`start` ({start}) is past the end: the result has {} lines",
            all.len()
        )));
    }
    let end = end.min(all.len());
    let mut body = String::new();
    let mut used = 0;
    let mut last_shown = start - 1;
    for (n, line) in all.iter().enumerate().take(end).skip(start - 1) {
        let numbered = format!("{}: {line}\n", n + 1);
        let len = numbered.chars().count();
        if used + len > RETRIEVE_MAX_CHARS {
            if last_shown < start {
                // A single line longer than the whole budget: show what fits of it.
                body.push_str(
                    &numbered
                        .chars()
                        .take(RETRIEVE_MAX_CHARS)
                        .collect::<String>(),
                );
                body.push_str("\n[this line is longer than one answer; use mode \"query\" to find the part you need]\n");
                last_shown = start;
            }
            break;
        }
        body.push_str(&numbered);
        used += len;
        last_shown = n + 1;
    }
    let mut out = format!("[lines {start}-{last_shown} of {}]\n{body}", all.len());
    if last_shown < end {
        out.push_str(&format!(
            "[stopped at line {last_shown} to stay within {RETRIEVE_MAX_CHARS} characters; ask \
             for lines {}-{end} next]",
            last_shown + 1
        ));
    }
    Ok(out)
}

fn query(text: &str, needle: Option<&str>) -> Result<String, ToolError> {
    let needle = needle.map(str::trim).unwrap_or_default();
    if needle.is_empty() {
        return Err(ToolError::InvalidArguments(
            "mode \"query\" needs `query`: the text to find".into(),
        ));
    }
    let needle = needle.to_ascii_lowercase();
    let mut body = String::new();
    let mut used = 0;
    let mut shown = 0;
    let mut matched = 0;
    let mut truncated = false;
    for (n, line) in text.lines().enumerate() {
        // ASCII lowercasing keeps every byte offset, so a match position found in the
        // lowered line is a character boundary of the original line too.
        let Some(at) = line.to_ascii_lowercase().find(&needle) else {
            continue;
        };
        matched += 1;
        if truncated {
            continue;
        }
        let entry = format!("{}: {}\n", n + 1, excerpt(line, at));
        let len = entry.chars().count();
        if shown == QUERY_MAX_MATCHES || used + len > RETRIEVE_MAX_CHARS {
            truncated = true;
            continue;
        }
        body.push_str(&entry);
        used += len;
        shown += 1;
    }
    if matched == 0 {
        return Ok(format!("[no line contains \"{needle}\"]"));
    }
    let mut out = format!("[{matched} lines contain \"{needle}\"; showing {shown}]\n{body}");
    if truncated {
        out.push_str("[more matches not shown; use a more specific query or mode \"lines\"]");
    }
    Ok(out)
}

/// `line` whole, or a window of it around byte offset `at` (a character boundary).
fn excerpt(line: &str, at: usize) -> String {
    if line.chars().count() <= QUERY_LINE_MAX_CHARS {
        return line.to_string();
    }
    let match_char = line[..at].chars().count();
    let skip = match_char.saturating_sub(QUERY_CONTEXT_BEFORE);
    let window: String = line.chars().skip(skip).take(QUERY_LINE_MAX_CHARS).collect();
    let before = if skip > 0 { "…" } else { "" };
    let after = if skip + QUERY_LINE_MAX_CHARS < line.chars().count() {
        "…"
    } else {
        ""
    };
    format!("{before}{window}{after}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::middleware::{Middleware, RunInfo, ToolOutputBudget};
    use crate::thread::ToolCall;
    use tokio_util::sync::CancellationToken;

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

    fn ctx() -> ToolContext {
        ToolContext {
            thread_id: "t1".into(),
            run_id: "r1".into(),
            call_id: "x".into(),
            cancel: CancellationToken::new(),
        }
    }

    /// Spills `content` through the real output budget, as call `id`, into `dir`.
    fn spill(dir: &TempDir, id: &str, content: &str) -> String {
        let mut out = ToolOutput::text(content);
        let call = ToolCall {
            id: id.into(),
            name: "sh".into(),
            arguments: "{}".into(),
        };
        let run = RunInfo {
            thread_dir: Some(dir.0.clone()),
            ..RunInfo::default()
        };
        ToolOutputBudget::new().after_tool(&call, &mut out, &run);
        out.content
    }

    async fn retrieve(dir: &TempDir, args: serde_json::Value) -> Result<ToolOutput, ToolError> {
        RetrieveToolResult::new(&dir.0).call(args, &ctx()).await
    }

    fn numbered_lines(n: usize) -> String {
        (1..=n).map(|i| format!("line {i} of the log\n")).collect()
    }

    #[tokio::test]
    async fn head_and_tail_page_through_a_spilled_result() {
        let dir = TempDir::new();
        let text = format!("FIRST{}LAST", "é".repeat(30_000));
        let note = spill(&dir, "call_1", &text);
        assert!(note.contains("retrieve_tool_result"));

        let head = retrieve(&dir, json!({"id": "call_1"})).await.unwrap();
        assert!(head
            .content
            .starts_with("[characters 1-11500 of 30009]\nFIRST"));
        assert!(head.content.chars().count() <= TOOL_OUTPUT_BUDGET_CHARS);

        let tail = retrieve(&dir, json!({"id": "call_1", "mode": "tail"}))
            .await
            .unwrap();
        assert!(tail.content.ends_with("éLAST"));
        assert!(tail
            .content
            .starts_with("[characters 18510-30009 of 30009]"));
    }

    #[tokio::test]
    async fn lines_mode_returns_a_numbered_inclusive_range() {
        let dir = TempDir::new();
        spill(&dir, "c2", &numbered_lines(2_000));
        let out = retrieve(
            &dir,
            json!({"id": "c2", "mode": "lines", "start": 10, "end": 12}),
        )
        .await
        .unwrap();
        assert_eq!(
            out.content,
            "[lines 10-12 of 2000]\n10: line 10 of the log\n11: line 11 of the log\n12: line 12 of the log\n"
        );
    }

    #[tokio::test]
    async fn a_wide_line_range_stops_within_the_budget_and_says_where_to_go_on() {
        let dir = TempDir::new();
        spill(&dir, "c3", &numbered_lines(2_000));
        let out = retrieve(
            &dir,
            json!({"id": "c3", "mode": "lines", "start": 1, "end": 2000}),
        )
        .await
        .unwrap();
        assert!(out.content.chars().count() <= TOOL_OUTPUT_BUDGET_CHARS);
        assert!(
            out.content.contains("ask for lines"),
            "{}",
            &out.content[..80]
        );
    }

    #[tokio::test]
    async fn query_mode_finds_lines_case_insensitively_and_caps_matches() {
        let dir = TempDir::new();
        let mut text = numbered_lines(2_000);
        text.push_str("ERROR: disk full ünïcode\n");
        spill(&dir, "c4", &text);
        let one = retrieve(
            &dir,
            json!({"id": "c4", "mode": "query", "query": "error: DISK"}),
        )
        .await
        .unwrap();
        assert_eq!(
            one.content,
            "[1 lines contain \"error: disk\"; showing 1]\n2001: ERROR: disk full ünïcode\n"
        );
        let many = retrieve(&dir, json!({"id": "c4", "mode": "query", "query": "log"}))
            .await
            .unwrap();
        assert!(many
            .content
            .starts_with("[2000 lines contain \"log\"; showing 100]"));
        assert!(many.content.contains("more matches not shown"));
    }

    #[tokio::test]
    async fn a_match_in_a_huge_non_ascii_line_shows_a_window_around_it() {
        let dir = TempDir::new();
        let line = format!("{}NEEDLE{}", "ж".repeat(20_000), "ж".repeat(20_000));
        spill(&dir, "c5", &line);
        let out = retrieve(
            &dir,
            json!({"id": "c5", "mode": "query", "query": "needle"}),
        )
        .await
        .unwrap();
        assert!(out.content.contains("…жжж"));
        assert!(out.content.contains("NEEDLE"));
        assert!(out.content.chars().count() < 600);
    }

    #[tokio::test]
    async fn bad_ids_and_arguments_are_errors_the_model_can_fix() {
        let dir = TempDir::new();
        spill(&dir, "ok_id", &numbered_lines(2_000));
        for bad in ["../ok_id", "ok_id.txt", "a/b", ""] {
            let err = retrieve(&dir, json!({"id": bad})).await.unwrap_err();
            assert!(
                matches!(&err, ToolError::InvalidArguments(m) if m.contains("not a result id")),
                "{bad}: {err:?}"
            );
        }
        let missing = retrieve(&dir, json!({"id": "nope"})).await.unwrap_err();
        assert!(matches!(missing, ToolError::Failed(m) if m.contains("no saved result")));
        let mode = retrieve(&dir, json!({"id": "ok_id", "mode": "middle"}))
            .await
            .unwrap_err();
        assert!(matches!(mode, ToolError::InvalidArguments(m) if m.contains("unknown variant")));
        let range = retrieve(
            &dir,
            json!({"id": "ok_id", "mode": "lines", "start": 5, "end": 2}),
        )
        .await
        .unwrap_err();
        assert!(matches!(range, ToolError::InvalidArguments(m) if m.contains("before")));
        let past = retrieve(&dir, json!({"id": "ok_id", "mode": "lines", "start": 9999}))
            .await
            .unwrap_err();
        assert!(matches!(past, ToolError::InvalidArguments(m) if m.contains("2000 lines")));
        let zero = retrieve(&dir, json!({"id": "ok_id", "mode": "lines", "start": 0}))
            .await
            .unwrap_err();
        assert!(matches!(zero, ToolError::InvalidArguments(_)));
        let no_query = retrieve(&dir, json!({"id": "ok_id", "mode": "query"}))
            .await
            .unwrap_err();
        assert!(matches!(no_query, ToolError::InvalidArguments(m) if m.contains("needs `query`")));
    }

    #[test]
    fn the_tool_is_a_builtin_named_retrieve_tool_result() {
        let tool = RetrieveToolResult::new("/tmp");
        assert_eq!(tool.spec().name, "retrieve_tool_result");
        assert_eq!(tool.meta().group, "builtin");
        assert_eq!(tool.meta().source, ToolSource::Builtin);
    }
}
