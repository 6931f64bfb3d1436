//! A thread written out as Markdown (to read) or JSON (to keep or process): pure functions over
//! the thread and its messages, shared by the desktop's save dialog and `workbench thread export`.
//! Hidden messages (written for the model only) are left out of both.

use std::collections::HashMap;
use std::path::Path;

use serde::Serialize;
use workbench_core::thread::{Message, MessageStatus, Role, Thread};

use crate::{App, AppError};

/// Version of the JSON export's shape; bumped when a field changes meaning.
pub const EXPORT_JSON_VERSION: u32 = 1;
/// Most characters of one tool result in Markdown; the JSON export keeps every character.
const MD_RESULT_MAX_CHARS: usize = 4_000;

/// The file formats a thread exports to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExportFormat {
    /// Readable Markdown: headings per turn, tool calls with their arguments and results.
    Markdown,
    /// The thread and its shown messages as stored, one JSON document.
    Json,
}

impl ExportFormat {
    /// `md`/`markdown` or `json`; anything else is `None`.
    pub fn parse(s: &str) -> Option<Self> {
        match s.trim().to_ascii_lowercase().as_str() {
            "md" | "markdown" => Some(Self::Markdown),
            "json" => Some(Self::Json),
            _ => None,
        }
    }

    /// The usual file extension, without the dot.
    pub fn extension(self) -> &'static str {
        match self {
            Self::Markdown => "md",
            Self::Json => "json",
        }
    }
}

#[derive(Serialize)]
struct JsonExport<'a> {
    format: &'static str,
    version: u32,
    thread: ThreadHeader<'a>,
    messages: Vec<&'a Message>,
}

#[derive(Serialize)]
struct ThreadHeader<'a> {
    id: &'a str,
    title: &'a str,
    created_at: i64,
    updated_at: i64,
}

/// The thread as `format` text.
pub fn export(thread: &Thread, messages: &[Message], format: ExportFormat) -> String {
    match format {
        ExportFormat::Markdown => to_markdown(thread, messages),
        ExportFormat::Json => to_json(thread, messages),
    }
}

/// The thread and its shown messages as one pretty-printed JSON document.
pub fn to_json(thread: &Thread, messages: &[Message]) -> String {
    let doc = JsonExport {
        format: "workbench.thread",
        version: EXPORT_JSON_VERSION,
        thread: ThreadHeader {
            id: &thread.id,
            title: &thread.title,
            created_at: thread.created_at,
            updated_at: thread.updated_at,
        },
        messages: messages.iter().filter(|m| !m.hidden).collect(),
    };
    // Plain data with string keys: serialising it cannot fail.
    serde_json::to_string_pretty(&doc).unwrap_or_default() + "\n"
}

/// The thread as Markdown: a heading per turn; each tool call with its arguments and, right
/// after it, its result (long results cut, with the count of what was left out).
pub fn to_markdown(thread: &Thread, messages: &[Message]) -> String {
    let shown: Vec<&Message> = messages.iter().filter(|m| !m.hidden).collect();
    let results: HashMap<&str, &Message> = shown
        .iter()
        .filter(|m| m.role == Role::Tool)
        .filter_map(|m| m.tool_call_id.as_deref().map(|id| (id, *m)))
        .collect();
    let called: std::collections::HashSet<&str> = shown
        .iter()
        .flat_map(|m| m.tool_calls.iter().map(|c| c.id.as_str()))
        .collect();

    // Every block below ends with a blank line, so the next starts right after it.
    let mut out = format!("# {}\n\n", one_line(&thread.title));
    let mut last_role = None;
    for m in &shown {
        match m.role {
            Role::User => {
                out.push_str("## User\n\n");
                push_text(&mut out, &m.content);
            }
            Role::Assistant => {
                // Consecutive assistant messages (tool turns) are one answer under one heading.
                if last_role != Some(Role::Assistant) {
                    out.push_str("## Assistant\n\n");
                }
                if !m.reasoning.trim().is_empty() {
                    out.push_str("<details><summary>Reasoning</summary>\n\n");
                    push_text(&mut out, &m.reasoning);
                    out.push_str("</details>\n\n");
                }
                push_text(&mut out, &m.content);
                for call in &m.tool_calls {
                    out.push_str(&format!("**Tool call:** `{}`\n\n", one_line(&call.name)));
                    push_fenced(&mut out, "json", &pretty_json(&call.arguments));
                    match results.get(call.id.as_str()) {
                        Some(r) => push_result(&mut out, r),
                        None => out.push_str("_No result (the run stopped before it)._\n\n"),
                    }
                }
                push_status(&mut out, m);
            }
            Role::Tool => {
                // Results are written under their call; only orphans get a place of their own.
                let orphan = m
                    .tool_call_id
                    .as_deref()
                    .is_none_or(|id| !called.contains(id));
                if orphan {
                    push_result(&mut out, m);
                }
            }
        }
        // A tool result between two assistant messages does not start a new answer.
        if m.role != Role::Tool {
            last_role = Some(m.role);
        }
    }
    while out.ends_with("\n\n") {
        out.pop();
    }
    out
}

fn push_text(out: &mut String, text: &str) {
    let text = text.trim();
    if !text.is_empty() {
        out.push_str(text);
        out.push_str("\n\n");
    }
}

fn push_result(out: &mut String, result: &Message) {
    let label = if result.is_error {
        "**Result (error):**"
    } else {
        "**Result:**"
    };
    out.push_str(label);
    out.push_str("\n\n");
    let text = result.content.trim_end();
    let total = text.chars().count();
    match text.char_indices().nth(MD_RESULT_MAX_CHARS) {
        Some((cut, _)) => {
            push_fenced(out, "text", &text[..cut]);
            out.push_str(&format!(
                "_… {} more characters (the JSON export has all of it)._\n\n",
                total - MD_RESULT_MAX_CHARS
            ));
        }
        None => push_fenced(out, "text", text),
    }
}

fn push_status(out: &mut String, m: &Message) {
    let note = match m.status {
        MessageStatus::Cancelled => "_(stopped by the user)_".to_string(),
        MessageStatus::Interrupted => "_(interrupted)_".to_string(),
        MessageStatus::Error => match &m.error {
            Some(e) => format!("_(failed: {})_", one_line(e)),
            None => "_(failed)_".to_string(),
        },
        _ => return,
    };
    out.push_str(&note);
    out.push_str("\n\n");
}

/// A fenced block whose fence is longer than any backtick run inside, so no content closes it.
fn push_fenced(out: &mut String, lang: &str, text: &str) {
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest.max(2) + 1);
    out.push_str(&format!("{fence}{lang}\n{text}\n{fence}\n\n"));
}

/// Arguments pretty-printed when they are JSON; as sent otherwise (a model's broken JSON is
/// part of the record).
fn pretty_json(raw: &str) -> String {
    serde_json::from_str::<serde_json::Value>(raw)
        .ok()
        .and_then(|v| serde_json::to_string_pretty(&v).ok())
        .unwrap_or_else(|| raw.to_string())
}

fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

impl App {
    /// The thread as `format` text.
    pub fn export_thread(&self, thread_id: &str, format: ExportFormat) -> Result<String, AppError> {
        let view = self.get_thread(thread_id)?;
        Ok(export(&view.thread, &view.messages, format))
    }

    /// Writes the thread as `format` to `path` (a file the user chose): written beside it
    /// first and moved into place, so a failure never leaves half a file.
    pub async fn export_thread_to(
        &self,
        thread_id: &str,
        format: ExportFormat,
        path: &Path,
    ) -> Result<(), AppError> {
        let text = self.export_thread(thread_id, format)?;
        let path = path.to_path_buf();
        tokio::task::spawn_blocking(move || write_atomically(&path, text.as_bytes()))
            .await
            .map_err(|e| AppError::Invalid(format!("internal error: {e}")))?
    }
}

fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), AppError> {
    let fail = |what: &str, e: std::io::Error| {
        AppError::Invalid(format!("could not {what} {}: {e}", path.display()))
    };
    if path.is_dir() {
        return Err(AppError::Invalid(format!(
            "{} is a folder; choose a file name",
            path.display()
        )));
    }
    let name = path
        .file_name()
        .ok_or_else(|| AppError::Invalid(format!("{} names no file", path.display())))?;
    let tmp = path.with_file_name(format!(".{}.part", name.to_string_lossy()));
    std::fs::write(&tmp, bytes).map_err(|e| fail("write", e))?;
    std::fs::rename(&tmp, path).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        fail("save", e)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use workbench_core::thread::{ThreadState, ToolCall};

    fn thread() -> Thread {
        Thread {
            id: "t1".into(),
            title: "Fix the\nbuild".into(),
            created_at: 1,
            updated_at: 2,
            state: ThreadState::default(),
        }
    }

    fn assistant(content: &str, calls: &[(&str, &str, &str)]) -> Message {
        let mut m = Message::assistant_streaming("t1", "r1");
        m.content = content.into();
        m.status = MessageStatus::Complete;
        m.tool_calls = calls
            .iter()
            .map(|(id, name, args)| ToolCall {
                id: (*id).into(),
                name: (*name).into(),
                arguments: (*args).into(),
            })
            .collect();
        m
    }

    fn conversation() -> Vec<Message> {
        let mut hidden = Message::user("t1", "[reminder, not from the user] secret note");
        hidden.hidden = true;
        let failed = Message::tool_result("t1", "r1", "c2", "no such file", true);
        vec![
            Message::user("t1", "Why does the build fail?"),
            assistant(
                "Let me look.",
                &[
                    ("c1", "bash", r#"{"command":"cargo build"}"#),
                    ("c2", "read_file", "{not json"),
                ],
            ),
            Message::tool_result("t1", "r1", "c1", "error[E0425]: ```cannot find```", false),
            failed,
            hidden,
            assistant("A missing import.", &[]),
        ]
    }

    #[test]
    fn markdown_reads_as_a_conversation_with_calls_and_their_results() {
        let md = to_markdown(&thread(), &conversation());
        let expected = "# Fix the build\n\n## User\n\nWhy does the build fail?\n\n## Assistant\n\n\
Let me look.\n\n**Tool call:** `bash`\n\n```json\n{\n  \"command\": \"cargo build\"\n}\n```\n\n\
**Result:**\n\n````text\nerror[E0425]: ```cannot find```\n````\n\n\
**Tool call:** `read_file`\n\n```json\n{not json\n```\n\n\
**Result (error):**\n\n```text\nno such file\n```\n\nA missing import.\n";
        assert_eq!(md, expected);
    }

    #[test]
    fn hidden_messages_are_left_out_of_both_formats() {
        let msgs = conversation();
        assert!(!to_markdown(&thread(), &msgs).contains("secret note"));
        let json: serde_json::Value = serde_json::from_str(&to_json(&thread(), &msgs)).unwrap();
        assert_eq!(json["format"], "workbench.thread");
        assert_eq!(json["version"], EXPORT_JSON_VERSION);
        assert_eq!(json["thread"]["title"], "Fix the\nbuild");
        let got = json["messages"].as_array().unwrap();
        assert_eq!(got.len(), msgs.len() - 1);
        assert!(!json.to_string().contains("secret note"));
        assert_eq!(got[2]["content"], "error[E0425]: ```cannot find```");
    }

    #[test]
    fn long_results_are_cut_in_markdown_only_and_stopped_replies_say_so() {
        let mut stopped = assistant("Half an ans", &[("c9", "bash", "{}")]);
        stopped.status = MessageStatus::Cancelled;
        let long = "x".repeat(MD_RESULT_MAX_CHARS + 10);
        let msgs = vec![
            Message::user("t1", "go"),
            stopped,
            Message::tool_result("t1", "r1", "c9", long.clone(), false),
            Message::tool_result("t1", "r1", "orphan", "left over", false),
        ];
        let md = to_markdown(&thread(), &msgs);
        assert!(md.contains("_… 10 more characters"), "{md}");
        assert!(!md.contains(&long));
        assert!(md.contains("_(stopped by the user)_"));
        assert!(md.contains("left over"), "an orphan result is still shown");
        assert!(to_json(&thread(), &msgs).contains(&long));
    }

    #[test]
    fn formats_parse_from_their_names() {
        assert_eq!(ExportFormat::parse("MD"), Some(ExportFormat::Markdown));
        assert_eq!(
            ExportFormat::parse("markdown"),
            Some(ExportFormat::Markdown)
        );
        assert_eq!(ExportFormat::parse("json"), Some(ExportFormat::Json));
        assert_eq!(ExportFormat::parse("pdf"), None);
    }

    #[test]
    fn writing_refuses_a_folder_and_leaves_no_partial_file() {
        let dir = tempfile::tempdir().unwrap();
        assert!(write_atomically(dir.path(), b"x").is_err());
        let file = dir.path().join("t.md");
        write_atomically(&file, b"hello").unwrap();
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "hello");
        let missing = dir.path().join("no/such/dir/t.md");
        assert!(write_atomically(&missing, b"x").is_err());
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(names.len(), 1, "only t.md");
    }
}
