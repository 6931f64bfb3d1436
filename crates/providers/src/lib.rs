//! `workbench-providers`: the language-model clients behind [`workbench_core::model::ModelClient`].
//! It speaks OpenAI Chat Completions (OpenAI, Ollama, llama.cpp, LM Studio, vLLM) and Anthropic
//! Messages over SSE, turns their wire formats into provider-neutral
//! [`StreamEvent`](workbench_core::model::StreamEvent)s, retries what is worth retrying before the
//! first event, maps HTTP failures to [`ModelError`]s a user can act on, finds local servers, and
//! keeps API keys in the OS keychain.
//!
//! Not here: the run loop and what to do with the events (`workbench-core`), which provider is
//! configured (`workbench-app` / the store), and any test double (`scripted-model`).

#![warn(missing_docs)]

mod anthropic;
pub mod detect;
mod http_errors;
pub mod keychain;
mod openai;
mod retry;
mod sse;

use std::sync::Arc;
use std::time::Duration;

use workbench_core::config::{ProviderKind, ProviderSettings};
use workbench_core::model::{ModelClient, ModelError, ModelRequest, ModelStream};

pub use anthropic::AnthropicClient;
pub use detect::{detect_local_servers, detect_on};
pub use keychain::{KeychainError, OsKeychain, SecretStore};
pub use openai::OpenAiClient;
pub use retry::RetryPolicy;

/// How long to wait for a TCP (and TLS) connection before calling the server unreachable.
const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// How long a stream may stay silent before it counts as broken. Generous because reasoning
/// models and loaded local servers can think for minutes before the first token.
const DEFAULT_READ_TIMEOUT: Duration = Duration::from_secs(300);

/// Transport settings shared by every client.
#[derive(Debug, Clone)]
pub struct ClientOptions {
    /// Retries before the first event of a stream.
    pub retry: RetryPolicy,
    /// Limit for establishing a connection.
    pub connect_timeout: Duration,
    /// Limit for silence while reading a reply (between two reads, not for the whole reply).
    pub read_timeout: Duration,
    /// Anthropic's `max_tokens` when the request does not set one (the API requires it).
    pub anthropic_default_max_tokens: u32,
}

impl Default for ClientOptions {
    fn default() -> Self {
        Self {
            retry: RetryPolicy::default(),
            connect_timeout: DEFAULT_CONNECT_TIMEOUT,
            read_timeout: DEFAULT_READ_TIMEOUT,
            anthropic_default_max_tokens: anthropic::DEFAULT_MAX_TOKENS,
        }
    }
}

impl ClientOptions {
    /// Builds the HTTP client these options describe.
    pub(crate) fn http_client(&self) -> Result<reqwest::Client, String> {
        reqwest::Client::builder()
            .connect_timeout(self.connect_timeout)
            .read_timeout(self.read_timeout)
            .user_agent(concat!("workbench/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|e| sse::plain_detail(&e))
    }
}

/// The client for the configured provider, with default options. `api_key` may be `None` for
/// local servers that need none.
pub fn client_for(settings: &ProviderSettings, api_key: Option<String>) -> Arc<dyn ModelClient> {
    client_for_with(settings, api_key, ClientOptions::default())
}

/// The client for the configured provider, with explicit transport options.
pub fn client_for_with(
    settings: &ProviderSettings,
    api_key: Option<String>,
    options: ClientOptions,
) -> Arc<dyn ModelClient> {
    let built: Result<Arc<dyn ModelClient>, String> = match settings.kind {
        ProviderKind::Openai => {
            OpenAiClient::new(&settings.base_url, &settings.model, api_key, options)
                .map(|c| Arc::new(c) as Arc<dyn ModelClient>)
        }
        ProviderKind::Anthropic => {
            AnthropicClient::new(&settings.base_url, &settings.model, api_key, options)
                .map(|c| Arc::new(c) as Arc<dyn ModelClient>)
        }
    };
    match built {
        Ok(client) => client,
        Err(detail) => {
            tracing::error!(%detail, "could not set up the HTTP client");
            Arc::new(BrokenClient {
                url: settings.base_url.clone(),
                detail,
            })
        }
    }
}

/// Stands in when the HTTP client itself could not be built (TLS setup failed), so the failure
/// reaches the user as a model error instead of a panic at startup.
struct BrokenClient {
    url: String,
    detail: String,
}

#[async_trait::async_trait]
impl ModelClient for BrokenClient {
    async fn stream(&self, _request: ModelRequest) -> Result<ModelStream, ModelError> {
        Err(ModelError::Unreachable {
            url: self.url.clone(),
            detail: format!("the HTTP client could not be set up: {}", self.detail),
        })
    }

    fn describe(&self) -> String {
        format!("unavailable client for {}", self.url)
    }
}

/// An API key that never shows up in `Debug` output or logs.
#[derive(Clone)]
pub(crate) struct ApiKey(String);

/// What both clients hold: where to send, with which key, model and options.
#[derive(Debug, Clone)]
pub(crate) struct Endpoint {
    pub(crate) http: reqwest::Client,
    pub(crate) base_url: String,
    pub(crate) default_model: String,
    pub(crate) key: Option<ApiKey>,
    pub(crate) options: ClientOptions,
}

impl Endpoint {
    /// Fails only if the HTTP client cannot be set up (TLS).
    pub(crate) fn new(
        base_url: &str,
        default_model: &str,
        api_key: Option<String>,
        options: ClientOptions,
    ) -> Result<Self, String> {
        Ok(Self {
            http: options.http_client()?,
            base_url: base_url.trim().trim_end_matches('/').to_string(),
            default_model: default_model.to_string(),
            key: ApiKey::from_option(api_key),
            options,
        })
    }

    /// The request's model, or the default when it names none.
    pub(crate) fn model_for(&self, request: &ModelRequest) -> String {
        if request.model.trim().is_empty() {
            self.default_model.clone()
        } else {
            request.model.clone()
        }
    }
}

impl ApiKey {
    /// `None` for a missing or blank key (local servers).
    pub(crate) fn from_option(key: Option<String>) -> Option<Self> {
        key.map(|k| k.trim().to_string())
            .filter(|k| !k.is_empty())
            .map(Self)
    }

    pub(crate) fn expose(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ApiKey(***)")
    }
}

/// `base_url` without trailing slashes, joined with `path`.
pub(crate) fn endpoint(base_url: &str, path: &str) -> String {
    format!("{}/{}", base_url.trim().trim_end_matches('/'), path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn api_key_debug_hides_the_key() {
        let key = ApiKey::from_option(Some("sk-secret".into()));
        assert_eq!(format!("{key:?}"), "Some(ApiKey(***))");
        assert!(ApiKey::from_option(Some("  ".into())).is_none());
    }

    #[test]
    fn endpoint_joins_without_double_slashes() {
        assert_eq!(
            endpoint("http://x/v1/", "chat/completions"),
            "http://x/v1/chat/completions"
        );
        assert_eq!(endpoint("http://x/v1", "messages"), "http://x/v1/messages");
    }
}
