//! From a checked config entry to a [`ConnectSpec`]: secrets read from the store, the stdio
//! command found on the login shell's PATH. Blocking (keychain, shell): run on the blocking pool.

use std::path::PathBuf;

use crate::client::ConnectSpec;
use crate::command;
use crate::config::{ServerConfig, TransportKind};
use crate::secrets::{resolve_map, SecretStore};

/// Builds what the connector needs; the error is the sentence for the server's status.
pub fn build(cfg: &ServerConfig, secrets: &dyn SecretStore) -> Result<ConnectSpec, String> {
    match cfg.validate()? {
        TransportKind::Stdio => {
            let cwd = cfg.cwd.as_deref().map(PathBuf::from);
            let name = cfg.command.as_deref().unwrap_or_default().trim();
            let found = command::resolve(name, cwd.as_deref()).map_err(|e| e.to_string())?;
            let env = resolve_map(&cfg.env, secrets).map_err(|e| e.to_string())?;
            Ok(ConnectSpec::Stdio {
                program: found.program,
                args: cfg.args.clone(),
                env,
                path_env: found.path_env,
                cwd,
            })
        }
        TransportKind::Http => Ok(ConnectSpec::Http {
            url: cfg.url.clone().unwrap_or_default().trim().to_string(),
            headers: resolve_map(&cfg.headers, secrets).map_err(|e| e.to_string())?,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::ConfigValue;
    use crate::secrets::MemorySecrets;

    #[test]
    fn a_missing_command_is_named() {
        let cfg = ServerConfig::stdio("no-such-mcp-server-cmd", vec![]);
        let err = build(&cfg, &MemorySecrets::default()).unwrap_err();
        assert!(
            err.contains("`no-such-mcp-server-cmd` was not found"),
            "{err}"
        );
    }

    #[test]
    fn secrets_are_read_for_the_connection() {
        let store = MemorySecrets::default();
        store.set("mcp/s/header/Authorization", "Bearer t").unwrap();
        let mut cfg = ServerConfig::http("http://127.0.0.1:1/mcp");
        cfg.headers.insert(
            "Authorization".into(),
            ConfigValue::Secret {
                secret: "mcp/s/header/Authorization".into(),
            },
        );
        match build(&cfg, &store).unwrap() {
            ConnectSpec::Http { headers, .. } => assert_eq!(headers["Authorization"], "Bearer t"),
            other => panic!("{other:?}"),
        }
    }
}
