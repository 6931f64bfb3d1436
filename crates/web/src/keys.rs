//! Search API keys. They live in the OS keychain (the app adapts its keychain to [`KeyStore`]);
//! this crate only reads them, on the blocking pool, at each call, so a key added while the
//! app runs is used by the next search.

/// Keychain account of the Brave Search API key.
pub const BRAVE_KEY_ACCOUNT: &str = "web/brave";
/// Keychain account of the Tavily API key.
pub const TAVILY_KEY_ACCOUNT: &str = "web/tavily";

/// A search service that needs a key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyedService {
    Brave,
    Tavily,
}

impl KeyedService {
    /// Both, in the order they are preferred when both keys are stored.
    pub const ALL: [KeyedService; 2] = [KeyedService::Brave, KeyedService::Tavily];

    /// The keychain account of this service's key.
    pub fn account(self) -> &'static str {
        match self {
            Self::Brave => BRAVE_KEY_ACCOUNT,
            Self::Tavily => TAVILY_KEY_ACCOUNT,
        }
    }

    /// `brave` or `tavily`, as typed on the command line.
    pub fn id(self) -> &'static str {
        match self {
            Self::Brave => "brave",
            Self::Tavily => "tavily",
        }
    }

    /// The service from its id.
    pub fn from_id(id: &str) -> Option<Self> {
        Self::ALL
            .into_iter()
            .find(|s| s.id().eq_ignore_ascii_case(id))
    }
}

/// Where keys are read from. Blocking (keychain round trips): called on the blocking pool.
pub trait KeyStore: Send + Sync {
    /// The key stored for `account`, `None` when there is none; `Err` is a sentence.
    fn get(&self, account: &str) -> Result<Option<String>, String>;
}

/// No keys at all: DuckDuckGo only.
#[derive(Debug, Default, Clone, Copy)]
pub struct NoKeys;

impl KeyStore for NoKeys {
    fn get(&self, _account: &str) -> Result<Option<String>, String> {
        Ok(None)
    }
}

/// The first keyed service with a key, and its key; `None` means use DuckDuckGo. A keychain
/// that cannot be read counts as no key (logged), so search still works without it.
pub(crate) fn first_keyed(keys: &dyn KeyStore) -> Option<(KeyedService, String)> {
    for service in KeyedService::ALL {
        match keys.get(service.account()) {
            Ok(Some(key)) if !key.trim().is_empty() => return Some((service, key.trim().into())),
            Ok(_) => {}
            Err(e) => tracing::warn!(service = service.id(), error = %e, "search key unreadable"),
        }
    }
    None
}
