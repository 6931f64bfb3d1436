//! The web tools in the app: a candidate source of every run, with the search keys read from
//! the same OS keychain as the provider keys (accounts `web/brave`, `web/tavily`) and the
//! search services' base URLs from the setting `web.endpoints` (tests point it at a local
//! server; users never need it).

use std::sync::{Arc, Mutex};

use workbench_core::tools::assembly::Candidate;
use workbench_core::tools::sources::{CandidateSource, SourceContext};
use workbench_core::tools::Tool;
use workbench_providers::keychain::SecretStore;
use workbench_store::SqliteStore;
use workbench_web::{web_tools, Endpoints, KeyStore, KeyedService, WebConfig};

use crate::{App, AppError};

/// Settings key: the search services' base URLs ([`Endpoints`]); the real services when unset.
pub const WEB_ENDPOINTS_SETTING: &str = "web.endpoints";

/// The keychain as the web crate's key store.
struct KeychainKeys(Arc<dyn SecretStore>);

impl KeyStore for KeychainKeys {
    fn get(&self, account: &str) -> Result<Option<String>, String> {
        self.0.get(account).map_err(|e| e.to_string())
    }
}

/// The tools last made, and the endpoints they were made for.
type Cached = Option<(Endpoints, Vec<Arc<dyn Tool>>)>;

/// web_search, web_fetch and image_search, remade only when the endpoints setting changes.
pub(crate) struct WebToolSource {
    store: Arc<SqliteStore>,
    keys: Arc<dyn KeyStore>,
    cached: Mutex<Cached>,
}

impl WebToolSource {
    pub(crate) fn new(store: Arc<SqliteStore>, secrets: Arc<dyn SecretStore>) -> Self {
        Self {
            store,
            keys: Arc::new(KeychainKeys(secrets)),
            cached: Mutex::new(None),
        }
    }

    fn tools(&self) -> Vec<Arc<dyn Tool>> {
        let endpoints = match self.store.get_setting::<Endpoints>(WEB_ENDPOINTS_SETTING) {
            Ok(e) => e.unwrap_or_default(),
            Err(e) => {
                tracing::warn!(error = %e, "web endpoints setting unreadable; using the defaults");
                Endpoints::default()
            }
        };
        let Ok(mut cached) = self.cached.lock() else {
            return Vec::new();
        };
        if let Some((e, tools)) = cached.as_ref() {
            if *e == endpoints {
                return tools.clone();
            }
        }
        let config = WebConfig {
            endpoints: endpoints.clone(),
            ..WebConfig::default()
        };
        match web_tools(config, self.keys.clone()) {
            Ok(tools) => {
                *cached = Some((endpoints, tools.clone()));
                tools
            }
            Err(e) => {
                tracing::warn!(error = %e, "web tools unavailable");
                Vec::new()
            }
        }
    }
}

impl CandidateSource for WebToolSource {
    fn name(&self) -> &str {
        "web"
    }

    fn candidates(&self, _ctx: &SourceContext) -> Vec<Candidate> {
        self.tools().into_iter().map(Candidate::new).collect()
    }
}

/// Whether a search key is stored, per keyed service.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct SearchKeyStatus {
    /// `brave` or `tavily`.
    pub service: String,
    pub stored: bool,
}

fn service(id: &str) -> Result<KeyedService, AppError> {
    KeyedService::from_id(id).ok_or_else(|| {
        AppError::Invalid(format!(
            "there is no search service `{id}`; use `brave` or `tavily`"
        ))
    })
}

impl App {
    /// Stores (or with an empty key, removes) the API key of a search service (`brave`,
    /// `tavily`) in the OS keychain. The next web search uses it; Brave wins when both are set.
    pub async fn set_search_key(&self, service_id: &str, key: &str) -> Result<(), AppError> {
        let account = service(service_id)?.account();
        let key = key.trim().to_string();
        let secrets = self.secrets.clone();
        tokio::task::spawn_blocking(move || {
            if key.is_empty() {
                secrets.delete(account)
            } else {
                secrets.set(account, &key)
            }
        })
        .await
        .map_err(|e| AppError::Invalid(format!("the keychain call failed: {e}")))??;
        Ok(())
    }

    /// Which search keys are stored (never the keys themselves).
    pub async fn search_key_status(&self) -> Result<Vec<SearchKeyStatus>, AppError> {
        let secrets = self.secrets.clone();
        tokio::task::spawn_blocking(move || {
            KeyedService::ALL
                .into_iter()
                .map(|s| {
                    Ok(SearchKeyStatus {
                        service: s.id().into(),
                        stored: secrets.get(s.account())?.is_some(),
                    })
                })
                .collect()
        })
        .await
        .map_err(|e| AppError::Invalid(format!("the keychain call failed: {e}")))?
    }

    /// Points the search tools at other base URLs (tests, self-hosted proxies); `None` goes
    /// back to the real services.
    pub fn set_web_endpoints(&self, endpoints: Option<Endpoints>) -> Result<(), AppError> {
        let endpoints = endpoints.unwrap_or_default();
        Ok(self.store.set_setting(WEB_ENDPOINTS_SETTING, &endpoints)?)
    }
}
