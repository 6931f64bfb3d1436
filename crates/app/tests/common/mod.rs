//! Shared set-up for the app's integration tests: a fresh data folder, an in-memory secret
//! store (the keychain has its own tests), the scripted model server, and an event recorder.
#![allow(dead_code, clippy::unwrap_used)]

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use workbench_app::{App, DataDir, ModelChoice};
use workbench_core::agent::{EventSink, RunEvent};
use workbench_core::config::{ProviderKind, ProviderSettings};
use workbench_providers::keychain::{KeychainError, SecretStore};

pub fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/model")
}

/// Secrets kept in memory, so app tests do not depend on a session keychain.
#[derive(Default)]
pub struct MemorySecrets(Mutex<HashMap<String, String>>);

impl SecretStore for MemorySecrets {
    fn get(&self, account: &str) -> Result<Option<String>, KeychainError> {
        Ok(self.0.lock().unwrap().get(account).cloned())
    }
    fn set(&self, account: &str, secret: &str) -> Result<(), KeychainError> {
        self.0.lock().unwrap().insert(account.into(), secret.into());
        Ok(())
    }
    fn delete(&self, account: &str) -> Result<(), KeychainError> {
        self.0.lock().unwrap().remove(account);
        Ok(())
    }
}

pub fn open_app(dir: &tempfile::TempDir) -> Arc<App> {
    App::open_with_secrets(DataDir::new(dir.path()), Arc::new(MemorySecrets::default())).unwrap()
}

pub fn explicit(kind: ProviderKind, base_url: &str, model: &str, key: Option<&str>) -> ModelChoice {
    ModelChoice::Explicit {
        settings: ProviderSettings {
            kind,
            base_url: base_url.into(),
            model: model.into(),
            context_window: None,
        },
        api_key: key.map(str::to_string),
    }
}

/// Records every event a run sends.
#[derive(Clone, Default)]
pub struct Recorder(pub Arc<Mutex<Vec<RunEvent>>>);

impl Recorder {
    pub fn sink(&self) -> EventSink {
        let events = self.0.clone();
        Arc::new(move |e| events.lock().unwrap().push(e))
    }

    pub fn events(&self) -> Vec<RunEvent> {
        self.0.lock().unwrap().clone()
    }

    /// The text of all non-reasoning deltas, in order.
    pub fn streamed_text(&self) -> String {
        self.events()
            .iter()
            .filter_map(|e| match e {
                RunEvent::Delta {
                    text,
                    reasoning: false,
                    ..
                } => Some(text.as_str()),
                _ => None,
            })
            .collect()
    }

    pub fn delta_count(&self) -> usize {
        self.events()
            .iter()
            .filter(|e| matches!(e, RunEvent::Delta { .. }))
            .count()
    }
}
