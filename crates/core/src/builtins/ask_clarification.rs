//! `ask_clarification`: the agent stops and asks the user a question. The run ends waiting
//! for the user; their answer becomes this call's result and the thread goes on.

use serde::Deserialize;

use crate::model::ToolSpec;
use crate::thread::{Clarification, ClarificationType};
use crate::tools::{StateUpdate, Tool, ToolContext, ToolError, ToolMeta, ToolOutput, ToolSource};

/// The tool's name.
pub const ASK_CLARIFICATION: &str = "ask_clarification";
/// Longest question accepted, in characters; a question is read on a card, not a page.
pub const MAX_QUESTION_CHARS: usize = 2_000;
/// Most options offered as buttons.
pub const MAX_OPTIONS: usize = 8;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Args {
    question: String,
    clarification_type: ClarificationType,
    #[serde(default)]
    context: Option<String>,
    #[serde(default)]
    options: Vec<String>,
}

/// The built-in `ask_clarification`.
pub struct AskClarification {
    spec: ToolSpec,
    meta: ToolMeta,
}

impl Default for AskClarification {
    fn default() -> Self {
        Self::new()
    }
}

impl AskClarification {
    /// The tool.
    pub fn new() -> Self {
        Self {
            spec: ToolSpec {
                name: ASK_CLARIFICATION.into(),
                description: "Ask the user a question and wait for the answer. Use it when \
                              information is missing, the request is ambiguous, there are \
                              approaches to choose from, an action is risky, or you want to \
                              suggest something first. Offer `options` when the answer is a \
                              choice. The answer comes back as this call's result."
                    .into(),
                parameters: serde_json::json!({
                    "type": "object",
                    "properties": {
                        "question": {"type": "string", "description": "The question, one or two sentences."},
                        "clarification_type": {
                            "type": "string",
                            "enum": ["missing_info", "ambiguous_requirement", "approach_choice",
                                     "risk_confirmation", "suggestion"]
                        },
                        "context": {"type": "string", "description": "Why you ask, briefly."},
                        "options": {
                            "type": "array", "items": {"type": "string"}, "maxItems": MAX_OPTIONS,
                            "description": "Answers to offer as choices."
                        }
                    },
                    "required": ["question", "clarification_type"]
                }),
            },
            meta: ToolMeta {
                // A subagent cannot stop its lead's run to ask the user.
                lead_only: true,
                ..ToolMeta::new(ToolSource::Builtin, "clarification")
            },
        }
    }
}

fn validate(args: serde_json::Value) -> Result<Clarification, ToolError> {
    let a: Args = serde_json::from_value(args).map_err(|e| {
        ToolError::InvalidArguments(format!(
            "{e}; expected {{\"question\": string, \"clarification_type\": one of missing_info, \
             ambiguous_requirement, approach_choice, risk_confirmation, suggestion, \
             \"context\"?: string, \"options\"?: [string]}}"
        ))
    })?;
    let question = a.question.trim().to_string();
    if question.is_empty() {
        return Err(ToolError::InvalidArguments("the question is empty".into()));
    }
    if question.chars().count() > MAX_QUESTION_CHARS {
        return Err(ToolError::InvalidArguments(format!(
            "the question is longer than {MAX_QUESTION_CHARS} characters; ask something shorter"
        )));
    }
    let mut options: Vec<String> = Vec::new();
    for o in a.options.iter().map(|o| o.trim()).filter(|o| !o.is_empty()) {
        if !options.iter().any(|x| x == o) {
            options.push(o.to_string());
        }
    }
    if options.len() > MAX_OPTIONS {
        return Err(ToolError::InvalidArguments(format!(
            "{} options is too many; offer at most {MAX_OPTIONS}",
            options.len()
        )));
    }
    Ok(Clarification {
        question,
        clarification_type: a.clarification_type,
        context: a
            .context
            .map(|c| c.trim().to_string())
            .filter(|c| !c.is_empty()),
        options,
    })
}

#[async_trait::async_trait]
impl Tool for AskClarification {
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
        let question = validate(args)?;
        Ok(
            ToolOutput::text(format!("asked the user: {}", question.question))
                .with_update(StateUpdate::AskUser(question)),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_question_with_options_is_trimmed_and_deduplicated() {
        let q = validate(json!({
            "question": "  Which format? ",
            "clarification_type": "approach_choice",
            "options": ["CSV", " CSV ", "", "JSON"],
            "context": "  "
        }))
        .unwrap();
        assert_eq!(q.question, "Which format?");
        assert_eq!(q.clarification_type, ClarificationType::ApproachChoice);
        assert_eq!(q.options, ["CSV", "JSON"]);
        assert_eq!(q.context, None);
    }

    #[test]
    fn bad_calls_say_how_to_fix_them() {
        for (args, needle) in [
            (json!({"question": "x"}), "clarification_type"),
            (
                json!({"question": "x", "clarification_type": "vibes"}),
                "missing_info",
            ),
            (
                json!({"question": "  ", "clarification_type": "suggestion"}),
                "empty",
            ),
            (
                json!({"question": "x", "clarification_type": "suggestion", "extra": 1}),
                "extra",
            ),
            (
                json!({"question": "x", "clarification_type": "suggestion",
                       "options": (0..9).map(|i| i.to_string()).collect::<Vec<_>>()}),
                "at most 8",
            ),
        ] {
            let err = validate(args).unwrap_err().to_string();
            assert!(err.contains(needle), "{err} lacks {needle}");
        }
    }

    #[test]
    fn the_tool_is_for_the_lead_agent_only() {
        assert!(AskClarification::new().meta().lead_only);
    }
}
