#!/usr/bin/env bash
# Runs a command inside a private D-Bus session with an unlocked gnome-keyring, so the OS
# keychain (Secret Service) works headless, as in CI. With a keychain already on the session
# bus (a desktop), it just runs the command.
# Usage: scripts/with-keyring.sh CMD [ARGS...]
set -euo pipefail
if [[ "${WORKBENCH_IN_KEYRING:-}" == 1 ]]; then exec "$@"; fi
if [[ -n "${DBUS_SESSION_BUS_ADDRESS:-}" ]] && command -v secret-tool >/dev/null \
   && timeout 5 secret-tool search --all workbench probe >/dev/null 2>&1; then
  exec "$@"
fi
export WORKBENCH_IN_KEYRING=1
exec dbus-run-session -- bash -c '
  # A throwaway keyring: its password only unlocks this session'"'"'s test secrets.
  export XDG_DATA_HOME="$(mktemp -d)"
  eval "$(echo -n workbench-session | gnome-keyring-daemon --unlock --components=secrets 2>/dev/null)"
  export GNOME_KEYRING_CONTROL SSH_AUTH_SOCK
  exec "$@"' bash "$@"
