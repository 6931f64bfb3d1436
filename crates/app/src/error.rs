use workbench_core::model::ModelError;
use workbench_core::thread::StoreError;
use workbench_providers::keychain::KeychainError;

/// Why an app operation failed. `Display` is the sentence a front-end shows as is.
#[derive(Debug, thiserror::Error)]
pub enum AppError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Keychain(#[from] KeychainError),
    #[error(transparent)]
    Model(#[from] ModelError),
    #[error("no model provider is configured yet; open Settings and choose one")]
    NotConfigured,
    #[error("this thread is already answering; stop it or wait for it to finish")]
    RunInProgress,
    #[error("{0}")]
    Invalid(String),
    #[error("the data folder {path} could not be prepared: {detail}")]
    DataDir { path: String, detail: String },
}
