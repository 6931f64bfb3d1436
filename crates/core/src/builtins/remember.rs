//! `remember`: saves one short fact for later threads (see [`crate::memory`]). Facts that look
//! like keys, tokens or passwords are refused with a sentence, before anything is stored.

use std::sync::Arc;

use serde::Deserialize;
use serde_json::json;

use crate::memory::{check_fact, MemoryStore, Remembered};
use crate::model::ToolSpec;
use crate::tools::{Tool, ToolContext, ToolError, ToolMeta, ToolOutput, ToolSource};

/// The tool's name.
pub const REMEMBER_NAME: &str = "remember";

/// Saves facts to a [`MemoryStore`].
pub struct Remember {
    store: Arc<dyn MemoryStore>,
    spec: ToolSpec,
    meta: ToolMeta,
}

impl Remember {
    /// The tool over `store`.
    pub fn new(store: Arc<dyn MemoryStore>) -> Self {
        Self {
            store,
            spec: ToolSpec {
                name: REMEMBER_NAME.into(),
                description: "Save one short fact worth knowing in later conversations (a \
                    preference, a convention of the user's project, a decision). It is shown \
                    to you at the start of future threads. One sentence per call; never a \
                    secret (keys, tokens and passwords are refused)."
                    .into(),
                parameters: json!({
                    "type": "object",
                    "properties": {
                        "fact": {"type": "string", "description": "The fact, in one sentence."}
                    },
                    "required": ["fact"]
                }),
            },
            meta: ToolMeta::new(ToolSource::Builtin, "memory"),
        }
    }
}

#[derive(Debug, Deserialize)]
struct Args {
    fact: String,
}

#[async_trait::async_trait]
impl Tool for Remember {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }

    fn meta(&self) -> &ToolMeta {
        &self.meta
    }

    async fn call(
        &self,
        args: serde_json::Value,
        ctx: &ToolContext,
    ) -> Result<ToolOutput, ToolError> {
        let args: Args = serde_json::from_value(args)
            .map_err(|e| ToolError::InvalidArguments(format!("{e}; send {{\"fact\": \"...\"}}")))?;
        let fact = match check_fact(&args.fact) {
            Ok(fact) => fact,
            // A refusal the model reads, not a broken call: it should rephrase, not retry.
            Err(e) => return Ok(ToolOutput::error(e.to_string())),
        };
        let store = self.store.clone();
        let thread = ctx.thread_id.clone();
        let saved = tokio::task::spawn_blocking(move || store.remember(&fact, Some(&thread)))
            .await
            .map_err(|e| ToolError::Failed(format!("could not save the fact: {e}")))?
            .map_err(|e| ToolError::Failed(format!("could not save the fact: {e}")))?;
        Ok(ToolOutput::text(match saved {
            Remembered::New(_) => "Saved. Later threads will see this fact.",
            Remembered::Existing(_) => "This fact was already saved; it is marked as fresh.",
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory::{normalise_fact, Memory};
    use crate::thread::StoreError;
    use std::sync::Mutex;
    use tokio_util::sync::CancellationToken;

    #[derive(Default)]
    struct Facts(Mutex<Vec<Memory>>);

    impl MemoryStore for Facts {
        fn remember(&self, fact: &str, _: Option<&str>) -> Result<Remembered, StoreError> {
            let mut all = self.0.lock().unwrap();
            if let Some(m) = all
                .iter()
                .find(|m| normalise_fact(&m.fact) == normalise_fact(fact))
            {
                return Ok(Remembered::Existing(m.clone()));
            }
            let m = Memory {
                id: format!("m{}", all.len()),
                fact: fact.into(),
                created_at: 0,
                updated_at: 0,
                uses: 0,
            };
            all.push(m.clone());
            Ok(Remembered::New(m))
        }
    }

    fn ctx() -> ToolContext {
        ToolContext {
            thread_id: "t".into(),
            run_id: "r".into(),
            call_id: "c".into(),
            cancel: CancellationToken::new(),
        }
    }

    #[tokio::test]
    async fn a_fact_is_saved_once() {
        let facts = Arc::new(Facts::default());
        let tool = Remember::new(facts.clone());
        let out = tool
            .call(json!({"fact": "The user writes British English."}), &ctx())
            .await
            .unwrap();
        assert!(!out.is_error);
        assert!(out.content.starts_with("Saved"));
        let again = tool
            .call(json!({"fact": "the user writes  british english."}), &ctx())
            .await
            .unwrap();
        assert!(again.content.contains("already saved"));
        assert_eq!(facts.0.lock().unwrap().len(), 1);
    }

    #[tokio::test]
    async fn a_secret_is_refused_and_not_stored() {
        let facts = Arc::new(Facts::default());
        let tool = Remember::new(facts.clone());
        let out = tool
            .call(
                json!({"fact": "The OpenAI key is sk-proj-AbCdEf0123456789GhIjKl"}),
                &ctx(),
            )
            .await
            .unwrap();
        assert!(out.is_error);
        assert!(out.content.contains("never stores keys"), "{}", out.content);
        assert!(facts.0.lock().unwrap().is_empty());
    }
}
