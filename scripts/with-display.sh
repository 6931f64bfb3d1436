#!/usr/bin/env bash
# Runs a command with an X display: the current one if there is one, else a private Xvfb
# that lives as long as the command.
set -euo pipefail
if [[ -n "${DISPLAY:-}" ]]; then exec "$@"; fi
# Pick a free display number so parallel runs do not collide.
for n in $(seq 99 140); do
  [[ -e /tmp/.X11-unix/X$n || -e /tmp/.X$n-lock ]] || break
done
Xvfb ":$n" -screen 0 1280x800x24 -nolisten tcp >/dev/null 2>&1 &
XVFB_PID=$!
trap 'kill $XVFB_PID 2>/dev/null || true' EXIT
for _ in $(seq 50); do [[ -e /tmp/.X11-unix/X$n ]] && break; sleep 0.1; done
export DISPLAY=":$n"
"$@"
