//! Memory across threads as the front-ends see it: list, edit, delete, turn on and off; and the
//! section of facts a new run's system prompt gets.

use std::sync::Arc;

use workbench_core::memory::{
    check_fact, memory_section, select_for_prompt, Memory, MemoryStore, MEMORY_BUDGET_TOKENS,
};

use crate::{App, AppError};

/// Settings key: memory on (default) or off. Off hides `remember` and injects nothing.
pub const MEMORY_ENABLED_SETTING: &str = "memory.enabled";

impl App {
    /// Whether memory is on.
    pub fn memory_enabled(&self) -> Result<bool, AppError> {
        Ok(self
            .store
            .get_setting::<bool>(MEMORY_ENABLED_SETTING)?
            .unwrap_or(true))
    }

    /// Turns memory on or off; saved facts are kept either way.
    pub fn set_memory_enabled(&self, enabled: bool) -> Result<(), AppError> {
        Ok(self.store.set_setting(MEMORY_ENABLED_SETTING, &enabled)?)
    }

    /// Every saved fact, newest first.
    pub fn list_memories(&self) -> Result<Vec<Memory>, AppError> {
        Ok(self.store.list_memories()?)
    }

    /// Replaces a fact's text, checked like a fact the agent saves (no secrets).
    pub fn update_memory(&self, id: &str, fact: &str) -> Result<Memory, AppError> {
        let fact = check_fact(fact).map_err(|e| AppError::Invalid(e.to_string()))?;
        Ok(self.store.update_memory(id, &fact)?)
    }

    /// Deletes a fact.
    pub fn delete_memory(&self, id: &str) -> Result<(), AppError> {
        Ok(self.store.delete_memory(id)?)
    }

    /// The store `remember` saves into, when memory is on.
    pub(crate) fn memory_store(&self) -> Option<Arc<dyn MemoryStore>> {
        match self.memory_enabled() {
            Ok(true) => Some(self.store.clone()),
            Ok(false) => None,
            Err(e) => {
                tracing::warn!(error = %e, "could not read the memory setting; memory is off for this run");
                None
            }
        }
    }

    /// The memory section of a new run's system prompt (empty when memory is off or empty),
    /// counting one use of every fact it includes.
    pub(crate) fn memory_for_run(&self) -> Result<String, AppError> {
        if !self.memory_enabled()? {
            return Ok(String::new());
        }
        let chosen = select_for_prompt(&self.store.list_memories()?, MEMORY_BUDGET_TOKENS);
        if !chosen.is_empty() {
            let ids: Vec<String> = chosen.iter().map(|m| m.id.clone()).collect();
            self.store.mark_memories_used(&ids)?;
        }
        Ok(memory_section(&chosen))
    }
}
