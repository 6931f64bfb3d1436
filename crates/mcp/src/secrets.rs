//! Secret `env` and `headers` values: kept in a [`SecretStore`] (the OS keychain in the app),
//! referenced from `mcp.json` as `{"secret": "mcp/<server>/<name>"}`.
//!
//! A value is secret when the user marks it so, or by default when its name looks like one
//! (Authorization, *KEY*, *TOKEN*, *SECRET*, *PASS*...).

use std::collections::{BTreeMap, HashMap};
use std::sync::Mutex;

use crate::config::{ConfigValue, ServerConfig};

/// Why the secret store failed; the text is the sentence the user sees.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct SecretError(pub String);

/// Where secret values live. Blocking: call from `spawn_blocking` in async code.
pub trait SecretStore: Send + Sync {
    /// The secret of `account`, `None` if there is none.
    fn get(&self, account: &str) -> Result<Option<String>, SecretError>;
    /// Stores (or replaces) the secret of `account`.
    fn set(&self, account: &str, secret: &str) -> Result<(), SecretError>;
    /// Removes the secret of `account`; removing a missing one is not an error.
    fn delete(&self, account: &str) -> Result<(), SecretError>;
}

/// Secrets in memory, for tests and for validating a server before it is saved.
#[derive(Debug, Default)]
pub struct MemorySecrets(Mutex<HashMap<String, String>>);

impl SecretStore for MemorySecrets {
    fn get(&self, account: &str) -> Result<Option<String>, SecretError> {
        Ok(self
            .0
            .lock()
            .map_err(|_| SecretError("secret store poisoned".into()))?
            .get(account)
            .cloned())
    }
    fn set(&self, account: &str, secret: &str) -> Result<(), SecretError> {
        self.0
            .lock()
            .map_err(|_| SecretError("secret store poisoned".into()))?
            .insert(account.into(), secret.into());
        Ok(())
    }
    fn delete(&self, account: &str) -> Result<(), SecretError> {
        self.0
            .lock()
            .map_err(|_| SecretError("secret store poisoned".into()))?
            .remove(account);
        Ok(())
    }
}

/// Parts of a name that mark its value secret by default (compared case-insensitively).
const SECRET_NAME_PARTS: &[&str] = &[
    "AUTHORIZATION",
    "KEY",
    "TOKEN",
    "SECRET",
    "PASS",
    "CREDENTIAL",
    "COOKIE",
];

/// Whether a value named `name` is secret unless the user says otherwise.
pub fn looks_secret(name: &str) -> bool {
    let upper = name.to_ascii_uppercase();
    SECRET_NAME_PARTS.iter().any(|p| upper.contains(p))
}

/// The keychain account of a server's value: `mcp/<server>/<env|header>/<name>`.
pub fn account(server: &str, section: Section, name: &str) -> String {
    format!("mcp/{server}/{}/{name}", section.as_str())
}

/// Which map of a server entry a value is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Section {
    /// `env` of a stdio server.
    Env,
    /// `headers` of an HTTP server.
    Header,
}

impl Section {
    fn as_str(self) -> &'static str {
        match self {
            Self::Env => "env",
            Self::Header => "header",
        }
    }
}

/// Moves every secret plain value of `server`'s entry into the store and puts a reference in
/// its place. `marked` names values the user marked secret (besides those that look secret);
/// `unmarked` names values the user explicitly wants plain even though their names look secret.
/// References already in the entry are kept. Returns the accounts written.
pub fn externalize(
    server: &str,
    cfg: &mut ServerConfig,
    marked: &[String],
    unmarked: &[String],
    store: &dyn SecretStore,
) -> Result<Vec<String>, SecretError> {
    let mut written = Vec::new();
    for (section, map) in [
        (Section::Env, &mut cfg.env),
        (Section::Header, &mut cfg.headers),
    ] {
        for (name, value) in map.iter_mut() {
            let ConfigValue::Plain(text) = value else {
                continue;
            };
            let wanted = marked.iter().any(|m| m == name)
                || (looks_secret(name) && !unmarked.iter().any(|u| u == name));
            if !wanted {
                continue;
            }
            let acct = account(server, section, name);
            store.set(&acct, text)?;
            *value = ConfigValue::Secret {
                secret: acct.clone(),
            };
            written.push(acct);
        }
    }
    Ok(written)
}

/// Every keychain account an entry refers to.
pub fn referenced_accounts(cfg: &ServerConfig) -> Vec<String> {
    cfg.env
        .values()
        .chain(cfg.headers.values())
        .filter_map(|v| match v {
            ConfigValue::Secret { secret } => Some(secret.clone()),
            ConfigValue::Plain(_) => None,
        })
        .collect()
}

/// The plain values of a map, secrets read from the store; a missing secret is an error that
/// names it.
pub fn resolve_map(
    map: &BTreeMap<String, ConfigValue>,
    store: &dyn SecretStore,
) -> Result<BTreeMap<String, String>, SecretError> {
    let mut out = BTreeMap::new();
    for (name, value) in map {
        let text = match value {
            ConfigValue::Plain(t) => t.clone(),
            ConfigValue::Secret { secret } => store.get(secret)?.ok_or_else(|| {
                SecretError(format!(
                    "the secret for `{name}` is not in the OS keychain (account `{secret}`); \
                     enter it again"
                ))
            })?,
        };
        out.insert(name.clone(), text);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry() -> ServerConfig {
        let mut cfg = ServerConfig::stdio("npx", vec![]);
        for (k, v) in [
            ("GITHUB_TOKEN", "ghp_s3cr3t"),
            ("DEBUG", "1"),
            ("REGION", "eu-west-1"),
            ("API_KEY_HINT", "not secret really"),
        ] {
            cfg.env.insert(k.into(), ConfigValue::Plain(v.into()));
        }
        cfg.headers.insert(
            "Authorization".into(),
            ConfigValue::Plain("Bearer abc".into()),
        );
        cfg
    }

    #[test]
    fn names_that_look_secret() {
        for n in [
            "Authorization",
            "OPENAI_API_KEY",
            "github_token",
            "DB_PASSWORD",
            "x-api-key",
        ] {
            assert!(looks_secret(n), "{n}");
        }
        for n in ["DEBUG", "REGION", "PATH", "Accept"] {
            assert!(!looks_secret(n), "{n}");
        }
    }

    #[test]
    fn secret_values_move_to_the_store_and_only_references_stay() {
        let store = MemorySecrets::default();
        let mut cfg = entry();
        let written = externalize(
            "gh",
            &mut cfg,
            &["REGION".into()],
            &["API_KEY_HINT".into()],
            &store,
        )
        .unwrap();
        assert_eq!(written.len(), 3, "{written:?}");
        let text = serde_json::to_string(&cfg).unwrap();
        assert!(!text.contains("ghp_s3cr3t") && !text.contains("Bearer abc"));
        assert!(!text.contains("eu-west-1"), "marked values move too");
        assert!(text.contains("not secret really"), "unmarked stays plain");
        assert_eq!(
            cfg.env["GITHUB_TOKEN"],
            ConfigValue::Secret {
                secret: "mcp/gh/env/GITHUB_TOKEN".into()
            }
        );
        assert_eq!(cfg.env["DEBUG"], ConfigValue::Plain("1".into()));
        let env = resolve_map(&cfg.env, &store).unwrap();
        assert_eq!(env["GITHUB_TOKEN"], "ghp_s3cr3t");
        assert_eq!(env["REGION"], "eu-west-1");
        assert_eq!(referenced_accounts(&cfg).len(), 3);
    }

    #[test]
    fn a_missing_secret_names_the_value() {
        let mut cfg = entry();
        cfg.env.insert(
            "LOST".into(),
            ConfigValue::Secret {
                secret: "mcp/gh/env/LOST".into(),
            },
        );
        let err = resolve_map(&cfg.env, &MemorySecrets::default()).unwrap_err();
        assert!(err.0.contains("`LOST`"), "{err}");
    }
}
