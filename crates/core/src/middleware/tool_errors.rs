//! Tool error normalising: whatever a tool failed with, the model reads a result it can act on.
//!
//! A failing tool never aborts the run: its [`ToolError`] becomes an error result
//! ([`error_output`] is that translation, for the loop to use), and `after_tool` then makes
//! every error result readable: never empty, always starting with `Error: `, and never so
//! long that it floods the context (an HTML error page, a whole log). A successful result
//! with no text gets a short placeholder, because an empty tool message reads like a missing
//! one to some models.

use super::text::{first_chars, last_chars, thousands};
use super::{Middleware, RunInfo};
use crate::thread::ToolCall;
use crate::tools::{ToolError, ToolOutput};

/// What every error result starts with.
pub const ERROR_PREFIX: &str = "Error: ";
/// Longest error text kept whole, in characters. An error a model can act on fits in a screen
/// of text; past that it is a dumped page or log, whose head says what failed and whose tail
/// often says why.
pub const MAX_ERROR_CHARS: usize = 8_000;
/// Of an over-long error, the characters kept from its start (the error itself) ...
pub const ERROR_HEAD_CHARS: usize = 6_000;
/// ... and from its end (the summary line many tools print last).
pub const ERROR_TAIL_CHARS: usize = 2_000;
/// What a successful result with no text reads as.
pub const EMPTY_SUCCESS: &str = "(the tool returned no output)";

/// Makes error results non-empty, prefixed and bounded; gives empty successes a placeholder.
#[derive(Debug, Default, Clone, Copy)]
pub struct ToolErrorNormaliser;

impl ToolErrorNormaliser {
    pub fn new() -> Self {
        Self
    }
}

#[async_trait::async_trait]
impl Middleware for ToolErrorNormaliser {
    fn name(&self) -> &'static str {
        "tool_error_normaliser"
    }

    fn after_tool(&self, call: &ToolCall, output: &mut ToolOutput, _run: &RunInfo) {
        if output.is_error {
            output.content = normalise_error(&call.name, &output.content);
        } else if output.content.trim().is_empty() {
            output.content = EMPTY_SUCCESS.to_string();
        }
    }
}

/// The error result for a tool call that failed with `err`, in words the model can fix its
/// next call from.
pub fn error_output(call: &ToolCall, err: &ToolError) -> ToolOutput {
    let text = match err {
        ToolError::InvalidArguments(why) => format!(
            "invalid arguments for `{}`: {why}. Fix the arguments and call it again.",
            call.name
        ),
        ToolError::Failed(why) => why.clone(),
        ToolError::Cancelled => format!(
            "cancelled: the run was stopped before `{}` finished.",
            call.name
        ),
    };
    ToolOutput::error(normalise_error(&call.name, &text))
}

fn normalise_error(tool: &str, content: &str) -> String {
    let text = content.trim();
    if text.is_empty() {
        return format!("{ERROR_PREFIX}`{tool}` failed without saying why.");
    }
    let text = bounded(text);
    let already_prefixed = text
        .get(..ERROR_PREFIX.trim_end().len())
        .is_some_and(|p| p.eq_ignore_ascii_case(ERROR_PREFIX.trim_end()));
    if already_prefixed {
        text
    } else {
        format!("{ERROR_PREFIX}{text}")
    }
}

/// `text` whole, or its head and tail with a note when it has more than [`MAX_ERROR_CHARS`].
fn bounded(text: &str) -> String {
    let total = text.chars().count();
    if total <= MAX_ERROR_CHARS {
        return text.to_string();
    }
    let omitted = total - ERROR_HEAD_CHARS - ERROR_TAIL_CHARS;
    format!(
        "{}\n\n[... {} characters of this error omitted ...]\n\n{}",
        first_chars(text, ERROR_HEAD_CHARS),
        thousands(omitted),
        last_chars(text, ERROR_TAIL_CHARS)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::middleware::testkit::{call, run};

    fn after(output: ToolOutput) -> ToolOutput {
        let mut output = output;
        ToolErrorNormaliser.after_tool(&call("a", "fetch", "{}"), &mut output, &run());
        output
    }

    #[test]
    fn an_empty_error_says_which_tool_failed() {
        let out = after(ToolOutput::error("  \n"));
        assert!(out.is_error);
        assert_eq!(out.content, "Error: `fetch` failed without saying why.");
    }

    #[test]
    fn errors_get_the_prefix_once() {
        assert_eq!(
            after(ToolOutput::error("no such file")).content,
            "Error: no such file"
        );
        assert_eq!(
            after(ToolOutput::error("Error: no such file")).content,
            "Error: no such file"
        );
        assert_eq!(
            after(ToolOutput::error("ERROR: boom")).content,
            "ERROR: boom"
        );
    }

    #[test]
    fn an_absurdly_long_error_keeps_its_head_and_tail() {
        let long = format!("Error: first line\n{}\nlast line ✓", "é".repeat(50_000));
        let out = after(ToolOutput::error(long));
        let chars = out.content.chars().count();
        assert!(chars < MAX_ERROR_CHARS + 100, "{chars}");
        assert!(out.content.starts_with("Error: first line"));
        assert!(out.content.ends_with("last line ✓"));
        assert!(out.content.contains("characters of this error omitted"));
    }

    #[test]
    fn successes_are_untouched_unless_empty() {
        assert_eq!(after(ToolOutput::text("fine")), ToolOutput::text("fine"));
        assert_eq!(after(ToolOutput::text("")).content, EMPTY_SUCCESS);
        assert!(!after(ToolOutput::text("")).is_error);
    }

    #[test]
    fn tool_errors_become_actionable_error_results() {
        let c = call("a", "read_file", "{}");
        let bad = error_output(
            &c,
            &ToolError::InvalidArguments("`path` is required".into()),
        );
        assert!(bad.is_error);
        assert_eq!(
            bad.content,
            "Error: invalid arguments for `read_file`: `path` is required. Fix the arguments \
             and call it again."
        );
        assert_eq!(
            error_output(&c, &ToolError::Failed(String::new())).content,
            "Error: `read_file` failed without saying why."
        );
        assert!(error_output(&c, &ToolError::Cancelled)
            .content
            .starts_with("Error: cancelled"));
    }
}
