//! API keys in the OS keychain (Secret Service on Linux, Keychain on macOS, Credential Manager
//! on Windows) through the `keyring` crate, under the service name `workbench`.
//!
//! There is deliberately no fallback to a plain file: when the keychain is unavailable the
//! caller gets [`KeychainError::Unavailable`] and tells the user.
//!
//! Every call blocks (D-Bus round trips, sometimes an unlock prompt): async callers run them
//! with `tokio::task::spawn_blocking`.

use workbench_core::model::ModelError;

/// The keychain service every Workbench secret is stored under.
pub const SERVICE: &str = "workbench";

/// Why the keychain could not do what was asked. `Display` is the sentence the user sees.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum KeychainError {
    /// No keychain to talk to, or it refused access (locked, no Secret Service running).
    #[error("the OS keychain is not available (Secret Service not running?): {0}")]
    Unavailable(String),
    /// The keychain works but rejected this entry (bad name, value too long, duplicates).
    #[error("the OS keychain rejected the entry `{account}`: {detail}")]
    Rejected {
        /// The account the entry is for.
        account: String,
        /// What the keychain said.
        detail: String,
    },
}

impl From<KeychainError> for ModelError {
    fn from(e: KeychainError) -> Self {
        ModelError::Keychain(e.to_string())
    }
}

/// Where secrets are kept. Blocking: call from `spawn_blocking` in async code.
pub trait SecretStore: Send + Sync {
    /// The secret of `account`, `None` if there is none.
    fn get(&self, account: &str) -> Result<Option<String>, KeychainError>;
    /// Stores (or replaces) the secret of `account`.
    fn set(&self, account: &str, secret: &str) -> Result<(), KeychainError>;
    /// Removes the secret of `account`; removing a missing one is not an error.
    fn delete(&self, account: &str) -> Result<(), KeychainError>;
}

/// The operating system's keychain.
#[derive(Debug, Clone, Default)]
pub struct OsKeychain {
    _private: (),
}

impl OsKeychain {
    /// The OS keychain; nothing is contacted until the first call.
    pub fn new() -> Self {
        Self::default()
    }

    fn entry(&self, account: &str) -> Result<keyring::Entry, KeychainError> {
        keyring::Entry::new(SERVICE, account).map_err(|e| map_error(account, e))
    }
}

fn map_error(account: &str, e: keyring::Error) -> KeychainError {
    match e {
        keyring::Error::PlatformFailure(inner) | keyring::Error::NoStorageAccess(inner) => {
            KeychainError::Unavailable(inner.to_string())
        }
        other => KeychainError::Rejected {
            account: account.to_string(),
            detail: other.to_string(),
        },
    }
}

impl SecretStore for OsKeychain {
    fn get(&self, account: &str) -> Result<Option<String>, KeychainError> {
        match self.entry(account)?.get_password() {
            Ok(secret) => Ok(Some(secret)),
            Err(keyring::Error::NoEntry) => Ok(None),
            Err(e) => Err(map_error(account, e)),
        }
    }

    fn set(&self, account: &str, secret: &str) -> Result<(), KeychainError> {
        self.entry(account)?
            .set_password(secret)
            .map_err(|e| map_error(account, e))?;
        tracing::debug!(account, "stored a secret in the OS keychain");
        Ok(())
    }

    fn delete(&self, account: &str) -> Result<(), KeychainError> {
        match self.entry(account)?.delete_credential() {
            Ok(()) | Err(keyring::Error::NoEntry) => Ok(()),
            Err(e) => Err(map_error(account, e)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unavailable_reads_as_a_plain_sentence() {
        let e = KeychainError::Unavailable("no bus".into());
        assert_eq!(
            e.to_string(),
            "the OS keychain is not available (Secret Service not running?): no bus"
        );
        let m: ModelError = e.into();
        assert!(m.to_string().contains("Secret Service not running?"));
    }
}
