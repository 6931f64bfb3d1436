//! `write_todos`: the agent's visible plan. Each call sends the whole checklist (items with
//! `pending`, `in_progress` or `done`); the result is a [`StateUpdate::Todos`] that replaces the
//! thread's plan, so the UI shows it live and it is saved with the thread.

use serde::Deserialize;
use serde_json::json;

use crate::model::ToolSpec;
use crate::thread::{TodoItem, TodoStatus};
use crate::tools::{StateUpdate, Tool, ToolContext, ToolError, ToolMeta, ToolOutput, ToolSource};

/// The tool's name.
pub const WRITE_TODOS_NAME: &str = "write_todos";
/// Items one plan may hold: a plan longer than this is a backlog, not a checklist.
pub const MAX_TODOS: usize = 30;
/// Characters one item may hold: a line in a panel, not a paragraph.
pub const MAX_TODO_CHARS: usize = 300;

/// Writes the thread's plan.
pub struct WriteTodos {
    spec: ToolSpec,
    meta: ToolMeta,
}

impl Default for WriteTodos {
    fn default() -> Self {
        Self::new()
    }
}

impl WriteTodos {
    /// The tool.
    pub fn new() -> Self {
        Self {
            spec: ToolSpec {
                name: WRITE_TODOS_NAME.into(),
                description: "Keep a visible checklist for work with several steps. Send the \
                    whole list every time (it replaces the previous one): each item has \
                    `content` and `status` (\"pending\", \"in_progress\" or \"done\"). Mark \
                    an item in_progress when you start it and done as soon as it is finished; \
                    at most one item is in_progress. Skip it for one-step tasks."
                    .into(),
                parameters: json!({
                    "type": "object",
                    "properties": {
                        "todos": {
                            "type": "array",
                            "maxItems": MAX_TODOS,
                            "items": {
                                "type": "object",
                                "properties": {
                                    "content": {"type": "string", "description": "The step, in a few words."},
                                    "status": {"type": "string", "enum": ["pending", "in_progress", "done"]}
                                },
                                "required": ["content", "status"]
                            }
                        }
                    },
                    "required": ["todos"]
                }),
            },
            meta: ToolMeta::new(ToolSource::Builtin, "builtin"),
        }
    }
}

#[derive(Debug, Deserialize)]
struct Args {
    todos: Vec<TodoItem>,
}

/// Checks a plan; the sentence says how to fix the call.
fn validate(items: &[TodoItem]) -> Result<Vec<TodoItem>, ToolError> {
    if items.len() > MAX_TODOS {
        return Err(ToolError::InvalidArguments(format!(
            "the plan has {} items; keep it to {MAX_TODOS} or fewer by merging small steps",
            items.len()
        )));
    }
    let mut clean = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let content = item.content.trim();
        if content.is_empty() {
            return Err(ToolError::InvalidArguments(format!(
                "item {} has no content; every item says what the step is",
                i + 1
            )));
        }
        if content.chars().count() > MAX_TODO_CHARS {
            return Err(ToolError::InvalidArguments(format!(
                "item {} is longer than {MAX_TODO_CHARS} characters; say the step in a few words",
                i + 1
            )));
        }
        clean.push(TodoItem {
            content: content.to_string(),
            status: item.status,
        });
    }
    let working = clean
        .iter()
        .filter(|t| t.status == TodoStatus::InProgress)
        .count();
    if working > 1 {
        return Err(ToolError::InvalidArguments(format!(
            "{working} items are in_progress; mark only the one you are working on now"
        )));
    }
    Ok(clean)
}

/// The plan as the model reads it back: one line per item and a count of what is open.
fn render(items: &[TodoItem]) -> String {
    if items.is_empty() {
        return "The plan is cleared.".into();
    }
    let mut s = String::new();
    for t in items {
        let mark = match t.status {
            TodoStatus::Pending => "[ ]",
            TodoStatus::InProgress => "[~]",
            TodoStatus::Done => "[x]",
        };
        s.push_str(&format!("{mark} {}\n", t.content));
    }
    let open = items.iter().filter(|t| t.is_open()).count();
    if open == 0 {
        s.push_str("All items are done.");
    } else {
        s.push_str(&format!("{open} of {} items open.", items.len()));
    }
    s
}

#[async_trait::async_trait]
impl Tool for WriteTodos {
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
        let args: Args = serde_json::from_value(args).map_err(|e| {
            ToolError::InvalidArguments(format!(
                "{e}; send {{\"todos\": [{{\"content\": \"...\", \"status\": \"pending\"}}]}}"
            ))
        })?;
        let items = validate(&args.todos)?;
        Ok(ToolOutput::text(render(&items)).with_update(StateUpdate::Todos { items }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio_util::sync::CancellationToken;

    fn ctx() -> ToolContext {
        ToolContext {
            thread_id: "t".into(),
            run_id: "r".into(),
            call_id: "c".into(),
            cancel: CancellationToken::new(),
        }
    }

    async fn call(args: serde_json::Value) -> Result<ToolOutput, ToolError> {
        WriteTodos::new().call(args, &ctx()).await
    }

    #[tokio::test]
    async fn a_plan_is_returned_as_a_state_update_and_a_checklist() {
        let out = call(json!({"todos": [
            {"content": " Read the code ", "status": "done"},
            {"content": "Fix the bug", "status": "in_progress"},
            {"content": "Run the tests", "status": "pending"},
        ]}))
        .await
        .unwrap();
        assert!(!out.is_error);
        assert_eq!(
            out.content,
            "[x] Read the code\n[~] Fix the bug\n[ ] Run the tests\n2 of 3 items open."
        );
        let Some(StateUpdate::Todos { items }) = out.update else {
            panic!("no todos update");
        };
        assert_eq!(items[0].content, "Read the code", "trimmed");
        assert_eq!(items[1].status, TodoStatus::InProgress);
    }

    #[tokio::test]
    async fn an_empty_list_clears_the_plan() {
        let out = call(json!({"todos": []})).await.unwrap();
        assert_eq!(out.content, "The plan is cleared.");
        assert_eq!(out.update, Some(StateUpdate::Todos { items: vec![] }));
    }

    #[tokio::test]
    async fn bad_plans_get_a_sentence_that_says_how_to_fix_them() {
        let two_working = call(json!({"todos": [
            {"content": "a", "status": "in_progress"},
            {"content": "b", "status": "in_progress"},
        ]}))
        .await
        .unwrap_err();
        assert!(
            two_working.to_string().contains("only the one"),
            "{two_working}"
        );

        let blank = call(json!({"todos": [{"content": "  ", "status": "pending"}]}))
            .await
            .unwrap_err();
        assert!(
            blank.to_string().contains("item 1 has no content"),
            "{blank}"
        );

        let bad_status = call(json!({"todos": [{"content": "a", "status": "started"}]}))
            .await
            .unwrap_err();
        assert!(
            bad_status.to_string().contains("in_progress"),
            "{bad_status}"
        );

        let many: Vec<_> = (0..=MAX_TODOS)
            .map(|i| json!({"content": format!("step {i}"), "status": "pending"}))
            .collect();
        let too_many = call(json!({ "todos": many })).await.unwrap_err();
        assert!(too_many.to_string().contains("or fewer"), "{too_many}");
    }
}
