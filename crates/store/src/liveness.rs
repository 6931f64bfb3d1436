//! Whether the process that owns a `running` run is still alive.
//!
//! A run row records the owner's pid (and, on Linux, the owner's start time). Runs of this very
//! process are live exactly while a store of this process has begun and not ended or dropped
//! them: that is a process-wide registry, not a per-store set, so that two stores opened by one
//! process on the same file (the app and an embedded CLI, or tests) never declare each other's
//! live runs dead.

use std::collections::HashSet;
use std::sync::{LazyLock, Mutex, PoisonError};

/// Runs begun by a store of this process and neither ended nor dropped since.
static LIVE_RUNS: LazyLock<Mutex<HashSet<String>>> = LazyLock::new(|| Mutex::new(HashSet::new()));

fn live_runs() -> std::sync::MutexGuard<'static, HashSet<String>> {
    // The set is only inserted into and removed from; a panic elsewhere cannot leave it
    // half-updated, so a poisoned lock is still safe to use.
    LIVE_RUNS.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Marks a run as owned by a live store of this process.
pub(crate) fn register(run_id: &str) {
    live_runs().insert(run_id.to_string());
}

/// Marks a run as no longer owned by anything live in this process.
pub(crate) fn unregister(run_id: &str) {
    live_runs().remove(run_id);
}

/// This process's pid and start time, as `begin_run` records them.
pub(crate) fn current_process() -> (i64, Option<i64>) {
    let pid = std::process::id();
    (i64::from(pid), process_start(pid))
}

/// Whether the run `run_id`, recorded as owned by `pid` (started at `proc_start`), may still
/// be streaming. Errs on the side of "alive" when the OS cannot tell: marking a live run
/// interrupted would corrupt it, while leaving a dead one `running` only delays recovery.
pub(crate) fn run_is_live(run_id: &str, pid: i64, proc_start: Option<i64>) -> bool {
    let (own_pid, own_start) = current_process();
    if pid == own_pid {
        if let (Some(recorded), Some(own)) = (proc_start, own_start) {
            if recorded != own {
                // An earlier process that had our pid.
                return false;
            }
        }
        return live_runs().contains(run_id);
    }
    let Ok(pid) = u32::try_from(pid) else {
        return false;
    };
    if pid == 0 {
        return false;
    }
    process_alive(pid, proc_start)
}

#[cfg(target_os = "linux")]
fn process_alive(pid: u32, proc_start: Option<i64>) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => match (proc_start, parse_start_time(&stat)) {
            // Same pid, other start time: the owner died and the pid was reused.
            (Some(recorded), Some(now)) => recorded == now,
            _ => true,
        },
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => false,
        Err(_) => true,
    }
}

#[cfg(all(unix, not(target_os = "linux")))]
fn process_alive(pid: u32, _proc_start: Option<i64>) -> bool {
    // No /proc here; `kill -0` asks the kernel without sending anything.
    match std::process::Command::new("kill")
        .args(["-0", &pid.to_string()])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
    {
        Ok(status) => status.success(),
        Err(_) => true,
    }
}

#[cfg(windows)]
fn process_alive(pid: u32, _proc_start: Option<i64>) -> bool {
    let filter = format!("PID eq {pid}");
    match std::process::Command::new("tasklist")
        .args(["/FI", &filter, "/NH", "/FO", "CSV"])
        .output()
    {
        Ok(out) => String::from_utf8_lossy(&out.stdout).contains(&format!("\"{pid}\"")),
        Err(_) => true,
    }
}

#[cfg(not(any(unix, windows)))]
fn process_alive(_pid: u32, _proc_start: Option<i64>) -> bool {
    true
}

#[cfg(target_os = "linux")]
fn process_start(pid: u32) -> Option<i64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    parse_start_time(&stat)
}

#[cfg(not(target_os = "linux"))]
fn process_start(_pid: u32) -> Option<i64> {
    None
}

/// Field 22 of `/proc/<pid>/stat` (start time in clock ticks since boot). The command name
/// (field 2) may itself hold spaces and parentheses, so counting starts after its last `)`.
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
fn parse_start_time(stat: &str) -> Option<i64> {
    let after_name = &stat[stat.rfind(')')? + 1..];
    // Fields after the name start at field 3 (state); field 22 is 19 further on.
    after_name.split_whitespace().nth(19)?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_time_is_read_after_a_command_name_with_spaces_and_parens() {
        let stat = "4242 (a (weird) name) S 1 4242 4242 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 1 0 987654 123 456";
        assert_eq!(parse_start_time(stat), Some(987_654));
        assert_eq!(parse_start_time("garbage"), None);
    }

    #[test]
    fn impossible_pids_are_dead() {
        assert!(!run_is_live("r", 0, None));
        assert!(!run_is_live("r", -5, None));
        assert!(!run_is_live("r", 0x7fff_fff0, None));
        assert!(!run_is_live("r", i64::MAX, None));
    }

    #[test]
    fn own_runs_are_live_only_while_registered() {
        let (pid, start) = current_process();
        let id = "liveness-test-run";
        assert!(!run_is_live(id, pid, start));
        register(id);
        assert!(run_is_live(id, pid, start));
        unregister(id);
        assert!(!run_is_live(id, pid, start));
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_reused_pid_with_another_start_time_is_dead() {
        let (pid, start) = current_process();
        let start = start.expect("linux exposes the start time");
        let id = "liveness-reused-pid";
        register(id);
        assert!(!run_is_live(id, pid, Some(start + 1)));
        unregister(id);
        // pid 1 is always alive, but not started when we say.
        let init_start = process_start(1);
        if let Some(s) = init_start {
            assert!(process_alive(1, Some(s)));
            assert!(!process_alive(1, Some(s + 1)));
        }
    }
}
