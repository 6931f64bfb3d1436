//! The OS keychain for real: a round trip through the Secret Service, and the error a user sees
//! when there is none.
//!
//! The round trip needs a Secret Service: run under `scripts/with-keyring.sh` (CI does). Outside
//! it, with no keychain, the round trip says so on stderr and passes, unless
//! `WORKBENCH_IN_KEYRING=1` or `WORKBENCH_REQUIRE_KEYCHAIN=1` is set, when it fails.

use std::process::Command;

use workbench_providers::{KeychainError, OsKeychain, SecretStore};

fn keychain_required() -> bool {
    ["WORKBENCH_IN_KEYRING", "WORKBENCH_REQUIRE_KEYCHAIN"]
        .iter()
        .any(|v| std::env::var(v).is_ok_and(|v| v == "1"))
}

#[test]
fn secrets_round_trip_through_the_os_keychain() {
    let kc = OsKeychain::new();
    let account = format!(
        "test:roundtrip:{}:{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0)
    );
    match kc.get(&account) {
        Ok(None) => {}
        Err(KeychainError::Unavailable(detail)) if !keychain_required() => {
            eprintln!("SKIPPED: no OS keychain here ({detail}); run under scripts/with-keyring.sh");
            return;
        }
        other => panic!("a fresh account must be empty, got {other:?}"),
    }
    kc.set(&account, "sk-first").expect("set");
    assert_eq!(kc.get(&account).expect("get"), Some("sk-first".into()));
    kc.set(&account, "sk-second").expect("replace");
    assert_eq!(kc.get(&account).expect("get"), Some("sk-second".into()));
    kc.delete(&account).expect("delete");
    assert_eq!(kc.get(&account).expect("get"), None);
    kc.delete(&account)
        .expect("deleting a missing secret is fine");
}

/// Set in the child process that runs without a reachable session bus.
const CHILD_ENV: &str = "WORKBENCH_KEYCHAIN_UNAVAILABLE_CHILD";
const MARKER: &str = "KEYCHAIN-ERROR: ";

/// The bus address is process-global state that other tests (the round trip) rely on, so it is
/// changed only in a child process: this same test binary, filtered to this one test.
#[test]
fn no_session_bus_means_unavailable_with_a_plain_sentence() {
    if std::env::var_os(CHILD_ENV).is_some() {
        let err = OsKeychain::new()
            .get("test:unavailable")
            .expect_err("no bus, no keychain");
        println!("{MARKER}{err}");
        assert!(matches!(err, KeychainError::Unavailable(_)), "{err:?}");
        return;
    }
    let exe = std::env::current_exe().expect("test binary path");
    let output = Command::new(exe)
        .args([
            "--exact",
            "no_session_bus_means_unavailable_with_a_plain_sentence",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(CHILD_ENV, "1")
        .env(
            "DBUS_SESSION_BUS_ADDRESS",
            "unix:path=/nonexistent/workbench-test-bus",
        )
        .output()
        .expect("run the child test");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "child failed:\n{stdout}\n{stderr}");
    let line = stdout
        .lines()
        .find_map(|l| l.split_once(MARKER).map(|(_, e)| e.to_string()))
        .unwrap_or_else(|| panic!("the child printed no error:\n{stdout}\n{stderr}"));
    assert!(
        line.starts_with("the OS keychain is not available (Secret Service not running?): "),
        "{line}"
    );
}
