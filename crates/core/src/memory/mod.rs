//! Memory across threads: short facts the agent saves with `remember`, the port that stores
//! them, the check that keeps secrets out, and the choice of facts a new run's system prompt
//! gets within a token budget.
//!
//! Not here: SQL (`workbench-store` implements [`MemoryStore`]) or the settings page.

mod inject;
mod secrets;

use serde::{Deserialize, Serialize};

use crate::thread::StoreError;

pub use inject::{memory_section, select_for_prompt, MEMORY_BUDGET_TOKENS};
pub use secrets::{secret_reason, MAX_FACT_CHARS};

/// One saved fact.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct Memory {
    pub id: String,
    pub fact: String,
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub created_at: i64,
    /// When the fact was last saved or edited.
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub updated_at: i64,
    /// How many runs were given this fact.
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub uses: i64,
}

/// What saving a fact did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Remembered {
    /// A new fact was stored.
    New(Memory),
    /// The same fact (ignoring case and spacing) was already stored; it was marked fresh.
    Existing(Memory),
}

/// Where facts are kept. Implemented over SQLite by `workbench-store`.
pub trait MemoryStore: Send + Sync + 'static {
    /// Saves a checked fact, or refreshes the same fact when it exists.
    fn remember(&self, fact: &str, thread_id: Option<&str>) -> Result<Remembered, StoreError>;
}

/// The form two facts are compared in: lower case, runs of whitespace as one space.
pub fn normalise_fact(fact: &str) -> String {
    fact.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// Why a fact cannot be saved, as a sentence the model or the user can act on.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FactError {
    #[error("the fact is empty; say it in one short sentence")]
    Empty,
    #[error("the fact is {chars} characters; keep it under {max} (one short sentence)")]
    TooLong { chars: usize, max: usize },
    #[error(
        "not saved: the fact looks like it holds a secret ({0}); memory never stores keys, \
         tokens or passwords. Save what the secret is for instead, without the value"
    )]
    LooksSecret(String),
}

/// Trims a fact and checks it can be stored: not empty, short, and not a secret.
pub fn check_fact(fact: &str) -> Result<String, FactError> {
    let fact = fact.trim();
    if fact.is_empty() {
        return Err(FactError::Empty);
    }
    let chars = fact.chars().count();
    if chars > MAX_FACT_CHARS {
        return Err(FactError::TooLong {
            chars,
            max: MAX_FACT_CHARS,
        });
    }
    if let Some(why) = secret_reason(fact) {
        return Err(FactError::LooksSecret(why));
    }
    Ok(fact.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn facts_are_trimmed_and_checked() {
        assert_eq!(
            check_fact("  The user prefers tabs.  ").unwrap(),
            "The user prefers tabs."
        );
        assert_eq!(check_fact("   "), Err(FactError::Empty));
        let long = "a ".repeat(MAX_FACT_CHARS);
        assert!(matches!(check_fact(&long), Err(FactError::TooLong { .. })));
        let err = check_fact("my key is sk-proj-abcdefghijklmnopqrstuvwx1234").unwrap_err();
        assert!(err.to_string().contains("never stores keys"), "{err}");
    }

    #[test]
    fn the_same_fact_in_other_case_and_spacing_compares_equal() {
        assert_eq!(
            normalise_fact("The  user\tprefers TABS"),
            normalise_fact("the user prefers tabs")
        );
    }
}
