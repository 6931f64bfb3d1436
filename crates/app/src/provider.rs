use std::sync::Arc;

use workbench_core::config::{ProviderSettings, ProviderStatus};
use workbench_core::model::ModelClient;
use workbench_providers::keychain::{KeychainError, SecretStore};

use crate::{App, AppError};

/// Settings key of the configured provider (the non-secret part).
const PROVIDER_SETTING: &str = "provider";

/// Which model a run uses.
#[derive(Debug, Clone)]
pub enum ModelChoice {
    /// The provider saved in Settings, its key from the keychain.
    Configured,
    /// A provider given for this run only (CLI flags), with an optional key.
    Explicit {
        settings: ProviderSettings,
        api_key: Option<String>,
    },
}

pub(crate) async fn configured(app: &App) -> Result<Option<ProviderSettings>, AppError> {
    app.on_store(|s| s.get_setting(PROVIDER_SETTING)).await
}

/// The configured provider, read on the calling thread (for callers already off the async
/// threads).
pub(crate) fn configured_sync(app: &App) -> Result<Option<ProviderSettings>, AppError> {
    Ok(app.store.get_setting(PROVIDER_SETTING)?)
}

pub(crate) async fn status(app: &App) -> Result<ProviderStatus, AppError> {
    let settings = configured(app).await?;
    let (has_key, keychain_error) = match &settings {
        None => (false, None),
        Some(s) => match read_key(app.secrets.clone(), s.key_account()).await {
            Ok(key) => (key.is_some(), None),
            Err(e) => (false, Some(e.to_string())),
        },
    };
    Ok(ProviderStatus {
        settings,
        has_key,
        keychain_error,
    })
}

pub(crate) async fn save(
    app: &App,
    mut settings: ProviderSettings,
    api_key: Option<String>,
) -> Result<ProviderStatus, AppError> {
    settings.base_url = settings.base_url.trim().trim_end_matches('/').to_string();
    settings.model = settings.model.trim().to_string();
    settings.validate().map_err(AppError::Invalid)?;
    // The key goes first: if the keychain refuses it, nothing is half-saved.
    if let Some(key) = api_key {
        let secrets = app.secrets.clone();
        let account = settings.key_account();
        let key = key.trim().to_string();
        tokio::task::spawn_blocking(move || {
            if key.is_empty() {
                secrets.delete(&account)
            } else {
                secrets.set(&account, &key)
            }
        })
        .await
        .map_err(|e| AppError::Invalid(format!("the keychain call failed: {e}")))??;
    }
    let saved = settings.clone();
    app.on_store(move |s| s.set_setting(PROVIDER_SETTING, &saved))
        .await?;
    tracing::info!(kind = ?settings.kind, base_url = %settings.base_url, model = %settings.model, "provider saved");
    status(app).await
}

/// Builds the client for a run, reading the key from the keychain when needed; returns it
/// with the settings it was built from.
pub(crate) async fn client(
    app: &App,
    choice: &ModelChoice,
) -> Result<(Arc<dyn ModelClient>, ProviderSettings), AppError> {
    let (settings, key) = match choice {
        ModelChoice::Explicit { settings, api_key } => {
            settings.validate().map_err(AppError::Invalid)?;
            (settings.clone(), api_key.clone())
        }
        ModelChoice::Configured => {
            let settings = configured(app).await?.ok_or(AppError::NotConfigured)?;
            let key = read_key(app.secrets.clone(), settings.key_account()).await?;
            (settings, key)
        }
    };
    Ok((workbench_providers::client_for(&settings, key), settings))
}

async fn read_key(
    secrets: Arc<dyn SecretStore>,
    account: String,
) -> Result<Option<String>, KeychainError> {
    tokio::task::spawn_blocking(move || secrets.get(&account))
        .await
        .map_err(|e| KeychainError::Unavailable(e.to_string()))?
}
