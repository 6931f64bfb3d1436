//! From the add/edit form ([`ServerInput`]) to a config entry, with secret values moved to the
//! secret store and values left empty kept from the entry being edited.

use std::collections::BTreeMap;

use crate::config::{validate_server_name, ConfigValue, ServerConfig};
use crate::manager::McpError;
use crate::secrets::{self, looks_secret, SecretError, SecretStore, Section};
use crate::view::{ServerInput, TransportInput, ValueInput};

/// The entry for `input`, new secrets written to `write` (the keychain, or a scratch store
/// when validating); `old` is the entry being replaced, whose values fill empty fields.
pub(crate) fn entry_from_input(
    input: &ServerInput,
    old: Option<&ServerConfig>,
    write: &dyn SecretStore,
) -> Result<ServerConfig, McpError> {
    let name = input.name.trim();
    validate_server_name(name).map_err(McpError::Invalid)?;
    let mut entry = match &input.transport {
        TransportInput::Stdio {
            command,
            args,
            env,
            cwd,
        } => {
            let mut e = ServerConfig::stdio(command.trim(), args.clone());
            e.cwd = cwd.clone().filter(|c| !c.trim().is_empty());
            e.env = values(name, Section::Env, env, old.map(|o| &o.env), write)?;
            e
        }
        TransportInput::Http { url, headers } => {
            let mut e = ServerConfig::http(url.trim());
            e.headers = values(
                name,
                Section::Header,
                headers,
                old.map(|o| &o.headers),
                write,
            )?;
            e
        }
    };
    entry.enabled = input.enabled.unwrap_or(true);
    entry.disabled_tools = input.disabled_tools.clone();
    entry.startup_timeout_secs = input.startup_timeout_secs;
    entry.call_timeout_secs = input.call_timeout_secs;
    if let Some(old) = old {
        // Fields other apps wrote stay with the entry.
        entry.extra = old.extra.clone();
    }
    entry
        .validate()
        .map_err(|e| McpError::Invalid(format!("the server `{name}` {e}")))?;
    Ok(entry)
}

fn values(
    server: &str,
    section: Section,
    inputs: &[ValueInput],
    old: Option<&BTreeMap<String, ConfigValue>>,
    store: &dyn SecretStore,
) -> Result<BTreeMap<String, ConfigValue>, McpError> {
    let mut out = BTreeMap::new();
    for v in inputs {
        let name = v.name.trim().to_string();
        if name.is_empty() {
            return Err(McpError::Invalid("a variable or header has no name".into()));
        }
        if out.contains_key(&name) {
            return Err(McpError::Invalid(format!("`{name}` is given twice")));
        }
        let secret = v.secret.unwrap_or_else(|| looks_secret(&name));
        let value = match (&v.value, old.and_then(|o| o.get(&name))) {
            (Some(text), _) if secret => {
                let account = secrets::account(server, section, &name);
                store.set(&account, text)?;
                ConfigValue::Secret { secret: account }
            }
            (Some(text), _) => ConfigValue::Plain(text.clone()),
            (None, Some(kept @ ConfigValue::Secret { .. })) => kept.clone(),
            (None, Some(ConfigValue::Plain(text))) if secret => {
                let account = secrets::account(server, section, &name);
                store.set(&account, text)?;
                ConfigValue::Secret { secret: account }
            }
            (None, Some(kept)) => kept.clone(),
            (None, None) => {
                return Err(McpError::Invalid(format!(
                    "`{name}` has no value (and none is stored yet)"
                )))
            }
        };
        out.insert(name, value);
    }
    Ok(out)
}

/// Deletes the keychain entries `old` used that `new` no longer does.
pub(crate) fn forget_unused_secrets(
    old: &ServerConfig,
    new: &ServerConfig,
    store: &dyn SecretStore,
) -> Result<(), SecretError> {
    let keep = secrets::referenced_accounts(new);
    for account in secrets::referenced_accounts(old) {
        if !keep.contains(&account) {
            store.delete(&account)?;
        }
    }
    Ok(())
}

/// Reads from `first`, then from `then`: fresh values of a form being validated over the
/// values already in the keychain. Never written to.
pub(crate) struct Layered<'a> {
    pub first: &'a dyn SecretStore,
    pub then: &'a dyn SecretStore,
}

impl SecretStore for Layered<'_> {
    fn get(&self, account: &str) -> Result<Option<String>, SecretError> {
        match self.first.get(account)? {
            Some(v) => Ok(Some(v)),
            None => self.then.get(account),
        }
    }
    fn set(&self, _: &str, _: &str) -> Result<(), SecretError> {
        Err(SecretError(
            "internal error: validation never stores secrets".into(),
        ))
    }
    fn delete(&self, _: &str) -> Result<(), SecretError> {
        Err(SecretError(
            "internal error: validation never deletes secrets".into(),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::secrets::MemorySecrets;

    fn input(env: Vec<ValueInput>) -> ServerInput {
        ServerInput {
            name: "gh".into(),
            transport: TransportInput::Stdio {
                command: "npx".into(),
                args: vec!["-y".into(), "server-github".into()],
                env,
                cwd: None,
            },
            enabled: None,
            disabled_tools: vec![],
            startup_timeout_secs: Some(10),
            call_timeout_secs: None,
        }
    }

    fn v(name: &str, value: Option<&str>, secret: Option<bool>) -> ValueInput {
        ValueInput {
            name: name.into(),
            value: value.map(str::to_string),
            secret,
        }
    }

    #[test]
    fn form_values_go_to_the_store_by_mark_or_by_name() {
        let store = MemorySecrets::default();
        let entry = entry_from_input(
            &input(vec![
                v("GITHUB_TOKEN", Some("ghp_x"), None),
                v("ORG", Some("acme"), Some(true)),
                v("DEBUG", Some("1"), None),
                v("MY_KEYBOARD", Some("us"), Some(false)),
            ]),
            None,
            &store,
        )
        .unwrap();
        assert!(entry.env["GITHUB_TOKEN"].is_secret());
        assert!(entry.env["ORG"].is_secret());
        assert_eq!(entry.env["DEBUG"], ConfigValue::Plain("1".into()));
        assert_eq!(entry.env["MY_KEYBOARD"], ConfigValue::Plain("us".into()));
        assert_eq!(
            store.get("mcp/gh/env/GITHUB_TOKEN").unwrap().unwrap(),
            "ghp_x"
        );
        assert_eq!(entry.startup_timeout_secs, Some(10));
    }

    #[test]
    fn editing_without_retyping_keeps_the_stored_secret() {
        let store = MemorySecrets::default();
        let first = entry_from_input(
            &input(vec![v("GITHUB_TOKEN", Some("ghp_x"), None)]),
            None,
            &store,
        )
        .unwrap();
        let second = entry_from_input(
            &input(vec![v("GITHUB_TOKEN", None, None)]),
            Some(&first),
            &store,
        )
        .unwrap();
        assert_eq!(first.env, second.env);
        let err = entry_from_input(
            &input(vec![v("NEW_TOKEN", None, None)]),
            Some(&first),
            &store,
        )
        .unwrap_err();
        assert!(
            err.to_string().contains("`NEW_TOKEN` has no value"),
            "{err}"
        );
    }

    #[test]
    fn removed_secrets_are_forgotten() {
        let store = MemorySecrets::default();
        let first = entry_from_input(
            &input(vec![v("GITHUB_TOKEN", Some("ghp_x"), None)]),
            None,
            &store,
        )
        .unwrap();
        let second = entry_from_input(&input(vec![]), Some(&first), &store).unwrap();
        forget_unused_secrets(&first, &second, &store).unwrap();
        assert_eq!(store.get("mcp/gh/env/GITHUB_TOKEN").unwrap(), None);
    }

    #[test]
    fn bad_form_input_is_refused() {
        let store = MemorySecrets::default();
        let mut bad = input(vec![v("A", Some("1"), None), v("A", Some("2"), None)]);
        assert!(entry_from_input(&bad, None, &store)
            .unwrap_err()
            .to_string()
            .contains("twice"));
        bad.transport = TransportInput::Http {
            url: "localhost:3000".into(),
            headers: vec![],
        };
        assert!(entry_from_input(&bad, None, &store)
            .unwrap_err()
            .to_string()
            .contains("http://"));
        bad.name = "".into();
        assert!(entry_from_input(&bad, None, &store).is_err());
    }
}
