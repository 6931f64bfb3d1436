//! User-facing configuration: the model provider. Secrets are never part of it; the API key
//! lives in the OS keychain under [`ProviderSettings::key_account`].

use serde::{Deserialize, Serialize};

/// Which wire format a provider speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "snake_case")]
pub enum ProviderKind {
    /// OpenAI Chat Completions, also spoken by Ollama, llama.cpp, LM Studio and vLLM.
    Openai,
    /// Anthropic Messages.
    Anthropic,
}

impl ProviderKind {
    /// Parses `openai` or `anthropic`.
    pub fn parse(s: &str) -> Option<Self> {
        match s.to_ascii_lowercase().as_str() {
            "openai" => Some(Self::Openai),
            "anthropic" => Some(Self::Anthropic),
            _ => None,
        }
    }
}

/// The configured model provider.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct ProviderSettings {
    pub kind: ProviderKind,
    /// e.g. `https://api.openai.com/v1` or `http://localhost:11434/v1`.
    pub base_url: String,
    pub model: String,
    /// The model's context window in tokens, when known. Long threads are compacted (older
    /// turns summarised) only when it is set, since a wrong guess would cut context for nothing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub context_window: Option<u32>,
}

impl ProviderSettings {
    /// The keychain account that holds this provider's API key.
    pub fn key_account(&self) -> String {
        format!("provider:{}", self.base_url.trim_end_matches('/'))
    }

    /// Checks the settings and says what to fix.
    pub fn validate(&self) -> Result<(), String> {
        let url = self.base_url.trim();
        if !(url.starts_with("http://") || url.starts_with("https://")) {
            return Err(format!(
                "the base URL must start with http:// or https:// (got `{url}`)"
            ));
        }
        if self.model.trim().is_empty() {
            return Err("the model name is empty".into());
        }
        Ok(())
    }
}

/// What the first-run screen needs to know.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct ProviderStatus {
    pub settings: Option<ProviderSettings>,
    /// Whether the keychain holds a key for the configured provider.
    pub has_key: bool,
    /// Set when the keychain could not be asked; the sentence to show.
    pub keychain_error: Option<String>,
}

/// A local OpenAI-compatible server found on its usual port.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct DetectedServer {
    /// "Ollama", "llama.cpp", "LM Studio".
    pub name: String,
    pub base_url: String,
    /// The models it lists at `/models`.
    pub models: Vec<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(url: &str, model: &str) -> ProviderSettings {
        ProviderSettings {
            kind: ProviderKind::Openai,
            base_url: url.into(),
            model: model.into(),
            context_window: None,
        }
    }

    #[test]
    fn validate_rejects_a_url_without_scheme_and_says_which() {
        let err = settings("localhost:11434/v1", "llama3")
            .validate()
            .unwrap_err();
        assert!(err.contains("localhost:11434/v1"), "{err}");
    }

    #[test]
    fn validate_rejects_an_empty_model() {
        assert!(settings("http://x", "  ").validate().is_err());
        assert!(settings("http://x", "m").validate().is_ok());
    }

    #[test]
    fn key_account_ignores_a_trailing_slash() {
        assert_eq!(
            settings("http://x/v1/", "m").key_account(),
            settings("http://x/v1", "m").key_account()
        );
    }

    #[test]
    fn provider_kind_parses_case_insensitively() {
        assert_eq!(ProviderKind::parse("OpenAI"), Some(ProviderKind::Openai));
        assert_eq!(
            ProviderKind::parse("anthropic"),
            Some(ProviderKind::Anthropic)
        );
        assert_eq!(ProviderKind::parse("gemini"), None);
    }
}
