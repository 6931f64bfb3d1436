use std::time::Duration;

/// Why a model call failed. `Display` is the sentence the user sees.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ModelError {
    #[error("the API key was refused by {url} (HTTP {status}); check the key in Settings")]
    Auth { url: String, status: u16 },
    #[error("model `{model}` was not found at {url}")]
    ModelNotFound { model: String, url: String },
    #[error("could not reach {url}: {detail}")]
    Unreachable { url: String, detail: String },
    #[error("{url} is rate limiting requests (HTTP 429); tried {attempts} times")]
    RateLimited {
        url: String,
        attempts: u32,
        retry_after: Option<Duration>,
    },
    #[error("{url} failed with HTTP {status}: {detail}")]
    Server {
        url: String,
        status: u16,
        detail: String,
    },
    #[error("{url} rejected the request (HTTP {status}): {detail}")]
    BadRequest {
        url: String,
        status: u16,
        detail: String,
    },
    #[error("the reply stream from {url} broke off: {detail}")]
    StreamBroken { url: String, detail: String },
    #[error("the reply from {url} could not be understood: {detail}")]
    Protocol { url: String, detail: String },
    #[error("no model is configured; open Settings to choose a provider")]
    NotConfigured,
    #[error("the OS keychain is unavailable: {0}")]
    Keychain(String),
}

impl ModelError {
    /// Whether trying the same request again may succeed (429, 5xx, connection failures).
    pub fn is_retryable(&self) -> bool {
        matches!(
            self,
            Self::RateLimited { .. } | Self::Server { .. } | Self::Unreachable { .. }
        )
    }
}
